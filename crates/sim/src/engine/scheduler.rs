//! The scheduler: the virtual clock and the event queue, ordered by virtual time, then by
//! scheduling order, so two actions at the same millisecond run in the order they were
//! scheduled (deterministic traces).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::Action;

/// An entry of the event queue; ordered by time, then by scheduling order.
#[derive(Debug, Clone, Copy)]
pub(super) struct Scheduled {
    pub at: u64,
    pub seq: u64,
    pub action: Action,
}

impl PartialEq for Scheduled {
    fn eq(&self, other: &Self) -> bool {
        (self.at, self.seq) == (other.at, other.seq)
    }
}

impl Eq for Scheduled {}

impl PartialOrd for Scheduled {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Scheduled {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (self.at, self.seq).cmp(&(other.at, other.seq))
    }
}

/// The virtual clock and the actions waiting for their time.
#[derive(Debug, Default)]
pub(crate) struct Scheduler {
    /// Virtual time, ms: the time of the action being executed.
    pub now: u64,
    queue: BinaryHeap<Reverse<Scheduled>>,
    next_seq: u64,
}

impl Scheduler {
    /// Schedules `action` at virtual time `at` (never before now).
    pub fn schedule(&mut self, at: u64, action: Action) {
        let seq = self.next_seq;
        self.next_seq += 1;
        self.queue.push(Reverse(Scheduled {
            at: at.max(self.now),
            seq,
            action,
        }));
    }

    /// Takes the earliest action and advances the clock to its time; `None` when none is left.
    pub fn next(&mut self) -> Option<Action> {
        let Reverse(next) = self.queue.pop()?;
        self.now = next.at;
        Some(next.action)
    }

    /// True when no action is waiting.
    pub fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }
}
