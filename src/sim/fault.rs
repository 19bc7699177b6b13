//! The named crash points a scenario script or the trainee can inject (the enum is the
//! scenario vocabulary of [`crate::content::scenario`]) and the engine's armed triggers.

pub use crate::content::scenario::{DEFAULT_OUTAGE_MS, FAULT_KINDS, Fault};

/// Armed triggers: how many times each fault kind still has to fire.
#[derive(Debug, Clone, Default)]
pub(crate) struct Armed {
    counts: [u32; FAULT_KINDS],
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
}
