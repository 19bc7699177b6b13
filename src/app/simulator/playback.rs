//! Playback: play/pause, stepping through the timeline, the beat clock, and folding the
//! engine's replies into the screen state.

use super::protocol::{SimCommand, SimReply};
use super::{Compare, LOG_CAP, Move, SAMPLE_CAP, SimState};
use crate::app::Effect;
use crate::sim::{Snapshot, Stage};
use std::collections::BTreeMap;

/// Most events one tick may ask for (a slow frame must not turn into a burst).
const MAX_EVENTS_PER_TICK: u32 = 50;
/// Most tokens animated at once (the rest simply appear at their stage).
const MAX_MOVES: usize = 24;

fn cmd(c: SimCommand) -> Vec<Effect> {
    vec![Effect::Sim(c)]
}

/// Starts the run anew with the current settings, paused before the first event.
pub fn restart(s: &mut SimState) -> Vec<Effect> {
    let keep = (s.scenario, s.mode, s.broker, s.seed, s.speed, s.tab);
    let run = s.run + 1;
    *s = SimState::new(keep.0);
    (s.mode, s.broker, s.seed, s.speed, s.tab) = (keep.1, keep.2, keep.3, keep.4, keep.5);
    s.run = run;
    s.pending = true;
    cmd(SimCommand::Start {
        run,
        spec: s.spec(),
    })
}

/// Space / `.`: play or pause. Playing at the end of a finished run starts it over.
pub fn play_pause(s: &mut SimState) -> Vec<Effect> {
    if s.playing {
        s.playing = false;
        s.phase_ms = 0;
        return Vec::new();
    }
    if s.finished && s.cursor.is_none() {
        return Vec::new();
    }
    s.playing = true;
    s.phase_ms = 0;
    Vec::new()
}

/// One event forward: in history the next picture, at the head the next event.
pub fn step_forward(s: &mut SimState) -> Vec<Effect> {
    s.playing = false;
    advance(s, 1)
}

fn advance(s: &mut SimState, count: u32) -> Vec<Effect> {
    if s.pending {
        return Vec::new();
    }
    match s.cursor {
        Some(i) if i + 1 + 1 >= s.total => {
            // The next picture is the head, which we already hold.
            s.cursor = None;
            s.viewed = None;
            s.moves.clear();
            Vec::new()
        }
        Some(i) => {
            s.cursor = Some(i + 1);
            s.pending = true;
            cmd(SimCommand::View {
                run: s.run,
                index: i + 1,
            })
        }
        None if s.finished => {
            s.playing = false;
            Vec::new()
        }
        None => {
            s.pending = true;
            cmd(SimCommand::Step { run: s.run, count })
        }
    }
}

/// One event back, down to the very first event.
pub fn step_back(s: &mut SimState) -> Vec<Effect> {
    s.playing = false;
    let Some(current) = s.shown_index() else {
        return Vec::new();
    };
    if current == 0 || s.pending {
        return Vec::new();
    }
    view(s, current - 1)
}

/// Home: the picture after the very first event.
pub fn view_first(s: &mut SimState) -> Vec<Effect> {
    s.playing = false;
    if s.total == 0 || s.pending {
        return Vec::new();
    }
    view(s, 0)
}

fn view(s: &mut SimState, index: u64) -> Vec<Effect> {
    s.cursor = Some(index);
    s.moves.clear();
    s.pending = true;
    cmd(SimCommand::View { run: s.run, index })
}

/// End: run everything that is left.
pub fn to_end(s: &mut SimState) -> Vec<Effect> {
    s.playing = false;
    s.cursor = None;
    s.viewed = None;
    if s.finished || s.pending {
        return Vec::new();
    }
    s.pending = true;
    cmd(SimCommand::ToEnd { run: s.run })
}

/// Opens (or closes) the compare view.
pub fn compare(s: &mut SimState) -> Vec<Effect> {
    if s.compare.take().is_some() {
        return Vec::new();
    }
    s.playing = false;
    s.compare = Some(Compare::Running);
    cmd(SimCommand::Compare {
        run: s.run,
        spec: s.spec(),
    })
}

/// DLQ triage: replay a small batch (fixing the cause first when it is marked fixed).
pub fn replay(s: &mut SimState) -> Vec<Effect> {
    if s.dlq.is_empty() {
        return Vec::new();
    }
    let fix_cause = s.cause_fixed && !s.fix_sent;
    s.fix_sent |= fix_cause;
    s.cursor = None;
    s.viewed = None;
    s.finished = false;
    s.report = None;
    cmd(SimCommand::Replay {
        run: s.run,
        count: s.batch,
        fix_cause,
    })
}

/// Sends a fault to the head of the run (history view returns to the head first).
pub fn inject(s: &mut SimState, fault: crate::sim::Fault) -> Vec<Effect> {
    s.cursor = None;
    s.viewed = None;
    s.finished = false;
    s.report = None;
    cmd(SimCommand::Inject { run: s.run, fault })
}

/// A frame tick: the beat clock moves; each full beat asks for the next event(s).
pub fn tick(s: &mut SimState, elapsed_ms: u32) -> Vec<Effect> {
    if !s.playing {
        return Vec::new();
    }
    let beat = s.beat_ms().max(1);
    s.phase_ms = s.phase_ms.saturating_add(elapsed_ms);
    if s.phase_ms < beat || s.pending {
        s.phase_ms = s.phase_ms.min(beat);
        return Vec::new();
    }
    let beats = (s.phase_ms / beat).clamp(1, MAX_EVENTS_PER_TICK);
    s.phase_ms %= beat;
    let count = if s.cursor.is_some() { 1 } else { beats };
    advance(s, count)
}

/// Folds a reply into the state; replies of older runs are dropped.
pub fn on_reply(s: &mut SimState, reply: SimReply) -> Vec<Effect> {
    if reply.run() != s.run {
        return Vec::new();
    }
    match reply {
        SimReply::Started {
            dir,
            consumers,
            head,
            ..
        } => {
            s.pending = false;
            s.dir = Some(dir);
            s.consumers = consumers;
            s.head = Some(head);
        }
        SimReply::Advanced {
            head,
            events,
            total,
            finished,
            dlq,
            report,
            ..
        } => {
            s.pending = false;
            s.moves = s
                .head
                .as_deref()
                .map(|old| moves(old, &head))
                .unwrap_or_default();
            s.head = Some(head);
            s.total = total;
            s.finished = finished;
            s.dlq = dlq;
            s.report = report;
            if finished {
                s.playing = false;
            }
            s.log.extend(events);
            while s.log.len() > LOG_CAP {
                s.log.pop_front();
            }
            if let Some(h) = &s.head {
                s.samples.push_back(h.metrics);
                while s.samples.len() > SAMPLE_CAP {
                    s.samples.pop_front();
                }
            }
        }
        SimReply::Viewed {
            index, snapshot, ..
        } => {
            s.pending = false;
            if s.cursor == Some(index) {
                s.viewed = Some(snapshot);
            }
        }
        SimReply::Compared { safe, naive, .. } => {
            if s.compare.is_some() {
                s.compare = Some(Compare::Done { safe, naive });
            }
        }
        SimReply::Failed { .. } => {
            s.pending = false;
            s.playing = false;
            if s.compare == Some(Compare::Running) {
                s.compare = None;
            }
        }
    }
    Vec::new()
}

/// Tokens whose stage changed between two pictures, plus a message that reached its effect
/// or the DLQ with the last event (its token left the queue tables).
fn moves(old: &Snapshot, new: &Snapshot) -> Vec<Move> {
    let before: BTreeMap<&str, Stage> = old
        .tokens
        .iter()
        .map(|t| (t.message_id.as_str(), t.stage))
        .collect();
    let mut out: Vec<Move> = new
        .tokens
        .iter()
        .filter_map(|t| {
            let from = before
                .get(t.message_id.as_str())
                .copied()
                .unwrap_or(Stage::Api);
            (from != t.stage).then(|| Move {
                message_id: t.message_id.clone(),
                from,
                to: t.stage,
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
        });
    }
    out
}
