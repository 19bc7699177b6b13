//! The ordering game through `App::update`: keys, arrows + Enter, clicks, reorder, saving.

use super::*;
use crate::input::{Key, KeyCode};
use crate::test_app::test_app;
use crate::{App, Msg, StoreRequest};
use content::Lang;

fn app() -> App {
    let mut app = test_app(Lang::En, 80, 24);
    app.update(Msg::Key(Key::char('4')));
    app
}

fn game(app: &App) -> &OrderingState {
    match &app.screen {
        Screen::Ordering(s) => s,
        other => panic!("not the ordering game: {other:?}"),
    }
}

/// The key (1-7) of the card holding `step`.
fn key_of(app: &App, step: usize) -> char {
    let pos = game(app)
        .game
        .deck()
        .iter()
        .position(|s| *s == step)
        .expect("dealt");
    char::from(b'1' + pos as u8)
}

fn facts(effects: &[Effect]) -> Vec<Fact> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Store(StoreRequest::Save(f)) => Some(f.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn home_entry_opens_a_shuffled_game() {
    let app = app();
    let state = game(&app);
    assert_eq!(state.game.len(), 7);
    assert_eq!(state.game.placed(), 0);
    assert_ne!(state.game.deck(), &[0, 1, 2, 3, 4, 5, 6][..]);
}

#[test]
fn a_wrong_pick_names_the_missing_step_and_is_saved_as_a_mistake() {
    let mut app = app();
    let wrong = key_of(&app, 3);
    let effects = app.update(Msg::Key(Key::char(wrong)));
    assert_eq!(
        facts(&effects),
        vec![Fact::OrderingAttempt, Fact::OrderingMistake]
    );
    assert_eq!(game(&app).feedback, Some(Feedback::Missing(0)));
    assert_eq!(game(&app).game.placed(), 0, "a wrong pick costs nothing");
    let right = key_of(&app, 0);
    let effects = app.update(Msg::Key(Key::char(right)));
    assert!(facts(&effects).is_empty(), "the attempt was counted once");
    assert_eq!(game(&app).feedback, Some(Feedback::Correct(0)));
    assert_eq!(app.session.progress.ordering.mistakes, 1);
    assert_eq!(app.session.progress.ordering.attempts, 1);
}

#[test]
fn solving_with_digits_saves_solved() {
    let mut app = app();
    let mut all = Vec::new();
    for step in 0..7 {
        let key = key_of(&app, step);
        all.extend(facts(&app.update(Msg::Key(Key::char(key)))));
    }
    assert!(game(&app).game.is_solved());
    assert_eq!(all, vec![Fact::OrderingAttempt, Fact::OrderingSolved]);
    assert!(app.session.progress.ordering.solved);
}

#[test]
fn arrows_and_enter_and_clicks_pick_too() {
    let mut app = app();
    let target = key_of(&app, 0) as u8 - b'1';
    for _ in 0..target {
        app.update(Msg::Key(Key::plain(KeyCode::Down)));
    }
    app.update(Msg::Key(Key::plain(KeyCode::Enter)));
    assert_eq!(game(&app).game.placed(), 1);
    let cards = layout::ordering_cards(80, 24);
    let pos = key_of(&app, 1) as u8 - b'1';
    app.update(Msg::Mouse(crate::input::Mouse {
        kind: MouseKind::Click,
        column: cards.x + 3,
        row: cards.y + u16::from(pos),
    }));
    assert_eq!(game(&app).game.placed(), 2, "a click picks the card");
}

#[test]
fn reorder_deals_a_new_attempt_and_back_returns_home() {
    let mut app = app();
    let first = game(&app).game.deck().to_vec();
    let key = key_of(&app, 0);
    app.update(Msg::Key(Key::char(key)));
    app.update(Msg::Key(Key::char('r')));
    let state = game(&app);
    assert_eq!(state.game.placed(), 0);
    assert_ne!(state.game.deck(), &first[..], "a new deal");
    assert_eq!(state.feedback, None);
    app.update(Msg::Key(Key::char('q')));
    assert!(matches!(app.screen, Screen::Home(_)));
}

/// At 80x24 in German the solved summary is longer than its room: the arrows and page keys
/// scroll it to its last line (how to play again) and stop there.
#[test]
fn the_solved_summary_scrolls_to_its_last_line() {
    let mut app = test_app(Lang::De, 80, 24);
    app.update(Msg::Key(Key::char('4')));
    for step in 0..7 {
        let k = key_of(&app, step);
        app.update(Msg::Key(Key::char(k)));
    }
    assert!(game(&app).game.is_solved());
    let area = summary_area(&app.session);
    let lines = summary_lines(&app.session, usize::from(area.width));
    assert!(
        lines.len() > usize::from(area.height),
        "longer than its room: {} lines in {}",
        lines.len(),
        area.height
    );
    let max = (lines.len() - usize::from(area.height)) as u16;
    for _ in 0..40 {
        app.update(Msg::Key(Key::plain(KeyCode::PageDown)));
    }
    assert_eq!(game(&app).scroll, max, "stops at the last line");
    app.update(Msg::Key(Key::plain(KeyCode::Up)));
    assert_eq!(
        game(&app).scroll,
        max - 1,
        "the first key back answers at once"
    );
    app.update(Msg::Key(Key::plain(KeyCode::Home)));
    assert_eq!(game(&app).scroll, 0);
}
