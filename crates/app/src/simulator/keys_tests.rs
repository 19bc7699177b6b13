//! Keys do what their labels say: Esc in the compare view closes the compare only, and the
//! run last seen (also one opened from a chapter or by following the instructor) is the one
//! the simulator opens on next.

use super::*;
use crate::input::{Key, KeyCode};
use crate::test_app::test_app;
use crate::{App, Msg};
use content::Lang;
use content::key;

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
            Effect::Store(crate::StoreRequest::Save(Fact::SimChosen(c)))
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

fn entry() -> model::DlqEntry {
    model::DlqEntry {
        seq: 1,
        message_id: "msg-000001".into(),
        reason: "MaxDeliveryCountExceeded".into(),
        description: "schema".into(),
        delivery_count: 10,
    }
}

fn finished_with(app: &mut App, dlq: Vec<model::DlqEntry>) -> u64 {
    let Some(s) = sim(app) else {
        panic!("not the simulator")
    };
    let run = s.timeline.run;
    let head = || {
        Box::new(model::Snapshot {
            scalars: model::state::Scalars::default(),
            metrics: model::Metrics::default(),
            tokens: Vec::new(),
            last_event: None,
            tables: model::Tables::default(),
        })
    };
    app.update(Msg::Sim(SimReply::Started {
        run,
        dir: "/runs/x".into(),
        consumers: 2,
        head: head(),
        expected_events: 195,
    }));
    app.update(Msg::Sim(SimReply::Advanced {
        run,
        head: head(),
        events: Vec::new(),
        total: 195,
        finished: true,
        dlq,
        report: None,
        moments: Vec::new(),
    }));
    run
}

#[test]
fn replay_in_a_finished_run_viewed_in_history_acts_or_says_why_not() {
    let mut app = test_app(Lang::De, 80, 24);
    app.update(Msg::Key(Key::char('5')));
    let run = finished_with(&mut app, vec![entry()]);
    // Back in history ("Verlauf 194/195"), then the DLQ tab.
    app.update(Msg::Key(Key::plain(KeyCode::Left)));
    let Some(s) = sim(&app) else { panic!() };
    let index = s.timeline.cursor.expect("history");
    app.update(Msg::Sim(SimReply::Viewed {
        run,
        index,
        snapshot: Box::new(model::Snapshot {
            scalars: model::state::Scalars::default(),
            metrics: model::Metrics::default(),
            tokens: Vec::new(),
            last_event: None,
            tables: model::Tables::default(),
        }),
    }));
    for _ in 0..3 {
        app.update(Msg::Key(Key::plain(KeyCode::Tab)));
    }
    assert_eq!(sim(&app).map(|s| s.tab), Some(Tab::Dlq));
    let effects = app.update(Msg::Key(Key::plain(KeyCode::Enter)));
    assert!(
        effects
            .iter()
            .any(|e| matches!(e, Effect::Sim(SimCommand::Replay { .. }))),
        "Enter replays: {effects:?}"
    );
    // Nothing left in the DLQ: Enter says so instead of doing nothing.
    let mut app = test_app(Lang::De, 80, 24);
    app.update(Msg::Key(Key::char('5')));
    finished_with(&mut app, Vec::new());
    for _ in 0..3 {
        app.update(Msg::Key(Key::plain(KeyCode::Tab)));
    }
    assert!(app.update(Msg::Key(Key::plain(KeyCode::Enter))).is_empty());
    let status = app.session.status.as_ref().expect("a reason");
    assert_eq!(
        status.text,
        app.session.strings().get(key::simulator::REPLAY_EMPTY)
    );
}
