//! `queuelab host pace --url URL --key KEY chapter N | scenario N [MODE] | reveal K |
//! second-vote K`: sends a pacing command to a running session, as the dashboard's c, s, r and
//! w keys do. Numbers are the ones trainees see (chapter 3, decision 2, scenario 5 of
//! `sim --list`).

use super::host_cmd::{host_at, host_failure};
use super::join_cmd::say;
use super::{Cli, Failure};
use app::dashboard::{PromptKind, prompt};
use clap::Subcommand;
use content::key;

/// What to ask the room.
#[derive(Debug, Clone, Subcommand)]
pub enum PaceWhat {
    /// Open chapter N.
    Chapter {
        /// Chapter number (1-based).
        n: String,
    },
    /// Open scenario N (number or id) in a mode (safe, naive, pitfall or the simulator's
    /// German words sicher, naiv, Falle; default safe).
    Scenario {
        /// Scenario number of `sim --list`, or its id.
        scenario: String,
        /// safe, naive or pitfall (also sicher, naiv, Falle).
        mode: Option<String>,
    },
    /// Reveal decision K's distribution to the room.
    Reveal {
        /// Decision number (1-based).
        k: String,
    },
    /// Open a second vote on decision K: after the discussion everybody answers it again;
    /// the first votes stay, and the reveal shows both.
    SecondVote {
        /// Decision number (1-based).
        k: String,
    },
}

/// Sends the command; prints what the host stored.
pub fn run(cli: &Cli, url: &str, key: &str, what: &PaceWhat) -> Result<(), Failure> {
    let host = host_at(url)?;
    let content = super::load_content(cli)?;
    let (kind, text) = match what {
        PaceWhat::Chapter { n } => (PromptKind::Chapter, n.clone()),
        PaceWhat::Reveal { k } => (PromptKind::Reveal, k.clone()),
        PaceWhat::SecondVote { k } => (PromptKind::SecondVote, k.clone()),
        PaceWhat::Scenario { scenario, mode } => (
            PromptKind::Scenario,
            format!("{scenario} {}", mode.as_deref().unwrap_or("safe")),
        ),
    };
    // The instructor's language, for the refusal and for the sentence that says what was sent.
    let lang = super::pick_lang(
        cli.globals.lang,
        None,
        super::config(&super::paths(cli)?)?.workshop.language,
    );
    let strings = &content.course(lang).strings;
    let pace = prompt::parse(kind, &text, &content).map_err(|(key, value)| {
        // The dashboard's words for a mode; a number the command line names its own way.
        let key = if key == key::dash::BAD_MODE {
            key
        } else {
            key::host::PACE_BAD
        };
        Failure::usage(strings.fill(key, &[("value", &value)]))
    })?;
    let stored = host.pace(key, &pace).map_err(|e| host_failure(cli, &e))?;
    say!("{}", app::dashboard::describe(&content, lang, &stored.kind));
    Ok(())
}
