//! The read side of a run for the UI and the CLI: snapshots, step back, the event log, DLQ
//! triage and the final report.

use super::{SimError, Simulation, SqlContext};
use crate::model::{Actor, DlqEntry, Event, Mode};
use crate::profile::BrokerProfile;
use crate::report::{RunReport, check_invariants};
use crate::scenario::Scenario;
use crate::state::{Snapshot, State, tokens};
use crate::store::RunPaths;

impl Simulation {
    /// The current picture.
    pub fn snapshot(&self) -> Snapshot {
        self.snapshot_of(self.recorder.live(), self.recorder.last_event())
    }

    fn snapshot_of(&self, state: &State, last_event: Option<&Event>) -> Snapshot {
        let mut metrics = state.scalars.metrics;
        metrics.set_ages(self.ledger.first_ages(state.scalars.ages_len));
        Snapshot {
            scalars: state.scalars,
            metrics,
            tokens: tokens(&state.tables, state.scalars.now_ms),
            last_event: last_event.cloned(),
            tables: state.tables.clone(),
        }
    }

    /// The picture right after event `index` (step back); `None` when that event is not in
    /// the step-back window (see [`Simulation::earliest_step_back`]) or has not happened.
    pub fn state_at(&self, index: u64) -> Option<Snapshot> {
        self.recorder
            .state_at(index)
            .map(|s| self.snapshot_of(&s, s.last_event.as_ref()))
    }

    /// Oldest event index [`Simulation::state_at`] can rebuild.
    pub fn earliest_step_back(&self) -> Option<u64> {
        self.recorder.earliest_step_back()
    }

    /// Recent events (the step-back window), oldest first, with SQL and outcome.
    pub fn events(&self) -> impl DoubleEndedIterator<Item = &Event> + ExactSizeIterator {
        self.recorder.recent_events()
    }

    /// Number of events so far.
    pub fn event_count(&self) -> u64 {
        self.recorder.event_count()
    }

    /// Virtual time, ms.
    pub fn now_ms(&self) -> u64 {
        self.clock.now
    }

    /// Hex SHA-256 over the canonical event lines so far.
    pub fn trace_hash(&self) -> String {
        self.recorder.trace_hash()
    }

    /// The run's files (for `sqlite3`).
    pub fn paths(&self) -> &RunPaths {
        &self.spec.paths
    }

    /// The broker profile in use (values with sources).
    pub fn profile(&self) -> &'static BrokerProfile {
        self.spec.profile
    }

    /// The scenario being run.
    pub fn scenario(&self) -> &Scenario {
        &self.spec.scenario
    }

    /// Mode of this run.
    pub fn mode(&self) -> Mode {
        self.spec.mode
    }

    /// The DLQ entries not yet replayed: `(seq, message_id, reason, description)`.
    pub fn dlq(&self) -> Result<Vec<DlqEntry>, SimError> {
        let mut stmt = self
            .conns
            .broker
            .prepare_cached(
                "SELECT seq, message_id, reason, description, delivery_count FROM dlq \
                 WHERE replayed_ms IS NULL ORDER BY seq",
            )
            .ctx(Actor::Operator, "list the DLQ")?;
        let rows = stmt
            .query_map([], |r| {
                Ok(DlqEntry {
                    seq: r.get(0)?,
                    message_id: r.get(1)?,
                    reason: r.get(2)?,
                    description: r.get(3)?,
                    delivery_count: r.get(4)?,
                })
            })
            .ctx(Actor::Operator, "list the DLQ")?;
        rows.collect::<Result<_, _>>()
            .ctx(Actor::Operator, "list the DLQ")
    }

    /// Finishes the accounting: invariant check over the files and the final metrics.
    pub fn report(&self) -> Result<RunReport, SimError> {
        let invariants = check_invariants(&self.spec.paths, self.spec.scenario.setup.groups > 0)
            .map_err(SimError::Check)?;
        let mut metrics = self.ledger.metrics_with_ages();
        metrics.lost = invariants.lost;
        metrics.duplicate_effects = invariants.duplicate_effects;
        Ok(RunReport {
            scenario: self.spec.scenario.id.clone(),
            mode: self.spec.mode,
            broker: self.spec.broker,
            seed: self.spec.seed,
            messages: self.spec.messages,
            metrics,
            invariants,
            trace_hash: self.trace_hash(),
            events: self.recorder.event_count(),
            duration_ms: self.clock.now,
            paths: self.spec.paths.clone(),
        })
    }
}
