//! What an event is: one variant per kind of step, each with its stable machine name (used in
//! traces, `--history`, tests) and its caption key in `assets/sim/captions.toml`. The names
//! live in `names`; `queuelab-sim` checks that names and captions match (it holds the engine's
//! own caption lists).

mod names;

/// The kind of an [`super::Event`]. Variant names are stable: other layers (the moments, the
/// views, the history) match on them instead of comparing strings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EventKind {
    /// API: order N saved with request id N; its outbox row commits in the same transaction.
    ApiAccepted,
    /// API: order N saved (N) - its message uses a schema the consumer does not know yet ...
    ApiAcceptedPoison,
    /// API: retry with request id N finds order N - same answer, no second order.
    ApiSameOrder,
    /// API: order N committed, but the client timed out.
    ApiTimeoutAfterCommit,
    /// Pitfall: the API published N inside the HTTP request, without an outbox.
    ApiDirectPublished,
    /// Pitfall: order N is committed but the broker is down - message N will never exist.
    ApiDirectPublishFailed,
    /// API (your @accept): request id N - order N saved.
    ApiLabAccepted,
    /// API (your @accept): the request with request id N failed (order: N): N
    ApiLabFailed,
    /// Dispatcher claims N outbox row(s) with a N ms lease (SQLite has no SKIP LOCKED; ...
    DispatcherClaimed,
    /// Dispatcher published N message(s) to the broker.
    Published,
    /// Dispatcher published N message(s); the broker's duplicate detection dropped N it had ...
    PublishedDedup,
    /// Service Bus: the dispatcher's send of one message got no acknowledgement in time and
    /// its SDK sent it again; the broker stored both sends as two messages.
    PublishedRetried,
    /// Broker unreachable: N row(s) stay in the outbox.
    PublishFailedBrokerDown,
    /// Broker rejected a N-byte message (limit N bytes).
    PublishTooLarge,
    /// Dispatcher gave up: a N-byte message can never fit the N-byte limit.
    PublishGaveUp,
    /// SQS refused a send to a FIFO queue without a `MessageGroupId` (`MissingParameter`).
    SendRefusedNoGroup,
    /// Dispatcher crashed after publishing N message(s), before marking them.
    DispatcherCrashedAfterPublish,
    /// Dispatcher marked N of N row(s) as published.
    DispatcherMarked,
    /// Dispatcher marked only N of N row(s): its lease had run out and another dispatcher ...
    DispatcherMarkLeaseLost,
    /// Dispatcher restarted.
    DispatcherRestarted,
    /// Consumer received the message (delivery N); it is locked for N ms.
    Received,
    /// Consumer received the message again (delivery N): at-least-once delivery at work.
    ReceivedAgain,
    /// The broker also left a second copy of this message (delivery N): another consumer ...
    ReceivedTwice,
    /// Consumer asked the broker: nothing visible right now.
    ReceiveEmpty,
    /// Consumer: no inbox row yet.
    CheckNoneSafe,
    /// Naive consumer: no inbox row found, so it goes ahead.
    CheckNoneNaive,
    /// Consumer: the inbox already holds this message id.
    CheckFound,
    /// Consumer: inbox marker and effect N committed in one BEGIN IMMEDIATE transaction.
    Applied,
    /// Naive consumer: effect N written, then the inbox marker - two separate writes, no ...
    AppliedNaive,
    /// UNIQUE constraint failed (SQLite 19/2067) on N: another instance already processed ...
    DuplicatePrevented,
    /// Consumer committed, then lost its connection before settling.
    AppliedThenConnectionLost,
    /// Naive consumer wrote the effect, then lost its connection before writing the marker.
    NaiveEffectThenConnectionLost,
    /// Pitfall: a consumer without an inbox ran the handler: effect N committed, nothing
    /// records that the message is done.
    AppliedNoInbox,
    /// Pitfall: a consumer without an inbox committed the effect, then lost its connection
    /// before settling.
    NoInboxEffectThenConnectionLost,
    /// Pitfall: the effect was committed on its own (like ExecuteUpdate), the marker in a ...
    TrapApplied,
    /// Pitfall: the marker hit the unique index and rolled back - but effect N was already ...
    TrapDuplicateEffectStays,
    /// Pitfall: the effect committed outside the transaction, then the connection dropped ...
    TrapEffectThenConnectionLost,
    /// Pitfall: the message was completed before the commit, then the connection dropped.
    SettledThenConnectionLost,
    /// Consumer completed the message (N): the broker deletes it.
    Settled,
    /// Consumer could not complete the message: the broker is down.
    SettleFailedBrokerDown,
    /// The broker is unreachable: the consumer's N call failed (every broker operation fails in an outage).
    BrokerCallFailed,
    /// Lock renewal / visibility extension failed: the broker is unreachable; retried in N ms.
    RenewFailedBrokerDown,
    /// Settle (or abandon) refused: the lock (N) had already run out; the broker can hand the
    /// message to another instance.
    LockLost,
    /// The careful consumer's own lock check before its commit found the lock gone: no settle
    /// was tried, nothing is committed, the message is left to the broker.
    LockCheckFailed,
    /// SQS: `DeleteMessage` with a stale receipt handle succeeded, but the message was not deleted.
    DeletedStaleHandle,
    /// Service Bus: the peek-lock on message N ran out its full duration (N ms after the
    /// receive or the last renewal) without completion.
    LockExpired,
    /// Service Bus: the consumer renewed its lock until N ms (lock renewal) - the message ...
    LockRenewed,
    /// SQS: the consumer extended the visibility timeout until N ms ...
    VisibilityExtended,
    /// SQS: the visibility timeout of message N ran out after N ms without a delete.
    VisibilityExpired,
    /// Processing failed: N.
    Failed,
    /// Processing failed: N.
    FailedRetryNow,
    /// Processing failed after the message was already completed: N.
    FailedAfterSettle,
    /// Processing failed with a permanent error (unknown schema version): N. No retry.
    FailedPermanent,
    /// Delayed retry in N ms (exponential backoff, N jitter) after: N.
    RetryDelayed,
    /// Moved to the dead-letter queue: N (N).
    DeadLettered,
    /// Service Bus: the consumer's own `DeadLetter` call, with reason N and description N.
    DeadLetteredByConsumer,
    /// SQS has no dead-letter call: the consumer sent the message with its reason to the DLQ queue itself and deleted it.
    ForwardedToDlq,
    /// SQS: the consumer forwarded the message to the DLQ queue, but its `DeleteMessage` came
    /// with a stale receipt handle: it succeeded without deleting, so the message stays queued.
    ForwardedToDlqStaleDelete,
    /// Two-phase claim, phase 1: the inbox row claims the message (`processed_ms` still empty).
    Claimed,
    /// Provider charged once (charge N); the message id travels as idempotency key.
    ProviderChargedKeyed,
    /// Provider charged (charge N) - no idempotency key, so a repeat call charges again.
    ProviderChargedUnkeyed,
    /// Provider recognised the idempotency key and returned charge N again - no second charge.
    ProviderReplayed,
    /// Two-phase claim, phase 3: effect recorded for charge N and the claim marked processed.
    TwoPhaseFinished,
    /// The broker is unreachable for N ms.
    BrokerDown,
    /// The broker is reachable again.
    BrokerUp,
    /// Fault armed: N (xN).
    FaultArmed,
    /// Consumer reconnected.
    ConsumerReconnected,
    /// Operator: the cause is fixed - the consumer now understands the new schema.
    CauseFixed,
    /// Operator replayed N message(s) from the DLQ (batch of at most N).
    DlqReplayed,
    /// Sweeper: N inbox marker(s) past the N ms retention, N stale claim(s), N stale ...
    Sweep,
    /// SQS redrive policy moved a message to the DLQ after maxReceiveCount receives.
    Redriven,
    /// Duplicate detection dropped a DLQ replay that kept its `MessageId`.
    ReplayDroppedDuplicate,
    /// The operator replayed a DLQ message under a new `MessageId`.
    DlqReplayedNewId,
    /// The operator replayed DLQ messages into the session / message group each had kept.
    DlqReplayedIntoGroup,
    /// Lock renewal stopped at its limit (`MaxAutoLockRenewalDuration`).
    RenewalLimitReached,
    /// The SQS consumer stopped extending the visibility timeout at its own limit.
    VisibilityLimitReached,
    /// An effect was applied before an earlier order of the same customer.
    AppliedOutOfOrder,
    /// Service Bus `Abandon`: released at once; the consumer instance backs off.
    Abandoned,
    /// Service Bus, safe consumer: a copy scheduled for later under a new `MessageId`, its own
    /// attempt counter one higher; the delivery is completed next.
    ScheduledCopy,
    /// Service Bus lost the lock right after a delivery: the same message is visible again.
    LockLostAtBroker,
}

impl EventKind {
    /// True for an operator's DLQ replay, whatever became of its copies.
    pub fn is_dlq_replay(self) -> bool {
        matches!(
            self,
            EventKind::DlqReplayed
                | EventKind::DlqReplayedNewId
                | EventKind::DlqReplayedIntoGroup
                | EventKind::ReplayDroppedDuplicate
        )
    }

    /// Every kind, in caption-file order.
    pub const ALL: [EventKind; 80] = [
        EventKind::ApiAccepted,
        EventKind::ApiAcceptedPoison,
        EventKind::ApiSameOrder,
        EventKind::ApiTimeoutAfterCommit,
        EventKind::ApiDirectPublished,
        EventKind::ApiDirectPublishFailed,
        EventKind::ApiLabAccepted,
        EventKind::ApiLabFailed,
        EventKind::DispatcherClaimed,
        EventKind::Published,
        EventKind::PublishedDedup,
        EventKind::PublishedRetried,
        EventKind::PublishFailedBrokerDown,
        EventKind::PublishTooLarge,
        EventKind::PublishGaveUp,
        EventKind::SendRefusedNoGroup,
        EventKind::DispatcherCrashedAfterPublish,
        EventKind::DispatcherMarked,
        EventKind::DispatcherMarkLeaseLost,
        EventKind::DispatcherRestarted,
        EventKind::Received,
        EventKind::ReceivedAgain,
        EventKind::ReceivedTwice,
        EventKind::ReceiveEmpty,
        EventKind::CheckNoneSafe,
        EventKind::CheckNoneNaive,
        EventKind::CheckFound,
        EventKind::Applied,
        EventKind::AppliedNaive,
        EventKind::DuplicatePrevented,
        EventKind::AppliedThenConnectionLost,
        EventKind::NaiveEffectThenConnectionLost,
        EventKind::AppliedNoInbox,
        EventKind::NoInboxEffectThenConnectionLost,
        EventKind::TrapApplied,
        EventKind::TrapDuplicateEffectStays,
        EventKind::TrapEffectThenConnectionLost,
        EventKind::SettledThenConnectionLost,
        EventKind::Settled,
        EventKind::SettleFailedBrokerDown,
        EventKind::BrokerCallFailed,
        EventKind::RenewFailedBrokerDown,
        EventKind::LockLost,
        EventKind::LockCheckFailed,
        EventKind::DeletedStaleHandle,
        EventKind::LockExpired,
        EventKind::LockRenewed,
        EventKind::VisibilityExtended,
        EventKind::VisibilityExpired,
        EventKind::Failed,
        EventKind::FailedRetryNow,
        EventKind::FailedAfterSettle,
        EventKind::FailedPermanent,
        EventKind::RetryDelayed,
        EventKind::DeadLettered,
        EventKind::DeadLetteredByConsumer,
        EventKind::ForwardedToDlq,
        EventKind::ForwardedToDlqStaleDelete,
        EventKind::Claimed,
        EventKind::ProviderChargedKeyed,
        EventKind::ProviderChargedUnkeyed,
        EventKind::ProviderReplayed,
        EventKind::TwoPhaseFinished,
        EventKind::BrokerDown,
        EventKind::BrokerUp,
        EventKind::FaultArmed,
        EventKind::ConsumerReconnected,
        EventKind::CauseFixed,
        EventKind::DlqReplayed,
        EventKind::Sweep,
        EventKind::Redriven,
        EventKind::ReplayDroppedDuplicate,
        EventKind::DlqReplayedNewId,
        EventKind::DlqReplayedIntoGroup,
        EventKind::RenewalLimitReached,
        EventKind::VisibilityLimitReached,
        EventKind::AppliedOutOfOrder,
        EventKind::Abandoned,
        EventKind::ScheduledCopy,
        EventKind::LockLostAtBroker,
    ];
}
