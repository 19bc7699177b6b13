//! The stable machine name of every event kind and its caption key.

use std::fmt;

use super::EventKind;
use crate::BrokerKind;

impl EventKind {
    /// The stable machine name (kebab case), e.g. `receive-empty`.
    pub fn as_str(self) -> &'static str {
        match self {
            EventKind::ApiAccepted => "api-accepted",
            EventKind::ApiAcceptedPoison => "api-accepted-poison",
            EventKind::ApiSameOrder => "api-same-order",
            EventKind::ApiTimeoutAfterCommit => "api-timeout-after-commit",
            EventKind::ApiDirectPublished => "api-direct-published",
            EventKind::ApiDirectPublishFailed => "api-direct-publish-failed",
            EventKind::ApiLabAccepted => "api-lab-accepted",
            EventKind::ApiLabFailed => "api-lab-failed",
            EventKind::DispatcherClaimed => "dispatcher-claimed",
            EventKind::Published => "published",
            EventKind::PublishedDedup => "published-dedup",
            EventKind::PublishedRetried => "published-retried",
            EventKind::PublishFailedBrokerDown => "publish-failed-broker-down",
            EventKind::PublishTooLarge => "publish-too-large",
            EventKind::PublishGaveUp => "publish-gave-up",
            EventKind::SendRefusedNoGroup => "send-refused-no-group",
            EventKind::DispatcherCrashedAfterPublish => "dispatcher-crashed-after-publish",
            EventKind::DispatcherMarked => "dispatcher-marked",
            EventKind::DispatcherMarkLeaseLost => "dispatcher-mark-lease-lost",
            EventKind::DispatcherRestarted => "dispatcher-restarted",
            EventKind::Received => "received",
            EventKind::ReceivedAgain => "received-again",
            EventKind::ReceivedTwice => "received-twice",
            EventKind::ReceiveEmpty => "receive-empty",
            EventKind::CheckNoneSafe => "check-none-safe",
            EventKind::CheckNoneNaive => "check-none-naive",
            EventKind::CheckFound => "check-found",
            EventKind::Applied => "applied",
            EventKind::AppliedNaive => "applied-naive",
            EventKind::DuplicatePrevented => "duplicate-prevented",
            EventKind::AppliedThenConnectionLost => "applied-then-connection-lost",
            EventKind::NaiveEffectThenConnectionLost => "naive-effect-then-connection-lost",
            EventKind::AppliedNoInbox => "applied-no-inbox",
            EventKind::NoInboxEffectThenConnectionLost => "no-inbox-effect-then-connection-lost",
            EventKind::TrapApplied => "trap-applied",
            EventKind::TrapDuplicateEffectStays => "trap-duplicate-effect-stays",
            EventKind::TrapEffectThenConnectionLost => "trap-effect-then-connection-lost",
            EventKind::SettledThenConnectionLost => "settled-then-connection-lost",
            EventKind::Settled => "settled",
            EventKind::SettleFailedBrokerDown => "settle-failed-broker-down",
            EventKind::BrokerCallFailed => "broker-call-failed",
            EventKind::RenewFailedBrokerDown => "renew-failed-broker-down",
            EventKind::LockLost => "lock-lost",
            EventKind::LockCheckFailed => "lock-check-failed",
            EventKind::DeletedStaleHandle => "deleted-stale-handle",
            EventKind::LockExpired => "lock-expired",
            EventKind::LockRenewed => "lock-renewed",
            EventKind::VisibilityExtended => "visibility-extended",
            EventKind::VisibilityExpired => "visibility-expired",
            EventKind::Failed => "failed",
            EventKind::FailedRetryNow => "failed-retry-now",
            EventKind::FailedAfterSettle => "failed-after-settle",
            EventKind::FailedPermanent => "failed-permanent",
            EventKind::RetryDelayed => "retry-delayed",
            EventKind::DeadLettered => "dead-lettered",
            EventKind::DeadLetteredByConsumer => "dead-lettered-by-consumer",
            EventKind::ForwardedToDlq => "forwarded-to-dlq",
            EventKind::ForwardedToDlqStaleDelete => "forwarded-to-dlq-stale-delete",
            EventKind::Claimed => "claimed",
            EventKind::ProviderChargedKeyed => "provider-charged-keyed",
            EventKind::ProviderChargedUnkeyed => "provider-charged-unkeyed",
            EventKind::ProviderReplayed => "provider-replayed",
            EventKind::TwoPhaseFinished => "two-phase-finished",
            EventKind::BrokerDown => "broker-down",
            EventKind::BrokerUp => "broker-up",
            EventKind::FaultArmed => "fault-armed",
            EventKind::ConsumerReconnected => "consumer-reconnected",
            EventKind::CauseFixed => "cause-fixed",
            EventKind::DlqReplayed => "dlq-replayed",
            EventKind::Sweep => "sweep",
            EventKind::Redriven => "redriven",
            EventKind::ReplayDroppedDuplicate => "replay-dropped-duplicate",
            EventKind::DlqReplayedNewId => "dlq-replayed-new-id",
            EventKind::DlqReplayedIntoGroup => "dlq-replayed-into-group",
            EventKind::RenewalLimitReached => "renewal-limit-reached",
            EventKind::VisibilityLimitReached => "visibility-limit-reached",
            EventKind::AppliedOutOfOrder => "applied-out-of-order",
            EventKind::Abandoned => "abandoned",
            EventKind::ScheduledCopy => "scheduled-copy",
            EventKind::LockLostAtBroker => "lock-lost-at-broker",
        }
    }

    /// The caption key in `assets/sim/captions.toml` (`sim.` + the machine name).
    pub fn caption_key(self) -> &'static str {
        match self {
            EventKind::ApiAccepted => "sim.api-accepted",
            EventKind::ApiAcceptedPoison => "sim.api-accepted-poison",
            EventKind::ApiSameOrder => "sim.api-same-order",
            EventKind::ApiTimeoutAfterCommit => "sim.api-timeout-after-commit",
            EventKind::ApiDirectPublished => "sim.api-direct-published",
            EventKind::ApiDirectPublishFailed => "sim.api-direct-publish-failed",
            EventKind::ApiLabAccepted => "sim.api-lab-accepted",
            EventKind::ApiLabFailed => "sim.api-lab-failed",
            EventKind::DispatcherClaimed => "sim.dispatcher-claimed",
            EventKind::Published => "sim.published",
            EventKind::PublishedDedup => "sim.published-dedup",
            EventKind::PublishedRetried => "sim.published-retried",
            EventKind::PublishFailedBrokerDown => "sim.publish-failed-broker-down",
            EventKind::PublishTooLarge => "sim.publish-too-large",
            EventKind::PublishGaveUp => "sim.publish-gave-up",
            EventKind::SendRefusedNoGroup => "sim.send-refused-no-group",
            EventKind::DispatcherCrashedAfterPublish => "sim.dispatcher-crashed-after-publish",
            EventKind::DispatcherMarked => "sim.dispatcher-marked",
            EventKind::DispatcherMarkLeaseLost => "sim.dispatcher-mark-lease-lost",
            EventKind::DispatcherRestarted => "sim.dispatcher-restarted",
            EventKind::Received => "sim.received",
            EventKind::ReceivedAgain => "sim.received-again",
            EventKind::ReceivedTwice => "sim.received-twice",
            EventKind::ReceiveEmpty => "sim.receive-empty",
            EventKind::CheckNoneSafe => "sim.check-none-safe",
            EventKind::CheckNoneNaive => "sim.check-none-naive",
            EventKind::CheckFound => "sim.check-found",
            EventKind::Applied => "sim.applied",
            EventKind::AppliedNaive => "sim.applied-naive",
            EventKind::DuplicatePrevented => "sim.duplicate-prevented",
            EventKind::AppliedThenConnectionLost => "sim.applied-then-connection-lost",
            EventKind::NaiveEffectThenConnectionLost => "sim.naive-effect-then-connection-lost",
            EventKind::AppliedNoInbox => "sim.applied-no-inbox",
            EventKind::NoInboxEffectThenConnectionLost => {
                "sim.no-inbox-effect-then-connection-lost"
            }
            EventKind::TrapApplied => "sim.trap-applied",
            EventKind::TrapDuplicateEffectStays => "sim.trap-duplicate-effect-stays",
            EventKind::TrapEffectThenConnectionLost => "sim.trap-effect-then-connection-lost",
            EventKind::SettledThenConnectionLost => "sim.settled-then-connection-lost",
            EventKind::Settled => "sim.settled",
            EventKind::SettleFailedBrokerDown => "sim.settle-failed-broker-down",
            EventKind::BrokerCallFailed => "sim.broker-call-failed",
            EventKind::RenewFailedBrokerDown => "sim.renew-failed-broker-down",
            EventKind::LockLost => "sim.lock-lost",
            EventKind::LockCheckFailed => "sim.lock-check-failed",
            EventKind::DeletedStaleHandle => "sim.deleted-stale-handle",
            EventKind::LockExpired => "sim.lock-expired",
            EventKind::LockRenewed => "sim.lock-renewed",
            EventKind::VisibilityExtended => "sim.visibility-extended",
            EventKind::VisibilityExpired => "sim.visibility-expired",
            EventKind::Failed => "sim.failed",
            EventKind::FailedRetryNow => "sim.failed-retry-now",
            EventKind::FailedAfterSettle => "sim.failed-after-settle",
            EventKind::FailedPermanent => "sim.failed-permanent",
            EventKind::RetryDelayed => "sim.retry-delayed",
            EventKind::DeadLettered => "sim.dead-lettered",
            EventKind::DeadLetteredByConsumer => "sim.dead-lettered-by-consumer",
            EventKind::ForwardedToDlq => "sim.forwarded-to-dlq",
            EventKind::ForwardedToDlqStaleDelete => "sim.forwarded-to-dlq-stale-delete",
            EventKind::Claimed => "sim.claimed",
            EventKind::ProviderChargedKeyed => "sim.provider-charged-keyed",
            EventKind::ProviderChargedUnkeyed => "sim.provider-charged-unkeyed",
            EventKind::ProviderReplayed => "sim.provider-replayed",
            EventKind::TwoPhaseFinished => "sim.two-phase-finished",
            EventKind::BrokerDown => "sim.broker-down",
            EventKind::BrokerUp => "sim.broker-up",
            EventKind::FaultArmed => "sim.fault-armed",
            EventKind::ConsumerReconnected => "sim.consumer-reconnected",
            EventKind::CauseFixed => "sim.cause-fixed",
            EventKind::DlqReplayed => "sim.dlq-replayed",
            EventKind::Sweep => "sim.sweep",
            EventKind::Redriven => "sim.redriven",
            EventKind::ReplayDroppedDuplicate => "sim.replay-dropped-duplicate",
            EventKind::DlqReplayedNewId => "sim.dlq-replayed-new-id",
            EventKind::DlqReplayedIntoGroup => "sim.dlq-replayed-into-group",
            EventKind::RenewalLimitReached => "sim.renewal-limit-reached",
            EventKind::VisibilityLimitReached => "sim.visibility-limit-reached",
            EventKind::AppliedOutOfOrder => "sim.applied-out-of-order",
            EventKind::Abandoned => "sim.abandoned",
            EventKind::ScheduledCopy => "sim.scheduled-copy",
            EventKind::LockLostAtBroker => "sim.lock-lost-at-broker",
        }
    }

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
