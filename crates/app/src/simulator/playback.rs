//! Playback: play/pause, stepping through the timeline and the beat clock. Folding the
//! engine's replies into the screen state is in `replies`.

mod replies;

pub use replies::on_reply;

use super::protocol::SimCommand;
use super::{Compare, SimState};
use crate::Effect;
use model::Mode;

/// Most events one tick may ask for (a slow frame must not turn into a burst).
const MAX_EVENTS_PER_TICK: u32 = 50;

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
pub(super) fn take_queued_step(s: &mut SimState) -> Vec<Effect> {
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
pub fn inject(s: &mut SimState, fault: model::Fault) -> Vec<Effect> {
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
