//! The named crash points a scenario script or the trainee can inject (the enum is the
//! scenario vocabulary of [`content::scenario`]) and the engine's armed triggers.

pub use content::scenario::{DEFAULT_OUTAGE_MS, FAULT_KINDS, Fault};

/// Armed triggers: how many times each fault kind still has to fire.
#[derive(Debug, Clone, Default)]
pub(crate) struct Armed {
    counts: [u32; FAULT_KINDS],
    /// (fault slot, order) pairs that were hit already: a trigger armed several times hits
    /// several messages, never one message again and again (no bursts on one message).
    hit: std::collections::HashSet<(usize, i64)>,
}

impl Armed {
    /// Arms `fault` once more.
    pub(crate) fn arm(&mut self, fault: Fault) {
        self.counts[fault.slot()] += 1;
    }

    /// Consumes one trigger of `fault`; true when one was armed.
    pub(crate) fn take(&mut self, fault: Fault) -> bool {
        let c = &mut self.counts[fault.slot()];
        if *c > 0 {
            *c -= 1;
            true
        } else {
            false
        }
    }

    /// Consumes one trigger of `fault` for message of order `order`, unless that order was
    /// hit by this fault before (the trigger then stays armed for the next message).
    pub(crate) fn take_for(&mut self, fault: Fault, order: i64) -> bool {
        let slot = fault.slot();
        if self.counts[slot] == 0 || self.hit.contains(&(slot, order)) {
            return false;
        }
        self.counts[slot] -= 1;
        self.hit.insert((slot, order));
        true
    }

    /// True while any trigger is armed.
    #[cfg(test)]
    pub(crate) fn any(&self) -> bool {
        self.counts.iter().any(|c| *c > 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn armed_triggers_count_down() {
        let mut a = Armed::default();
        a.arm(Fault::DuplicateDelivery);
        assert!(a.any());
        assert!(a.take(Fault::DuplicateDelivery));
        assert!(!a.take(Fault::DuplicateDelivery));
        assert!(!a.any());
    }

    #[test]
    fn a_trigger_hits_each_message_once() {
        let mut a = Armed::default();
        a.arm(Fault::ConsumerSlowerThanLock);
        a.arm(Fault::ConsumerSlowerThanLock);
        assert!(a.take_for(Fault::ConsumerSlowerThanLock, 1));
        assert!(
            !a.take_for(Fault::ConsumerSlowerThanLock, 1),
            "same message again"
        );
        assert!(a.take_for(Fault::ConsumerSlowerThanLock, 2));
    }
}
