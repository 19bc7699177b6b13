//! The learner's progress and the facts that change it. Every fact is saved in its own
//! transaction the moment it happens, so a kill loses nothing that was shown as saved.

use crate::content::Lang;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

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
    /// A checklist item was ticked or unticked.
    ChecklistTicked { item: String, ticked: bool },
    /// The reader's position in a chapter (also the resume point).
    Position { chapter: String, scroll: u32 },
    /// The language preference changed.
    LanguageChosen(Lang),
}

impl Progress {
    /// Applies a fact to the in-memory progress (the store applies it to disk).
    pub fn apply(&mut self, fact: &Fact) {
        match fact {
            Fact::ChapterRead(id) => {
                self.chapters_read.insert(id.clone());
            }
            Fact::DecisionAnswered { decision, option } => {
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
