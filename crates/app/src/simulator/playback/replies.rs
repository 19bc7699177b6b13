//! Folding the engine's replies into the screen state: the new snapshot, the log and the
//! samples, and the moves the flow map animates between two snapshots.

use super::super::protocol::SimReply;
use super::super::{Compare, LOG_CAP, Move, SAMPLE_CAP, SimState};
use super::take_queued_step;
use crate::Effect;
use model::{Snapshot, Stage};
use std::collections::BTreeMap;

/// Most tokens animated at once (the rest simply appear at their stage).
const MAX_MOVES: usize = 24;

/// Folds a reply into the state; replies of older runs are dropped.
pub fn on_reply(s: &mut SimState, reply: SimReply) -> Vec<Effect> {
    if reply.run() != s.timeline.run {
        return Vec::new();
    }
    match reply {
        SimReply::Started {
            dir,
            consumers,
            head,
            expected_events,
            ..
        } => {
            s.timeline.pending = s.timeline.opening_at_statement.is_some();
            s.timeline.expected_events = expected_events;
            s.timeline.dir = Some(dir);
            s.timeline.consumers = consumers;
            s.timeline.head = Some(head);
        }
        reply @ SimReply::Advanced { .. } => advanced(s, reply),
        SimReply::Viewed {
            index, snapshot, ..
        } => {
            s.timeline.pending = false;
            if s.timeline.cursor == Some(index) {
                s.timeline.viewed = Some(snapshot);
            }
        }
        SimReply::Compared { safe, naive, .. } => {
            if s.compare.is_some() {
                s.compare = Some(Compare::Done { safe, naive });
            }
        }
        SimReply::Failed { .. } => {
            s.timeline.pending = false;
            s.timeline.opening_at_statement = None;
            s.timeline.playing = false;
            s.timeline.queued_steps = 0;
            if s.compare == Some(Compare::Running) {
                s.compare = None;
            }
        }
    }
    if s.timeline.pending {
        Vec::new()
    } else {
        take_queued_step(s)
    }
}

/// Folds a step of the run: the new head and the moves to animate towards it, the totals, the
/// log and the samples (both capped), and a pause at a moment or at the end.
fn advanced(s: &mut SimState, reply: SimReply) {
    let SimReply::Advanced {
        head,
        events,
        total,
        finished,
        dlq,
        report,
        moments,
        ..
    } = reply
    else {
        return;
    };
    s.timeline.pending = false;
    s.timeline.opening_at_statement = None;
    if !moments.is_empty() && s.settings.pause_at_moments {
        // Pause at moments: the presenter's clicker (`.`) continues.
        s.timeline.playing = false;
    }
    s.story.extend(&moments);
    s.timeline.moves = s
        .timeline
        .head
        .as_deref()
        .map(|old| moves(old, &head, &events))
        .unwrap_or_default();
    s.timeline.head = Some(head);
    s.timeline.total = total;
    s.timeline.finished = finished;
    s.triage.dlq = dlq;
    s.timeline.report = report;
    if finished {
        s.timeline.playing = false;
    }
    s.timeline.log.extend(events);
    while s.timeline.log.len() > LOG_CAP {
        s.timeline.log.pop_front();
    }
    if let Some(h) = &s.timeline.head {
        s.timeline.samples.push_back(h.metrics);
        while s.timeline.samples.len() > SAMPLE_CAP {
            s.timeline.samples.pop_front();
        }
    }
}

/// Tokens whose stage changed between two pictures, plus a message that reached its effect
/// or the DLQ with the last event (its token left the queue tables).
fn moves(old: &Snapshot, new: &Snapshot, events: &[model::Event]) -> Vec<Move> {
    // A message received again in this beat travels as the same order coming back.
    let again = |id: &str| {
        events.iter().any(|e| {
            e.message_id.as_deref() == Some(id)
                && matches!(
                    e.kind,
                    model::EventKind::ReceivedAgain | model::EventKind::ReceivedTwice
                )
        })
    };
    // One message can have several tokens (its outbox row still leased while the message is
    // already in the broker): a token moves only when its stage is new for that message, and
    // it comes from the stage the message left.
    let mut before: BTreeMap<&str, Vec<Stage>> = BTreeMap::new();
    for t in &old.tokens {
        before
            .entry(t.message_id.as_str())
            .or_default()
            .push(t.stage);
    }
    let mut after: BTreeMap<&str, Vec<Stage>> = BTreeMap::new();
    for t in &new.tokens {
        after
            .entry(t.message_id.as_str())
            .or_default()
            .push(t.stage);
    }
    let mut out: Vec<Move> = new
        .tokens
        .iter()
        .filter_map(|t| {
            let id = t.message_id.as_str();
            let olds = before.get(id).map_or(&[][..], Vec::as_slice);
            if olds.contains(&t.stage) {
                return None;
            }
            let now = after.get(id).map_or(&[][..], Vec::as_slice);
            let from = olds
                .iter()
                .find(|s| !now.contains(s))
                .or(olds.first())
                .copied()
                .unwrap_or(Stage::Api);
            // Upstream only a message the broker takes back travels (lock expired, abandoned).
            let backwards = rank(t.stage) < rank(from) && t.stage != Stage::Broker;
            (!backwards).then(|| Move {
                message_id: t.message_id.clone(),
                from,
                to: t.stage,
                again: t.stage == Stage::Consumer && again(id),
            })
        })
        .take(MAX_MOVES)
        .collect();
    if let Some(event) = &new.last_event
        && let (Some(id), Stage::Effect) = (&event.message_id, event.stage)
        && !out.iter().any(|m| &m.message_id == id)
    {
        out.push(Move {
            message_id: id.clone(),
            from: Stage::Consumer,
            to: Stage::Effect,
            again: false,
        });
    }
    out
}

/// A stage's place along the flow, left to right (the lower boxes share their upper box's).
fn rank(stage: Stage) -> u8 {
    match stage {
        Stage::Api => 0,
        Stage::Outbox => 1,
        Stage::Dispatcher => 2,
        Stage::Broker | Stage::Retry => 3,
        Stage::Consumer => 4,
        Stage::Dlq | Stage::Effect => 5,
    }
}
