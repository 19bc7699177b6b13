//! The consumer's SQL on `service.db` and the external provider's on `provider.db`, as free
//! functions over a connection (unit-tested against real files).

use rusqlite::{Connection, ErrorCode, OptionalExtension, params};

pub(crate) const SQL_INBOX_CHECK: &str = "SELECT 1 FROM inbox WHERE message_id = ?1 AND consumer = ?2 \
     AND processed_ms IS NOT NULL LIMIT 1";
pub(crate) const SQL_INBOX_INSERT: &str = "INSERT INTO inbox (message_id, consumer, instance, received_ms, \
     processed_ms) VALUES (?1, ?2, ?3, ?4, ?5) RETURNING id";
pub(crate) const SQL_EFFECT_INSERT: &str = "INSERT INTO effects (business_key, order_id, message_id, kind, \
     amount_cents, payload_ok, applied_ms, instance) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) RETURNING id";
pub(crate) const SQL_RECEIPT_INSERT: &str =
    "INSERT INTO receipts (message_id, instance, outcome, at_ms) VALUES (?1, ?2, ?3, ?4)";
pub(crate) const SQL_INBOX_PROCESSED: &str =
    "SELECT processed_ms FROM inbox WHERE message_id = ?1 AND consumer = ?2";
pub(crate) const SQL_CLAIM_RELEASE: &str = "DELETE FROM inbox WHERE message_id = ?1 AND consumer = ?2 \
     AND instance = ?3 AND processed_ms IS NULL RETURNING id";
pub(crate) const SQL_CLAIM_DONE: &str = "UPDATE inbox SET processed_ms = ?4 WHERE message_id = ?1 \
     AND consumer = ?2 AND instance = ?3 AND processed_ms IS NULL RETURNING id";
pub(crate) const SQL_CHARGE_KEYED: &str = "INSERT INTO charges (idempotency_key, order_id, amount_cents, \
     performed_ms) VALUES (?1, ?2, ?3, ?4) ON CONFLICT(idempotency_key) DO NOTHING RETURNING id";
pub(crate) const SQL_CHARGE_FIND: &str = "SELECT id FROM charges WHERE idempotency_key = ?1";

/// SQLite's extended result code for a UNIQUE constraint violation.
pub const SQLITE_CONSTRAINT_UNIQUE: i32 = 2067;
/// How SQLite names the inbox's unique columns in the violation message (it names columns, not
/// the index): only this message means "another instance already processed the message".
pub const INBOX_UNIQUE_COLUMNS: &str = "inbox.message_id, inbox.consumer";

/// What a SQLite error means to the consumer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Violation {
    /// 2067 on the inbox's `(message_id, consumer)`: a duplicate, already done.
    InboxDuplicate,
    /// Any other unique violation (e.g. the effects business key): a real error.
    OtherUnique(String),
    /// Anything else.
    Other(String),
}

/// Classifies an error by extended code AND the inbox columns in the message.
pub fn classify(e: &rusqlite::Error) -> Violation {
    if let rusqlite::Error::SqliteFailure(f, msg) = e
        && f.code == ErrorCode::ConstraintViolation
        && f.extended_code == SQLITE_CONSTRAINT_UNIQUE
    {
        let text = msg.clone().unwrap_or_default();
        return if text.contains(INBOX_UNIQUE_COLUMNS) {
            Violation::InboxDuplicate
        } else {
            Violation::OtherUnique(text)
        };
    }
    Violation::Other(e.to_string())
}

/// One effect to write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct EffectRow {
    pub business_key: String,
    pub order_id: i64,
    pub message_id: String,
    pub kind: &'static str,
    pub amount_cents: i64,
    pub payload_ok: bool,
    pub instance: String,
}

/// Result of the safe transaction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Applied {
    /// Marker and effect committed: `(inbox id, effect id)`.
    Done(i64, i64),
    /// The unique inbox index said: already processed.
    Duplicate,
}

/// Existence check (the naive protection; in safe mode only a shortcut).
pub(crate) fn inbox_seen(
    conn: &Connection,
    message_id: &str,
    consumer: &str,
) -> rusqlite::Result<bool> {
    conn.prepare_cached(SQL_INBOX_CHECK)?
        .query_row(params![message_id, consumer], |_| Ok(()))
        .optional()
        .map(|o| o.is_some())
}

/// Inserts the inbox marker (processed at `processed`, or a claim when `None`).
pub(crate) fn insert_marker(
    conn: &Connection,
    message_id: &str,
    consumer: &str,
    instance: &str,
    now: u64,
    processed: Option<u64>,
) -> rusqlite::Result<i64> {
    conn.prepare_cached(SQL_INBOX_INSERT)?.query_row(
        params![
            message_id,
            consumer,
            instance,
            now as i64,
            processed.map(|p| p as i64)
        ],
        |r| r.get(0),
    )
}

/// Inserts an effect row.
pub(crate) fn insert_effect(conn: &Connection, e: &EffectRow, now: u64) -> rusqlite::Result<i64> {
    conn.prepare_cached(SQL_EFFECT_INSERT)?.query_row(
        params![
            e.business_key,
            e.order_id,
            e.message_id,
            e.kind,
            e.amount_cents,
            i64::from(e.payload_ok),
            now as i64,
            e.instance
        ],
        |r| r.get(0),
    )
}

/// Safe mode: marker + effect + receipt in one `BEGIN IMMEDIATE` transaction. A duplicate
/// (2067 on the inbox columns) rolls back, writes its `duplicate` receipt and reports
/// `Duplicate`; any other error — a unique
/// violation of the effects business key included — is returned as an error.
pub(crate) fn apply_safe(
    conn: &Connection,
    consumer: &str,
    e: &EffectRow,
    now: u64,
) -> rusqlite::Result<Applied> {
    let tx = super::begin_immediate(conn)?;
    let inbox_id = match insert_marker(&tx, &e.message_id, consumer, &e.instance, now, Some(now)) {
        Ok(id) => id,
        Err(err) if classify(&err) == Violation::InboxDuplicate => {
            tx.rollback()?;
            record_duplicate(conn, &e.message_id, &e.instance, now)?;
            return Ok(Applied::Duplicate);
        }
        Err(err) => return Err(err),
    };
    let effect_id = insert_effect(&tx, e, now)?;
    tx.prepare_cached(SQL_RECEIPT_INSERT)?.execute(params![
        e.message_id,
        e.instance,
        "applied",
        now as i64
    ])?;
    tx.commit()?;
    Ok(Applied::Done(inbox_id, effect_id))
}

/// The consumer's receipt of a duplicate the inbox recognised (its existence check found the
/// row, or the unique index refused a second one): nothing was applied. These rows are the
/// inbox's share of the `prevented_duplicates` metric.
pub(crate) fn record_duplicate(
    conn: &Connection,
    message_id: &str,
    instance: &str,
    now: u64,
) -> rusqlite::Result<()> {
    conn.prepare_cached(SQL_RECEIPT_INSERT)?.execute(params![
        message_id,
        instance,
        "duplicate",
        now as i64
    ])?;
    Ok(())
}

/// Whether the marker of `message_id` is processed (`Some(true)`), only claimed (`Some(false)`).
pub(crate) fn marker_state(
    conn: &Connection,
    message_id: &str,
    consumer: &str,
) -> rusqlite::Result<Option<bool>> {
    conn.prepare_cached(SQL_INBOX_PROCESSED)?
        .query_row(params![message_id, consumer], |r| {
            r.get::<_, Option<i64>>(0)
        })
        .optional()
        .map(|o| o.map(|p| p.is_some()))
}

/// Calls the provider. With a key, a repeated call returns the first charge: `(id, new)`.
pub(crate) fn charge(
    conn: &Connection,
    key: Option<&str>,
    order_id: i64,
    amount: i64,
    now: u64,
) -> rusqlite::Result<(i64, bool)> {
    let inserted: Option<i64> = conn
        .prepare_cached(SQL_CHARGE_KEYED)?
        .query_row(params![key, order_id, amount, now as i64], |r| r.get(0))
        .optional()?;
    match (inserted, key) {
        (Some(id), _) => Ok((id, true)),
        (None, Some(k)) => conn
            .prepare_cached(SQL_CHARGE_FIND)?
            .query_row(params![k], |r| r.get(0))
            .map(|id| (id, false)),
        (None, None) => Err(rusqlite::Error::QueryReturnedNoRows),
    }
}
