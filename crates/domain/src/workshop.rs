//! Workshop sessions as data: the events a joined trainee's facts become, the join URL, the
//! content catalogue the host validates events against, the session summary and the delivery
//! backoff. Pure: ids, clocks and randomness come in from the caller.

pub mod catalog;
pub mod check_digits;
pub mod join_url;
pub mod pace;
pub mod place;
pub mod refusal;
pub mod room_texts;
pub mod screens;
pub mod summary;
pub mod wire;

pub use catalog::Catalog;
pub use check_digits::{DigitsError, check_digits, same_digits};
pub use join_url::{JoinTarget, JoinUrl, JoinUrlError};
pub use pace::{Pace, PaceKind};
pub use refusal::JoinRefusal;
pub use room_texts::RoomTexts;
pub use summary::{Summary, SummaryView};

use super::Fact;
use serde::{Deserialize, Serialize};

/// Longest display name a trainee may use (characters).
pub const MAX_NAME_CHARS: usize = 40;
/// Longest free text of a stuck signal (characters).
pub const MAX_STUCK_CHARS: usize = 200;
/// Longest screen name carried by a stuck signal (characters).
pub const MAX_SCREEN_CHARS: usize = 40;

/// One thing a joined trainee did, as it travels to the host.
// No `deny_unknown_fields` here: serde does not support it together with `flatten`; the
// tagged kind still refuses unknown kinds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    /// Globally unique id (random, made by the trainee): the host's inbox key.
    pub id: String,
    /// The trainee's local sequence number: later facts win over earlier ones whatever order
    /// they arrive in.
    pub n: u64,
    /// When the fact was saved (Unix milliseconds, trainee clock).
    pub at_ms: i64,
    /// What happened.
    #[serde(flatten)]
    pub kind: EventKind,
}

/// What a workshop event says.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum EventKind {
    /// A chapter was read.
    ChapterRead {
        /// Chapter id.
        chapter: String,
    },
    /// A decision was answered (the room counts the trainee's first answer).
    Decision {
        /// Decision id.
        decision: String,
        /// Chosen option id.
        option: String,
    },
    /// A decision was answered while the instructor's second vote on it was open (the room
    /// counts the trainee's first answer of that round).
    SecondVote {
        /// Decision id.
        decision: String,
        /// Chosen option id.
        option: String,
    },
    /// An ordering-game attempt began.
    OrderingAttempt,
    /// A wrong pick in the ordering game.
    OrderingMistake,
    /// The ordering game was solved.
    OrderingSolved,
    /// A simulator scenario was run.
    ScenarioRun {
        /// Scenario id.
        scenario: String,
    },
    /// A quiz question was answered; the host judges it from the content, not the trainee.
    QuizAnswer {
        /// The trainee's attempt number.
        attempt: i64,
        /// Question id.
        question: String,
        /// Chosen option ids.
        options: Vec<String>,
    },
    /// A quiz attempt was finished with this score.
    QuizScore {
        /// The trainee's attempt number.
        attempt: i64,
        /// Right answers.
        score: u32,
    },
    /// The trainee asks for help.
    Stuck {
        /// The screen the trainee is on.
        screen: String,
        /// Optional words.
        text: String,
    },
    /// The trainee is no longer stuck (clears every earlier stuck signal).
    Solved,
    /// The trainee joined the session (or joined it again after leaving): in the room.
    Joined,
    /// The trainee left the session (`leave`): no longer in the room until they join again.
    Left,
    /// A lab's check ran (`queuelab lab check` or the lab screen).
    LabChecked {
        /// Lab id (`02-transactional-outbox`).
        lab: String,
        /// Whether every run kept the invariants.
        passed: bool,
        /// Why it failed: the moment or lab invariant it stopped at (`duplicate-effect`,
        /// `published-without-order`), `broken` for an invariant without either, `cannot-run`
        /// for a file that does not run; empty when it passed.
        reason: String,
    },
}

/// The workshop event a saved fact becomes, if the host cares about it.
pub fn event_for(fact: &Fact) -> Option<EventKind> {
    Some(match fact {
        Fact::ChapterRead(id) => EventKind::ChapterRead {
            chapter: id.clone(),
        },
        Fact::DecisionAnswered { decision, option } => EventKind::Decision {
            decision: decision.clone(),
            option: option.clone(),
        },
        Fact::SecondVote { decision, option } => EventKind::SecondVote {
            decision: decision.clone(),
            option: option.clone(),
        },
        Fact::OrderingAttempt => EventKind::OrderingAttempt,
        Fact::OrderingMistake => EventKind::OrderingMistake,
        Fact::OrderingSolved => EventKind::OrderingSolved,
        Fact::ScenarioRun(id) => EventKind::ScenarioRun {
            scenario: id.clone(),
        },
        Fact::ChecklistTicked { .. }
        | Fact::Position { .. }
        | Fact::LanguageChosen(_)
        | Fact::SimChosen(_) => {
            return None;
        }
    })
}

/// Why a display name for the workshop is refused. The English words are the command line's
/// and the host's answer; the join dialog says it in the learner's language
/// ([`NameRefusal::message`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NameRefusal {
    /// Nothing but spaces.
    #[error("the name is empty; pass --name with the name the instructor sees")]
    Empty,
    /// Longer than [`MAX_NAME_CHARS`] (the trimmed name).
    #[error("the name {0:?} is longer than {MAX_NAME_CHARS} characters")]
    TooLong(String),
    /// Holds a line break, tab or other control character (the trimmed name).
    #[error("the name {0:?} contains control characters")]
    Control(String),
}

impl NameRefusal {
    /// The reason in the language of `strings`.
    pub fn message(&self, strings: &content::Strings) -> String {
        match self {
            NameRefusal::Empty => strings.get(content::key::join::NAME_EMPTY).to_owned(),
            NameRefusal::TooLong(_) => strings.fill(
                content::key::join::NAME_TOO_LONG,
                &[("max", &MAX_NAME_CHARS.to_string())],
            ),
            NameRefusal::Control(_) => strings.get(content::key::join::NAME_CONTROL).to_owned(),
        }
    }
}

/// The display name trimmed, or why it is refused.
pub fn check_name(name: &str) -> Result<String, NameRefusal> {
    let name = name.trim();
    if name.is_empty() {
        return Err(NameRefusal::Empty);
    }
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(NameRefusal::TooLong(name.to_owned()));
    }
    if name.chars().any(char::is_control) {
        return Err(NameRefusal::Control(name.to_owned()));
    }
    Ok(name.to_owned())
}

/// Delay before the next delivery try after `attempts` failed ones (1-based): 500 ms doubling up
/// to 30 s, with equal jitter (`jitter` in `[0, 1)`) so trainees cut off together do not all
/// come back in the same instant when the host returns.
pub fn retry_delay_ms(attempts: u32, jitter: f64) -> i64 {
    const BASE_MS: i64 = 500;
    const MAX_MS: i64 = 30_000;
    let exp = attempts.saturating_sub(1).min(20);
    let backoff = BASE_MS.saturating_mul(1_i64 << exp).min(MAX_MS);
    let half = backoff / 2;
    half + ((backoff - half) as f64 * jitter.clamp(0.0, 1.0)) as i64
}

#[cfg(test)]
mod room_tests;
#[cfg(test)]
mod tests;
