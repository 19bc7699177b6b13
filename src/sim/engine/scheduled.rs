//! The event queue's entry and its order: by virtual time, then by scheduling order, so two
//! events at the same millisecond run in the order they were scheduled (deterministic traces).

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
