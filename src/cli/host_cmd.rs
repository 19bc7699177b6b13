//! `queuelab host`: run a workshop session (headless: prints the join URL and the instructor
//! key, stops cleanly on Ctrl+C or SIGTERM); `host status` prints a running session's summary;
//! `host kick` removes a trainee from it; `host export` writes the summary of the session in the data folder as CSV and HTML.

use super::args::{HostAction, HostArgs};
use super::join_cmd::say;
use super::{Cli, Failure};
use content::key;
use domain::workshop::wire::RefusedAt;
use domain::workshop::{JoinUrl, SummaryView};
use services::host::HostState;
use services::{HostClient, HostError};

/// Runs `queuelab host ...`.
pub fn run(cli: &Cli, args: &HostArgs) -> Result<(), Failure> {
    match &args.action {
        Some(HostAction::Status { url, key, json }) => status(cli, url, &key.resolve()?, *json),
        Some(HostAction::Export { out }) => export(cli, out),
        Some(HostAction::Kick {
            url,
            key,
            who,
            silent,
            yes,
        }) => match who {
            Some(who) if !*silent => kick(cli, url, &key.resolve()?, who),
            _ => super::host_door::kick_silent(cli, url, &key.resolve()?, *yes),
        },
        Some(HostAction::Lock { url, key }) => {
            super::host_door::lock(cli, url, &key.resolve()?, true)
        }
        Some(HostAction::Unlock { url, key }) => {
            super::host_door::lock(cli, url, &key.resolve()?, false)
        }
        Some(HostAction::Pace { url, key, what }) => {
            super::host_pace::run(cli, url, &key.resolve()?, what)
        }
        None => super::host_serve::run(cli, &args.serve),
    }
}

/// The client of the host of `url` (the join URL), for an instructor's command.
pub(super) fn host_at(url: &str) -> Result<HostClient, Failure> {
    JoinUrl::parse(url)
        .map(HostClient::new)
        .map_err(|e| Failure::usage(e.to_string()))
}

/// A failed call to the host as the command's failure; a host of another protocol is named in
/// the instructor's language with the version to install.
pub(super) fn host_failure(cli: &Cli, e: &HostError) -> Failure {
    if !matches!(e, HostError::Version(_)) {
        return Failure::new(e.to_string());
    }
    let Ok(content) = super::load_content(cli) else {
        return Failure::new(e.to_string());
    };
    let configured = super::paths(cli)
        .and_then(|paths| super::config(&paths))
        .ok()
        .and_then(|config| config.workshop.language);
    let lang = super::pick_lang(cli.globals.lang, None, configured);
    host_failure_in(&content.course(lang).strings, e)
}

/// A failed call to the host as a failure worded with `strings` where it is the user's to act
/// on (a host of another protocol).
pub(super) fn host_failure_in(strings: &content::Strings, e: &HostError) -> Failure {
    match e {
        HostError::Version(refusal) => Failure::new(refusal.message(strings, RefusedAt::Host)),
        _ => Failure::new(e.to_string()),
    }
}

fn status(cli: &Cli, url: &str, key: &str, json: bool) -> Result<(), Failure> {
    let (view, text) = host_at(url)?
        .summary(key)
        .map_err(|e| host_failure(cli, &e))?;
    if json {
        say!("{text}");
        return Ok(());
    }
    let content = super::load_content(cli)?;
    let lang = super::pick_lang(cli.globals.lang, None, None);
    print_summary(&view, &content.course(lang).strings);
    Ok(())
}

fn kick(cli: &Cli, url: &str, key: &str, who: &str) -> Result<(), Failure> {
    let kicked = host_at(url)?
        .kick(key, who, true)
        .map_err(|e| host_failure(cli, &e))?;
    say!(
        "removed {} ({}), {} events deleted",
        kicked.name,
        kicked.id,
        kicked.events
    );
    Ok(())
}

/// The summary as lines in the learner's language (`--lang`).
fn print_summary(view: &SummaryView, s: &content::Strings) {
    say!(
        "{}",
        s.fill(
            key::host::STATUS_SESSION,
            &[("name", &view.session), ("date", &view.date)]
        )
    );
    let n = view.trainees.len().to_string();
    let (in_room, active) = view.presence_counts(view.now_ms);
    say!(
        "{}",
        s.fill(
            key::host::STATUS_TRAINEES,
            &[
                ("n", &n),
                ("in_room", &in_room.to_string()),
                ("active", &active.to_string())
            ]
        )
    );
    for t in &view.trainees {
        let figures = s.fill(
            key::host::STATUS_TRAINEE,
            &[
                ("chapters", &t.chapters_read.to_string()),
                ("decisions", &t.decisions_answered().to_string()),
                ("correct", &t.quiz.correct.to_string()),
                ("answered", &t.quiz.answered.to_string()),
                ("level", t.level.as_deref().unwrap_or("-")),
                ("screen", t.screen.as_deref().unwrap_or("-")),
                ("presence", s.get(t.presence(view.now_ms).key())),
            ],
        );
        let stuck = if t.stuck {
            format!("  {}", s.get(key::host::STATUS_STUCK))
        } else {
            String::new()
        };
        say!("  {:<20} {figures}{stuck}", t.name);
    }
    let (events, duplicates) = (view.events.to_string(), view.duplicates.to_string());
    say!(
        "{}",
        s.fill(
            key::host::STATUS_EVENTS,
            &[("events", &events), ("duplicates", &duplicates)]
        )
    );
    if let Some(r) = &view.relay {
        say!(
            "{}",
            s.fill(
                key::host::STATUS_RELAY,
                &[
                    ("queued", &r.queued.to_string()),
                    ("sent", &r.sent.to_string()),
                    ("retrying", &r.retrying.to_string()),
                    ("failed", &r.failed.to_string()),
                ]
            )
        );
    } else {
        say!("{}", s.get(key::host::STATUS_RELAY_OFF));
    }
}

fn export(cli: &Cli, out: &std::path::Path) -> Result<(), Failure> {
    let paths = super::paths(cli)?;
    if !paths.data_dir.join(HostState::DB_FILE).exists() {
        return Err(Failure::usage(format!(
            "no workshop session in {}; run queuelab host there first (or pass --data-dir)",
            paths.data_dir.display()
        )));
    }
    let content = super::load_content(cli)?;
    let state = HostState::open(&paths.data_dir, None, &content).map_err(Failure::new)?;
    // The session's language unless --lang asks for another (the config's for a session
    // never served).
    let config = super::config(&paths)?;
    let lang = super::pick_lang(
        cli.globals.lang,
        state.stored_lang(),
        config.workshop.language,
    );
    let state = state.with_lang(lang);
    let view = state.summary().map_err(|e| Failure::new(e.to_string()))?;
    let texts = state.texts();
    for path in services::host::export::write_all(&view, texts, out).map_err(Failure::new)? {
        say!("{}", path.display());
    }
    Ok(())
}
