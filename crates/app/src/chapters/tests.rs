//! Opening chapters by number: a first digit waits for a second one only for a while, and
//! that while is measured in the runtime's ticks (no clock in the app).

use super::{PENDING_DIGIT_MS, PENDING_TICK_MS};
use crate::input::KeyCode;
use crate::test_app::{chars, key, test_app};
use crate::{App, Msg, Screen};
use content::Lang;

fn opened_chapter(app: &App) -> Option<usize> {
    match &app.screen {
        Screen::Reader(r) => Some(r.chapter),
        _ => None,
    }
}

fn pending(app: &App) -> Option<u8> {
    match &app.screen {
        Screen::Chapters(list) => list.pending_digit,
        _ => None,
    }
}

/// The chapter list, from Home's menu.
fn list() -> App {
    let mut app = test_app(Lang::De, 80, 24);
    chars(&mut app, "2");
    assert!(matches!(app.screen, Screen::Chapters(_)));
    app
}

#[test]
fn a_waiting_digit_expires_so_a_later_digit_starts_a_new_number() {
    let mut app = list();
    assert_eq!(app.tick_interval_ms(), None, "no clock while nothing waits");
    chars(&mut app, "1");
    assert_eq!(pending(&app), Some(1));
    assert_eq!(
        app.tick_interval_ms(),
        Some(PENDING_TICK_MS),
        "the runtime ticks while a digit waits"
    );
    app.update(Msg::Tick {
        elapsed_ms: PENDING_DIGIT_MS - 1,
    });
    assert_eq!(pending(&app), Some(1), "still waiting just before the end");
    app.update(Msg::Tick { elapsed_ms: 1 });
    assert_eq!(pending(&app), None, "expired");
    assert_eq!(app.tick_interval_ms(), None, "and the clock stops");
    chars(&mut app, "3");
    assert_eq!(opened_chapter(&app), Some(2), "3 opens chapter 3, not 13");
}

#[test]
fn a_second_digit_in_time_still_makes_a_two_digit_number() {
    let mut app = list();
    chars(&mut app, "1");
    app.update(Msg::Tick {
        elapsed_ms: PENDING_DIGIT_MS / 2,
    });
    chars(&mut app, "3");
    assert_eq!(opened_chapter(&app), Some(12), "1 then 3 in time opens 13");
}

#[test]
fn enter_confirms_a_waiting_digit_and_nothing_waits_on_return() {
    let mut app = list();
    chars(&mut app, "1");
    key(&mut app, KeyCode::Enter);
    assert_eq!(opened_chapter(&app), Some(0));
    key(&mut app, KeyCode::Esc);
    assert_eq!(pending(&app), None, "the digit went with the Enter");
    chars(&mut app, "5");
    assert_eq!(opened_chapter(&app), Some(4), "a fresh number");
}

#[test]
fn another_key_ends_a_waiting_digit() {
    let mut app = list();
    chars(&mut app, "1");
    key(&mut app, KeyCode::Down);
    assert_eq!(pending(&app), None);
    chars(&mut app, "3");
    assert_eq!(opened_chapter(&app), Some(2));
}
