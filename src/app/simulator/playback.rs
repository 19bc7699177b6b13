//! Playback: play/pause, stepping through the timeline, the beat clock, and folding the
//! engine's replies into the screen state.

use super::protocol::{SimCommand, SimReply};
use super::{Compare, LOG_CAP, Move, SAMPLE_CAP, SimState};
use crate::app::Effect;
use crate::sim::{Mode, Snapshot, Stage};
use std::collections::BTreeMap;

/// Most events one tick may ask for (a slow frame must not turn into a burst).
const MAX_EVENTS_PER_TICK: u32 = 50;
/// Most tokens animated at once (the rest simply appear at their stage).
const MAX_MOVES: usize = 24;

pub(super) fn tell_engine(command: SimCommand) -> Vec<Effect> {
    vec![Effect::Sim(command)]
}

/// Starts the run anew with the current settings, paused before the first event.
pub fn restart(s: &mut SimState) -> Vec<Effect> {
    let run = s.timeline.run + 1;
    *s = SimState {
        settings: s.settings.clone(),
        tab: s.tab,
        ..SimState::new(&s.settings.scenario)
    };
    s.timeline.run = run;
    s.timeline.pending = true;
    tell_engine(SimCommand::Start {
        run,
        spec: s.spec(),
    })
}

/// Space / `.`: play or pause. Playing at the end of a finished run starts it over.
pub fn play_pause(s: &mut SimState) -> Vec<Effect> {
    s.timeline.queued_steps = 0;
    if s.timeline.playing {
        s.timeline.playing = false;
        s.timeline.phase_ms = 0;
        return Vec::new();
    }
    if s.timeline.finished && s.timeline.cursor.is_none() {
        return Vec::new();
    }
    s.timeline.playing = true;
    s.timeline.phase_ms = 0;
    Vec::new()
}

/// Most step presses kept while the engine is busy (a held key must not run on for long).
const MAX_QUEUED_STEPS: i32 = 50;

/// One event forward: in history the next picture, at the head the next event. A press while
/// the engine answers the last one is kept and taken when its reply arrives.
pub fn step_forward(s: &mut SimState) -> Vec<Effect> {
    s.timeline.playing = false;
    s.story.forget_jump();
    if s.timeline.pending {
        queue_step(s, 1);
        return Vec::new();
    }
    advance(s, 1)
}

fn queue_step(s: &mut SimState, step: i32) {
    s.timeline.queued_steps =
        (s.timeline.queued_steps + step).clamp(-MAX_QUEUED_STEPS, MAX_QUEUED_STEPS);
}

/// Takes one step pressed while the engine was busy, now that its reply is in.
fn take_queued_step(s: &mut SimState) -> Vec<Effect> {
    match s.timeline.queued_steps.signum() {
        1 => {
            s.timeline.queued_steps -= 1;
            step_forward(s)
        }
        -1 => {
            s.timeline.queued_steps += 1;
            step_back(s)
        }
        _ => Vec::new(),
    }
}

fn advance(s: &mut SimState, count: u32) -> Vec<Effect> {
    if s.timeline.pending {
        return Vec::new();
    }
    match s.timeline.cursor {
        Some(i) if i + 1 + 1 >= s.timeline.total => {
            // The next picture is the head, which we already hold.
            s.timeline.cursor = None;
            s.timeline.viewed = None;
            s.timeline.moves.clear();
            Vec::new()
        }
        Some(i) => {
            s.timeline.cursor = Some(i + 1);
            s.timeline.pending = true;
            if s.settings.pause_at_moments && s.story.at(i + 1) {
                // Replaying history stops at a moment just as the live run does.
                s.timeline.playing = false;
            }
            tell_engine(SimCommand::View {
                run: s.timeline.run,
                index: i + 1,
            })
        }
        None if s.timeline.finished => {
            s.timeline.playing = false;
            Vec::new()
        }
        None if s.timeline.playing && s.settings.pause_at_moments => {
            s.timeline.pending = true;
            tell_engine(SimCommand::StepToMoment {
                run: s.timeline.run,
                max: count,
            })
        }
        None => {
            s.timeline.pending = true;
            tell_engine(SimCommand::Step {
                run: s.timeline.run,
                count,
            })
        }
    }
}

/// One event back, down to the very first event.
pub fn step_back(s: &mut SimState) -> Vec<Effect> {
    s.timeline.playing = false;
    s.story.forget_jump();
    if s.timeline.pending {
        queue_step(s, -1);
        return Vec::new();
    }
    let Some(current) = s.shown_index() else {
        return Vec::new();
    };
    if current == 0 {
        return Vec::new();
    }
    view(s, current - 1)
}

/// Home: the picture after the very first event.
pub fn view_first(s: &mut SimState) -> Vec<Effect> {
    s.timeline.playing = false;
    s.timeline.queued_steps = 0;
    s.story.forget_jump();
    if s.timeline.total == 0 || s.timeline.pending {
        return Vec::new();
    }
    view(s, 0)
}

pub(super) fn view(s: &mut SimState, index: u64) -> Vec<Effect> {
    s.timeline.cursor = Some(index);
    s.timeline.moves.clear();
    s.timeline.pending = true;
    tell_engine(SimCommand::View {
        run: s.timeline.run,
        index,
    })
}

/// End: run everything that is left.
pub fn to_end(s: &mut SimState) -> Vec<Effect> {
    s.timeline.playing = false;
    s.timeline.queued_steps = 0;
    s.story.forget_jump();
    s.timeline.cursor = None;
    s.timeline.viewed = None;
    if s.timeline.finished || s.timeline.pending {
        return Vec::new();
    }
    s.timeline.pending = true;
    tell_engine(SimCommand::ToEnd {
        run: s.timeline.run,
    })
}

/// Opens (or closes) the compare view: safe mode beside the current mode when that is pitfall,
/// else beside naive mode.
pub fn compare(s: &mut SimState) -> Vec<Effect> {
    if s.compare.take().is_some() {
        return Vec::new();
    }
    let against = match s.settings.mode {
        Mode::Pitfall => Mode::Pitfall,
        Mode::Safe | Mode::Naive => Mode::Naive,
    };
    compare_against(s, against)
}

/// Runs safe mode and `against` to the end and shows them side by side.
pub fn compare_against(s: &mut SimState, against: Mode) -> Vec<Effect> {
    s.timeline.playing = false;
    s.compare = Some(Compare::Running);
    tell_engine(SimCommand::Compare {
        run: s.timeline.run,
        spec: s.spec(),
        against,
    })
}

/// Sends a fault to the head of the run (history view returns to the head first).
pub fn inject(s: &mut SimState, fault: crate::sim::Fault) -> Vec<Effect> {
    s.timeline.cursor = None;
    s.timeline.viewed = None;
    s.timeline.finished = false;
    s.timeline.report = None;
    tell_engine(SimCommand::Inject {
        run: s.timeline.run,
        fault,
    })
}

/// A frame tick: the beat clock moves; each full beat asks for the next event(s).
pub fn tick(s: &mut SimState, elapsed_ms: u32) -> Vec<Effect> {
    if !s.timeline.playing {
        return Vec::new();
    }
    let beat = s.beat_ms().max(1);
    s.timeline.phase_ms = s.timeline.phase_ms.saturating_add(elapsed_ms);
    if s.timeline.phase_ms < beat || s.timeline.pending {
        s.timeline.phase_ms = s.timeline.phase_ms.min(beat);
        return Vec::new();
    }
    let beats = (s.timeline.phase_ms / beat).clamp(1, MAX_EVENTS_PER_TICK);
    s.timeline.phase_ms %= beat;
    let count = if s.timeline.cursor.is_some() {
        1
    } else {
        beats
    };
    advance(s, count)
}

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
            s.timeline.pending = false;
            s.timeline.expected_events = expected_events;
            s.timeline.dir = Some(dir);
            s.timeline.consumers = consumers;
            s.timeline.head = Some(head);
        }
        SimReply::Advanced {
            head,
            events,
            total,
            finished,
            dlq,
            report,
            moments,
            ..
        } => {
            s.timeline.pending = false;
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

/// Tokens whose stage changed between two pictures, plus a message that reached its effect
/// or the DLQ with the last event (its token left the queue tables).
fn moves(old: &Snapshot, new: &Snapshot, events: &[crate::sim::Event]) -> Vec<Move> {
    // A message received again in this beat travels as the same order coming back.
    let again = |id: &str| {
        events.iter().any(|e| {
            e.message_id.as_deref() == Some(id)
                && matches!(
                    e.kind,
                    crate::sim::EventKind::ReceivedAgain | crate::sim::EventKind::ReceivedTwice
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
