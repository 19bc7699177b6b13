//! Step back: per-event deltas plus periodic checkpoints, kept in a bounded rolling window.
//!
//! Re-running the SQL from the seed would be exact but far too slow for a 10,000-event jump,
//! so the engine records, per event, the picture changes it made and the small counters. A
//! checkpoint (a clone of the whole picture) every [`CHECKPOINT_EVERY`] events bounds the
//! replay to that many deltas. Only the newest [`STEP_BACK_CAP`] events are kept, so a
//! 100,000-message headless run stays inside its memory budget.

use std::collections::VecDeque;

use super::model::Event;
use super::report::Metrics;
use super::state::{RowChange, Scalars, StageCounters, State};

/// Events between two checkpoints.
pub const CHECKPOINT_EVERY: u64 = 500;
/// Events kept for step back (older ones are dropped a checkpoint interval at a time).
pub const STEP_BACK_CAP: usize = 12_000;

/// What one event changed.
#[derive(Debug, Clone)]
pub(crate) struct Delta {
    pub event: Event,
    pub changes: Vec<RowChange>,
    pub scalars: Scalars,
}

/// A delta as the timeline keeps it: the counters packed into `u32`s (a third of the size of
/// [`Scalars`]; the timeline holds thousands of them). Event index and time come from the event.
#[derive(Debug, Clone)]
struct Kept {
    event: Event,
    changes: Box<[RowChange]>,
    broker_down: bool,
    ages_len: u32,
    stages: [u32; 8],
    metrics: [u32; 15],
}

/// A counter as `u32`: counts and virtual milliseconds of a run stay far below 2^32 (at most
/// a million orders; 2^32 ms are 49 days of virtual time), so saturating never bites.
fn narrow(n: u64) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

impl Kept {
    fn new(d: Delta) -> Kept {
        let (s, m) = (d.scalars.stages, d.scalars.metrics);
        Kept {
            event: d.event,
            changes: d.changes.into_boxed_slice(),
            broker_down: d.scalars.broker_down,
            ages_len: u32::try_from(d.scalars.ages_len).unwrap_or(u32::MAX),
            stages: [
                s.accepted,
                s.outbox_pending,
                s.dispatching,
                s.queued,
                s.in_flight,
                s.dlq,
                s.inbox,
                s.effects,
            ]
            .map(narrow),
            metrics: [
                m.accepted,
                m.published,
                m.delivered,
                m.redeliveries,
                m.effects,
                m.duplicate_effects,
                m.prevented_duplicates,
                m.dead_lettered,
                m.lost,
                m.lock_lost,
                m.retries,
                m.age_p50_ms,
                m.age_p95_ms,
                m.age_max_ms,
                m.outbox_lag_max_ms,
            ]
            .map(narrow),
        }
    }

    fn scalars(&self) -> Scalars {
        let [s0, s1, s2, s3, s4, s5, s6, s7] = self.stages.map(u64::from);
        let [
            m0,
            m1,
            m2,
            m3,
            m4,
            m5,
            m6,
            m7,
            m8,
            m9,
            m10,
            m11,
            m12,
            m13,
            m14,
        ] = self.metrics.map(u64::from);
        Scalars {
            event_index: Some(self.event.index),
            now_ms: self.event.at_ms,
            broker_down: self.broker_down,
            stages: StageCounters {
                accepted: s0,
                outbox_pending: s1,
                dispatching: s2,
                queued: s3,
                in_flight: s4,
                dlq: s5,
                inbox: s6,
                effects: s7,
            },
            metrics: Metrics {
                accepted: m0,
                published: m1,
                delivered: m2,
                redeliveries: m3,
                effects: m4,
                duplicate_effects: m5,
                prevented_duplicates: m6,
                dead_lettered: m7,
                lost: m8,
                lock_lost: m9,
                retries: m10,
                age_p50_ms: m11,
                age_p95_ms: m12,
                age_max_ms: m13,
                outbox_lag_max_ms: m14,
            },
            ages_len: self.ages_len as usize,
        }
    }
}

/// The rolling step-back log.
#[derive(Debug, Default)]
pub(crate) struct Timeline {
    /// Checkpoints: `(index of the last event applied or None for the start, state)`.
    checkpoints: VecDeque<(Option<u64>, State)>,
    deltas: VecDeque<Kept>,
}

impl Timeline {
    /// A timeline starting from `initial`.
    pub fn new(initial: State) -> Timeline {
        let mut checkpoints = VecDeque::new();
        checkpoints.push_back((None, initial));
        Timeline {
            checkpoints,
            // The window's full size at once: growing by doubling would leave up to half of
            // a larger buffer unused for the rest of a long run.
            deltas: VecDeque::with_capacity(STEP_BACK_CAP + 1),
        }
    }

    /// Records an event; `live` is the state after it (cloned at checkpoint boundaries).
    pub fn push(&mut self, delta: Delta, live: &State) {
        let index = delta.event.index;
        self.deltas.push_back(Kept::new(delta));
        if (index + 1).is_multiple_of(CHECKPOINT_EVERY) {
            // The live state does not carry its last event (the log does); a checkpoint must.
            let mut state = live.clone();
            state.last_event = self.last_event().cloned();
            self.checkpoints.push_back((Some(index), state));
        }
        if self.deltas.len() > STEP_BACK_CAP && self.checkpoints.len() > 1 {
            // Drop everything before the second checkpoint: it becomes the new origin.
            self.checkpoints.pop_front();
            if let Some((Some(origin), _)) = self.checkpoints.front() {
                let origin = *origin;
                while self.deltas.front().is_some_and(|d| d.event.index <= origin) {
                    self.deltas.pop_front();
                }
            }
        }
    }

    /// Oldest event index that [`Timeline::state_at`] can rebuild.
    pub fn earliest(&self) -> Option<u64> {
        match self.checkpoints.front() {
            Some((None, _)) => Some(0),
            Some((Some(i), _)) => Some(*i),
            None => None,
        }
    }

    /// The state right after event `index`, or `None` when it left the window or did not happen.
    pub fn state_at(&self, index: u64) -> Option<State> {
        let last = self.deltas.back()?.event.index;
        if index > last || index < self.earliest()? {
            return None;
        }
        let (base_index, base) = self
            .checkpoints
            .iter()
            .rev()
            .find(|(i, _)| i.is_none_or(|i| i <= index))?;
        let mut state = base.clone();
        let first = self.deltas.front()?.event.index;
        let from = base_index.map_or(0, |i| i + 1);
        let skip = usize::try_from(from.saturating_sub(first)).ok()?;
        for d in self.deltas.iter().skip(skip) {
            if d.event.index > index {
                break;
            }
            for c in &d.changes {
                state.tables.apply(c);
            }
            state.scalars = d.scalars();
            state.last_event = Some(d.event.clone());
        }
        Some(state)
    }

    /// The newest event.
    pub fn last_event(&self) -> Option<&Event> {
        self.deltas.back().map(|d| &d.event)
    }

    /// The recorded events still in the window, oldest first.
    pub fn events(&self) -> impl DoubleEndedIterator<Item = &Event> + ExactSizeIterator {
        self.deltas.iter().map(|d| &d.event)
    }
}
