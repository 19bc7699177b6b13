//! What the line-oriented commands share: loading content, config, store and language, and a
//! small prompt/answer helper over any reader and writer.

use super::{Cli, Failure};
use crate::content::{self, Content, Course, Lang};
use crate::services::store::OpenNote;
use crate::services::{Config, Paths, Store, log};
use std::io::{BufRead, Write};

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
        paths.ensure_data_dir().map_err(Failure::new)?;
        // Logging is best effort: a read-only log file must not stop the quiz.
        let _ = log::init(&paths.log_file());
        let store = open_store(&paths.progress_db())?;
        let saved = store
            .load()
            .map_err(|e| Failure::new(e.to_string()))?
            .language;
        let lang = super::pick_lang(cli.lang, saved, config.workshop.language);
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

/// Opens the progress store for a command. A busy store is an error (exit 1, nothing moved); a
/// damaged one that was moved aside is said on stderr, never silently.
pub fn open_store(path: &std::path::Path) -> Result<Store, Failure> {
    let (store, note) = Store::open(path).map_err(|e| Failure::new(e.to_string()))?;
    if let OpenNote::Recovered { backup, reason } = note {
        log::warn(&format!(
            "progress store was damaged ({reason}); kept {}",
            backup.display()
        ));
        eprintln!(
            "note: {} was damaged ({reason}); a copy was kept at {} and a fresh one started",
            path.display(),
            backup.display()
        );
    }
    Ok(store)
}

/// Prompts on a writer and reads answers line by line from a reader.
pub struct Lines<R, W> {
    input: R,
    out: W,
}

fn write_failed(e: &std::io::Error) -> Failure {
    Failure::new(format!("cannot write to standard output: {e}"))
}

impl<R: BufRead, W: Write> Lines<R, W> {
    /// Wraps a reader and a writer.
    pub fn new(input: R, out: W) -> Self {
        Lines { input, out }
    }

    /// Prints one line.
    pub fn say(&mut self, text: &str) -> Result<(), Failure> {
        writeln!(self.out, "{text}").map_err(|e| write_failed(&e))
    }

    /// Prints `prompt` (no newline) and reads one line; None at end of input.
    pub fn ask(&mut self, prompt: &str) -> Result<Option<String>, Failure> {
        write!(self.out, "{prompt}")
            .and_then(|()| self.out.flush())
            .map_err(|e| write_failed(&e))?;
        let mut line = String::new();
        let n = self
            .input
            .read_line(&mut line)
            .map_err(|e| Failure::new(format!("cannot read standard input: {e}")))?;
        if n == 0 {
            // End the prompt's line so the next output starts cleanly.
            self.say("")?;
            return Ok(None);
        }
        Ok(Some(line.trim_end_matches(['\r', '\n']).to_owned()))
    }
}
