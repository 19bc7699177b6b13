//! The operator's DLQ replay, as a resubmit tool does it: send a copy of each chosen DLQ
//! message back into the queue, then complete (remove) the DLQ entry once the send succeeded.
//! With duplicate detection on (Service Bus on `MessageId`, SQS FIFO on the deduplication id)
//! the broker silently drops a copy whose `MessageId` it saw inside the window - the send still
//! looks successful, so the tool completes the entry and the message is lost. The sound
//! practice replays under a new broker `MessageId` while the envelope keeps the logical message
//! id the inbox deduplicates on: a copy of a message that was already processed is recognised
//! by the inbox, one that never was takes effect once.

use rusqlite::{OptionalExtension, params};

use super::{SimError, Simulation, SqlContext};
use crate::model::{Actor, Event, EventKind, Outcome, Stage};
use crate::moments::{Fact, Loss};
use crate::state::RowChange;
use crate::state::rows::DlqColumn;

pub(crate) const SQL_REPLAY_PICK: &str = "SELECT seq, message_id, logical_id, order_id, body, \
     group_id FROM dlq WHERE replayed_ms IS NULL ORDER BY seq LIMIT ?1";
pub(crate) const SQL_REPLAY_ONE: &str = "SELECT seq, message_id, logical_id, order_id, body, \
     group_id FROM dlq WHERE seq = ?1 AND replayed_ms IS NULL";
pub(crate) const SQL_REPLAY_MARK: &str = "UPDATE dlq SET replayed_ms = ?2 WHERE seq = ?1";

const REPLAY_SQL: &[&str] = &[
    "BEGIN IMMEDIATE",
    SQL_REPLAY_PICK,
    super::broker::SQL_ENQUEUE,
    SQL_REPLAY_MARK,
    "COMMIT",
];
/// With duplicate detection on, the send is checked against the ids seen in the window.
const REPLAY_DEDUP_SQL: &[&str] = &[
    "BEGIN IMMEDIATE",
    SQL_REPLAY_PICK,
    super::broker::SQL_DEDUP_SEEN,
    super::broker::SQL_DEDUP_PUT,
    super::broker::SQL_ENQUEUE,
    SQL_REPLAY_MARK,
    "COMMIT",
];

/// Every copy was dropped: only the lookup in the duplicate-detection history ran for each,
/// and the tool completed the DLQ entry; nothing was queued or recorded as seen.
const REPLAY_DROPPED_SQL: &[&str] = &[
    "BEGIN IMMEDIATE",
    SQL_REPLAY_PICK,
    super::broker::SQL_DEDUP_SEEN,
    SQL_REPLAY_MARK,
    "COMMIT",
];

/// Which broker `MessageId` a replayed copy carries (the envelope keeps its logical id either way).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ReplayIds {
    /// The original `MessageId` (what a plain "resubmit" does).
    Same,
    /// A new `MessageId` per copy ([`new_message_id`]).
    New,
}

/// The broker `MessageId` a replay under a new id sends: the logical id with `-r<DLQ seq>`. DLQ
/// sequence numbers are never reused, so the id is new to the broker's duplicate detection;
/// the envelope still carries the logical id, so the inbox recognises the message.
pub(crate) fn new_message_id(message_id: &str, dlq_seq: i64) -> String {
    let base = message_id
        .split_once("-r")
        .map_or(message_id, |(base, _)| base);
    format!("{base}-r{dlq_seq}")
}

/// One DLQ entry picked for a replay.
struct Picked {
    dlq_seq: i64,
    /// The broker `MessageId` it had.
    message_id: String,
    /// The envelope's message id.
    logical_id: String,
    order_id: i64,
    body: String,
    /// The session id / `MessageGroupId` the message had: its copy rejoins that group.
    group: Option<String>,
}

/// A copy the broker took.
struct Sent {
    dlq_seq: i64,
    queue_seq: i64,
    logical_id: String,
    /// The `MessageId` it was sent under.
    message_id: String,
    group: Option<String>,
}

/// What happened to the copies of one replay.
#[derive(Default)]
struct Outcomes {
    sent: Vec<Sent>,
    /// (DLQ seq, `MessageId` sent, ms since the broker first saw it).
    dropped: Vec<(i64, String, u64)>,
}

impl Simulation {
    /// Replays the DLQ entries the operator chose (sequence numbers), or the oldest `n` when
    /// `chosen` is `None`, under their own or new message ids.
    pub(crate) fn replay_dlq_now(
        &mut self,
        n: u32,
        chosen: Option<&[i64]>,
        ids: ReplayIds,
    ) -> Result<Event, SimError> {
        let actor = Actor::Operator;
        if self.broker_is_down() {
            // The resubmit tool cannot reach the broker: nothing is sent, nothing completed.
            return Ok(Event::new(actor, Stage::Dlq, EventKind::BrokerCallFailed)
                .outcome(Outcome::Failed)
                .args(vec!["resubmit".into()]));
        }
        let window = self.spec.settings.dedup_window_ms;
        let conn = &self.conns.broker;
        let tx = super::begin_immediate(conn).ctx(actor, "begin replay")?;
        let picked = pick(&tx, n, chosen).ctx(actor, "pick DLQ entries")?;
        let out = self.send_copies(&tx, &picked, ids)?;
        tx.commit().ctx(actor, "commit replay")?;
        self.record_replay(&out);
        let ordered = self.spec.settings.ordered;
        Ok(replay_event(n, window, ids, ordered, &out))
    }

    /// Sends a copy of each picked entry under its own or a new message id, and completes the
    /// entry whatever became of the copy (duplicate detection may drop it silently).
    fn send_copies(
        &self,
        tx: &rusqlite::Transaction<'_>,
        picked: &[Picked],
        ids: ReplayIds,
    ) -> Result<Outcomes, SimError> {
        let actor = Actor::Operator;
        let now = self.clock.now;
        let window = self.spec.settings.dedup_window_ms;
        let mut out = Outcomes::default();
        for p in picked {
            let id = match ids {
                ReplayIds::Same => p.message_id.clone(),
                ReplayIds::New => new_message_id(&p.logical_id, p.dlq_seq),
            };
            // The copy rejoins the group the DLQ entry kept (SQS redrive keeps the
            // MessageGroupId, a Service Bus resubmit the SessionId): it waits behind its
            // customer's earlier messages. An entry from before groups were kept has none; on
            // SQS FIFO, which refuses a send without one, it becomes a group of its own.
            let group = p
                .group
                .clone()
                .or_else(|| self.sqs_fifo().then(|| id.clone()));
            let copy = super::broker::Outgoing {
                message_id: &id,
                logical_id: &p.logical_id,
                order_id: p.order_id,
                body: &p.body,
                group: group.as_deref(),
            };
            let seq = super::broker::send(tx, now, window, &copy).ctx(actor, "replay")?;
            // The send "succeeded" either way, so the tool completes the DLQ entry.
            tx.prepare_cached(SQL_REPLAY_MARK)
                .and_then(|mut s| s.execute(params![p.dlq_seq, now as i64]))
                .ctx(actor, "complete the DLQ entry")?;
            let Some(seq) = seq else {
                // Duplicate detection dropped the copy without telling the sender: the
                // message is in neither queue any more. Lost.
                let seen: Option<i64> = tx
                    .prepare_cached(super::broker::SQL_DEDUP_SEEN)
                    .and_then(|mut s| s.query_row(params![id], |r| r.get(0)).optional())
                    .ctx(actor, "duplicate detection")?;
                let ago = seen.map_or(0, |t| now.saturating_sub(t as u64));
                out.dropped.push((p.dlq_seq, id, ago));
                continue;
            };
            out.sent.push(Sent {
                dlq_seq: p.dlq_seq,
                queue_seq: seq,
                logical_id: p.logical_id.clone(),
                message_id: id,
                group,
            });
        }
        Ok(out)
    }

    /// Puts a replay's outcome into the picture, the facts, the metrics and the stages, and
    /// wakes the consumers for the copies sent.
    fn record_replay(&mut self, out: &Outcomes) {
        let now = self.clock.now;
        let completed = out
            .sent
            .iter()
            .map(|s| s.dlq_seq)
            .chain(out.dropped.iter().map(|d| d.0))
            .collect::<Vec<_>>();
        for dlq_seq in &completed {
            self.change(RowChange::set(
                *dlq_seq,
                DlqColumn::ReplayedMs,
                now.to_string(),
            ));
        }
        for s in &out.sent {
            self.picture_enqueued(s.queue_seq, &s.message_id, s.group.as_deref());
            self.note(Fact::Replayed {
                message_id: s.logical_id.clone(),
                as_id: (s.message_id != s.logical_id).then(|| s.message_id.clone()),
            });
        }
        self.ledger.lost(out.dropped.len());
        for (_, id, _) in &out.dropped {
            self.note(Fact::Lost {
                message_id: id.clone(),
                loss: Loss::ReplayDropped,
            });
        }
        self.ledger.replayed(completed.len());
        self.wake_consumers(now + 1, out.sent.len());
    }
}

/// The event of one replay: the drop when the broker dropped a copy, else what was sent (with
/// the groups the copies rejoined where order per customer matters).
fn replay_event(
    n: u32,
    window: Option<u64>,
    ids: ReplayIds,
    ordered: bool,
    out: &Outcomes,
) -> Event {
    // The statements that ran: a dropped copy ran only the lookup.
    let sql = match (window, out.sent.is_empty()) {
        (None, _) => REPLAY_SQL,
        (Some(_), true) => REPLAY_DROPPED_SQL,
        (Some(_), false) => REPLAY_DEDUP_SQL,
    };
    let ev = |message: Option<&str>, kind, outcome, args| {
        Event::new(Actor::Operator, Stage::Dlq, kind)
            .maybe_message(message)
            .sql(sql)
            .outcome(outcome)
            .args(args)
    };
    // For the record: the message id of every copy sent (the envelope's id, which the
    // consumer receives and the inbox deduplicates on).
    let sent_ids = out
        .sent
        .iter()
        .map(|s| s.logical_id.as_str())
        .collect::<Vec<_>>()
        .join(" ");
    if let Some((_, first, ago)) = out.dropped.first() {
        let all: Vec<&str> = out.dropped.iter().map(|(_, id, _)| id.as_str()).collect();
        return ev(
            Some(first),
            EventKind::ReplayDroppedDuplicate,
            Outcome::Failed,
            vec![
                first.clone(),
                ago.to_string(),
                window.unwrap_or_default().to_string(),
                out.dropped.len().to_string(),
                out.sent.len().to_string(),
                all.join(" "),
                sent_ids,
            ],
        );
    }
    let mut groups: Vec<&str> = out.sent.iter().filter_map(|s| s.group.as_deref()).collect();
    groups.sort_unstable();
    groups.dedup();
    match (ids, out.sent.first()) {
        (_, Some(first)) if ordered && !groups.is_empty() => ev(
            Some(&first.message_id),
            EventKind::DlqReplayedIntoGroup,
            Outcome::Ok,
            vec![out.sent.len().to_string(), groups.join(", "), sent_ids],
        ),
        (ReplayIds::New, Some(first)) => ev(
            Some(&first.message_id),
            EventKind::DlqReplayedNewId,
            Outcome::Ok,
            vec![
                first.logical_id.clone(),
                first.message_id.clone(),
                out.sent.len().to_string(),
                sent_ids,
            ],
        ),
        (_, first) => ev(
            first.map(|s| s.message_id.as_str()),
            EventKind::DlqReplayed,
            Outcome::Ok,
            vec![out.sent.len().to_string(), n.to_string(), sent_ids],
        ),
    }
}

/// The entries a replay takes: the chosen ones still open, or the oldest `n` open ones.
fn pick(
    tx: &rusqlite::Transaction<'_>,
    n: u32,
    chosen: Option<&[i64]>,
) -> rusqlite::Result<Vec<Picked>> {
    let row = |r: &rusqlite::Row<'_>| {
        Ok(Picked {
            dlq_seq: r.get(0)?,
            message_id: r.get(1)?,
            logical_id: r.get(2)?,
            order_id: r.get(3)?,
            body: r.get(4)?,
            group: r.get(5)?,
        })
    };
    if let Some(seqs) = chosen {
        let mut stmt = tx.prepare_cached(SQL_REPLAY_ONE)?;
        let mut out = Vec::with_capacity(seqs.len());
        for seq in seqs {
            out.extend(stmt.query_row(params![seq], row).optional()?);
        }
        return Ok(out);
    }
    let mut stmt = tx.prepare_cached(SQL_REPLAY_PICK)?;
    let rows = stmt.query_map(params![n], row)?;
    rows.collect()
}

#[cfg(test)]
mod tests {
    use super::new_message_id;

    #[test]
    fn a_new_id_keeps_the_order_and_never_stacks() {
        assert_eq!(new_message_id("msg-000003", 7), "msg-000003-r7");
        assert_eq!(new_message_id("msg-000003-r7", 9), "msg-000003-r9");
    }
}
