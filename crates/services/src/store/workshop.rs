//! The trainee's side of a workshop session in the progress store: the membership and the
//! workshop outbox. While joined, every fact the host cares about is queued here in the SAME
//! transaction that saves the fact, so a fact is never saved without its event or sent without
//! being saved (the course's transactional outbox, dog-fooded).

use super::{Store, StoreError};
use domain::workshop::{Event, EventKind, JoinUrl, retry_delay_ms};
use rusqlite::{OptionalExtension, Transaction, TransactionBehavior, params};

/// The membership of a joined trainee.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Membership {
    /// Where the host is, its code and certificate fingerprint.
    pub url: JoinUrl,
    /// The display name.
    pub name: String,
    /// The trainee's random id (the host knows the trainee by it).
    pub trainee_id: String,
    /// The secret that proves to the host that events come from this trainee.
    pub token: String,
    /// The session's name once the host told it.
    pub session_name: Option<String>,
}

/// A queued event with its row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueuedEvent {
    /// The event as it travels.
    pub event: Event,
    /// Delivery attempts so far.
    pub attempts: u32,
}

fn random_hex() -> String {
    format!("{:032x}", rand::random::<u128>())
}

/// Unix milliseconds now.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// Queues `kind` in the caller's transaction when the trainee is joined; otherwise nothing.
pub(super) fn enqueue(tx: &Transaction<'_>, kind: &EventKind) -> rusqlite::Result<()> {
    let joined: bool = tx.query_row(
        "SELECT EXISTS (SELECT 1 FROM workshop_membership)",
        [],
        |r| r.get(0),
    )?;
    if !joined {
        return Ok(());
    }
    let body = serde_json::to_string(kind)
        .map_err(|e| rusqlite::Error::ToSqlConversionFailure(Box::new(e)))?;
    let now = now_ms();
    tx.execute(
        "INSERT INTO workshop_outbox (event_id, body, created_ms, next_attempt_ms) VALUES (?1, ?2, ?3, ?3)",
        params![random_hex(), body, now],
    )
    .map(drop)
}

/// The setting that remembers the last session left (code, fingerprint, trainee id, token,
/// tab-separated): joining it again is the same trainee, one row on the instructor's dashboard.
const FORMER_KEY: &str = "workshop_former";

/// The trainee id and token used for `url`'s session before a leave, if it is the same one.
fn former_identity(
    tx: &Transaction<'_>,
    url: &JoinUrl,
) -> rusqlite::Result<Option<(String, String)>> {
    let former: Option<String> = tx
        .query_row(
            "SELECT value FROM setting WHERE key = ?1",
            [FORMER_KEY],
            |r| r.get(0),
        )
        .optional()?;
    Ok(former.and_then(|value| {
        let mut parts = value.split('\t');
        let (code, fingerprint) = (parts.next()?, parts.next()?);
        let (id, token) = (parts.next()?, parts.next()?);
        (code == url.code && fingerprint == url.fingerprint)
            .then(|| (id.to_owned(), token.to_owned()))
    }))
}

impl Store {
    /// Records the membership (a new trainee id unless re-joining the same session, which keeps
    /// the id and only changes the name; also after a leave).
    pub fn join(&mut self, url: &JoinUrl, name: &str) -> Result<Membership, StoreError> {
        let result = (|| -> rusqlite::Result<()> {
            let tx = self
                .conn
                .transaction_with_behavior(TransactionBehavior::Immediate)?;
            let same: Option<String> = tx
                .query_row("SELECT url FROM workshop_membership", [], |r| r.get(0))
                .optional()?
                .filter(|old: &String| {
                    JoinUrl::parse(old)
                        .is_ok_and(|old| old.code == url.code && old.fingerprint == url.fingerprint)
                });
            if same.is_some() {
                tx.execute(
                    "UPDATE workshop_membership SET name = ?1, url = ?2",
                    params![name, url.to_string()],
                )?;
            } else {
                // Another session: what waits for the old host would never be accepted here.
                tx.execute("DELETE FROM workshop_outbox WHERE delivered_ms IS NULL", [])?;
                let (id, token) =
                    former_identity(&tx, url)?.unwrap_or_else(|| (random_hex(), random_hex()));
                tx.execute(
                    "INSERT OR REPLACE INTO workshop_membership (id, url, name, trainee_id, token, joined_at)
                     VALUES (1, ?1, ?2, ?3, ?4, ?5)",
                    params![url.to_string(), name, id, token, now_ms()],
                )?;
                // Chapters read before joining count in the Room as on the trainee's Home.
                // Only chapters: the host keeps them as a set, so sending one again changes
                // nothing, while an old decision answer would be taken for a vote.
                let read: Vec<String> = tx
                    .prepare("SELECT chapter_id FROM chapter_read ORDER BY read_at, chapter_id")?
                    .query_map([], |r| r.get(0))?
                    .collect::<Result<_, _>>()?;
                for chapter in read {
                    enqueue(&tx, &EventKind::ChapterRead { chapter })?;
                }
            }
            tx.commit()
        })();
        result.map_err(|e| self.err(e))?;
        self.membership()?.ok_or_else(|| StoreError::File {
            path: self.path.display().to_string(),
            reason: "the membership was saved but cannot be read back".into(),
        })
    }

    /// Ends the membership; facts not yet delivered are dropped with it.
    pub fn leave(&mut self) -> Result<bool, StoreError> {
        let result = (|| -> rusqlite::Result<bool> {
            let tx = self
                .conn
                .transaction_with_behavior(TransactionBehavior::Immediate)?;
            let left: Option<(String, String, String)> = tx
                .query_row(
                    "SELECT url, trainee_id, token FROM workshop_membership",
                    [],
                    |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
                )
                .optional()?;
            if let Some((url, id, token)) = left
                && let Ok(url) = JoinUrl::parse(&url)
            {
                let value = format!("{}\t{}\t{id}\t{token}", url.code, url.fingerprint);
                super::put_setting(&tx, FORMER_KEY, &value)?;
            }
            let n = tx.execute("DELETE FROM workshop_membership", [])?;
            tx.execute("DELETE FROM workshop_outbox", [])?;
            tx.commit()?;
            Ok(n > 0)
        })();
        result.map_err(|e| self.err(e))
    }

    /// The membership, if joined.
    pub fn membership(&self) -> Result<Option<Membership>, StoreError> {
        let row = self
            .conn
            .query_row(
                "SELECT url, name, trainee_id, token, session_name FROM workshop_membership",
                [],
                |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        r.get(1)?,
                        r.get(2)?,
                        r.get(3)?,
                        r.get(4)?,
                    ))
                },
            )
            .optional()
            .map_err(|e| self.err(e))?;
        let Some((url, name, trainee_id, token, session_name)) = row else {
            return Ok(None);
        };
        let url = JoinUrl::parse(&url).map_err(|e| StoreError::File {
            path: self.path.display().to_string(),
            reason: format!("the saved workshop membership is broken ({e}); run queuelab leave"),
        })?;
        Ok(Some(Membership {
            url,
            name,
            trainee_id,
            token,
            session_name,
        }))
    }

    /// Remembers the session name the host reported.
    pub fn set_session_name(&mut self, name: &str) -> Result<(), StoreError> {
        self.conn
            .execute("UPDATE workshop_membership SET session_name = ?1", [name])
            .map(drop)
            .map_err(|e| self.err(e))
    }

    /// Queues an event that is no other saved fact (the stuck signal) in its own transaction.
    pub fn queue_event(&mut self, kind: &EventKind) -> Result<(), StoreError> {
        let result = (|| -> rusqlite::Result<()> {
            let tx = self
                .conn
                .transaction_with_behavior(TransactionBehavior::Immediate)?;
            enqueue(&tx, kind)?;
            tx.commit()
        })();
        result.map_err(|e| self.err(e))
    }

    /// Events not delivered yet, oldest first; `due_by` limits them to those whose backoff has
    /// passed (None: all, for an explicit "deliver now").
    pub fn pending_events(
        &self,
        limit: usize,
        due_by: Option<i64>,
    ) -> Result<Vec<QueuedEvent>, StoreError> {
        let result = (|| -> rusqlite::Result<Vec<QueuedEvent>> {
            let mut stmt = self.conn.prepare(
                "SELECT n, event_id, body, created_ms, attempts FROM workshop_outbox
                 WHERE delivered_ms IS NULL AND next_attempt_ms <= ?1 ORDER BY n LIMIT ?2",
            )?;
            let rows = stmt.query_map(params![due_by.unwrap_or(i64::MAX), limit as i64], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, i64>(3)?,
                    r.get::<_, u32>(4)?,
                ))
            })?;
            let mut out = Vec::new();
            for row in rows {
                let (n, id, body, at_ms, attempts) = row?;
                let kind: EventKind = serde_json::from_str(&body).map_err(|e| {
                    rusqlite::Error::FromSqlConversionFailure(
                        2,
                        rusqlite::types::Type::Text,
                        Box::new(e),
                    )
                })?;
                out.push(QueuedEvent {
                    event: Event {
                        id,
                        n: n as u64,
                        at_ms,
                        kind,
                    },
                    attempts,
                });
            }
            Ok(out)
        })();
        result.map_err(|e| self.err(e))
    }

    /// How many events wait for delivery.
    pub fn pending_count(&self) -> Result<u32, StoreError> {
        self.conn
            .query_row(
                "SELECT count(*) FROM workshop_outbox WHERE delivered_ms IS NULL",
                [],
                |r| r.get(0),
            )
            .map_err(|e| self.err(e))
    }

    /// The earliest time a pending event is due (Unix ms), if any waits.
    pub fn next_due_ms(&self) -> Result<Option<i64>, StoreError> {
        self.conn
            .query_row(
                "SELECT min(next_attempt_ms) FROM workshop_outbox WHERE delivered_ms IS NULL",
                [],
                |r| r.get(0),
            )
            .map_err(|e| self.err(e))
    }

    /// Marks events as delivered (the host stored them or recognised them as duplicates).
    pub fn mark_delivered(&mut self, ids: &[String]) -> Result<(), StoreError> {
        self.update_each(ids, |tx, id, now| {
            tx.execute(
                "UPDATE workshop_outbox SET delivered_ms = ?2 WHERE event_id = ?1",
                params![id, now],
            )
        })
    }

    /// Pushes events back with backoff and jitter after a failed delivery.
    pub fn mark_failed(&mut self, ids: &[String], reason: &str) -> Result<(), StoreError> {
        self.update_each(ids, |tx, id, now| {
            let attempts: u32 = tx.query_row(
                "SELECT attempts FROM workshop_outbox WHERE event_id = ?1",
                [id],
                |r| r.get(0),
            )?;
            let delay = retry_delay_ms(attempts + 1, rand::random::<f64>());
            tx.execute(
                "UPDATE workshop_outbox SET attempts = attempts + 1, next_attempt_ms = ?2, last_error = ?3
                 WHERE event_id = ?1",
                params![id, now + delay, reason],
            )
        })
    }

    fn update_each(
        &mut self,
        ids: &[String],
        f: impl Fn(&Transaction<'_>, &str, i64) -> rusqlite::Result<usize>,
    ) -> Result<(), StoreError> {
        let result = (|| -> rusqlite::Result<()> {
            let tx = self
                .conn
                .transaction_with_behavior(TransactionBehavior::Immediate)?;
            let now = now_ms();
            for id in ids {
                f(&tx, id, now)?;
            }
            tx.commit()
        })();
        result.map_err(|e| self.err(e))
    }
}

#[cfg(test)]
mod tests;
