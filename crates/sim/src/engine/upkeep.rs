//! The sweeper (inbox retention, stale claims, stale leases), the scenario script, injected
//! faults and the operator's "cause fixed" (the DLQ replay is in [`super::replay`]).

use rusqlite::params;

use super::action::Action;
use super::replay::ReplayIds;
use super::{CONSUMER_NAME, SimError, Simulation, SqlContext};
use crate::fault::Fault;
use crate::model::{Actor, Event, EventKind, Pitfall, Stage};
use crate::moments::Fact;
use crate::scenario::ScriptAction;
use crate::state::rows::OutboxColumn;
use crate::state::{RowChange, Table};

pub(crate) const SQL_SWEEP_RETENTION: &str =
    "DELETE FROM inbox WHERE processed_ms IS NOT NULL AND processed_ms < ?1 RETURNING id";
pub(crate) const SQL_SWEEP_CLAIMS: &str = "DELETE FROM inbox WHERE processed_ms IS NULL AND received_ms < ?1 AND consumer = ?2 RETURNING id";
pub(crate) const SQL_SWEEP_LEASES: &str = "UPDATE outbox SET lease_owner = NULL, lease_until_ms = NULL \
     WHERE published_ms IS NULL AND lease_until_ms < ?1 RETURNING id";

const SWEEP_SQL: &[&str] = &[SQL_SWEEP_RETENTION, SQL_SWEEP_CLAIMS, SQL_SWEEP_LEASES];

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
        // Where the learner's handler claims a message before it calls the provider, a claim's
        // expiry is the learner's job (`:claim_lease_ms`), as a lease's is above.
        let claims = if self.lab_tells_claims_from_duplicates() {
            Vec::new()
        } else {
            ids(
                conn,
                SQL_SWEEP_CLAIMS,
                params![now.saturating_sub(claim_timeout) as i64, CONSUMER_NAME],
            )
            .ctx(actor, "stale claims")?
        };
        // Where the learner's @claim writes the leases, their expiry is the learner's claim's
        // job: the engine clearing expired leases would recover a crashed dispatcher's rows for
        // a claim that never looks at the lease's end.
        let leases = if self.lab_claims() {
            Vec::new()
        } else {
            ids(conn, SQL_SWEEP_LEASES, params![now as i64]).ctx(actor, "stale leases")?
        };
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
            self.change(RowChange::set(*id, OutboxColumn::LeaseOwner, String::new()));
            self.change(RowChange::set(
                *id,
                OutboxColumn::LeaseUntilMs,
                String::new(),
            ));
        }
        self.ledger
            .inbox_markers_removed(retained.len() + claims.len());
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
            // The pitfall's team replays without having found the cause: no fix happens.
            ScriptAction::FixCause
                if self
                    .spec
                    .settings
                    .pitfall
                    .is_some_and(Pitfall::leaves_cause_unfixed) =>
            {
                Ok(None)
            }
            ScriptAction::FixCause => Ok(Some(self.fix_cause_now())),
            ScriptAction::ReplayDlq => self
                .replay_dlq_now(step.count, None, ReplayIds::Same)
                .map(Some),
            ScriptAction::ReplayDlqNewIds => self
                .replay_dlq_now(step.count, None, ReplayIds::New)
                .map(Some),
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
}
