//! What the line-oriented commands share: loading content, config, store and language, and a
//! small prompt/answer helper over any reader and writer.

use super::{Cli, Failure};
use content::{self, Content, Course, Lang};
use services::store::OpenNote;
use services::{Config, Paths, Store, log};
use std::io::{BufRead, Read, Write};

/// Everything a plain command works with.
pub struct Session {
    /// Resolved paths.
    pub paths: Paths,
    /// The workshop config.
    pub config: Config,
    /// All content.
    pub content: Content,
    /// The language in use.
    pub lang: Lang,
    /// The open progress store.
    pub store: Store,
}

impl Session {
    /// Opens everything the flags select.
    pub fn open(cli: &Cli) -> Result<Session, Failure> {
        let content = content::load(&super::content_source(cli)).map_err(|problems| {
            Failure::new(format!(
                "the content has {} problem(s); run queuelab check for the list",
                problems.len()
            ))
        })?;
        let paths = super::paths(cli)?;
        let config = super::config(&paths)?;
        warn_shared(paths.ensure_data_dir().map_err(Failure::new)?);
        // Logging is best effort: a read-only log file must not stop the quiz.
        let _ = log::init(&paths.log_file());
        let store = open_store(&paths.progress_db())?;
        let saved = store
            .load()
            .map_err(|e| Failure::new(e.to_string()))?
            .language;
        let lang = super::pick_lang(cli.globals.lang, saved, config.workshop.language);
        Ok(Session {
            paths,
            config,
            content,
            lang,
            store,
        })
    }

    /// The course in the session's language.
    pub fn course(&self) -> &Course {
        self.content.course(self.lang)
    }
}

/// Says on stderr (and in the log) that the data folder is readable by others.
pub fn warn_shared(warning: Option<String>) {
    if let Some(warning) = warning {
        log::warn(&warning);
        // Not eprintln!: it panics when stderr is closed; the log has the warning anyway.
        let _ = writeln!(std::io::stderr(), "{warning}");
    }
}

/// Opens the progress store for a command. A busy store is an error (exit 1, nothing moved); a
/// damaged one that was moved aside is said on stderr, never silently.
pub fn open_store(path: &std::path::Path) -> Result<Store, Failure> {
    let (store, note) = Store::open(path).map_err(|e| Failure::new(e.to_string()))?;
    if let OpenNote::Recovered { backup, reason } = note {
        log::warn(&format!(
            "progress store was damaged ({reason}); kept {}",
            backup.display()
        ));
        let _ = writeln!(
            std::io::stderr(),
            "note: {} was damaged ({reason}); a copy was kept at {} and a fresh one started",
            path.display(),
            backup.display()
        );
    }
    Ok(store)
}

/// The longest input line the plain modes accept: answers, addresses and codes are short.
pub const MAX_LINE_BYTES: u64 = 4096;

/// Reads one line of at most [`MAX_LINE_BYTES`]; a longer one is an error, not a memory hog.
pub fn read_line_bounded<R: BufRead>(input: &mut R, line: &mut String) -> Result<usize, Failure> {
    let n = input
        .by_ref()
        .take(MAX_LINE_BYTES + 1)
        .read_line(line)
        .map_err(|e| Failure::new(format!("cannot read standard input: {e}")))?;
    if n as u64 > MAX_LINE_BYTES {
        return Err(Failure::new(format!(
            "an input line is longer than {MAX_LINE_BYTES} bytes; answers, addresses and codes fit in one short line"
        )));
    }
    Ok(n)
}

/// Prompts on a writer and reads answers line by line from a reader.
pub struct Lines<R, W> {
    input: R,
    out: W,
}

impl<R: BufRead, W: Write> Lines<R, W> {
    /// Wraps a reader and a writer.
    pub fn new(input: R, out: W) -> Self {
        Lines { input, out }
    }

    /// Prints one line.
    pub fn say(&mut self, text: &str) -> Result<(), Failure> {
        super::out::to(&mut self.out, text)
    }

    /// Prints `prompt` (no newline) and reads one line; None at end of input.
    pub fn ask(&mut self, prompt: &str) -> Result<Option<String>, Failure> {
        super::out::prompt(&mut self.out, prompt)?;
        let mut line = String::new();
        let n = read_line_bounded(&mut self.input, &mut line)?;
        if n == 0 {
            // End the prompt's line so the next output starts cleanly.
            self.say("")?;
            return Ok(None);
        }
        Ok(Some(line.trim_end_matches(['\r', '\n']).to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_over_4_kb_is_refused_and_one_at_the_limit_is_read() {
        let long = format!("{}\n", "1".repeat(5000));
        let mut lines = Lines::new(long.as_bytes(), Vec::new());
        let Err(Failure::Failed { message, .. }) = lines.ask("? ") else {
            panic!("a 5000-byte line must be refused");
        };
        assert!(message.contains("longer than 4096 bytes"), "{message}");
        let fits = format!("{}\n", "2".repeat(4095));
        let mut lines = Lines::new(fits.as_bytes(), Vec::new());
        assert_eq!(lines.ask("? ").expect("fits").map(|l| l.len()), Some(4095));
    }
}
