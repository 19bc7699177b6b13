//! Pacing: what the instructor asks the room to do next. Each command has an id the host gives
//! in order; a trainee remembers the newest id it has seen, so a command shown once is never
//! shown again however often it is fetched.

use super::Catalog;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Simulator modes a pacing command may name (the ids `sim --mode` accepts).
pub const PACE_MODES: [&str; 3] = ["safe", "naive", "pitfall"];
/// Most pacing commands a host keeps (older ones are of no use to a trainee joining late).
pub const MAX_PACES: usize = 64;

/// What the room is asked to do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum PaceKind {
    /// Open this chapter.
    OpenChapter {
        /// Chapter id.
        chapter: String,
    },
    /// Open this scenario in this mode.
    OpenScenario {
        /// Scenario id.
        scenario: String,
        /// One of [`PACE_MODES`].
        mode: String,
    },
    /// The room may now see how it answered this decision.
    RevealDecision {
        /// Decision id.
        decision: String,
    },
    /// After the room discussed this decision, everybody answers it again (peer instruction's
    /// second vote); the first votes stay as they were.
    SecondVote {
        /// Decision id.
        decision: String,
    },
}

/// A pacing command as the host keeps and serves it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pace {
    /// Ascending id given by the host (1, 2, ...).
    pub id: u64,
    /// When the instructor sent it (Unix ms, host clock).
    pub at_ms: i64,
    /// What it asks.
    #[serde(flatten)]
    pub kind: PaceKind,
}

impl PaceKind {
    /// Checks the ids against the content; the error names the bad value.
    pub fn validate(&self, catalog: &Catalog) -> Result<(), String> {
        match self {
            PaceKind::OpenChapter { chapter } if !catalog.chapters.contains(chapter) => {
                Err(format!("unknown chapter id {chapter:?}"))
            }
            PaceKind::OpenScenario { scenario, .. } if !catalog.scenarios.contains(scenario) => {
                Err(format!("unknown scenario id {scenario:?}"))
            }
            PaceKind::OpenScenario { mode, .. } if !PACE_MODES.contains(&mode.as_str()) => {
                Err(format!(
                    "unknown mode {mode:?}; use one of {}",
                    PACE_MODES.join(", ")
                ))
            }
            PaceKind::RevealDecision { decision } | PaceKind::SecondVote { decision }
                if !catalog.decisions.contains_key(decision) =>
            {
                Err(format!("unknown decision id {decision:?}"))
            }
            _ => Ok(()),
        }
    }
}

/// The host's answer to `GET /api/pace`: the commands after the trainee's newest, and the
/// decisions revealed so far.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PaceReply {
    /// Commands with an id above the one asked for, oldest first.
    pub paces: Vec<Pace>,
    /// Decision ids whose distribution the room may see.
    pub revealed: Vec<String>,
    /// Revealed decision id -> option id -> trainees who chose it (first votes).
    #[serde(default)]
    pub distributions: BTreeMap<String, BTreeMap<String, u32>>,
    /// Decision ids the instructor opened a second vote on, in the order opened.
    #[serde(default)]
    pub second_votes: Vec<String>,
    /// Revealed decision id with a second vote -> option id -> trainees whose second vote it is.
    #[serde(default)]
    pub second_distributions: BTreeMap<String, BTreeMap<String, u32>>,
    /// The decisions whose second vote the host counted for the asking trainee
    /// (`?trainee=ID`), so the card says "saved" after a restart too.
    #[serde(default)]
    pub second_given: Vec<String>,
    /// The session holds right/wrong until the instructor reveals a decision (peer
    /// instruction: the room votes before anyone knows). An older host sends nothing: not held.
    #[serde(default)]
    pub hold_feedback: bool,
    /// The asking trainee's open stuck signal (`?trainee=ID`): None when not stuck, else
    /// whether the instructor acknowledged it.
    #[serde(default)]
    pub stuck: Option<bool>,
}
