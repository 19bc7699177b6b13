//! Schema migrations by `PRAGMA user_version`: each entry upgrades from the previous version in
//! one transaction. Append new entries; never edit an old one.

use rusqlite::{Connection, TransactionBehavior};

/// Tables that hold facts about the learner ("clear results" empties all of them).
/// Children before parents, so foreign keys never block the delete.
pub const LEARNER_TABLES: [&str; 17] = [
    "lab_result",
    "chapter_read",
    "decision_answer",
    "checklist",
    "chapter_position",
    "setting",
    "ordering_record",
    "scenario_run",
    "quiz_answer",
    "quiz_order",
    "quiz_attempt",
    "otp_failure",
    "otp_code",
    "report_request",
    "mail_outbox",
    "workshop_outbox",
    "workshop_membership",
];

const MIGRATIONS: &[&str] = &[
    // 1: chapters, decisions, checklist, reading positions, settings.
    "CREATE TABLE chapter_read (chapter_id TEXT PRIMARY KEY, read_at INTEGER NOT NULL);
     CREATE TABLE decision_answer (decision_id TEXT PRIMARY KEY, option_id TEXT NOT NULL, answered_at INTEGER NOT NULL);
     CREATE TABLE checklist (item_id TEXT PRIMARY KEY, ticked INTEGER NOT NULL, updated_at INTEGER NOT NULL);
     CREATE TABLE chapter_position (chapter_id TEXT PRIMARY KEY, scroll INTEGER NOT NULL);
     CREATE TABLE setting (key TEXT PRIMARY KEY, value TEXT NOT NULL);",
    // 2: quiz attempts and answers, one-time codes (tags only, never the digits), the report
    // request with its address, and the mail outbox.
    "CREATE TABLE quiz_attempt (id INTEGER PRIMARY KEY, seed INTEGER NOT NULL, started_at INTEGER NOT NULL,
         finished_at INTEGER, score INTEGER);
     CREATE TABLE quiz_order (attempt_id INTEGER NOT NULL REFERENCES quiz_attempt (id) ON DELETE CASCADE,
         question_id TEXT NOT NULL, option_ids TEXT NOT NULL, PRIMARY KEY (attempt_id, question_id));
     CREATE TABLE quiz_answer (attempt_id INTEGER NOT NULL REFERENCES quiz_attempt (id) ON DELETE CASCADE,
         question_id TEXT NOT NULL, option_ids TEXT NOT NULL, correct INTEGER NOT NULL,
         answered_at INTEGER NOT NULL, PRIMARY KEY (attempt_id, question_id));
     CREATE TABLE otp_code (id INTEGER PRIMARY KEY, address TEXT NOT NULL, nonce BLOB NOT NULL,
         tag BLOB NOT NULL, issued_at INTEGER NOT NULL, used_at INTEGER);
     CREATE INDEX otp_code_address ON otp_code (address, issued_at);
     CREATE TABLE otp_failure (id INTEGER PRIMARY KEY, address TEXT NOT NULL, at INTEGER NOT NULL);
     CREATE INDEX otp_failure_address ON otp_failure (address, at);
     CREATE TABLE report_request (id INTEGER PRIMARY KEY CHECK (id = 1), address TEXT NOT NULL,
         cc_consent INTEGER NOT NULL DEFAULT 0, attempt_id INTEGER, confirmed_at INTEGER);
     CREATE TABLE mail_outbox (id INTEGER PRIMARY KEY, message_id TEXT NOT NULL UNIQUE,
         kind TEXT NOT NULL CHECK (kind IN ('code', 'report')), recipient TEXT NOT NULL, cc TEXT,
         subject TEXT NOT NULL, body_text TEXT NOT NULL, body_html TEXT, otp_code_id INTEGER,
         created_at INTEGER NOT NULL,
         status TEXT NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sent', 'failed')),
         attempts INTEGER NOT NULL DEFAULT 0, next_attempt_at INTEGER NOT NULL, last_error TEXT,
         lease_until INTEGER, sent_at INTEGER, delivered_to TEXT);
     CREATE INDEX mail_outbox_due ON mail_outbox (status, next_attempt_at);",
    // 3: the ordering game record (one row) and the simulator scenarios run.
    "CREATE TABLE ordering_record (id INTEGER PRIMARY KEY CHECK (id = 1), solved INTEGER NOT NULL DEFAULT 0,
        attempts INTEGER NOT NULL DEFAULT 0, mistakes INTEGER NOT NULL DEFAULT 0);
     CREATE TABLE scenario_run (scenario_id TEXT PRIMARY KEY, first_run_at INTEGER NOT NULL);",
    // 4: workshop sessions: the membership (one row) and the outbox of events for the host;
    // AUTOINCREMENT so a sequence number is never reused after a leave.
    "CREATE TABLE workshop_membership (id INTEGER PRIMARY KEY CHECK (id = 1), url TEXT NOT NULL,
        name TEXT NOT NULL, trainee_id TEXT NOT NULL, token TEXT NOT NULL, session_name TEXT,
        joined_at INTEGER NOT NULL);
     CREATE TABLE workshop_outbox (n INTEGER PRIMARY KEY AUTOINCREMENT, event_id TEXT NOT NULL UNIQUE,
        body TEXT NOT NULL, created_ms INTEGER NOT NULL, attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_ms INTEGER NOT NULL, delivered_ms INTEGER, last_error TEXT);
     CREATE INDEX workshop_outbox_due ON workshop_outbox (delivered_ms, next_attempt_ms);",
    // 5: decision 4 (`dlq-37`) no longer offers `purge`. A saved `purge` matched no option: the
    // card showed the decision unanswered while the home screen counted it answered. Forget that
    // one answer so both agree and the learner answers the card again.
    "DELETE FROM decision_answer WHERE decision_id = 'dlq-37' AND option_id = 'purge';",
    // 6: labs: checks run per lab and when one first passed.
    "CREATE TABLE lab_result (lab_id TEXT PRIMARY KEY, attempts INTEGER NOT NULL DEFAULT 0,
        last_at INTEGER NOT NULL, solved_at INTEGER);",
    // 7: labs: how many hints the learner revealed (the lab screen shows them again).
    "ALTER TABLE lab_result ADD COLUMN hints INTEGER NOT NULL DEFAULT 0;",
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
    if found == known {
        return Ok(());
    }
    // All pending steps in one transaction: a fresh file is ready after one durable commit
    // (start-up time), and a kill mid-way leaves the old version, never a half-migrated file.
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    for sql in MIGRATIONS.iter().skip(found as usize) {
        tx.execute_batch(sql)?;
    }
    tx.pragma_update(None, "user_version", known)?;
    tx.commit()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file at `version`, built by the migrations up to it, as an older build left it.
    fn file_at(version: usize) -> Connection {
        let conn = Connection::open_in_memory().expect("in-memory database");
        for sql in &MIGRATIONS[..version] {
            conn.execute_batch(sql).expect("old migration");
        }
        conn.pragma_update(None, "user_version", version as i64)
            .expect("pragma");
        conn
    }

    fn answers(conn: &Connection) -> Vec<(String, String)> {
        let mut stmt = conn
            .prepare("SELECT decision_id, option_id FROM decision_answer ORDER BY decision_id")
            .expect("prepare");
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .expect("query")
            .collect::<Result<_, _>>()
            .expect("rows")
    }

    #[test]
    fn a_saved_purge_answer_of_decision_4_is_forgotten_and_nothing_else() {
        let mut conn = file_at(4);
        conn.execute_batch(
            "INSERT INTO decision_answer VALUES ('dlq-37', 'purge', 1);
             INSERT INTO decision_answer VALUES ('lost-ack', 'purge', 2);
             INSERT INTO decision_answer VALUES ('broker-down', 'outbox', 3);",
        )
        .expect("old answers");
        assert!(
            migrate(&mut conn).is_ok(),
            "migration 5 applies to a version-4 file"
        );
        assert_eq!(
            answers(&conn),
            [
                ("broker-down".to_owned(), "outbox".to_owned()),
                ("lost-ack".to_owned(), "purge".to_owned()),
            ]
        );
        let version: i64 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .expect("version");
        assert_eq!(version, MIGRATIONS.len() as i64);
    }

    #[test]
    fn a_current_answer_of_decision_4_survives() {
        let mut conn = file_at(4);
        conn.execute_batch("INSERT INTO decision_answer VALUES ('dlq-37', 'classify-fix', 1);")
            .expect("answer");
        assert!(migrate(&mut conn).is_ok(), "migration 5 applies");
        assert_eq!(
            answers(&conn),
            [("dlq-37".to_owned(), "classify-fix".to_owned())]
        );
    }
}
