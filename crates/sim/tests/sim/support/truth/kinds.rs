//! Which event kinds are receives, sends, lock ends and effects, and an event's duration
//! arguments: the vocabulary the truth checks share.

use queuelab_sim::{Event, EventKind};

pub(super) fn is_receive(k: EventKind) -> bool {
    matches!(
        k,
        EventKind::Received
            | EventKind::ReceivedAgain
            | EventKind::ReceivedTwice
            | EventKind::LockLostAtBroker
    )
}

/// A consumer's receive call, whether it got a message or not.
pub(super) fn is_receive_attempt(k: EventKind) -> bool {
    is_receive(k) || k == EventKind::ReceiveEmpty
}

/// A send to the broker that duplicate detection records.
pub(super) fn is_send(k: EventKind) -> bool {
    matches!(
        k,
        EventKind::Published
            | EventKind::PublishedDedup
            | EventKind::PublishedRetried
            | EventKind::DispatcherCrashedAfterPublish
            | EventKind::ApiDirectPublished
            | EventKind::DlqReplayed
            | EventKind::DlqReplayedNewId
            | EventKind::DlqReplayedIntoGroup
    )
}

pub(super) fn is_lock_end(k: EventKind) -> bool {
    matches!(k, EventKind::LockExpired | EventKind::VisibilityExpired)
}

pub(super) fn is_effect(k: EventKind) -> bool {
    matches!(
        k,
        EventKind::Applied
            | EventKind::AppliedNaive
            | EventKind::AppliedOutOfOrder
            | EventKind::AppliedThenConnectionLost
            | EventKind::NaiveEffectThenConnectionLost
            | EventKind::AppliedNoInbox
            | EventKind::NoInboxEffectThenConnectionLost
            | EventKind::TrapApplied
            | EventKind::TrapDuplicateEffectStays
            | EventKind::TrapEffectThenConnectionLost
            | EventKind::TwoPhaseFinished
    )
}

pub(super) fn arg_ms(e: &Event, i: usize) -> Option<u64> {
    e.args.get(i).and_then(|a| a.parse().ok())
}
