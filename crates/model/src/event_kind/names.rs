//! The stable machine name of every event kind and its caption key.

use std::fmt;

use super::EventKind;
use crate::BrokerKind;

/// Declares, from one table, each kind's stable machine name and its caption key (`sim.` + the
/// name), so the two cannot drift apart.
macro_rules! names {
    ($($kind:ident => $name:literal,)*) => {
        impl EventKind {
            /// The stable machine name (kebab case), e.g. `receive-empty`.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(EventKind::$kind => $name,)*
                }
            }

            /// The caption key in `assets/sim/captions.toml` (`sim.` + the machine name).
            pub fn caption_key(self) -> &'static str {
                match self {
                    $(EventKind::$kind => concat!("sim.", $name),)*
                }
            }
        }
    };
}

names! {
    ApiAccepted => "api-accepted",
    ApiAcceptedPoison => "api-accepted-poison",
    ApiSameOrder => "api-same-order",
    ApiTimeoutAfterCommit => "api-timeout-after-commit",
    ApiDirectPublished => "api-direct-published",
    ApiDirectPublishFailed => "api-direct-publish-failed",
    ApiLabAccepted => "api-lab-accepted",
    ApiLabFailed => "api-lab-failed",
    DispatcherClaimed => "dispatcher-claimed",
    Published => "published",
    PublishedDedup => "published-dedup",
    PublishedRetried => "published-retried",
    PublishFailedBrokerDown => "publish-failed-broker-down",
    PublishTooLarge => "publish-too-large",
    PublishGaveUp => "publish-gave-up",
    SendRefusedNoGroup => "send-refused-no-group",
    DispatcherCrashedAfterPublish => "dispatcher-crashed-after-publish",
    DispatcherMarked => "dispatcher-marked",
    DispatcherMarkLeaseLost => "dispatcher-mark-lease-lost",
    DispatcherRestarted => "dispatcher-restarted",
    Received => "received",
    ReceivedAgain => "received-again",
    ReceivedTwice => "received-twice",
    ReceiveEmpty => "receive-empty",
    CheckNoneSafe => "check-none-safe",
    CheckNoneNaive => "check-none-naive",
    CheckFound => "check-found",
    Applied => "applied",
    AppliedNaive => "applied-naive",
    DuplicatePrevented => "duplicate-prevented",
    AppliedThenConnectionLost => "applied-then-connection-lost",
    NaiveEffectThenConnectionLost => "naive-effect-then-connection-lost",
    AppliedNoInbox => "applied-no-inbox",
    NoInboxEffectThenConnectionLost => "no-inbox-effect-then-connection-lost",
    TrapApplied => "trap-applied",
    TrapDuplicateEffectStays => "trap-duplicate-effect-stays",
    TrapEffectThenConnectionLost => "trap-effect-then-connection-lost",
    SettledThenConnectionLost => "settled-then-connection-lost",
    Settled => "settled",
    SettleFailedBrokerDown => "settle-failed-broker-down",
    BrokerCallFailed => "broker-call-failed",
    RenewFailedBrokerDown => "renew-failed-broker-down",
    LockLost => "lock-lost",
    LockCheckFailed => "lock-check-failed",
    DeletedStaleHandle => "deleted-stale-handle",
    LockExpired => "lock-expired",
    LockRenewed => "lock-renewed",
    VisibilityExtended => "visibility-extended",
    VisibilityExpired => "visibility-expired",
    Failed => "failed",
    FailedRetryNow => "failed-retry-now",
    FailedAfterSettle => "failed-after-settle",
    FailedPermanent => "failed-permanent",
    RetryDelayed => "retry-delayed",
    DeadLettered => "dead-lettered",
    DeadLetteredByConsumer => "dead-lettered-by-consumer",
    ForwardedToDlq => "forwarded-to-dlq",
    ForwardedToDlqStaleDelete => "forwarded-to-dlq-stale-delete",
    Claimed => "claimed",
    ProviderChargedKeyed => "provider-charged-keyed",
    ProviderChargedUnkeyed => "provider-charged-unkeyed",
    ProviderReplayed => "provider-replayed",
    TwoPhaseFinished => "two-phase-finished",
    BrokerDown => "broker-down",
    BrokerUp => "broker-up",
    FaultArmed => "fault-armed",
    ConsumerReconnected => "consumer-reconnected",
    CauseFixed => "cause-fixed",
    DlqReplayed => "dlq-replayed",
    Sweep => "sweep",
    Redriven => "redriven",
    ReplayDroppedDuplicate => "replay-dropped-duplicate",
    DlqReplayedNewId => "dlq-replayed-new-id",
    DlqReplayedIntoGroup => "dlq-replayed-into-group",
    RenewalLimitReached => "renewal-limit-reached",
    VisibilityLimitReached => "visibility-limit-reached",
    AppliedOutOfOrder => "applied-out-of-order",
    Abandoned => "abandoned",
    ScheduledCopy => "scheduled-copy",
    LockLostAtBroker => "lock-lost-at-broker",
}

impl EventKind {
    /// The caption key for a run on `broker`. A kind whose caption names a broker operation
    /// has an SQS wording of its own (`sim.sqs.` + the machine name: visibility timeout,
    /// receipt handle, `DeleteMessage`, `ChangeMessageVisibility`, redrive) beside the Service
    /// Bus one under [`EventKind::caption_key`] (peek-lock, lock, complete, abandon,
    /// dead-letter), the way the `term.lock.*` strings are kept per broker.
    pub fn caption_key_on(self, broker: BrokerKind) -> &'static str {
        match (broker, self.sqs_caption_key()) {
            (BrokerKind::Sqs, Some(key)) => key,
            _ => self.caption_key(),
        }
    }

    /// The SQS wording's key, for the kinds that have one.
    pub fn sqs_caption_key(self) -> Option<&'static str> {
        Some(match self {
            EventKind::Received => "sim.sqs.received",
            EventKind::CheckFound => "sim.sqs.check-found",
            EventKind::DuplicatePrevented => "sim.sqs.duplicate-prevented",
            EventKind::AppliedThenConnectionLost => "sim.sqs.applied-then-connection-lost",
            EventKind::SettledThenConnectionLost => "sim.sqs.settled-then-connection-lost",
            EventKind::Settled => "sim.sqs.settled",
            EventKind::SettleFailedBrokerDown => "sim.sqs.settle-failed-broker-down",
            EventKind::BrokerCallFailed => "sim.sqs.broker-call-failed",
            EventKind::RenewFailedBrokerDown => "sim.sqs.renew-failed-broker-down",
            EventKind::LockLost => "sim.sqs.lock-lost",
            EventKind::LockCheckFailed => "sim.sqs.lock-check-failed",
            EventKind::FailedAfterSettle => "sim.sqs.failed-after-settle",
            EventKind::FailedPermanent => "sim.sqs.failed-permanent",
            EventKind::ReplayDroppedDuplicate => "sim.sqs.replay-dropped-duplicate",
            EventKind::DlqReplayedNewId => "sim.sqs.dlq-replayed-new-id",
            EventKind::DlqReplayedIntoGroup => "sim.sqs.dlq-replayed-into-group",
            EventKind::AppliedOutOfOrder => "sim.sqs.applied-out-of-order",
            EventKind::SendRefusedNoGroup => "sim.sqs.send-refused-no-group",
            _ => return None,
        })
    }

    /// Parses the machine name.
    pub fn parse(s: &str) -> Option<EventKind> {
        EventKind::ALL.into_iter().find(|k| k.as_str() == s)
    }
}

impl fmt::Display for EventKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
