//! The run's operation history in the Jepsen style: every client operation an event shows
//! becomes an `invoke` line and its completion (`ok`, `fail`, or `info` when the client cannot
//! know). `queuelab sim --history FILE` writes it as JSON Lines; [`super::checker`] reads it
//! beside the three database files, never the engine's state.

use serde::{Deserialize, Serialize};

use super::model::{Event, EventKind, Outcome};

/// One line of the history.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Operation {
    /// Who acted (`api`, `dispatcher-a`, `consumer-b`, `broker`, `operator`, ...).
    pub process: String,
    /// `invoke`, then `ok`, `fail` or `info` (outcome unknown).
    #[serde(rename = "type")]
    pub kind: String,
    /// The operation: `accept`, `publish`, `receive`, `complete`, `abandon`, `dead-letter`,
    /// `effect`, `charge`, `replay`, ...
    pub f: String,
    /// What the operation concerned: the message id, the event kind and its arguments.
    pub value: serde_json::Value,
    /// Virtual time, ms.
    pub time_ms: u64,
    /// The event that completed the operation.
    pub event: u64,
}

/// The operation name of an event kind, or `None` for steps that are no client operation
/// (lock expiry, sweeps, armed faults, reconnects).
pub fn operation_of(kind: EventKind) -> Option<&'static str> {
    use EventKind as K;
    Some(match kind {
        K::ApiAccepted | K::ApiAcceptedPoison | K::ApiSameOrder | K::ApiTimeoutAfterCommit => {
            "accept"
        }
        K::ApiDirectPublished
        | K::ApiDirectPublishFailed
        | K::Published
        | K::PublishedDedup
        | K::PublishFailedBrokerDown
        | K::PublishTooLarge
        | K::PublishGaveUp
        | K::DispatcherCrashedAfterPublish => "publish",
        K::DispatcherClaimed => "claim-outbox",
        K::DispatcherMarked | K::DispatcherMarkLeaseLost => "mark-published",
        K::Received
        | K::ReceivedAgain
        | K::ReceivedTwice
        | K::ReceiveEmpty
        | K::LockLostAtBroker => "receive",
        K::CheckNoneSafe | K::CheckNoneNaive | K::CheckFound => "inbox-check",
        K::Applied
        | K::AppliedNaive
        | K::AppliedOutOfOrder
        | K::DuplicatePrevented
        | K::AppliedThenConnectionLost
        | K::NaiveEffectThenConnectionLost
        | K::TrapApplied
        | K::TrapDuplicateEffectStays
        | K::TrapEffectThenConnectionLost
        | K::TwoPhaseFinished
        | K::Failed
        | K::FailedRetryNow
        | K::FailedAfterSettle
        | K::FailedPermanent => "effect",
        K::Claimed => "claim-inbox",
        K::ProviderChargedKeyed | K::ProviderChargedUnkeyed | K::ProviderReplayed => "charge",
        K::Settled | K::SettleFailedBrokerDown | K::LockLost | K::SettledThenConnectionLost => {
            "complete"
        }
        K::BrokerCallFailed => "broker-call",
        K::LockRenewed
        | K::VisibilityExtended
        | K::RenewalLimitReached
        | K::RenewFailedBrokerDown => "renew-lock",
        K::RetryDelayed | K::Abandoned => "abandon",
        K::DeadLettered | K::Redriven | K::DeadLetteredByConsumer | K::ForwardedToDlq => {
            "dead-letter"
        }
        K::DlqReplayed | K::DlqReplayedNewId | K::ReplayDroppedDuplicate => "replay",
        K::CauseFixed => "fix-cause",
        K::DispatcherRestarted
        | K::LockExpired
        | K::VisibilityExpired
        | K::BrokerDown
        | K::BrokerUp
        | K::FaultArmed
        | K::ConsumerReconnected
        | K::Sweep => return None,
    })
}

/// The history lines of one event: an `invoke` and its completion, or nothing.
pub fn operations(event: &Event) -> Vec<Operation> {
    let Some(f) = operation_of(event.kind) else {
        return Vec::new();
    };
    let process = event.actor.to_string().to_lowercase();
    let value = serde_json::json!({
        "message_id": event.message_id,
        "kind": event.kind.as_str(),
        "args": event.args,
    });
    let done = match event.outcome {
        Outcome::Ok => "ok",
        Outcome::Failed => "fail",
        Outcome::Unknown => "info",
    };
    [
        (
            "invoke",
            serde_json::json!({ "message_id": event.message_id }),
        ),
        (done, value),
    ]
    .into_iter()
    .map(|(kind, value)| Operation {
        process: process.clone(),
        kind: kind.into(),
        f: f.into(),
        value,
        time_ms: event.at_ms,
        event: event.index,
    })
    .collect()
}

/// Parses a history file (JSON Lines); the error names the line.
pub fn parse(text: &str) -> Result<Vec<Operation>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| serde_json::from_str(l).map_err(|e| format!("history line {}: {e}", i + 1)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{Actor, Stage};

    #[test]
    fn an_event_becomes_invoke_and_completion_and_round_trips() {
        let e = Event {
            index: 7,
            at_ms: 120,
            actor: Actor::Consumer(1),
            stage: Stage::Effect,
            message_id: Some("msg-000003".into()),
            kind: EventKind::Applied,
            sql: &[],
            outcome: Outcome::Ok,
            caption: EventKind::Applied.caption_key(),
            args: vec!["CR-00000001".into()],
        };
        let ops = operations(&e);
        assert_eq!(ops.len(), 2);
        assert_eq!(
            (ops[0].kind.as_str(), ops[1].kind.as_str()),
            ("invoke", "ok")
        );
        assert_eq!(
            (ops[1].process.as_str(), ops[1].f.as_str()),
            ("consumer-b", "effect")
        );
        let text: String = ops
            .iter()
            .map(|o| serde_json::to_string(o).expect("json") + "\n")
            .collect();
        assert_eq!(parse(&text).expect("parses"), ops);
        assert!(
            parse("{")
                .expect_err("bad line")
                .starts_with("history line 1")
        );
    }
}
