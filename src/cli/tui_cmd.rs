//! The default command: the interactive workshop.

use super::{Cli, Failure};
use app::{App, Info, Options};
use domain::Progress;
use std::io::IsTerminal;
use std::sync::Arc;

/// The message for a non-interactive start, which exits 2: it names the commands that need no
/// terminal.
pub const NOT_A_TERMINAL: &str = "the workshop needs an interactive terminal. Non-interactive commands: queuelab check, queuelab reset --yes, queuelab progress export|import FILE, queuelab quiz --plain, queuelab report --plain, queuelab mail status|retry, queuelab sim --list|--scenario ID, queuelab export map --out DIR, queuelab share (see queuelab --help)";

/// Starts the TUI after checking there is a terminal to draw on.
pub fn run(cli: &Cli) -> Result<(), Failure> {
    if !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal() {
        return Err(Failure::usage(NOT_A_TERMINAL));
    }
    let source = super::content_source(cli);
    let paths = super::paths(cli)?;
    // The signals that end the workshop are caught from here on; the runtime, the data folder
    // and the log are set up after the first frame.
    let setup = crate::runtime::LoopSetup::start().map_err(Failure::new)?;
    let config = super::config(&paths)?;
    // The first frame waits for neither the other language's content nor the progress store
    // (integrity check, migrations): the store opens on its thread and its contents arrive
    // as a message. The saved language is only known then; it replaces this choice if the
    // learner picked one and `--lang` did not.
    let lang = super::pick_lang(cli.globals.lang, None, config.workshop.language);
    let content = content::load_shown(&source, lang).map_err(|problems| {
        let first = problems
            .first()
            .map(ToString::to_string)
            .unwrap_or_default();
        Failure::new(format!(
            "{} content problem(s), first: {first} (run queuelab check for all)",
            problems.len()
        ))
    })?;
    let options = Options {
        ascii: cli.globals.ascii,
        mouse: !cli.globals.no_mouse,
        reduced_motion: cli.globals.reduced_motion,
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
    let mut app = App::new(Arc::new(content), lang, Progress::default(), options, info);
    app.session.lang_from_flag = cli.globals.lang.is_some();
    app.session.await_store();
    app.session.map = app::MapSetup::new(config.workshop.map_url.clone(), config.share.port);
    app.session
        .instructor_cc
        .clone_from(&config.workshop.instructor_cc);
    app.session
        .calc_currency
        .clone_from(&config.workshop.currency);
    crate::runtime::run(app, options.mouse, setup, (paths, config)).map_err(Failure::new)
}
