//! Step back: per-event deltas plus periodic checkpoints, kept in a bounded rolling window.
//!
//! Re-running the SQL from the seed would be exact but far too slow for a 10,000-event jump,
//! so the engine records, per event, the picture changes it made and the small counters. A
//! checkpoint (a clone of the whole picture) every [`CHECKPOINT_EVERY`] events bounds the
//! replay to that many deltas. Only the newest [`STEP_BACK_CAP`] events are kept, so a
//! 100,000-message headless run stays inside its memory budget.

use std::collections::VecDeque;

use super::model::Event;
use super::state::{RowChange, Scalars, State};

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

/// The rolling step-back log.
#[derive(Debug, Default)]
pub(crate) struct Timeline {
    /// Checkpoints: `(index of the last event applied or None for the start, state)`.
    checkpoints: VecDeque<(Option<u64>, State)>,
    deltas: VecDeque<Delta>,
}

impl Timeline {
    /// A timeline starting from `initial`.
    pub fn new(initial: State) -> Timeline {
        let mut checkpoints = VecDeque::new();
        checkpoints.push_back((None, initial));
        Timeline {
            checkpoints,
            deltas: VecDeque::new(),
        }
    }

    /// Records an event; `live` is the state after it (cloned at checkpoint boundaries).
    pub fn push(&mut self, delta: Delta, live: &State) {
        let index = delta.event.index;
        self.deltas.push_back(delta);
        if (index + 1).is_multiple_of(CHECKPOINT_EVERY) {
            self.checkpoints.push_back((Some(index), live.clone()));
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
            state.scalars = d.scalars;
            state.last_event = Some(d.event.clone());
        }
        Some(state)
    }

    /// The recorded events still in the window, oldest first.
    pub fn events(&self) -> impl DoubleEndedIterator<Item = &Event> + ExactSizeIterator {
        self.deltas.iter().map(|d| &d.event)
    }
}
