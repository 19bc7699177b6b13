//! The default command: the interactive workshop.

use super::{Cli, Failure};
use crate::app::{App, Info, Options, QuizRecord};
use crate::content;
use crate::services::store::{OpenNote, StoreError};
use crate::services::{Store, log};
use std::io::IsTerminal;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

/// The message for a non-interactive start (SPEC 5: exit 2 and name the other commands).
pub const NOT_A_TERMINAL: &str = "the workshop needs an interactive terminal. Non-interactive commands: queuelab check, queuelab reset --yes, queuelab progress export|import FILE, queuelab quiz --plain, queuelab report --plain, queuelab mail status|retry, queuelab sim --list|--scenario ID, queuelab export map --out DIR, queuelab share (see queuelab --help)";

/// Starts the TUI after checking there is a terminal to draw on.
pub fn run(cli: &Cli) -> Result<(), Failure> {
    if !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal() {
        return Err(Failure::usage(NOT_A_TERMINAL));
    }
    let source = super::content_source(cli);
    let paths = super::paths(cli)?;
    let shared = paths.ensure_data_dir().map_err(Failure::new)?;
    let _ = log::init(&paths.log_file());
    let config = super::config(&paths)?;
    // Parsing the content and opening SQLite (check, migrations, durable commits) take about
    // the same time and share nothing: do them side by side to reach the first frame sooner.
    let db = paths.progress_db();
    let (content, opened) = std::thread::scope(|scope| {
        let store = scope.spawn(|| open_waiting(&db));
        let content = content::load(&source);
        (content, store.join())
    });
    let content = content.map_err(|problems| {
        let first = problems
            .first()
            .map(ToString::to_string)
            .unwrap_or_default();
        Failure::new(format!(
            "{} content problem(s), first: {first} (run queuelab check for all)",
            problems.len()
        ))
    })?;
    let (store, note) = opened
        .map_err(|_| Failure::new("opening the progress store failed unexpectedly"))?
        .map_err(|e| Failure::new(e.to_string()))?;
    let progress = store.load().map_err(|e| Failure::new(e.to_string()))?;
    let lang = super::pick_lang(cli.lang, progress.language, config.workshop.language);
    let options = Options {
        ascii: cli.ascii,
        mouse: !cli.no_mouse,
        reduced_motion: cli.reduced_motion,
        no_color: std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()),
    };
    let info = Info {
        data_dir: paths.data_dir.display().to_string(),
        config: paths
            .config_file
            .as_ref()
            .or(paths.default_config.as_ref())
            .map_or_else(|| "-".to_owned(), |p| p.display().to_string()),
        log: paths.log_file().display().to_string(),
        workshop: config.workshop.name.clone(),
    };
    let mut app = App::new(Arc::new(content), lang, progress, options, info);
    app.session.map = crate::app::MapSetup::new(config.workshop.map_url.clone(), config.share.port);
    app.session
        .instructor_cc
        .clone_from(&config.workshop.instructor_cc);
    app.session
        .calc_currency
        .clone_from(&config.workshop.currency);
    if let Some(stored) = store
        .latest_attempt()
        .map_err(|e| Failure::new(e.to_string()))?
    {
        app.session.quiz = QuizRecord {
            finished: stored.finished_score.is_some(),
            attempt: Some(stored.attempt),
        };
    }
    app.session.report_status = store
        .report_mail_status()
        .map_err(|e| Failure::new(e.to_string()))?;
    if let OpenNote::Recovered { backup, reason } = note {
        log::warn(&format!(
            "progress store was damaged ({reason}); kept {}",
            backup.display()
        ));
        let text = app.session.strings().fill(
            "store.recovered",
            &[("path", &backup.display().to_string())],
        );
        app.session.notify(text, true);
    }
    if let Some(warning) = shared {
        log::warn(&warning);
        // The status line has one row; Settings shows the folder's path.
        let text = app.session.strings().get("store.shared_folder").to_owned();
        app.session.notify(text, true);
    }
    log::info(&format!(
        "start: lang={lang} data_dir={}",
        paths.data_dir.display()
    ));
    crate::runtime::run(app, store, options.mouse, (paths, config)).map_err(Failure::new)
}

/// Opens the store; while another queuelab holds it, says so on the terminal and waits (the
/// learner closes the other one or presses Ctrl+C) instead of taking it for damaged.
fn open_waiting(db: &Path) -> Result<(Store, OpenNote), StoreError> {
    let mut told = false;
    loop {
        match Store::open(db) {
            Err(err @ StoreError::Busy { .. }) => {
                if !told {
                    log::warn(&err.to_string());
                    eprintln!("{err}. Waiting… (Ctrl+C to stop)");
                    told = true;
                }
                std::thread::sleep(Duration::from_secs(1));
            }
            other => return other,
        }
    }
}
