//! The named crash points a scenario script or the trainee can inject.

/// A named fault. Most faults arm a trigger that fires at the next matching step;
/// `BrokerDown` takes effect at once for its duration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Fault {
    /// The API commits, then the client times out (outcome unknown) and retries with the same request id.
    ApiTimeoutAfterCommit,
    /// The broker is unreachable for the given virtual milliseconds.
    BrokerDown {
        /// How long the outage lasts.
        duration_ms: u64,
    },
    /// A dispatcher crashes after publishing, before marking the outbox rows.
    DispatcherCrashAfterPublish,
    /// A consumer loses its connection right after its first durable write, before settling.
    ConsumerLostConnectionAfterEffect,
    /// A consumer takes longer than the lock / visibility timeout.
    ConsumerSlowerThanLock,
    /// The broker delivers one message twice (SQS standard does this occasionally).
    DuplicateDelivery,
    /// The next accepted order carries a body the consumer cannot process (until the cause is fixed).
    PoisonMessage,
    /// The external provider performs the call, then the response times out.
    ProviderTimeoutAfterPerform,
    /// The next claim-check blob disappears before it is read.
    BlobMissing,
    /// The next claim-check blob is altered after the checksum was taken.
    BlobHashMismatch,
}

/// Number of distinct fault kinds (size of the armed-trigger table).
pub const FAULT_KINDS: usize = 10;

/// Default outage when `broker-down` is injected without a duration.
pub const DEFAULT_OUTAGE_MS: u64 = 10_000;

impl Fault {
    /// One of each kind, in menu order (`BrokerDown` with the default outage).
    pub const MENU: [Fault; FAULT_KINDS] = [
        Fault::ApiTimeoutAfterCommit,
        Fault::BrokerDown {
            duration_ms: DEFAULT_OUTAGE_MS,
        },
        Fault::DispatcherCrashAfterPublish,
        Fault::ConsumerLostConnectionAfterEffect,
        Fault::ConsumerSlowerThanLock,
        Fault::DuplicateDelivery,
        Fault::PoisonMessage,
        Fault::ProviderTimeoutAfterPerform,
        Fault::BlobMissing,
        Fault::BlobHashMismatch,
    ];

    /// The name used in scenario files, traces and the UI menu.
    pub fn as_str(self) -> &'static str {
        match self {
            Fault::ApiTimeoutAfterCommit => "api-timeout-after-commit",
            Fault::BrokerDown { .. } => "broker-down",
            Fault::DispatcherCrashAfterPublish => "dispatcher-crash-after-publish",
            Fault::ConsumerLostConnectionAfterEffect => "consumer-lost-connection-after-effect",
            Fault::ConsumerSlowerThanLock => "consumer-slower-than-lock",
            Fault::DuplicateDelivery => "duplicate-delivery",
            Fault::PoisonMessage => "poison-message",
            Fault::ProviderTimeoutAfterPerform => "provider-timeout-after-perform",
            Fault::BlobMissing => "blob-missing",
            Fault::BlobHashMismatch => "blob-hash-mismatch",
        }
    }

    /// Parses a name; `duration_ms` is used for `broker-down` only.
    pub fn parse(name: &str, duration_ms: Option<u64>) -> Option<Fault> {
        let f = Fault::MENU.into_iter().find(|f| f.as_str() == name)?;
        Some(match f {
            Fault::BrokerDown { .. } => Fault::BrokerDown {
                duration_ms: duration_ms.unwrap_or(DEFAULT_OUTAGE_MS),
            },
            other => other,
        })
    }

    /// Index into the armed-trigger table.
    pub(crate) fn slot(self) -> usize {
        match self {
            Fault::ApiTimeoutAfterCommit => 0,
            Fault::BrokerDown { .. } => 1,
            Fault::DispatcherCrashAfterPublish => 2,
            Fault::ConsumerLostConnectionAfterEffect => 3,
            Fault::ConsumerSlowerThanLock => 4,
            Fault::DuplicateDelivery => 5,
            Fault::PoisonMessage => 6,
            Fault::ProviderTimeoutAfterPerform => 7,
            Fault::BlobMissing => 8,
            Fault::BlobHashMismatch => 9,
        }
    }
}

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
    fn names_round_trip() {
        for f in Fault::MENU {
            assert_eq!(Fault::parse(f.as_str(), Some(DEFAULT_OUTAGE_MS)), Some(f));
        }
        assert_eq!(Fault::parse("nope", None), None);
    }

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
