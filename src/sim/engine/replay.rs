//! The operator's DLQ replay. A replay sends a copy of each chosen DLQ message back into the
//! queue, as a new send: with duplicate detection on (Service Bus on MessageId, SQS FIFO on the
//! deduplication id) the broker drops a copy whose id it saw inside the window, and the entry
//! stays in the DLQ. A replay under a new message id gets through, but the consumer's inbox
//! (keyed by message id) no longer recognises it as the old message.

use rusqlite::{OptionalExtension, params};

use super::{SimError, Simulation, SqlContext};
use crate::sim::model::{Actor, Event, EventKind, Outcome, Stage};
use crate::sim::moments::Fact;
use crate::sim::state::{RowChange, Table, col};

pub(crate) const SQL_REPLAY_PICK: &str = "SELECT seq, message_id, order_id, body FROM dlq \
     WHERE replayed_ms IS NULL ORDER BY seq LIMIT ?1";
pub(crate) const SQL_REPLAY_ONE: &str = "SELECT seq, message_id, order_id, body FROM dlq \
     WHERE seq = ?1 AND replayed_ms IS NULL";
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

/// Which message id a replayed copy carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ReplayIds {
    /// The original id (what a plain "resubmit" does).
    Same,
    /// A new id per copy ([`new_message_id`]).
    New,
}

/// The id a replay under a new id sends: the original id with `-r<DLQ seq>`. DLQ sequence
/// numbers are never reused, so the id is new to the broker and to the inbox.
pub(crate) fn new_message_id(message_id: &str, dlq_seq: i64) -> String {
    let base = message_id
        .split_once("-r")
        .map_or(message_id, |(base, _)| base);
    format!("{base}-r{dlq_seq}")
}

/// One DLQ entry picked for a replay: (DLQ seq, message id, order id, body).
type Picked = (i64, String, i64, String);

/// What happened to the copies of one replay.
#[derive(Default)]
struct Outcomes {
    /// (DLQ seq, queue seq, original id, id sent).
    sent: Vec<(i64, i64, String, String)>,
    /// (original id, ms since the broker first saw it).
    dropped: Vec<(String, u64)>,
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
        let now = self.clock.now;
        let window = self.spec.settings.dedup_window_ms;
        let conn = &self.conns.broker;
        let tx = super::begin_immediate(conn).ctx(actor, "begin replay")?;
        let picked = pick(&tx, n, chosen).ctx(actor, "pick DLQ entries")?;
        let mut out = Outcomes::default();
        for (dlq_seq, msg, order_id, body) in &picked {
            let id = match ids {
                ReplayIds::Same => msg.clone(),
                ReplayIds::New => new_message_id(msg, *dlq_seq),
            };
            let seq = super::broker::enqueue(&tx, now, window, &id, *order_id, body, None)
                .ctx(actor, "replay")?;
            let Some(seq) = seq else {
                // The send "succeeds" for the sender; the broker drops the copy. The entry
                // stays in the DLQ, so nothing is lost and it can be replayed another way.
                let seen: Option<i64> = tx
                    .prepare_cached(super::broker::SQL_DEDUP_SEEN)
                    .and_then(|mut s| s.query_row(params![id], |r| r.get(0)).optional())
                    .ctx(actor, "duplicate detection")?;
                let ago = seen.map_or(0, |t| now.saturating_sub(t as u64));
                out.dropped.push((id, ago));
                continue;
            };
            tx.prepare_cached(SQL_REPLAY_MARK)
                .and_then(|mut s| s.execute(params![dlq_seq, now as i64]))
                .ctx(actor, "mark replayed")?;
            out.sent.push((*dlq_seq, seq, msg.clone(), id));
        }
        tx.commit().ctx(actor, "commit replay")?;
        for (dlq_seq, seq, msg, id) in &out.sent {
            self.change(RowChange::Set(
                Table::Dlq,
                *dlq_seq,
                col::DLQ_REPLAYED,
                now.to_string(),
            ));
            self.picture_enqueued(*seq, id, None);
            self.note(Fact::Replayed {
                message_id: msg.clone(),
                as_id: (id != msg).then(|| id.clone()),
            });
        }
        let st = &mut self.ledger.stages;
        st.dlq = st.dlq.saturating_sub(out.sent.len() as u64);
        self.wake_consumers(now + 1, out.sent.len());
        Ok(replay_event(n, window, ids, &out))
    }
}

/// The event of one replay: the drop when the broker dropped a copy, else what was sent.
fn replay_event(n: u32, window: Option<u64>, ids: ReplayIds, out: &Outcomes) -> Event {
    let sql = if window.is_some() {
        REPLAY_DEDUP_SQL
    } else {
        REPLAY_SQL
    };
    let ev = |message: Option<&str>, kind, outcome, args| {
        Event::new(Actor::Operator, Stage::Dlq, kind)
            .maybe_message(message)
            .sql(sql)
            .outcome(outcome)
            .args(args)
    };
    if let Some((first, ago)) = out.dropped.first() {
        let all: Vec<&str> = out.dropped.iter().map(|(id, _)| id.as_str()).collect();
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
            ],
        );
    }
    match (ids, out.sent.first()) {
        (ReplayIds::New, Some((_, _, old, new))) => ev(
            Some(new),
            EventKind::DlqReplayedNewId,
            Outcome::Ok,
            vec![old.clone(), new.clone(), out.sent.len().to_string()],
        ),
        (_, first) => ev(
            first.map(|s| s.3.as_str()),
            EventKind::DlqReplayed,
            Outcome::Ok,
            vec![out.sent.len().to_string(), n.to_string()],
        ),
    }
}

/// The entries a replay takes: the chosen ones still open, or the oldest `n` open ones.
fn pick(
    tx: &rusqlite::Transaction<'_>,
    n: u32,
    chosen: Option<&[i64]>,
) -> rusqlite::Result<Vec<Picked>> {
    let row = |r: &rusqlite::Row<'_>| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?));
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
