//! The host's SQLite: the session's secrets and name, the trainees (with a hash of their token)
//! and the inbox of events behind a UNIQUE index on (trainee, event id). A redelivered event fails that
//! index (SQLite extended code 2067, naming `event.trainee_id, event.event_id`), is counted as a duplicate and
//! stored nowhere else: the course's idempotent receiver, dog-fooded.

use domain::workshop::{Catalog, Event, Pace, PaceKind, Summary, wire::Rejected};
use rusqlite::{Connection, ErrorCode, OptionalExtension, TransactionBehavior, params};
use std::path::Path;

mod door;
mod migrations;
use migrations::MIGRATIONS;

/// SQLite's extended result code for a UNIQUE constraint violation.
const SQLITE_CONSTRAINT_UNIQUE: i32 = 2067;
/// The inbox's columns as SQLite names them in the violation message (it names columns, not
/// the index), so a violation of any other constraint is never mistaken for a duplicate.
const INBOX_COLUMNS: &str = "event.trainee_id, event.event_id";

/// The open host database.
pub struct HostDb {
    conn: Connection,
}

/// What storing a batch did.
#[derive(Debug, Default)]
pub struct Stored {
    /// The name the trainee has in the room (with a suffix when another trainee has theirs).
    pub name: String,
    /// Events stored now (to apply to the summary).
    pub new: Vec<Event>,
    /// Events already stored before.
    pub duplicates: u32,
    /// Events refused.
    pub rejected: Vec<Rejected>,
}

/// How a trainee's token compares with the one on file.
pub enum TraineeCheck {
    /// Known and the token matches.
    Known,
    /// Not known yet (first delivery registers it).
    New,
    /// Known, and the token does not match.
    WrongToken,
    /// Removed by the instructor.
    Removed,
}

impl HostDb {
    /// Opens (creating and migrating) the database in `path`.
    pub fn open(path: &Path) -> rusqlite::Result<HostDb> {
        let mut conn = Connection::open(path)?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        // Every receipt the host gives a trainee must survive a SIGKILL right after it.
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        let found: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        let known = MIGRATIONS.len() as i64;
        if found < known {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            for sql in MIGRATIONS.iter().skip(found as usize) {
                tx.execute_batch(sql)?;
            }
            tx.pragma_update(None, "user_version", known)?;
            tx.commit()?;
        }
        Ok(HostDb { conn })
    }

    /// Caps the database at `pages` pages, so a test meets SQLite's "disk full".
    #[cfg(test)]
    pub fn limit_pages(&self, pages: u32) -> rusqlite::Result<()> {
        self.conn.pragma_update(None, "max_page_count", pages)
    }

    /// A session setting, if set.
    pub fn meta(&self, key: &str) -> rusqlite::Result<Option<String>> {
        self.conn
            .query_row("SELECT value FROM meta WHERE key = ?1", [key], |r| r.get(0))
            .optional()
    }

    /// Sets a session setting.
    pub fn set_meta(&self, key: &str, value: &str) -> rusqlite::Result<()> {
        self.conn
            .execute(
                "INSERT INTO meta (key, value) VALUES (?1, ?2) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                params![key, value],
            )
            .map(drop)
    }

    /// How the trainee's token hash compares with the stored one.
    pub fn check_trainee(&self, id: &str, token_hash: &str) -> rusqlite::Result<TraineeCheck> {
        let stored: Option<(String, Option<i64>)> = self
            .conn
            .query_row(
                "SELECT token_hash, removed_ms FROM trainee WHERE id = ?1",
                [id],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?;
        Ok(match stored {
            None => TraineeCheck::New,
            Some((_, Some(_))) => TraineeCheck::Removed,
            Some((s, None))
                if bool::from(subtle::ConstantTimeEq::ct_eq(
                    s.as_bytes(),
                    token_hash.as_bytes(),
                )) =>
            {
                TraineeCheck::Known
            }
            Some(_) => TraineeCheck::WrongToken,
        })
    }

    /// How many events the host holds for `trainee` (the inbox index counts them).
    pub fn event_count(&self, trainee: &str) -> rusqlite::Result<u32> {
        self.conn.query_row(
            "SELECT count(*) FROM event WHERE trainee_id = ?1",
            [trainee],
            |r| r.get(0),
        )
    }

    /// How many trainees are registered.
    pub fn trainee_count(&self) -> rusqlite::Result<u32> {
        self.conn.query_row(
            "SELECT count(*) FROM trainee WHERE removed_ms IS NULL",
            [],
            |r| r.get(0),
        )
    }

    /// Stores a trainee's batch in one transaction: registers or renames the trainee, inserts
    /// each event, recognises duplicates by the unique index.
    pub fn store_batch(
        &mut self,
        trainee: &str,
        name: &str,
        token_hash: &str,
        events: Vec<Event>,
        now_ms: i64,
    ) -> rusqlite::Result<Stored> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let taken: Vec<String> = tx
            .prepare_cached("SELECT name FROM trainee WHERE id != ?1 AND removed_ms IS NULL")?
            .query_map([trainee], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        let name = super::names::unique_name(name, &taken);
        tx.execute(
            "INSERT INTO trainee (id, name, token_hash, first_seen_ms) VALUES (?1, ?2, ?3, ?4)
             ON CONFLICT (id) DO UPDATE SET name = excluded.name",
            params![trainee, name, token_hash, now_ms],
        )?;
        let mut stored = Stored {
            name,
            ..Stored::default()
        };
        for event in events {
            let body = serde_json::to_string(&event)
                .map_err(|e| rusqlite::Error::ToSqlConversionFailure(Box::new(e)))?;
            match tx.execute(
                "INSERT INTO event (event_id, trainee_id, body, received_ms) VALUES (?1, ?2, ?3, ?4)",
                params![event.id, trainee, body, now_ms],
            ) {
                Ok(_) => stored.new.push(event),
                Err(e) if is_inbox_duplicate(&e) => stored.duplicates += 1,
                Err(e) => return Err(e),
            }
        }
        if stored.duplicates > 0 {
            tx.execute(
                "INSERT INTO counter (name, value) VALUES ('duplicates', ?1)
                 ON CONFLICT (name) DO UPDATE SET value = value + excluded.value",
                [stored.duplicates],
            )?;
        }
        tx.commit()?;
        Ok(stored)
    }

    /// Hands every trainee (id, name) to `trainee`.
    pub fn replay_trainees(&self, mut trainee: impl FnMut(&str, &str)) -> rusqlite::Result<()> {
        let mut stmt = self
            .conn
            .prepare("SELECT id, name FROM trainee WHERE removed_ms IS NULL")?;
        let mut rows = stmt.query([])?;
        while let Some(row) = rows.next()? {
            trainee(row.get_ref(0)?.as_str()?, row.get_ref(1)?.as_str()?);
        }
        Ok(())
    }

    /// Hands every stored event (trainee id, event) in arrival order to `event`, one row at a
    /// time: a session with hundreds of thousands of events is replayed at start without
    /// holding them all in memory.
    pub fn replay_events(&self, mut event: impl FnMut(&str, &Event)) -> rusqlite::Result<()> {
        let mut stmt = self
            .conn
            .prepare("SELECT trainee_id, body FROM event ORDER BY seq")?;
        let mut rows = stmt.query([])?;
        while let Some(row) = rows.next()? {
            // Bodies were serialised by this program after validation; one that no longer
            // parses (an older format) is skipped rather than stopping the session.
            if let Ok(parsed) = serde_json::from_str::<Event>(row.get_ref(1)?.as_str()?) {
                event(row.get_ref(0)?.as_str()?, &parsed);
            }
        }
        Ok(())
    }

    /// The trainee's name and stored events (None for an unknown trainee): what the host
    /// composes that trainee's report from.
    pub fn trainee_record(&self, trainee: &str) -> rusqlite::Result<Option<(String, Vec<Event>)>> {
        let name: Option<String> = self
            .conn
            .query_row(
                "SELECT name FROM trainee WHERE id = ?1 AND removed_ms IS NULL",
                [trainee],
                |r| r.get(0),
            )
            .optional()?;
        let Some(name) = name else { return Ok(None) };
        let mut stmt = self
            .conn
            .prepare_cached("SELECT body FROM event WHERE trainee_id = ?1 ORDER BY seq")?;
        let mut rows = stmt.query([trainee])?;
        let mut events = Vec::new();
        while let Some(row) = rows.next()? {
            if let Ok(event) = serde_json::from_str(row.get_ref(0)?.as_str()?) {
                events.push(event);
            }
        }
        Ok(Some((name, events)))
    }

    /// Removes the trainee named `who` (their id, or their name in any case): deletes their
    /// events and, with `ban`, marks the row removed so the client is refused from now on;
    /// without, deletes the row too (a client that delivers again comes back as a new row).
    /// One transaction. The (id, name) removed and how many events went; None when no trainee
    /// in the room is called so.
    pub fn remove_trainee(
        &mut self,
        who: &str,
        now_ms: i64,
        ban: bool,
    ) -> rusqlite::Result<Option<(String, String, usize)>> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let active: Vec<(String, String)> = tx
            .prepare("SELECT id, name FROM trainee WHERE removed_ms IS NULL")?
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<Result<_, _>>()?;
        let id = super::names::normal_id(who.trim());
        let name = who.trim().to_lowercase();
        let Some((id, name)) = active
            .into_iter()
            .find(|(i, n)| *i == id || n.to_lowercase() == name)
        else {
            return Ok(None);
        };
        let events = tx.execute("DELETE FROM event WHERE trainee_id = ?1", [&id])?;
        tx.execute("DELETE FROM stuck_ack WHERE trainee_id = ?1", [&id])?;
        if ban {
            tx.execute(
                "UPDATE trainee SET removed_ms = ?2 WHERE id = ?1",
                params![id, now_ms],
            )?;
        } else {
            tx.execute("DELETE FROM trainee WHERE id = ?1", [&id])?;
        }
        tx.commit()?;
        Ok(Some((id, name, events)))
    }

    /// The active trainee called `who` (their id, or their name in any case): (id, name).
    pub fn find_trainee(&self, who: &str) -> rusqlite::Result<Option<(String, String)>> {
        let active: Vec<(String, String)> = self
            .conn
            .prepare_cached("SELECT id, name FROM trainee WHERE removed_ms IS NULL")?
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<Result<_, _>>()?;
        let id = super::names::normal_id(who.trim());
        let name = who.trim().to_lowercase();
        Ok(active
            .into_iter()
            .find(|(i, n)| *i == id || n.to_lowercase() == name))
    }

    /// Notes that the instructor acknowledged the trainee's stuck signal number `n`.
    pub fn acknowledge(&self, trainee: &str, n: u64) -> rusqlite::Result<()> {
        self.conn
            .execute(
                "INSERT INTO stuck_ack (trainee_id, stuck_n) VALUES (?1, ?2)
                 ON CONFLICT (trainee_id) DO UPDATE SET stuck_n = max(stuck_n, excluded.stuck_n)",
                params![trainee, i64::try_from(n).unwrap_or(i64::MAX)],
            )
            .map(drop)
    }

    /// Stores when the host last heard from the trainee's client (host clock, ms); an older
    /// time never replaces a newer one.
    pub fn note_contact(&self, trainee: &str, at_ms: i64) -> rusqlite::Result<()> {
        self.conn
            .prepare_cached("UPDATE trainee SET contact_ms = max(contact_ms, ?2) WHERE id = ?1")?
            .execute(params![trainee, at_ms])
            .map(drop)
    }

    /// Stores the trainee's answer to the instructor-copy question of a relayed report.
    pub fn note_instructor_copy(&self, trainee: &str, consent: bool) -> rusqlite::Result<()> {
        self.conn
            .execute(
                "UPDATE trainee SET instructor_copy = ?2 WHERE id = ?1",
                params![trainee, consent],
            )
            .map(drop)
    }

    /// Hands every stored instructor-copy answer (trainee id, consent) to `answer`.
    pub fn replay_instructor_copies(
        &self,
        mut answer: impl FnMut(&str, bool),
    ) -> rusqlite::Result<()> {
        let mut stmt = self.conn.prepare(
            "SELECT id, instructor_copy FROM trainee
             WHERE removed_ms IS NULL AND instructor_copy IS NOT NULL",
        )?;
        let mut rows = stmt.query([])?;
        while let Some(row) = rows.next()? {
            answer(row.get_ref(0)?.as_str()?, row.get(1)?);
        }
        Ok(())
    }

    /// Hands every stored contact time (trainee id, host ms) to `contact`.
    pub fn replay_contacts(&self, mut contact: impl FnMut(&str, i64)) -> rusqlite::Result<()> {
        let mut stmt = self.conn.prepare(
            "SELECT id, contact_ms FROM trainee WHERE removed_ms IS NULL AND contact_ms > 0",
        )?;
        let mut rows = stmt.query([])?;
        while let Some(row) = rows.next()? {
            contact(row.get_ref(0)?.as_str()?, row.get(1)?);
        }
        Ok(())
    }

    /// The summary of everything stored: trainees, their events, acknowledgements and
    /// contacts (at start, and after a removal).
    pub fn summary(&self, catalog: &Catalog) -> rusqlite::Result<Summary> {
        let mut summary = Summary::default();
        // Cleaned as the host's door cleans what comes in: rows an older version stored may
        // not be.
        self.replay_trainees(|id, trainee_name| {
            summary.name(id, &super::names::clean_stored_name(trainee_name));
        })?;
        self.replay_events(|trainee, event| {
            summary.apply(trainee, &super::names::cleaned(event), catalog);
        })?;
        self.replay_acks(|trainee, n| summary.acknowledge(trainee, n))?;
        self.replay_contacts(|trainee, at_ms| summary.contact_stored(trainee, at_ms))?;
        self.replay_instructor_copies(|trainee, consent| {
            summary.instructor_copy(trainee, consent);
        })?;
        Ok(summary)
    }

    /// Hands every acknowledgement (trainee id, stuck signal number) to `ack`.
    pub fn replay_acks(&self, mut ack: impl FnMut(&str, u64)) -> rusqlite::Result<()> {
        let mut stmt = self
            .conn
            .prepare("SELECT trainee_id, stuck_n FROM stuck_ack")?;
        let mut rows = stmt.query([])?;
        while let Some(row) = rows.next()? {
            ack(
                row.get_ref(0)?.as_str()?,
                u64::try_from(row.get::<_, i64>(1)?).unwrap_or(0),
            );
        }
        Ok(())
    }

    /// Stores a pacing command; returns it with its id.
    pub fn add_pace(&self, kind: PaceKind, now_ms: i64) -> rusqlite::Result<Pace> {
        let body = serde_json::to_string(&kind)
            .map_err(|e| rusqlite::Error::ToSqlConversionFailure(Box::new(e)))?;
        self.conn.execute(
            "INSERT INTO pace (at_ms, body) VALUES (?1, ?2)",
            params![now_ms, body],
        )?;
        let id = u64::try_from(self.conn.last_insert_rowid()).unwrap_or(0);
        Ok(Pace {
            id,
            at_ms: now_ms,
            kind,
        })
    }

    /// Every pacing command, oldest first (a body that no longer parses is skipped).
    pub fn paces(&self) -> rusqlite::Result<Vec<Pace>> {
        let mut stmt = self
            .conn
            .prepare("SELECT id, at_ms, body FROM pace ORDER BY id")?;
        let rows = stmt.query_map([], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, i64>(1)?,
                r.get::<_, String>(2)?,
            ))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (id, at_ms, body) = row?;
            if let Ok(kind) = serde_json::from_str(&body) {
                out.push(Pace {
                    id: u64::try_from(id).unwrap_or(0),
                    at_ms,
                    kind,
                });
            }
        }
        Ok(out)
    }

    /// (events stored, duplicates recognised).
    pub fn counts(&self) -> rusqlite::Result<(u64, u64)> {
        let events: i64 = self
            .conn
            .query_row("SELECT count(*) FROM event", [], |r| r.get(0))?;
        let duplicates: Option<i64> = self
            .conn
            .query_row(
                "SELECT value FROM counter WHERE name = 'duplicates'",
                [],
                |r| r.get(0),
            )
            .optional()?;
        Ok((events as u64, duplicates.unwrap_or(0) as u64))
    }
}

/// Exactly the inbox's unique violation: extended code 2067 and the inbox's column named.
fn is_inbox_duplicate(e: &rusqlite::Error) -> bool {
    matches!(e, rusqlite::Error::SqliteFailure(f, Some(msg))
        if f.code == ErrorCode::ConstraintViolation
            && f.extended_code == SQLITE_CONSTRAINT_UNIQUE
            && msg.contains(INBOX_COLUMNS))
}
