//! Keys do what their labels say: Esc in the compare view closes the compare only, and the
//! run last seen (also one opened from a chapter or by following the instructor) is the one
//! the simulator opens on next.

use super::*;
use crate::app::input::{Key, KeyCode};
use crate::app::test_app::test_app;
use crate::app::{App, Msg};
use crate::content::Lang;

fn sim(app: &App) -> Option<&SimState> {
    match &app.screen {
        Screen::Simulator(s) => Some(s),
        _ => None,
    }
}

fn esc(app: &mut App) -> Vec<Effect> {
    app.update(Msg::Key(Key::plain(KeyCode::Esc)))
}

#[test]
fn esc_in_the_compare_view_closes_the_compare_and_stays() {
    let mut app = test_app(Lang::De, 80, 24);
    app.update(Msg::Key(Key::char('5')));
    app.update(Msg::Key(Key::char('v')));
    assert!(sim(&app).is_some_and(|s| s.compare.is_some()));
    let effects = esc(&mut app);
    assert!(effects.is_empty(), "the run goes on: {effects:?}");
    let s = sim(&app).expect("still in the simulator");
    assert_eq!(s.compare, None, "the compare is closed");
    esc(&mut app);
    assert!(sim(&app).is_none(), "a second Esc leaves");
    assert!(matches!(app.screen, Screen::Home(_)));
}

#[test]
fn a_run_opened_from_a_chapter_is_the_one_the_simulator_opens_on_next() {
    let mut app = test_app(Lang::En, 100, 30);
    // As a decision's "see it happen" or the instructor's banner opens it.
    let effects = open_for_decision(&mut app.session, "lost-ack", Some(Mode::Naive));
    assert!(
        effects.iter().any(|e| matches!(
            e,
            Effect::Store(crate::app::StoreRequest::Save(Fact::SimChosen(c)))
                if c.scenario == "lost-ack" && c.mode == "naive"
        )),
        "the choice is saved: {effects:?}"
    );
    app.update(Msg::Resized {
        width: 100,
        height: 30,
    });
    assert!(sim(&app).is_some_and(|s| s.compare.is_some()));
    esc(&mut app);
    esc(&mut app);
    assert!(sim(&app).is_none());
    app.update(Msg::Key(Key::char('5')));
    let s = sim(&app).expect("the simulator again");
    assert_eq!(s.scenario_id(), "lost-ack");
    assert_eq!(s.settings.mode, Mode::Naive);
}
