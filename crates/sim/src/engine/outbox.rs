//! The dispatcher's SQL on `service.db`: claim a batch of outbox rows with a lease, mark them
//! published, release or give up. Free functions over a connection (tested on a real file).

use rusqlite::{Connection, params};

use super::action::Claimed;
use crate::model::Actor;

/// Claim a batch with a lease. PostgreSQL would write `SELECT ... FOR UPDATE SKIP LOCKED`,
/// SQL Server `WITH (UPDLOCK, READPAST, ROWLOCK)`; SQLite has one writer at a time, so a lease
/// column decides who owns a row until when.
pub(crate) const SQL_CLAIM: &str = "UPDATE outbox SET lease_owner = ?1, lease_until_ms = ?2 + ?3, \
     attempts = attempts + 1 WHERE id IN (SELECT id FROM outbox WHERE published_ms IS NULL \
     AND failed_reason IS NULL AND (lease_until_ms IS NULL OR lease_until_ms <= ?2) ORDER BY id LIMIT ?4) \
     RETURNING id, message_id, order_id, body, group_id, attempts";
pub(crate) const SQL_MARK: &str = "UPDATE outbox SET published_ms = ?1, lease_owner = NULL, lease_until_ms = NULL \
     WHERE id = ?2 AND lease_owner = ?3";
pub(crate) const SQL_RELEASE: &str = "UPDATE outbox SET lease_owner = NULL, lease_until_ms = NULL \
     WHERE id = ?1 AND lease_owner = ?2";
pub(crate) const SQL_GIVE_UP: &str = "UPDATE outbox SET failed_reason = ?3, lease_owner = NULL, lease_until_ms = NULL \
     WHERE id = ?1 AND lease_owner = ?2";

pub(crate) const CLAIM_SQL: &[&str] = &[SQL_CLAIM];
/// A publish on a broker without duplicate detection.
pub(crate) const PUBLISH_SQL: &[&str] = &["BEGIN IMMEDIATE", super::broker::SQL_ENQUEUE, "COMMIT"];
/// A publish on a broker with duplicate detection: it looks the message id up first.
pub(crate) const PUBLISH_DEDUP_SQL: &[&str] = &[
    "BEGIN IMMEDIATE",
    super::broker::SQL_DEDUP_SEEN,
    super::broker::SQL_DEDUP_PUT,
    super::broker::SQL_ENQUEUE,
    "COMMIT",
];
/// A publish whose every message duplicate detection dropped: only the lookup ran.
pub(crate) const PUBLISH_DROPPED_SQL: &[&str] =
    &["BEGIN IMMEDIATE", super::broker::SQL_DEDUP_SEEN, "COMMIT"];
pub(crate) const RELEASE_SQL: &[&str] = &[SQL_RELEASE];
pub(crate) const GIVE_UP_SQL: &[&str] = &[SQL_GIVE_UP];
pub(crate) const MARK_SQL: &[&str] = &["BEGIN IMMEDIATE", SQL_MARK, "COMMIT"];

/// The lease owner name of dispatcher `d`.
pub(crate) fn owner(d: u8) -> String {
    Actor::Dispatcher(d).to_string()
}

/// Claims up to `batch` rows for `owner` until `now + lease_ms`.
pub(crate) fn claim(
    conn: &Connection,
    owner: &str,
    now: u64,
    lease_ms: u64,
    batch: u32,
) -> rusqlite::Result<Vec<(Claimed, u32)>> {
    let mut stmt = conn.prepare_cached(SQL_CLAIM)?;
    let rows = stmt.query_map(params![owner, now as i64, lease_ms as i64, batch], |r| {
        Ok((
            Claimed {
                id: r.get(0)?,
                message_id: r.get(1)?,
                order_id: r.get(2)?,
                body: r.get(3)?,
                group_id: r.get(4)?,
            },
            r.get::<_, u32>(5)?,
        ))
    })?;
    let mut v: Vec<(Claimed, u32)> = rows.collect::<rusqlite::Result<_>>()?;
    // RETURNING order is unspecified; keep the outbox order.
    v.sort_by_key(|(c, _)| c.id);
    Ok(v)
}

/// Marks claimed rows as published; returns how many were still ours.
pub(crate) fn mark(
    conn: &Connection,
    owner: &str,
    ids: &[i64],
    now: u64,
) -> rusqlite::Result<usize> {
    let tx = super::begin_immediate(conn)?;
    let mut n = 0;
    {
        let mut stmt = tx.prepare_cached(SQL_MARK)?;
        for id in ids {
            n += stmt.execute(params![now as i64, id, owner])?;
        }
    }
    tx.commit()?;
    Ok(n)
}

/// Publish attempts after which the dispatcher gives up on a row it can never send.
pub(crate) const MAX_PUBLISH_ATTEMPTS: u32 = 3;
