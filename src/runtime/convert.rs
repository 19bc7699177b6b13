//! crossterm events to the core's plain input types. Only key presses count (no repeats or
//! releases), and only the mouse events the UI uses.

use app::Msg;
use app::input::{Key, KeyCode, Mouse, MouseKind};
use crossterm::event::{
    self as ct, Event, KeyEventKind, KeyModifiers, MouseButton, MouseEventKind,
};

/// The message for a terminal event, if it matters.
pub fn to_msg(event: &Event) -> Option<Msg> {
    match event {
        Event::Key(key) if key.kind == KeyEventKind::Press => Some(Msg::Key(Key {
            code: key_code(key.code, key.modifiers),
            ctrl: key.modifiers.contains(KeyModifiers::CONTROL),
        })),
        Event::Mouse(mouse) => {
            let kind = match mouse.kind {
                MouseEventKind::Down(MouseButton::Left) => MouseKind::Click,
                MouseEventKind::ScrollUp => MouseKind::ScrollUp,
                MouseEventKind::ScrollDown => MouseKind::ScrollDown,
                _ => return None,
            };
            Some(Msg::Mouse(Mouse {
                kind,
                column: mouse.column,
                row: mouse.row,
            }))
        }
        Event::Resize(width, height) => Some(Msg::Resized {
            width: *width,
            height: *height,
        }),
        _ => None,
    }
}

fn key_code(code: ct::KeyCode, modifiers: KeyModifiers) -> KeyCode {
    match code {
        ct::KeyCode::Char(c) => KeyCode::Char(c),
        ct::KeyCode::Enter => KeyCode::Enter,
        ct::KeyCode::Esc => KeyCode::Esc,
        ct::KeyCode::Backspace => KeyCode::Backspace,
        ct::KeyCode::Tab if modifiers.contains(KeyModifiers::SHIFT) => KeyCode::BackTab,
        ct::KeyCode::Tab => KeyCode::Tab,
        ct::KeyCode::BackTab => KeyCode::BackTab,
        ct::KeyCode::Up => KeyCode::Up,
        ct::KeyCode::Down => KeyCode::Down,
        ct::KeyCode::Left => KeyCode::Left,
        ct::KeyCode::Right => KeyCode::Right,
        ct::KeyCode::PageUp => KeyCode::PageUp,
        ct::KeyCode::PageDown => KeyCode::PageDown,
        ct::KeyCode::Home => KeyCode::Home,
        ct::KeyCode::End => KeyCode::End,
        _ => KeyCode::Other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossterm::event::{KeyEvent, KeyEventState, MouseEvent};

    #[test]
    fn only_presses_and_used_mouse_events_become_messages() {
        let press = Event::Key(KeyEvent::new(ct::KeyCode::Char('q'), KeyModifiers::NONE));
        assert_eq!(to_msg(&press), Some(Msg::Key(Key::char('q'))));
        let release = Event::Key(KeyEvent {
            kind: KeyEventKind::Release,
            state: KeyEventState::NONE,
            ..KeyEvent::new(ct::KeyCode::Char('q'), KeyModifiers::NONE)
        });
        assert_eq!(to_msg(&release), None);
        let ctrl_c = Event::Key(KeyEvent::new(ct::KeyCode::Char('c'), KeyModifiers::CONTROL));
        assert!(matches!(to_msg(&ctrl_c), Some(Msg::Key(k)) if k.is_ctrl_c()));
        let moved = Event::Mouse(MouseEvent {
            kind: MouseEventKind::Moved,
            column: 1,
            row: 1,
            modifiers: KeyModifiers::NONE,
        });
        assert_eq!(to_msg(&moved), None);
        assert_eq!(
            to_msg(&Event::Resize(0, 0)),
            Some(Msg::Resized {
                width: 0,
                height: 0
            })
        );
    }
}
