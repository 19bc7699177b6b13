//! The sweeper (inbox retention, stale claims, stale leases), the scenario script, injected
//! faults and the operator's DLQ triage.

use rusqlite::{OptionalExtension, params};

use super::actions::Action;
use super::{CONSUMER_NAME, SimError, Simulation, SqlContext};
use crate::sim::fault::Fault;
use crate::sim::model::{Actor, Event, EventKind, Stage};
use crate::sim::moments::Fact;
use crate::sim::scenario::ScriptAction;
use crate::sim::state::{RowChange, Table, col};

pub(crate) const SQL_SWEEP_RETENTION: &str =
    "DELETE FROM inbox WHERE processed_ms IS NOT NULL AND processed_ms < ?1 RETURNING id";
pub(crate) const SQL_SWEEP_CLAIMS: &str = "DELETE FROM inbox WHERE processed_ms IS NULL AND received_ms < ?1 AND consumer = ?2 RETURNING id";
pub(crate) const SQL_SWEEP_LEASES: &str = "UPDATE outbox SET lease_owner = NULL, lease_until_ms = NULL \
     WHERE published_ms IS NULL AND lease_until_ms < ?1 RETURNING id";
pub(crate) const SQL_REPLAY_PICK: &str = "SELECT seq, message_id, order_id, body FROM dlq \
     WHERE replayed_ms IS NULL ORDER BY seq LIMIT ?1";
pub(crate) const SQL_REPLAY_ONE: &str = "SELECT seq, message_id, order_id, body FROM dlq \
     WHERE seq = ?1 AND replayed_ms IS NULL";
pub(crate) const SQL_REPLAY_MARK: &str = "UPDATE dlq SET replayed_ms = ?2 WHERE seq = ?1";

const SWEEP_SQL: &[&str] = &[SQL_SWEEP_RETENTION, SQL_SWEEP_CLAIMS, SQL_SWEEP_LEASES];
const REPLAY_SQL: &[&str] = &[
    "BEGIN IMMEDIATE",
    SQL_REPLAY_PICK,
    super::broker::SQL_ENQUEUE,
    SQL_REPLAY_MARK,
    "COMMIT",
];

fn ids(
    conn: &rusqlite::Connection,
    sql: &str,
    p: impl rusqlite::Params,
) -> rusqlite::Result<Vec<i64>> {
    let mut stmt = conn.prepare_cached(sql)?;
    let rows = stmt.query_map(p, |r| r.get(0))?;
    rows.collect()
}

impl Simulation {
    /// The sweeper's pass; reschedules itself while other work remains.
    pub(crate) fn sweep(&mut self) -> Result<Option<Event>, SimError> {
        let actor = Actor::Sweeper;
        let now = self.clock.now;
        let claim_timeout = self.spec.settings.lock_ms.saturating_mul(2);
        let conn = &self.conns.sweeper;
        let retained = ids(
            conn,
            SQL_SWEEP_RETENTION,
            params![now.saturating_sub(self.spec.settings.retention_ms) as i64],
        )
        .ctx(actor, "retention")?;
        let claims = ids(
            conn,
            SQL_SWEEP_CLAIMS,
            params![now.saturating_sub(claim_timeout) as i64, CONSUMER_NAME],
        )
        .ctx(actor, "stale claims")?;
        let leases = ids(conn, SQL_SWEEP_LEASES, params![now as i64]).ctx(actor, "stale leases")?;
        if !retained.is_empty() {
            self.note(Fact::MarkersSwept {
                count: retained.len() as u64,
                retention_ms: self.spec.settings.retention_ms,
            });
        }
        for id in retained.iter().chain(&claims) {
            self.change(RowChange::Delete(Table::Inbox, *id));
        }
        for id in &leases {
            self.change(RowChange::Set(
                Table::Outbox,
                *id,
                col::OUTBOX_LEASE_OWNER,
                String::new(),
            ));
            self.change(RowChange::Set(
                Table::Outbox,
                *id,
                col::OUTBOX_LEASE_UNTIL,
                String::new(),
            ));
        }
        let st = &mut self.ledger.stages;
        st.inbox = st
            .inbox
            .saturating_sub((retained.len() + claims.len()) as u64);
        if !leases.is_empty() {
            self.wake_dispatcher(now);
        }
        let more = !self.only_sweeper_left();
        if more {
            self.schedule(now + self.spec.scenario.setup.sweep_ms, Action::Sweep);
        }
        if retained.is_empty() && claims.is_empty() && leases.is_empty() && more {
            // Nothing removed: keep the quiet pass out of the trace.
            return Ok(None);
        }
        Ok(Some(
            Event::new(actor, Stage::Consumer, EventKind::Sweep)
                .sql(SWEEP_SQL)
                .args(vec![
                    retained.len().to_string(),
                    claims.len().to_string(),
                    leases.len().to_string(),
                    self.spec.settings.retention_ms.to_string(),
                ]),
        ))
    }

    /// Schedules the next script step, if any.
    pub(crate) fn schedule_next_script(&mut self) {
        if let Some(step) = self.script.steps.get(self.script.next) {
            self.schedule(step.at_ms, Action::Script);
        }
    }

    /// Runs the next script step.
    pub(crate) fn run_script_step(&mut self) -> Result<Option<Event>, SimError> {
        let Some(step) = self.script.steps.get(self.script.next).copied() else {
            return Ok(None);
        };
        self.script.next += 1;
        self.schedule_next_script();
        match step.action {
            ScriptAction::Fault(f) => Ok(Some(self.arm(f, step.count, false))),
            ScriptAction::FixCause => Ok(Some(self.fix_cause_now())),
            ScriptAction::ReplayDlq => self.replay_dlq_now(step.count, None).map(Some),
        }
    }

    /// Arms a fault `count` times (a broker outage starts at once).
    pub(crate) fn arm(&mut self, fault: Fault, count: u32, by_trainee: bool) -> Event {
        let actor = if by_trainee {
            Actor::Operator
        } else {
            Actor::Script
        };
        if let Fault::BrokerDown { duration_ms } = fault {
            let until = self.clock.now + duration_ms;
            self.actors.broker.down_until = self.actors.broker.down_until.max(until);
            self.schedule(until, Action::BrokerUp);
            return Event::new(actor, Stage::Broker, EventKind::BrokerDown)
                .args(vec![duration_ms.to_string()]);
        }
        for _ in 0..count {
            self.script.armed.arm(fault);
        }
        Event::new(actor, Stage::Api, EventKind::FaultArmed)
            .args(vec![fault.as_str().into(), count.to_string()])
    }

    /// The cause of the poison messages is fixed.
    pub(crate) fn fix_cause_now(&mut self) -> Event {
        self.script.cause_fixed = true;
        Event::new(Actor::Operator, Stage::Dlq, EventKind::CauseFixed)
    }

    /// Replays up to `n` DLQ entries into the queue (fresh delivery count).
    /// Replays the DLQ entries the operator chose (sequence numbers), or the oldest `n` when
    /// `chosen` is `None`.
    pub(crate) fn replay_dlq_now(
        &mut self,
        n: u32,
        chosen: Option<&[i64]>,
    ) -> Result<Event, SimError> {
        let actor = Actor::Operator;
        let now = self.clock.now;
        let conn = &self.conns.broker;
        let tx = super::begin_immediate(conn).ctx(actor, "begin replay")?;
        let row = |r: &rusqlite::Row<'_>| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?));
        let picked: Vec<(i64, String, i64, String)> = if let Some(seqs) = chosen {
            let mut stmt = tx
                .prepare_cached(SQL_REPLAY_ONE)
                .ctx(actor, "pick DLQ entries")?;
            let mut out = Vec::with_capacity(seqs.len());
            for seq in seqs {
                out.extend(
                    stmt.query_row(params![seq], row)
                        .optional()
                        .ctx(actor, "pick DLQ entries")?,
                );
            }
            out
        } else {
            let mut stmt = tx
                .prepare_cached(SQL_REPLAY_PICK)
                .ctx(actor, "pick DLQ entries")?;
            let rows = stmt
                .query_map(params![n], row)
                .ctx(actor, "pick DLQ entries")?;
            rows.collect::<rusqlite::Result<_>>()
                .ctx(actor, "pick DLQ entries")?
        };
        let mut enqueued = Vec::with_capacity(picked.len());
        for (dlq_seq, msg, order_id, body) in &picked {
            // Replays bypass duplicate detection: the operator means to send it again.
            let seq = super::broker::enqueue(&tx, now, None, msg, *order_id, body, None)
                .ctx(actor, "replay")?;
            tx.prepare_cached(SQL_REPLAY_MARK)
                .and_then(|mut s| s.execute(params![dlq_seq, now as i64]))
                .ctx(actor, "mark replayed")?;
            enqueued.push((*dlq_seq, seq, msg.clone()));
        }
        tx.commit().ctx(actor, "commit replay")?;
        for (dlq_seq, seq, msg) in &enqueued {
            self.change(RowChange::Set(
                Table::Dlq,
                *dlq_seq,
                col::DLQ_REPLAYED,
                now.to_string(),
            ));
            if let Some(seq) = seq {
                self.picture_enqueued(*seq, msg, None);
            }
            self.note(Fact::Replayed {
                message_id: msg.clone(),
            });
        }
        let st = &mut self.ledger.stages;
        st.dlq = st.dlq.saturating_sub(enqueued.len() as u64);
        self.wake_consumers(now + 1, enqueued.len());
        let first = enqueued.first().map(|e| e.2.clone());
        Ok(Event::new(actor, Stage::Dlq, EventKind::DlqReplayed)
            .maybe_message(first.as_deref())
            .sql(REPLAY_SQL)
            .args(vec![enqueued.len().to_string(), n.to_string()]))
    }
}
