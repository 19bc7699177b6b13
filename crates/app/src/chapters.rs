//! The chapter list: status per chapter, jump anywhere, jump by number.

use super::input::{Mouse, MouseKind};
use super::keymap::Action;
use super::{Effect, Session, layout, reader};

/// The list's own state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ChaptersState {
    /// Selected chapter index.
    pub cursor: usize,
    /// First visible row.
    pub offset: usize,
    /// A first digit typed, waiting for a possible second one (chapters 10-16).
    pub pending_digit: Option<u8>,
    /// Time since that digit, from the runtime's ticks (it expires after
    /// [`PENDING_DIGIT_MS`]).
    pub pending_ms: u32,
}

/// How long a first digit waits for a second one; then a digit starts a new number.
pub const PENDING_DIGIT_MS: u32 = 2_000;
/// How often the runtime ticks while a digit waits (the app has no clock of its own).
pub const PENDING_TICK_MS: u32 = 250;

/// Time passed while a digit waits: once [`PENDING_DIGIT_MS`] are over, the number is complete
/// (its chapter stays selected; Enter opens it) and the next digit starts a new one.
pub fn on_tick(list: &mut ChaptersState, elapsed_ms: u32) -> Vec<Effect> {
    if list.pending_digit.is_some() {
        list.pending_ms = list.pending_ms.saturating_add(elapsed_ms);
        if list.pending_ms >= PENDING_DIGIT_MS {
            list.pending_digit = None;
        }
    }
    Vec::new()
}

/// Whether the list needs the clock: only while a digit waits for a second one.
pub fn needs_ticks(list: &ChaptersState) -> bool {
    list.pending_digit.is_some()
}

/// Handles a key action on the chapter list.
pub fn on_action(list: &mut ChaptersState, session: &mut Session, action: Action) -> Vec<Effect> {
    let count = session.course().chapters.len();
    let visible = usize::from(layout::list(session.size.0, session.size.1).height).max(1);
    if count == 0 {
        return Vec::new();
    }
    let digit = match action {
        Action::Number(n) => Some(n),
        _ => None,
    };
    // Any key ends a waiting digit; only a digit may continue it.
    let pending = list.pending_digit.take();
    list.pending_ms = 0;
    match action {
        Action::Up => list.cursor = list.cursor.saturating_sub(1),
        Action::Down => list.cursor = (list.cursor + 1).min(count - 1),
        Action::Top => list.cursor = 0,
        Action::Bottom => list.cursor = count - 1,
        Action::Number(n) => {
            // Digits open, as on Home. "1" selects chapter 1 and waits: a following "4" opens
            // 14, Enter opens 1. A number no second digit could extend opens at once.
            let (number, complete) = match pending {
                Some(first) if usize::from(first) * 10 + usize::from(n) <= count => {
                    (usize::from(first) * 10 + usize::from(n), true)
                }
                _ => (usize::from(n), usize::from(n) * 10 > count),
            };
            if (1..=count).contains(&number) {
                list.cursor = number - 1;
                if complete {
                    return reader::open_chapter(session, list.cursor);
                }
            }
        }
        Action::Open => return reader::open_chapter(session, list.cursor),
        Action::Search => return reader::open_chapter_searching(session, list.cursor),
        _ => {}
    }
    list.pending_digit = digit.filter(|d| usize::from(*d) * 10 <= count);
    scroll_into_view(list, visible);
    Vec::new()
}

fn scroll_into_view(list: &mut ChaptersState, visible: usize) {
    if list.cursor < list.offset {
        list.offset = list.cursor;
    } else if list.cursor >= list.offset + visible {
        list.offset = list.cursor + 1 - visible;
    }
}

/// Handles the mouse: click opens, the wheel moves.
pub fn on_mouse(list: &mut ChaptersState, session: &mut Session, mouse: Mouse) -> Vec<Effect> {
    let area = layout::list(session.size.0, session.size.1);
    let count = session.course().chapters.len();
    match mouse.kind {
        MouseKind::ScrollUp => on_action(list, session, Action::Up),
        MouseKind::ScrollDown => on_action(list, session, Action::Down),
        MouseKind::Click if area.contains(mouse.column, mouse.row) => {
            let index = list.offset + usize::from(mouse.row - area.y);
            if index < count {
                list.cursor = index;
                return reader::open_chapter(session, index);
            }
            Vec::new()
        }
        MouseKind::Click => Vec::new(),
    }
}

#[cfg(test)]
mod tests;
