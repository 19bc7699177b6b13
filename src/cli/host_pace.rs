//! `queuelab host pace --url URL --key KEY chapter N | scenario N [MODE] | reveal K |
//! second-vote K`: sends a pacing command to a running session, as the dashboard's c, s, r and
//! w keys do. Numbers are the ones trainees see (chapter 3, decision 2, scenario 5 of
//! `sim --list`).

use super::join_cmd::say;
use super::{Cli, Failure};
use app::dashboard::{PromptKind, prompt};
use clap::Subcommand;
use content::key;
use domain::workshop::{JoinUrl, Pace};
use services::trainee::client::{deadline_in, request};

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
    let url = JoinUrl::parse(url).map_err(|e| Failure::usage(e.to_string()))?;
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
    let body = serde_json::to_vec(&pace).map_err(|e| Failure::new(e.to_string()))?;
    let reply = request(
        &url,
        "POST",
        "/api/pace",
        Some(key),
        &body,
        deadline_in(5_000),
    )
    .and_then(|reply| reply.accepted("host"))
    .map_err(Failure::new)?;
    let stored: Pace = serde_json::from_slice(&reply.body)
        .map_err(|e| Failure::new(format!("the host's answer is not readable: {e}")))?;
    say!("{}", app::dashboard::describe(&content, lang, &stored.kind));
    Ok(())
}
