//! The chapter list: status per chapter, jump anywhere, jump by number.

use super::input::{Mouse, MouseKind};
use super::keymap::Action;
use super::{App, Effect, Screen, layout, reader};

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

fn state(app: &mut App) -> Option<&mut ChaptersState> {
    match &mut app.screen {
        Screen::Chapters(s) => Some(s),
        _ => None,
    }
}

/// Handles a key action on the chapter list.
pub fn on_action(app: &mut App, action: Action) -> Vec<Effect> {
    let count = app.session.course().chapters.len();
    let visible = usize::from(layout::list(app.session.size.0, app.session.size.1).height).max(1);
    let Some(list) = state(app) else {
        return Vec::new();
    };
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
        Action::Open => {
            let index = list.cursor;
            return reader::open_chapter(app, index);
        }
        Action::Search => {
            let index = list.cursor;
            let mut effects = reader::open_chapter(app, index);
            effects.extend(reader::on_action(app, Action::Search));
            return effects;
        }
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
pub fn on_mouse(app: &mut App, mouse: Mouse) -> Vec<Effect> {
    let area = layout::list(app.session.size.0, app.session.size.1);
    let count = app.session.course().chapters.len();
    match mouse.kind {
        MouseKind::ScrollUp => on_action(app, Action::Up),
        MouseKind::ScrollDown => on_action(app, Action::Down),
        MouseKind::Click if area.contains(mouse.column, mouse.row) => {
            let Some(list) = state(app) else {
                return Vec::new();
            };
            let index = list.offset + usize::from(mouse.row - area.y);
            if index < count {
                list.cursor = index;
                return reader::open_chapter(app, index);
            }
            Vec::new()
        }
        MouseKind::Click => Vec::new(),
    }
}
