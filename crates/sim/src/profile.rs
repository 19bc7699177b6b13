//! Broker profiles: the values the simulator uses, each with the source it comes from.

use super::model::BrokerKind;

/// A profile value together with where it comes from (shown by the UI).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sourced {
    /// The value in the unit named by the field.
    pub value: u64,
    /// Where the number comes from, and where the documentation disagrees.
    pub source: &'static str,
}

/// The behaviour of one broker as the simulator models it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BrokerProfile {
    /// Which broker.
    pub kind: BrokerKind,
    /// Display name.
    pub name: &'static str,
    /// Name of the receive mode (peek-lock / visibility timeout).
    pub receive_mode: &'static str,
    /// Lock duration / visibility timeout in ms.
    pub lock_ms: Sourced,
    /// Longest lock / visibility the broker allows, in ms.
    pub lock_max_ms: Sourced,
    /// How a consumer keeps its lock (lock renewal / ChangeMessageVisibility).
    pub lock_extension: &'static str,
    /// Deliveries before the message goes to the DLQ.
    pub max_deliveries: Sourced,
    /// The reason written on a DLQ entry after too many deliveries.
    pub dlq_reason: &'static str,
    /// Default broker-side duplicate detection window, ms.
    pub dedup_window_ms: Sourced,
    /// Shortest configurable duplicate detection window, ms.
    pub dedup_window_min_ms: Sourced,
    /// Longest configurable duplicate detection window, ms.
    pub dedup_window_max_ms: Sourced,
    /// Largest message body, bytes.
    pub max_message_bytes: Sourced,
    /// How long a consumer may keep extending its lock after the receive.
    pub renew_limit_ms: Sourced,
    /// How per-group order is obtained.
    pub ordering: &'static str,
    /// What the standard delivery guarantees.
    pub delivery: &'static str,
}

const SEC: u64 = 1_000;
const MIN: u64 = 60 * SEC;
const HOUR: u64 = 60 * MIN;
const DAY: u64 = 24 * HOUR;

/// Azure Service Bus as documented by Microsoft.
pub const ASB: BrokerProfile = BrokerProfile {
    kind: BrokerKind::Asb,
    name: "Azure Service Bus",
    receive_mode: "PeekLock",
    lock_ms: Sourced {
        value: MIN,
        source: "Azure Service Bus docs, 'Message transfers, locks, and settlement': LockDuration default 1 minute",
    },
    lock_max_ms: Sourced {
        value: 5 * MIN,
        source: "Azure Service Bus docs, queue properties: LockDuration maximum 5 minutes",
    },
    lock_extension: "lock renewal (RenewMessageLockAsync / AutoLockRenewal in ServiceBusProcessor)",
    max_deliveries: Sourced {
        value: 10,
        source: "Azure Service Bus docs, 'Dead-letter queues': MaxDeliveryCount default 10",
    },
    dlq_reason: "MaxDeliveryCountExceeded",
    dedup_window_ms: Sourced {
        value: 10 * MIN,
        source: "Azure Service Bus docs, 'Duplicate detection': the page says 10 minutes in one place and 1 minute (portal/ARM default) in another; both are cited as default",
    },
    dedup_window_min_ms: Sourced {
        value: 20 * SEC,
        source: "Azure Service Bus docs, 'Duplicate detection': window from 20 seconds",
    },
    dedup_window_max_ms: Sourced {
        value: 7 * DAY,
        source: "Azure Service Bus docs, 'Duplicate detection': window up to 7 days",
    },
    max_message_bytes: Sourced {
        value: 256 * 1024,
        source: "Azure Service Bus docs, 'Quotas and limits': 256 KB (standard tier); premium allows up to 100 MB",
    },
    renew_limit_ms: Sourced {
        value: 5 * MIN,
        source: "Azure SDK docs, ServiceBusProcessorOptions.MaxAutoLockRenewalDuration: default 5 minutes",
    },
    ordering: "sessions (SessionId): one receiver per session, FIFO within it",
    delivery: "at-least-once with PeekLock; duplicate detection on MessageId when enabled",
};

/// Amazon SQS as documented by AWS.
pub const SQS: BrokerProfile = BrokerProfile {
    kind: BrokerKind::Sqs,
    name: "Amazon SQS",
    receive_mode: "visibility timeout",
    lock_ms: Sourced {
        value: 30 * SEC,
        source: "Amazon SQS Developer Guide, 'Visibility timeout': default 30 seconds",
    },
    lock_max_ms: Sourced {
        value: 12 * HOUR,
        source: "Amazon SQS Developer Guide, 'Visibility timeout': maximum 12 hours",
    },
    lock_extension: "ChangeMessageVisibility (extend the visibility timeout while working)",
    max_deliveries: Sourced {
        value: 10,
        source: "simulator default; Amazon SQS Developer Guide, 'Dead-letter queues': maxReceiveCount is set by you in the redrive policy (1 to 1,000)",
    },
    dlq_reason: "maxReceiveCount exceeded (redrive policy)",
    dedup_window_ms: Sourced {
        value: 5 * MIN,
        source: "Amazon SQS Developer Guide, 'Exactly-once processing in FIFO queues': 5-minute deduplication interval (FIFO only)",
    },
    dedup_window_min_ms: Sourced {
        value: 5 * MIN,
        source: "Amazon SQS Developer Guide: the FIFO deduplication interval is fixed at 5 minutes",
    },
    dedup_window_max_ms: Sourced {
        value: 5 * MIN,
        source: "Amazon SQS Developer Guide: the FIFO deduplication interval is fixed at 5 minutes",
    },
    max_message_bytes: Sourced {
        value: 1024 * 1024,
        source: "Amazon SQS Developer Guide, 'Quotas': 1 MiB (raised from 256 KiB in 2025)",
    },
    renew_limit_ms: Sourced {
        value: 12 * HOUR,
        source: "Amazon SQS Developer Guide, 'Visibility timeout': ChangeMessageVisibility can extend it up to 12 hours after the receive",
    },
    ordering: "FIFO queues: order per MessageGroupId; standard queues: best-effort order",
    delivery: "standard: at-least-once, occasionally more than one copy, no order; FIFO: exactly-once within the dedup interval",
};

/// The profile for `kind`.
pub fn profile(kind: BrokerKind) -> &'static BrokerProfile {
    match kind {
        BrokerKind::Asb => &ASB,
        BrokerKind::Sqs => &SQS,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_value_has_a_source() {
        for p in [ASB, SQS] {
            for s in [
                p.lock_ms,
                p.lock_max_ms,
                p.max_deliveries,
                p.dedup_window_ms,
                p.dedup_window_min_ms,
                p.dedup_window_max_ms,
                p.max_message_bytes,
            ] {
                assert!(!s.source.is_empty());
            }
        }
        assert_eq!(ASB.max_deliveries.value, 10);
        assert_eq!(SQS.max_message_bytes.value, 1_048_576);
    }
}
