//! The recorder: the live picture the UI reads, the step-back timeline, the facts of the event
//! being executed (for the story layer) and the trace hash over every event.

use sha2::{Digest, Sha256};

use crate::model::Event;
use crate::moments::Fact;
use crate::state::{RowChange, Scalars, State};
use crate::timeline::{Delta, Timeline};

/// Everything a run leaves for its readers, event by event.
pub(crate) struct Recorder {
    /// The picture after the last event (tables and counters).
    live: State,
    /// Picture changes of the event being executed (they go into its delta).
    pending: Vec<RowChange>,
    /// Deltas and checkpoints for step back.
    pub timeline: Timeline,
    /// What the event being executed did, for the story layer.
    pub facts: Vec<Fact>,
    /// SHA-256 over the canonical event lines.
    hasher: Sha256,
    /// Events recorded so far.
    events: u64,
    /// The event queue ran dry.
    pub finished: bool,
}

impl Default for Recorder {
    fn default() -> Recorder {
        Recorder {
            live: State::default(),
            pending: Vec::new(),
            timeline: Timeline::new(State::default()),
            facts: Vec::new(),
            hasher: Sha256::new(),
            events: 0,
            finished: false,
        }
    }
}

impl Recorder {
    /// Applies a picture change and keeps it for the event's delta.
    pub fn change(&mut self, change: RowChange) {
        self.live.tables.apply(&change);
        self.pending.push(change);
    }

    /// Numbers, hashes and records `event` with the counters after it; returns it as recorded.
    pub fn record(&mut self, mut event: Event, mut scalars: Scalars) -> Option<&Event> {
        event.index = self.events;
        event.at_ms = scalars.now_ms;
        self.events += 1;
        event.hash_into(&mut |bytes: &[u8]| self.hasher.update(bytes));
        scalars.event_index = Some(event.index);
        self.live.scalars = scalars;
        let delta = Delta {
            event,
            changes: std::mem::take(&mut self.pending),
            scalars,
        };
        self.timeline.push(delta, &self.live);
        self.timeline.last_event()
    }

    /// The picture after the last event.
    pub fn live(&self) -> &State {
        &self.live
    }

    /// The last event recorded.
    pub fn last_event(&self) -> Option<&Event> {
        self.timeline.last_event()
    }

    /// The picture right after event `index`, when the step-back window still holds it.
    pub fn state_at(&self, index: u64) -> Option<State> {
        self.timeline.state_at(index)
    }

    /// Oldest event index [`Recorder::state_at`] can rebuild.
    pub fn earliest_step_back(&self) -> Option<u64> {
        self.timeline.earliest()
    }

    /// The events in the step-back window, oldest first.
    pub fn recent_events(&self) -> impl DoubleEndedIterator<Item = &Event> + ExactSizeIterator {
        self.timeline.events()
    }

    /// Number of events recorded so far.
    pub fn event_count(&self) -> u64 {
        self.events
    }

    /// Hex SHA-256 over the canonical lines of the events recorded so far.
    pub fn trace_hash(&self) -> String {
        crate::blobs::sha256_hex_digest(self.hasher.clone().finalize().as_slice())
    }
}
