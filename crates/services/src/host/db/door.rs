//! The room's door in the session's database: the lock (a meta row, so it survives a restart),
//! the joins per minute and the trainees who never sent an event.

use super::HostDb;
use rusqlite::{TransactionBehavior, params};

/// The meta key of the lock (`1` while locked).
const LOCKED_META: &str = "room_locked";

impl HostDb {
    /// Whether new trainees are kept out.
    pub fn locked(&self) -> rusqlite::Result<bool> {
        Ok(self.meta(LOCKED_META)?.as_deref() == Some("1"))
    }

    /// Locks or unlocks the room.
    pub fn set_locked(&self, locked: bool) -> rusqlite::Result<()> {
        self.set_meta(LOCKED_META, if locked { "1" } else { "0" })
    }

    /// How many trainees joined after `since_ms` (removed ones too).
    pub fn joins_since(&self, since_ms: i64) -> rusqlite::Result<u32> {
        self.conn.query_row(
            "SELECT count(*) FROM trainee WHERE first_seen_ms > ?1",
            [since_ms],
            |r| r.get(0),
        )
    }

    /// The trainees in the room who never sent an event (registering and polling are none):
    /// (id, name).
    pub fn silent_trainees(&self) -> rusqlite::Result<Vec<(String, String)>> {
        self.conn
            .prepare_cached(SILENT)?
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect()
    }

    /// Removes every trainee who never sent an event, in one transaction (one who sends an
    /// event meanwhile stays); their clients are refused from now on. The (id, name) removed.
    pub fn remove_silent(&mut self, now_ms: i64) -> rusqlite::Result<Vec<(String, String)>> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let silent: Vec<(String, String)> = tx
            .prepare(SILENT)?
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<Result<_, _>>()?;
        for (id, _) in &silent {
            tx.execute("DELETE FROM stuck_ack WHERE trainee_id = ?1", [id])?;
            tx.execute(
                "UPDATE trainee SET removed_ms = ?2 WHERE id = ?1",
                params![id, now_ms],
            )?;
        }
        tx.commit()?;
        Ok(silent)
    }
}

const SILENT: &str = "SELECT id, name FROM trainee WHERE removed_ms IS NULL
     AND NOT EXISTS (SELECT 1 FROM event WHERE event.trainee_id = trainee.id) ORDER BY first_seen_ms";
