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
    match action {
        Action::Up => list.cursor = list.cursor.saturating_sub(1),
        Action::Down => list.cursor = (list.cursor + 1).min(count - 1),
        Action::Top => list.cursor = 0,
        Action::Bottom => list.cursor = count - 1,
        Action::Number(n) => {
            // "1" selects chapter 1 at once; a following "4" turns it into 14.
            let number = match list.pending_digit {
                Some(first) if usize::from(first) * 10 + usize::from(n) <= count => {
                    usize::from(first) * 10 + usize::from(n)
                }
                _ => usize::from(n),
            };
            if (1..=count).contains(&number) {
                list.cursor = number - 1;
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
