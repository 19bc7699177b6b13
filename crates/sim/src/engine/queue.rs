//! The broker's storage as SQL on `broker.db`: enqueue with duplicate detection, receive with
//! a lock / visibility timeout, complete, renew, abandon, dead-letter, duplicate copies. Free
//! functions over a connection so that each can be tested against a real file on its own.

use rusqlite::{Connection, OptionalExtension, params};

pub(crate) const SQL_DEDUP_SEEN: &str = "SELECT first_seen_ms FROM dedup WHERE dedup_id = ?1";
pub(crate) const SQL_DEDUP_PUT: &str = "INSERT INTO dedup (dedup_id, first_seen_ms) VALUES (?1, ?2) \
     ON CONFLICT(dedup_id) DO UPDATE SET first_seen_ms = excluded.first_seen_ms";
pub(crate) const SQL_ENQUEUE: &str = "INSERT INTO queue (message_id, logical_id, order_id, body, enqueued_ms, \
     visible_ms, group_id, dedup_id) VALUES (?1, ?6, ?2, ?3, ?4, ?4, ?5, ?1) RETURNING seq";
pub(crate) const SQL_RECEIVE: &str = "UPDATE queue SET visible_ms = ?1 + ?2, locked_until_ms = ?1 + ?2, \
     lock_token = ?3, delivery_count = delivery_count + 1 WHERE seq = (SELECT seq FROM queue \
     WHERE visible_ms <= ?1 ORDER BY seq LIMIT 1 OFFSET ?4) \
     RETURNING seq, message_id, order_id, body, delivery_count, logical_id, attempt";
/// Per-group order (sessions / FIFO groups): nothing is handed out while an earlier message
/// of the same group is still in the queue.
pub(crate) const SQL_RECEIVE_ORDERED: &str = "UPDATE queue SET visible_ms = ?1 + ?2, locked_until_ms = ?1 + ?2, \
     lock_token = ?3, delivery_count = delivery_count + 1 WHERE seq = (SELECT q.seq FROM queue q \
     WHERE q.visible_ms <= ?1 AND (q.group_id IS NULL OR NOT EXISTS (SELECT 1 FROM queue p \
     WHERE p.group_id = q.group_id AND p.seq < q.seq)) ORDER BY q.seq LIMIT 1 OFFSET ?4) \
     RETURNING seq, message_id, order_id, body, delivery_count, logical_id, attempt";
pub(crate) const SQL_COMPLETE: &str =
    "DELETE FROM queue WHERE seq = ?1 AND lock_token = ?2 AND locked_until_ms > ?3";
pub(crate) const SQL_RENEW: &str = "UPDATE queue SET locked_until_ms = ?4, visible_ms = ?4 \
     WHERE seq = ?1 AND lock_token = ?2 AND locked_until_ms > ?3";
pub(crate) const SQL_ABANDON: &str = "UPDATE queue SET visible_ms = ?3, locked_until_ms = NULL, lock_token = NULL \
     WHERE seq = ?1 AND lock_token = ?2 AND locked_until_ms > ?4";
/// The DLQ entry keeps the session id / `MessageGroupId` and the deduplication id, so that a
/// replay rejoins its group (SQS redrive and a Service Bus resubmit keep them).
pub(crate) const SQL_DEAD_LETTER: &str = "INSERT INTO dlq (message_id, logical_id, order_id, body, reason, \
     description, delivery_count, dead_lettered_ms, group_id, dedup_id) SELECT message_id, logical_id, order_id, \
     body, ?2, ?3, ?6, ?4, group_id, dedup_id FROM queue WHERE seq = ?1 AND lock_token = ?5 RETURNING seq";
/// SQS has no dead-letter call: the consumer sends the message it holds to the DLQ queue
/// (`SendMessage` needs no receipt handle, so it succeeds whatever became of the visibility
/// timeout) with its group and deduplication id.
pub(crate) const SQL_FORWARD_TO_DLQ: &str = "INSERT INTO dlq (message_id, logical_id, order_id, body, reason, \
     description, delivery_count, dead_lettered_ms, group_id, dedup_id) SELECT message_id, logical_id, order_id, \
     body, ?2, ?3, ?5, ?4, group_id, dedup_id FROM queue WHERE seq = ?1 RETURNING seq";
/// The same send when another consumer has deleted the queue row meanwhile: the consumer still
/// holds its copy of the message.
pub(crate) const SQL_FORWARD_HELD_COPY: &str = "INSERT INTO dlq (message_id, logical_id, order_id, body, reason, \
     description, delivery_count, dead_lettered_ms) VALUES (?1, ?1, ?6, ?7, ?2, ?3, ?5, ?4) RETURNING seq";
pub(crate) const SQL_LOCK_HELD: &str =
    "SELECT 1 FROM queue WHERE seq = ?1 AND lock_token = ?2 AND locked_until_ms > ?3";
pub(crate) const SQL_QUEUED_ID: &str = "SELECT message_id FROM queue WHERE seq = ?1";
pub(crate) const SQL_DELETE: &str = "DELETE FROM queue WHERE seq = ?1 AND lock_token = ?2";
pub(crate) const SQL_DUPLICATE: &str = "INSERT INTO queue (message_id, logical_id, order_id, body, enqueued_ms, \
     visible_ms, delivery_count, group_id, dedup_id, attempt) SELECT message_id, logical_id, order_id, body, ?2, ?3, 0, \
     group_id, dedup_id, attempt \
     FROM queue WHERE seq = ?1 RETURNING seq";

pub(crate) const RECEIVE_SQL: &[&str] = &[SQL_RECEIVE];
pub(crate) const RECEIVE_ORDERED_SQL: &[&str] = &[SQL_RECEIVE_ORDERED];
pub(crate) const RECEIVE_DUP_SQL: &[&str] = &[SQL_RECEIVE, SQL_DUPLICATE];
pub(crate) const DEAD_LETTER_SQL: &[&str] =
    &["BEGIN IMMEDIATE", SQL_DEAD_LETTER, SQL_DELETE, "COMMIT"];

/// A message as the broker hands it out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Received {
    pub seq: i64,
    /// The broker's `MessageId`.
    pub message_id: String,
    /// The envelope's message id (the inbox deduplicates on it); equal to `message_id` unless
    /// the message is a DLQ replay under a new `MessageId`.
    pub logical_id: String,
    pub order_id: i64,
    pub body: String,
    pub delivery_count: u32,
    /// The consumer's own attempt counter (1 unless the message is a scheduled copy).
    pub attempt: u32,
}

/// The lock token / receipt handle text.
pub(crate) fn token_text(token: u64) -> String {
    format!("lt-{token}")
}

/// One send to the broker.
pub(crate) struct Outgoing<'a> {
    /// The broker's `MessageId` (duplicate detection looks at it).
    pub message_id: &'a str,
    /// The envelope's message id.
    pub logical_id: &'a str,
    pub order_id: i64,
    pub body: &'a str,
    pub group: Option<&'a str>,
}

/// Enqueues one new message (its `MessageId` is its logical id) unless the broker saw its id
/// within `dedup_window`; `None` = dropped.
pub(crate) fn enqueue(
    conn: &Connection,
    now: u64,
    dedup_window: Option<u64>,
    message_id: &str,
    order_id: i64,
    body: &str,
    group: Option<&str>,
) -> rusqlite::Result<Option<i64>> {
    send(
        conn,
        now,
        dedup_window,
        &Outgoing {
            message_id,
            logical_id: message_id,
            order_id,
            body,
            group,
        },
    )
}

/// Sends `m` unless the broker saw its `MessageId` within `dedup_window`; `None` = dropped
/// (silently: the sender sees a successful send).
pub(crate) fn send(
    conn: &Connection,
    now: u64,
    dedup_window: Option<u64>,
    m: &Outgoing<'_>,
) -> rusqlite::Result<Option<i64>> {
    if let Some(window) = dedup_window {
        let seen: Option<i64> = conn
            .prepare_cached(SQL_DEDUP_SEEN)?
            .query_row(params![m.message_id], |r| r.get(0))
            .optional()?;
        if seen.is_some_and(|t| now.saturating_sub(t as u64) < window) {
            return Ok(None);
        }
        conn.prepare_cached(SQL_DEDUP_PUT)?
            .execute(params![m.message_id, now as i64])?;
    }
    conn.prepare_cached(SQL_ENQUEUE)?
        .query_row(
            params![
                m.message_id,
                m.order_id,
                m.body,
                now as i64,
                m.group,
                m.logical_id
            ],
            |r| r.get(0),
        )
        .map(Some)
}

/// Receives the first visible message (skipping `offset` for SQS standard's loose order).
pub(crate) fn receive(
    conn: &Connection,
    now: u64,
    lock_ms: u64,
    token: u64,
    ordered: bool,
    offset: u32,
) -> rusqlite::Result<Option<Received>> {
    let sql = if ordered {
        SQL_RECEIVE_ORDERED
    } else {
        SQL_RECEIVE
    };
    conn.prepare_cached(sql)?
        .query_row(
            params![now as i64, lock_ms as i64, token_text(token), offset],
            |r| {
                Ok(Received {
                    seq: r.get(0)?,
                    message_id: r.get(1)?,
                    order_id: r.get(2)?,
                    body: r.get(3)?,
                    delivery_count: r.get::<_, u32>(4)?,
                    logical_id: r.get(5)?,
                    attempt: r.get::<_, u32>(6)?,
                })
            },
        )
        .optional()
}

/// Completes (deletes) a message; false when the lock was lost.
pub(crate) fn complete(
    conn: &Connection,
    seq: i64,
    token: u64,
    now: u64,
) -> rusqlite::Result<bool> {
    Ok(conn
        .prepare_cached(SQL_COMPLETE)?
        .execute(params![seq, token_text(token), now as i64])?
        == 1)
}

/// SQS `DeleteMessage`: deletes the message when `token` is its most recent receipt handle
/// (even after the visibility timeout ran out); with an older handle the call still succeeds
/// but deletes nothing. Returns whether a row was deleted (the caller cannot see it).
pub(crate) fn delete_message(conn: &Connection, seq: i64, token: u64) -> rusqlite::Result<bool> {
    Ok(conn
        .prepare_cached(SQL_DELETE)?
        .execute(params![seq, token_text(token)])?
        == 1)
}

/// True while the lock `token` on message `seq` is still held (Service Bus: renewing the lock
/// right before committing; SQS: the receipt handle's visibility timeout has not run out).
pub(crate) fn lock_held(
    conn: &Connection,
    seq: i64,
    token: u64,
    now: u64,
) -> rusqlite::Result<bool> {
    Ok(conn
        .prepare_cached(SQL_LOCK_HELD)?
        .query_row(params![seq, token_text(token), now as i64], |_| Ok(()))
        .optional()?
        .is_some())
}

/// Extends a lock that is still held until `until`; false when it was already lost.
pub(crate) fn renew(
    conn: &Connection,
    seq: i64,
    token: u64,
    now: u64,
    until: u64,
) -> rusqlite::Result<bool> {
    Ok(conn.prepare_cached(SQL_RENEW)?.execute(params![
        seq,
        token_text(token),
        now as i64,
        until as i64
    ])? == 1)
}

/// Abandons (Service Bus) / changes the visibility (SQS) of a message so that it becomes
/// visible at `visible_at`; false when the lock / receipt handle is no longer valid
/// (`MessageLockLost` / `ReceiptHandleIsInvalid`).
pub(crate) fn abandon(
    conn: &Connection,
    seq: i64,
    token: u64,
    now: u64,
    visible_at: u64,
) -> rusqlite::Result<bool> {
    Ok(conn.prepare_cached(SQL_ABANDON)?.execute(params![
        seq,
        token_text(token),
        visible_at as i64,
        now as i64
    ])? == 1)
}

/// What a DLQ entry records: reason, description and how many deliveries took place.
pub(crate) struct DeadLetterNote<'a> {
    pub reason: &'a str,
    pub description: &'a str,
    /// Deliveries that took place (one meaning everywhere: the n-th hand-over to a consumer).
    pub deliveries: u32,
}

/// Moves the message received under `token` to the DLQ in one transaction; returns the DLQ
/// sequence number, `None` when the row no longer carries that token (nothing moves).
pub(crate) fn dead_letter(
    conn: &Connection,
    seq: i64,
    token: u64,
    note: &DeadLetterNote<'_>,
    now: u64,
) -> rusqlite::Result<Option<i64>> {
    let tx = super::begin_immediate(conn)?;
    let token = token_text(token);
    let dlq_seq: Option<i64> = tx
        .prepare_cached(SQL_DEAD_LETTER)?
        .query_row(
            params![
                seq,
                note.reason,
                note.description,
                now as i64,
                token,
                note.deliveries
            ],
            |r| r.get(0),
        )
        .optional()?;
    if dlq_seq.is_some() {
        tx.prepare_cached(SQL_DELETE)?
            .execute(params![seq, token])?;
    }
    tx.commit()?;
    Ok(dlq_seq)
}

/// The message an SQS consumer holds: its queue row, its receipt handle and its own copy.
pub(crate) struct HeldMessage<'a> {
    pub seq: i64,
    pub token: u64,
    /// The envelope's message id.
    pub message_id: &'a str,
    pub order_id: i64,
    pub body: &'a str,
}

/// SQS: the consumer's forward to the DLQ queue - `SendMessage` of its copy, then
/// `DeleteMessage` with its receipt handle. Two calls, no transaction between them (SQS has
/// none). Returns the DLQ sequence number and whether the delete removed the queue row: with a
/// stale handle (the message was received again since) it succeeds without deleting.
pub(crate) fn forward_to_dlq(
    conn: &Connection,
    held: &HeldMessage<'_>,
    note: &DeadLetterNote<'_>,
    now: u64,
) -> rusqlite::Result<(i64, bool)> {
    let from_queue: Option<i64> = conn
        .prepare_cached(SQL_FORWARD_TO_DLQ)?
        .query_row(
            params![
                held.seq,
                note.reason,
                note.description,
                now as i64,
                note.deliveries
            ],
            |r| r.get(0),
        )
        .optional()?;
    let dlq_seq = match from_queue {
        Some(seq) => seq,
        None => conn.prepare_cached(SQL_FORWARD_HELD_COPY)?.query_row(
            params![
                held.message_id,
                note.reason,
                note.description,
                now as i64,
                note.deliveries,
                held.order_id,
                held.body
            ],
            |r| r.get(0),
        )?,
    };
    let deleted = delete_message(conn, held.seq, held.token)?;
    Ok((dlq_seq, deleted))
}

/// Leaves a second copy of message `seq` in the queue, visible at `visible_at` (duplicate
/// delivery).
pub(crate) fn duplicate(
    conn: &Connection,
    seq: i64,
    now: u64,
    visible_at: u64,
) -> rusqlite::Result<i64> {
    conn.prepare_cached(SQL_DUPLICATE)?
        .query_row(params![seq, now as i64, visible_at as i64], |r| r.get(0))
}
