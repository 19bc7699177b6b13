//! The progress store: SQLite in the data directory, WAL, `synchronous=FULL`, one transaction
//! per saved fact, migrations by `user_version`, and a quick check at start that keeps a copy of
//! a damaged file instead of silently losing it.

mod labs;
mod migrations;
mod open;
mod otp;
mod outbox;
mod portable;
mod quiz;
mod retired;
mod workshop;

use domain::{Fact, OrderingRecord, Progress};
use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};
use thiserror::Error;

pub use labs::LabResult;
pub use open::OpenNote;
pub use otp::{NewCode, ReportRequest, address_key};
pub use outbox::{MAIL_LEASE_SECS, NewMail, OutboxMail};
pub use portable::{
    MAX_IMPORT_BYTES, PORTABLE_FORMAT, PORTABLE_VERSION, PortableProgress, QuizAnswerRecord,
    QuizAttemptRecord, parse_portable,
};
pub use quiz::StoredAttempt;
pub use workshop::{Membership, QueuedEvent, now_ms};

/// What can go wrong with the progress store.
#[derive(Debug, Error)]
pub enum StoreError {
    /// SQLite failed.
    #[error("progress store {path}: {source}")]
    Sqlite {
        path: String,
        source: rusqlite::Error,
    },
    /// The file was written by a newer queuelab.
    #[error(
        "progress store {path} has schema version {found}; this queuelab knows up to {known}. Update queuelab or use another --data-dir."
    )]
    TooNew {
        path: String,
        found: i64,
        known: i64,
    },
    /// A file could not be read or written.
    #[error("{path}: {reason}")]
    File { path: String, reason: String },
    /// Another process holds the database lock; waiting or closing it helps, moving it aside
    /// would lose everything.
    #[error("{path} is in use by another queuelab — close it or wait")]
    Busy { path: String },
    /// The integrity check failed or SQLite calls the file corrupt or not a database.
    #[error("{path} is damaged: {reason}")]
    Damaged { path: String, reason: String },
    /// An import file is not a queuelab progress file of a supported version.
    #[error("{path}: {reason}")]
    Import { path: String, reason: String },
}

/// An open progress store.
pub struct Store {
    conn: Connection,
    path: PathBuf,
}

impl Store {
    /// The file this store lives in.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn err(&self, source: rusqlite::Error) -> StoreError {
        open::classify(&self.path, source)
    }

    /// Reads the whole progress.
    pub fn load(&self) -> Result<Progress, StoreError> {
        self.load_inner().map_err(|e| self.err(e))
    }

    fn load_inner(&self) -> rusqlite::Result<Progress> {
        let mut p = Progress::default();
        let mut stmt = self.conn.prepare("SELECT chapter_id FROM chapter_read")?;
        p.chapters_read = stmt
            .query_map([], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        let mut stmt = self
            .conn
            .prepare("SELECT decision_id, option_id FROM decision_answer")?;
        p.decisions = stmt
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<Result<_, _>>()?;
        let mut stmt = self.conn.prepare("SELECT item_id, ticked FROM checklist")?;
        p.checklist = stmt
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<Result<_, _>>()?;
        let mut stmt = self
            .conn
            .prepare("SELECT chapter_id, scroll FROM chapter_position")?;
        p.positions = stmt
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<Result<_, _>>()?;
        if let Some(record) = self
            .conn
            .query_row(
                "SELECT solved, attempts, mistakes FROM ordering_record WHERE id = 1",
                [],
                |r| {
                    Ok(OrderingRecord {
                        solved: r.get(0)?,
                        attempts: r.get(1)?,
                        mistakes: r.get(2)?,
                    })
                },
            )
            .optional()?
        {
            p.ordering = record;
        }
        let mut stmt = self.conn.prepare("SELECT scenario_id FROM scenario_run")?;
        p.scenarios_run = stmt
            .query_map([], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        p.last_chapter = self.setting("last_chapter")?;
        p.language = self
            .setting("language")?
            .and_then(|code| content::Lang::from_code(&code));
        p.simulator = self
            .setting(SIM_CHOICE_KEY)?
            .and_then(|text| domain::SimChoice::decode(&text));
        Ok(p)
    }

    fn setting(&self, key: &str) -> rusqlite::Result<Option<String>> {
        self.conn
            .query_row("SELECT value FROM setting WHERE key = ?1", [key], |r| {
                r.get(0)
            })
            .optional()
    }

    /// Saves one fact in its own transaction.
    pub fn save(&mut self, fact: &Fact) -> Result<(), StoreError> {
        let now = now_secs();
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| StoreError::Sqlite {
                path: self.path.display().to_string(),
                source: e,
            })?;
        let result = match fact {
            Fact::ChapterRead(id) => tx
                .execute("INSERT INTO chapter_read (chapter_id, read_at) VALUES (?1, ?2) ON CONFLICT DO NOTHING", params![id, now])
                .map(drop),
            Fact::DecisionAnswered { decision, option }
            | Fact::SecondVote { decision, option } => tx
                .execute(
                    "INSERT INTO decision_answer (decision_id, option_id, answered_at) VALUES (?1, ?2, ?3)
                     ON CONFLICT (decision_id) DO UPDATE SET option_id = excluded.option_id, answered_at = excluded.answered_at",
                    params![decision, option, now],
                )
                .map(drop),
            Fact::ChecklistTicked { item, ticked } => tx
                .execute(
                    "INSERT INTO checklist (item_id, ticked, updated_at) VALUES (?1, ?2, ?3)
                     ON CONFLICT (item_id) DO UPDATE SET ticked = excluded.ticked, updated_at = excluded.updated_at",
                    params![item, ticked, now],
                )
                .map(drop),
            Fact::Position { chapter, scroll } => tx
                .execute(
                    "INSERT INTO chapter_position (chapter_id, scroll) VALUES (?1, ?2)
                     ON CONFLICT (chapter_id) DO UPDATE SET scroll = excluded.scroll",
                    params![chapter, scroll],
                )
                .and_then(|_| put_setting(&tx, "last_chapter", chapter)),
            Fact::LanguageChosen(lang) => put_setting(&tx, "language", lang.code()),
            Fact::SimChosen(choice) => put_setting(&tx, SIM_CHOICE_KEY, &choice.encode()),
            Fact::OrderingAttempt => bump_ordering(&tx, "attempts = attempts + 1"),
            Fact::OrderingMistake => bump_ordering(&tx, "mistakes = mistakes + 1"),
            Fact::OrderingSolved => bump_ordering(&tx, "solved = 1"),
            Fact::ScenarioRun(id) => tx
                .execute(
                    "INSERT INTO scenario_run (scenario_id, first_run_at) VALUES (?1, ?2) ON CONFLICT DO NOTHING",
                    params![id, now],
                )
                .map(drop),
        };
        // While joined, the fact's workshop event commits with the fact or not at all.
        let result = result.and_then(|()| match domain::workshop::event_for(fact) {
            Some(kind) => workshop::enqueue(&tx, &kind),
            None => Ok(()),
        });
        result.and_then(|()| tx.commit()).map_err(|e| self.err(e))
    }

    /// Deletes everything about the learner in one transaction, then the traces: free pages,
    /// the WAL, and the copies of damaged stores.
    pub fn clear(&mut self) -> Result<(), StoreError> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| StoreError::Sqlite {
                path: self.path.display().to_string(),
                source: e,
            })?;
        let result = migrations::LEARNER_TABLES
            .iter()
            .try_for_each(|table| tx.execute(&format!("DELETE FROM {table}"), []).map(drop))
            .and_then(|()| tx.commit());
        result.map_err(|e| self.err(e))?;
        // Deleted rows may linger in free pages; VACUUM makes "deleted" mean deleted. In WAL
        // mode the old pages also sit in the -wal file until a checkpoint: copy them back and
        // truncate it now, not when the TUI exits.
        self.conn.execute_batch("VACUUM").map_err(|e| self.err(e))?;
        self.conn
            .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))
            .map_err(|e| self.err(e))?;
        // Copies of a damaged store hold the same personal data.
        open::delete_damaged_copies(&self.path).map(drop)
    }

    /// Copies kept from damaged stores next to this one (oldest first).
    pub fn damaged_copies(&self) -> Vec<PathBuf> {
        open::damaged_copies(&self.path)
    }

    /// Deletes the copies kept from damaged stores (with their WAL files); returns what was
    /// deleted. Nothing else in the folder is touched.
    pub fn delete_damaged_copies(&self) -> Result<Vec<PathBuf>, StoreError> {
        open::delete_damaged_copies(&self.path)
    }

    /// Runs SQLite's full integrity check ("ok" when healthy).
    pub fn integrity_check(&self) -> Result<String, StoreError> {
        self.conn
            .query_row("PRAGMA integrity_check", [], |r| r.get(0))
            .map_err(|e| self.err(e))
    }
}

/// Changes the single ordering row (created on first use) with a fixed `SET` clause.
fn bump_ordering(tx: &rusqlite::Transaction<'_>, set: &'static str) -> rusqlite::Result<()> {
    tx.execute(
        "INSERT INTO ordering_record (id) VALUES (1) ON CONFLICT DO NOTHING",
        [],
    )?;
    tx.execute(
        &format!("UPDATE ordering_record SET {set} WHERE id = 1"),
        [],
    )
    .map(drop)
}

/// The `setting` key of the simulator's last scenario, mode and broker.
pub(super) const SIM_CHOICE_KEY: &str = "simulator";

pub(super) fn put_setting(
    tx: &rusqlite::Transaction<'_>,
    key: &str,
    value: &str,
) -> rusqlite::Result<()> {
    tx.execute(
        "INSERT INTO setting (key, value) VALUES (?1, ?2) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        params![key, value],
    )
    .map(drop)
}

/// The wall clock in Unix seconds (the store stamps rows with it).
pub fn now_secs() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

#[cfg(test)]
mod tests;
