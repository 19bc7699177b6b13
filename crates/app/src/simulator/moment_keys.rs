//! The story's keys: `w` jumps to the current moment's cause and back, `]` goes to the next
//! moment (a known one in history, else the engine plays on until the next one appears), `[`
//! back to the one before, `p` switches "pause at moments".

use super::SimState;
use super::playback::{tell_engine, view};
use super::protocol::SimCommand;
use crate::Effect;

/// Most events "next moment" lets the engine run while looking for one.
const NEXT_MOMENT_MAX: u32 = 100_000;

/// `w`: to the cause of the moment in the panel, or back to where the jump started.
pub fn why(s: &mut SimState) -> Vec<Effect> {
    if s.timeline.pending {
        return Vec::new();
    }
    s.timeline.playing = false;
    match s.story.toggle_jump(s.timeline.cursor, s.shown_index()) {
        Some(Some(index)) => view(s, index),
        Some(None) => {
            s.timeline.cursor = None;
            s.timeline.viewed = None;
            s.timeline.moves.clear();
            Vec::new()
        }
        None => Vec::new(),
    }
}

/// `]`: the next moment after the event shown.
pub fn next_moment(s: &mut SimState) -> Vec<Effect> {
    if s.timeline.pending {
        return Vec::new();
    }
    s.timeline.playing = false;
    s.story.forget_jump();
    if let Some(next) = s.story.next_after(s.shown_index()).map(|m| m.event) {
        if s.timeline.total.checked_sub(1) == Some(next) {
            s.timeline.cursor = None;
            s.timeline.viewed = None;
            return Vec::new();
        }
        return view(s, next);
    }
    if s.timeline.finished {
        return Vec::new();
    }
    s.timeline.cursor = None;
    s.timeline.viewed = None;
    s.timeline.pending = true;
    tell_engine(SimCommand::StepToMoment {
        run: s.timeline.run,
        max: NEXT_MOMENT_MAX,
    })
}

/// `[`: back to the moment before the event shown (the run stays where it is).
pub fn prev_moment(s: &mut SimState) -> Vec<Effect> {
    if s.timeline.pending {
        return Vec::new();
    }
    s.timeline.playing = false;
    s.story.forget_jump();
    let head = s.timeline.total.checked_sub(1);
    match s.story.prev_before(s.shown_index(), head).map(|m| m.event) {
        Some(prev) => view(s, prev),
        None => Vec::new(),
    }
}

/// `p`: pause at moments on or off.
pub fn toggle_pause(s: &mut SimState) -> Vec<Effect> {
    s.settings.pause_at_moments = !s.settings.pause_at_moments;
    Vec::new()
}
