//! The learner's progress and the facts that change it. Every fact is saved in its own
//! transaction the moment it happens, so a kill loses nothing that was shown as saved.

use content::Lang;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// How many chapters of the course count as read: each of `course_chapters` once when `read`
/// holds its id (an id the course no longer has does not count). The trainee's Home, the
/// header and the host's Room table count by this one rule.
pub fn chapters_read_count<'a>(
    course_chapters: impl IntoIterator<Item = &'a str>,
    read: &BTreeSet<String>,
) -> u32 {
    let n = course_chapters
        .into_iter()
        .filter(|id| read.contains(*id))
        .count();
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// What the learner has done so far.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Progress {
    /// Ids of chapters read to the end (or left with "next").
    pub chapters_read: BTreeSet<String>,
    /// Decision id -> chosen option id.
    pub decisions: BTreeMap<String, String>,
    /// Checklist item id -> ticked.
    pub checklist: BTreeMap<String, bool>,
    /// Chapter id -> remembered scroll offset (lines).
    pub positions: BTreeMap<String, u32>,
    /// The chapter the learner was last in ("continue where I left off").
    pub last_chapter: Option<String>,
    /// The ordering game record.
    pub ordering: OrderingRecord,
    /// Simulator scenario ids run at least once.
    pub scenarios_run: BTreeSet<String>,
    /// The language picked in Settings (overrides the locale, not `--lang`).
    pub language: Option<Lang>,
    /// The simulator's last scenario, mode and broker (the screen opens on them).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub simulator: Option<SimChoice>,
}

/// The simulator's last scenario, mode and broker, as the language-free names of the CLI
/// (`lost-ack`, `naive`, `asb`): the screen checks them against the loaded content and the
/// engine's names when it opens, so an unknown name simply falls back to the defaults.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SimChoice {
    /// Scenario id.
    pub scenario: String,
    /// Mode name (`safe`, `naive`, `pitfall`).
    pub mode: String,
    /// Broker name (`asb`, `sqs`).
    pub broker: String,
}

impl SimChoice {
    /// The one-line form the store keeps (`lost-ack naive asb`).
    pub fn encode(&self) -> String {
        format!("{} {} {}", self.scenario, self.mode, self.broker)
    }

    /// Reads the one-line form; `None` unless it has exactly three words.
    pub fn decode(text: &str) -> Option<SimChoice> {
        let mut words = text.split_whitespace();
        let choice = SimChoice {
            scenario: words.next()?.to_owned(),
            mode: words.next()?.to_owned(),
            broker: words.next()?.to_owned(),
        };
        words.next().is_none().then_some(choice)
    }
}

/// Attempts and mistakes of the ordering game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct OrderingRecord {
    /// Whether it was solved at least once.
    pub solved: bool,
    /// Attempts started.
    pub attempts: u32,
    /// Wrong picks over all attempts.
    pub mistakes: u32,
}

/// One thing that happened and must be saved at once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fact {
    /// A chapter was read.
    ChapterRead(String),
    /// A decision was answered (the first answer counts; a later one replaces it).
    DecisionAnswered { decision: String, option: String },
    /// A decision was answered during the instructor's second vote on it: the trainee's
    /// answer, like [`Fact::DecisionAnswered`], that the room counts as the second vote.
    SecondVote { decision: String, option: String },
    /// A checklist item was ticked or unticked.
    ChecklistTicked { item: String, ticked: bool },
    /// The reader's position in a chapter (also the resume point).
    Position { chapter: String, scroll: u32 },
    /// The language preference changed.
    LanguageChosen(Lang),
    /// An attempt of the ordering game began (its first pick).
    OrderingAttempt,
    /// A wrong pick in the ordering game.
    OrderingMistake,
    /// The ordering game was solved.
    OrderingSolved,
    /// A simulator scenario was run (started) at least once.
    ScenarioRun(String),
    /// The simulator's scenario, mode or broker changed (remembered for the next start).
    SimChosen(SimChoice),
}

impl Progress {
    /// Applies a fact to the in-memory progress (the store applies it to disk).
    pub fn apply(&mut self, fact: &Fact) {
        match fact {
            Fact::ChapterRead(id) => {
                self.chapters_read.insert(id.clone());
            }
            Fact::DecisionAnswered { decision, option } | Fact::SecondVote { decision, option } => {
                self.decisions.insert(decision.clone(), option.clone());
            }
            Fact::ChecklistTicked { item, ticked } => {
                self.checklist.insert(item.clone(), *ticked);
            }
            Fact::Position { chapter, scroll } => {
                self.positions.insert(chapter.clone(), *scroll);
                self.last_chapter = Some(chapter.clone());
            }
            Fact::LanguageChosen(lang) => self.language = Some(*lang),
            Fact::OrderingAttempt => self.ordering.attempts += 1,
            Fact::OrderingMistake => self.ordering.mistakes += 1,
            Fact::OrderingSolved => self.ordering.solved = true,
            Fact::ScenarioRun(id) => {
                self.scenarios_run.insert(id.clone());
            }
            Fact::SimChosen(choice) => self.simulator = Some(choice.clone()),
        }
    }

    /// How many checklist items are ticked.
    pub fn checklist_ticked(&self) -> usize {
        self.checklist.values().filter(|t| **t).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facts_update_progress() {
        let mut p = Progress::default();
        p.apply(&Fact::ChapterRead("outbox".into()));
        p.apply(&Fact::DecisionAnswered {
            decision: "d".into(),
            option: "a".into(),
        });
        p.apply(&Fact::DecisionAnswered {
            decision: "d".into(),
            option: "b".into(),
        });
        p.apply(&Fact::Position {
            chapter: "inbox".into(),
            scroll: 12,
        });
        p.apply(&Fact::ChecklistTicked {
            item: "x".into(),
            ticked: true,
        });
        assert!(p.chapters_read.contains("outbox"));
        assert_eq!(p.decisions["d"], "b");
        assert_eq!(p.last_chapter.as_deref(), Some("inbox"));
        assert_eq!(p.positions["inbox"], 12);
        assert_eq!(p.checklist_ticked(), 1);
        p.apply(&Fact::OrderingAttempt);
        p.apply(&Fact::OrderingMistake);
        p.apply(&Fact::OrderingMistake);
        p.apply(&Fact::OrderingSolved);
        p.apply(&Fact::ScenarioRun("lost-ack".into()));
        p.apply(&Fact::ScenarioRun("lost-ack".into()));
        assert_eq!(
            p.ordering,
            OrderingRecord {
                solved: true,
                attempts: 1,
                mistakes: 2
            }
        );
        assert_eq!(p.scenarios_run.len(), 1);
    }

    #[test]
    fn the_simulator_choice_round_trips_and_rejects_other_shapes() {
        let choice = SimChoice {
            scenario: "lost-ack".into(),
            mode: "naive".into(),
            broker: "sqs".into(),
        };
        assert_eq!(choice.encode(), "lost-ack naive sqs");
        assert_eq!(SimChoice::decode(&choice.encode()), Some(choice.clone()));
        assert_eq!(SimChoice::decode("lost-ack naive"), None);
        assert_eq!(SimChoice::decode("a b c d"), None);
        let mut p = Progress::default();
        p.apply(&Fact::SimChosen(choice.clone()));
        assert_eq!(p.simulator, Some(choice));
    }

    #[test]
    fn serde_round_trip_and_unknown_fields_rejected() {
        let mut p = Progress::default();
        p.apply(&Fact::LanguageChosen(Lang::De));
        let json = serde_json::to_string(&p).expect("serialise");
        assert_eq!(serde_json::from_str::<Progress>(&json).expect("parse"), p);
        assert!(serde_json::from_str::<Progress>(r#"{"bogus": 1}"#).is_err());
    }
}
