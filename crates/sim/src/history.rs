//! The run's operation history in the Jepsen style: every client operation an event shows
//! becomes an `invoke` line and its completion (`ok`, `fail`, or `info` when the client cannot
//! know). `queuelab sim --history FILE` writes it as JSON Lines; [`super::checker`] reads it
//! beside the three database files, never the engine's state.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::model::{Event, EventKind, Outcome, RefusedCall};

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
        K::ApiAccepted
        | K::ApiAcceptedPoison
        | K::ApiSameOrder
        | K::ApiTimeoutAfterCommit
        | K::ApiLabAccepted
        | K::ApiLabFailed => "accept",
        K::ApiDirectPublished
        | K::ApiDirectPublishFailed
        | K::Published
        | K::PublishedDedup
        | K::PublishedRetried
        | K::PublishFailedBrokerDown
        | K::PublishTooLarge
        | K::PublishGaveUp
        | K::SendRefusedNoGroup
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
        | K::AppliedNoInbox
        | K::NoInboxEffectThenConnectionLost
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
        K::Settled
        | K::SettleFailedBrokerDown
        | K::LockLost
        | K::DeletedStaleHandle
        | K::SettledThenConnectionLost => "complete",
        K::BrokerCallFailed => "broker-call",
        K::LockRenewed
        | K::VisibilityExtended
        | K::RenewalLimitReached
        | K::VisibilityLimitReached
        | K::RenewFailedBrokerDown => "renew-lock",
        K::LockCheckFailed => "check-lock",
        K::RetryDelayed | K::Abandoned => "abandon",
        K::ScheduledCopy => "schedule-copy",
        K::DeadLettered
        | K::Redriven
        | K::DeadLetteredByConsumer
        | K::ForwardedToDlq
        | K::ForwardedToDlqStaleDelete => "dead-letter",
        K::DlqReplayed
        | K::DlqReplayedNewId
        | K::DlqReplayedIntoGroup
        | K::ReplayDroppedDuplicate => "replay",
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

/// The operations one event performed: (f, message id, outcome). Most events are one
/// operation; some are several, and the record keeps each of them.
fn performed(event: &Event) -> Vec<(&'static str, Option<String>, Outcome)> {
    use EventKind as K;
    let Some(f) = operation_of(event.kind) else {
        return Vec::new();
    };
    let one = |f, outcome| (f, event.message_id.clone(), outcome);
    match event.kind {
        // Publishing inside the request: the order was accepted (committed) either way.
        K::ApiDirectPublished | K::ApiDirectPublishFailed => {
            vec![one("accept", Outcome::Ok), one("publish", event.outcome)]
        }
        // The credit committed on its own; only the marker hit the unique index.
        K::TrapDuplicateEffectStays => {
            vec![
                one("effect", Outcome::Ok),
                one("inbox-marker", Outcome::Failed),
            ]
        }
        // A batch: one publish per message, every id named in the event's batch argument.
        // Each send succeeded for the sender (a copy duplicate detection dropped too; the
        // dispatcher crashed only after publishing).
        K::Published
        | K::PublishedDedup
        | K::PublishedRetried
        | K::DispatcherCrashedAfterPublish => match event.args.get(BATCH_ARG) {
            Some(ids) if !ids.is_empty() => ids
                .split(' ')
                .map(|id| (f, Some(id.to_string()), Outcome::Ok))
                .collect(),
            _ => vec![one(f, Outcome::Ok)],
        },
        // A replay: one send per copy, under the message id the consumer receives; the
        // copies duplicate detection dropped are the replay's failure.
        K::DlqReplayed
        | K::DlqReplayedNewId
        | K::DlqReplayedIntoGroup
        | K::ReplayDroppedDuplicate => {
            let ids = |i: usize| {
                event
                    .args
                    .get(i)
                    .map(|ids| {
                        ids.split(' ')
                            .filter(|id| !id.is_empty())
                            .collect::<Vec<_>>()
                    })
                    .unwrap_or_default()
            };
            let sent = ids(replay_sent_arg(event.kind));
            let dropped = if event.kind == K::ReplayDroppedDuplicate {
                ids(REPLAY_DROPPED_ARG)
            } else {
                Vec::new()
            };
            let ops: Vec<_> = (sent
                .iter()
                .map(|id| (f, Some((*id).to_string()), Outcome::Ok)))
            .chain(
                dropped
                    .iter()
                    .map(|id| (f, Some((*id).to_string()), Outcome::Failed)),
            )
            .collect();
            if ops.is_empty() {
                vec![one(f, event.outcome)]
            } else {
                ops
            }
        }
        // The refused call decides the operation: a settle, an abandon (SQS: the
        // ChangeMessageVisibility of a release) or a dead-letter.
        K::LockLost => vec![one(RefusedCall::of(event).operation(), event.outcome)],
        _ => vec![one(f, event.outcome)],
    }
}

/// Index of the argument that lists a publish batch's message ids (space-separated).
pub const BATCH_ARG: usize = 2;

/// Index of the argument of a replay dropped by duplicate detection that lists the dropped
/// copies' message ids.
const REPLAY_DROPPED_ARG: usize = 5;

/// Index of the argument of a replay event that lists the message ids of the copies it sent.
fn replay_sent_arg(kind: EventKind) -> usize {
    match kind {
        EventKind::DlqReplayedNewId => 3,
        EventKind::ReplayDroppedDuplicate => 6,
        _ => 2,
    }
}

/// The history lines of one event: an `invoke` and its completion per operation it performed
/// (none for steps that are no client operation).
pub fn operations(event: &Event) -> Vec<Operation> {
    let process = event.actor.to_string().to_lowercase();
    let mut out = Vec::new();
    for (f, message_id, outcome) in performed(event) {
        let value = serde_json::json!({
            "message_id": message_id,
            "kind": event.kind.as_str(),
            "args": event.args,
        });
        let done = match outcome {
            Outcome::Ok => "ok",
            Outcome::Failed => "fail",
            Outcome::Unknown => "info",
        };
        for (kind, value) in [
            ("invoke", serde_json::json!({ "message_id": message_id })),
            (done, value),
        ] {
            out.push(Operation {
                process: process.clone(),
                kind: kind.into(),
                f: f.into(),
                value,
                time_ms: event.at_ms,
                event: event.index,
            });
        }
    }
    out
}

/// What the checker needs of a history, gathered operation by operation so that a run of any
/// size is checked without holding its history: per message id, how many effect and
/// dead-letter operations took place (`ok`, or `info`: performed, outcome unknown to the
/// client).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HistoryDigest {
    effects: HashMap<String, u64>,
    dead_letters: HashMap<String, u64>,
}

impl HistoryDigest {
    /// Takes one history line into account.
    pub fn observe(&mut self, op: &Operation) {
        if op.kind != "ok" && op.kind != "info" {
            return;
        }
        let counts = match op.f.as_str() {
            "effect" => &mut self.effects,
            "dead-letter" => &mut self.dead_letters,
            _ => return,
        };
        if let Some(id) = op.value.get("message_id").and_then(|v| v.as_str()) {
            *counts.entry(id.to_string()).or_default() += 1;
        }
    }

    /// The digest of a whole history.
    pub fn of(ops: &[Operation]) -> HistoryDigest {
        let mut d = HistoryDigest::default();
        for op in ops {
            d.observe(op);
        }
        d
    }

    /// Effect operations that took place for `message_id`.
    pub fn effects(&self, message_id: &str) -> u64 {
        self.effects.get(message_id).copied().unwrap_or(0)
    }

    /// Dead-letter operations that took place for `message_id`.
    pub fn dead_letters(&self, message_id: &str) -> u64 {
        self.dead_letters.get(message_id).copied().unwrap_or(0)
    }
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
    use crate::{Actor, Stage};

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
