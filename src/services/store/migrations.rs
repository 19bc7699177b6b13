//! Schema migrations by `PRAGMA user_version`: each entry upgrades from the previous version in
//! one transaction. Append new entries; never edit an old one.

use rusqlite::{Connection, TransactionBehavior};

/// Tables that hold facts about the learner ("clear results" empties all of them).
pub const LEARNER_TABLES: [&str; 5] = [
    "chapter_read",
    "decision_answer",
    "checklist",
    "chapter_position",
    "setting",
];

const MIGRATIONS: &[&str] = &[
    // 1: chapters, decisions, checklist, reading positions, settings.
    "CREATE TABLE chapter_read (chapter_id TEXT PRIMARY KEY, read_at INTEGER NOT NULL);
     CREATE TABLE decision_answer (decision_id TEXT PRIMARY KEY, option_id TEXT NOT NULL, answered_at INTEGER NOT NULL);
     CREATE TABLE checklist (item_id TEXT PRIMARY KEY, ticked INTEGER NOT NULL, updated_at INTEGER NOT NULL);
     CREATE TABLE chapter_position (chapter_id TEXT PRIMARY KEY, scroll INTEGER NOT NULL);
     CREATE TABLE setting (key TEXT PRIMARY KEY, value TEXT NOT NULL);",
];

/// Why migrating failed.
pub enum MigrateError {
    /// The file is newer than this build.
    TooNew { found: i64, known: i64 },
    /// SQLite failed.
    Sqlite(rusqlite::Error),
}

impl From<rusqlite::Error> for MigrateError {
    fn from(e: rusqlite::Error) -> Self {
        MigrateError::Sqlite(e)
    }
}

/// Brings the schema to the newest version.
pub fn migrate(conn: &mut Connection) -> Result<(), MigrateError> {
    let known = MIGRATIONS.len() as i64;
    let found: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    if found > known {
        return Err(MigrateError::TooNew { found, known });
    }
    for (index, sql) in MIGRATIONS.iter().enumerate().skip(found as usize) {
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        tx.execute_batch(sql)?;
        tx.pragma_update(None, "user_version", index as i64 + 1)?;
        tx.commit()?;
    }
    Ok(())
}
