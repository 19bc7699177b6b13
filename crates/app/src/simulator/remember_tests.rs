//! The simulator remembers its scenario, mode and broker across starts, and a fault notice
//! belongs to its run. Replies are written by hand (no engine); the store round trip is in
//! `services::store::tests`.

use super::*;
use crate::input::{Key, KeyCode};
use crate::test_app::{content, test_app};
use crate::{App, Info, Msg, Options, StoreRequest};
use content::Lang;
use domain::Progress;
use model::{Metrics, Snapshot};

fn choice(scenario: &str, mode: &str, broker: &str) -> SimChoice {
    SimChoice {
        scenario: scenario.into(),
        mode: mode.into(),
        broker: broker.into(),
    }
}

fn app_with(progress: Progress) -> App {
    let mut app = App::new(
        content(),
        Lang::En,
        progress,
        Options::default(),
        Info::default(),
    );
    app.update(Msg::Resized {
        width: 100,
        height: 30,
    });
    app
}

fn start_spec(effects: &[Effect]) -> Option<RunSpec> {
    effects.iter().find_map(|e| match e {
        Effect::Sim(SimCommand::Start { spec, .. }) => Some(spec.clone()),
        _ => None,
    })
}

fn saved_choice(effects: &[Effect]) -> Option<SimChoice> {
    effects.iter().find_map(|e| match e {
        Effect::Store(StoreRequest::Save(Fact::SimChosen(c))) => Some(c.clone()),
        _ => None,
    })
}

fn started(app: &mut App) {
    let Screen::Simulator(s) = &app.screen else {
        panic!("not the simulator")
    };
    let run = s.timeline.run;
    app.update(Msg::Sim(SimReply::Started {
        run,
        dir: "/runs/x".into(),
        consumers: 2,
        head: Box::new(Snapshot {
            scalars: model::state::Scalars::default(),
            metrics: Metrics::default(),
            tokens: Vec::new(),
            last_event: None,
            tables: model::Tables::default(),
        }),
        expected_events: 100,
    }));
}

#[test]
fn the_screen_opens_on_the_last_scenario_mode_and_broker() {
    let progress = Progress {
        simulator: Some(choice("lost-ack", "naive", "sqs")),
        ..Progress::default()
    };
    let mut app = app_with(progress);
    let spec = start_spec(&app.update(Msg::Key(Key::char('5')))).expect("a run starts");
    assert_eq!(spec.scenario, "lost-ack");
    assert_eq!(spec.mode, Mode::Naive);
    assert_eq!(spec.broker, BrokerKind::Sqs);
}

#[test]
fn an_unknown_remembered_scenario_falls_back_to_the_first() {
    let progress = Progress {
        simulator: Some(choice("gone-away", "naive", "sqs")),
        ..Progress::default()
    };
    let mut app = app_with(progress);
    let spec = start_spec(&app.update(Msg::Key(Key::char('5')))).expect("a run starts");
    assert_eq!(spec.scenario, "happy-path");
    assert_eq!((spec.mode, spec.broker), (Mode::Safe, BrokerKind::Asb));
}

#[test]
fn a_new_mode_broker_or_scenario_is_saved_and_a_new_seed_is_not() {
    let mut app = test_app(Lang::En, 100, 30);
    app.update(Msg::Key(Key::char('5')));
    started(&mut app);
    let effects = app.update(Msg::Key(Key::char('m')));
    assert_eq!(
        saved_choice(&effects),
        Some(choice("happy-path", "naive", "asb"))
    );
    let effects = app.update(Msg::Key(Key::char('b')));
    assert_eq!(
        saved_choice(&effects),
        Some(choice("happy-path", "naive", "sqs"))
    );
    let effects = app.update(Msg::Key(Key::char('n')));
    assert!(start_spec(&effects).is_some() && saved_choice(&effects).is_none());
    app.update(Msg::Key(Key::char('c')));
    app.update(Msg::Key(Key::plain(KeyCode::Down)));
    let effects = app.update(Msg::Key(Key::plain(KeyCode::Enter)));
    assert_eq!(
        saved_choice(&effects),
        Some(choice("broker-outage", "naive", "sqs"))
    );
}

fn arm_first_fault(app: &mut App) {
    app.update(Msg::Key(Key::char('i')));
    app.update(Msg::Key(Key::plain(KeyCode::Enter)));
    assert!(app.session.status.is_some(), "the fault notice shows");
}

#[test]
fn a_fault_notice_goes_with_its_run() {
    let mut app = test_app(Lang::En, 100, 30);
    app.update(Msg::Key(Key::char('5')));
    started(&mut app);
    for switch in ['m', 'b'] {
        arm_first_fault(&mut app);
        app.update(Msg::Key(Key::char(switch)));
        assert_eq!(app.session.status, None, "{switch} clears the notice");
        started(&mut app);
    }
    arm_first_fault(&mut app);
    app.update(Msg::Key(Key::char('c')));
    app.update(Msg::Key(Key::plain(KeyCode::Down)));
    app.update(Msg::Key(Key::plain(KeyCode::Enter)));
    assert_eq!(app.session.status, None, "another scenario clears it");
}

#[test]
fn a_fault_that_cannot_fire_is_refused_with_the_reason() {
    let mut app = test_app(Lang::En, 100, 30);
    app.update(Msg::Key(Key::char('5')));
    started(&mut app);
    let Screen::Simulator(s) = &mut app.screen else {
        panic!("not the simulator")
    };
    s.timeline.finished = true;
    app.update(Msg::Key(Key::char('i')));
    let effects = app.update(Msg::Key(Key::plain(KeyCode::Enter)));
    assert!(
        !effects
            .iter()
            .any(|e| matches!(e, Effect::Sim(SimCommand::Inject { .. }))),
        "nothing is armed"
    );
    let text = app.session.status.as_ref().map(|s| s.text.clone());
    assert_eq!(
        text.as_deref(),
        Some("API timeout after commit: cannot fire: the run is finished (r starts it again).")
    );
}

#[test]
fn faults_say_when_no_matching_step_is_left() {
    let mut app = test_app(Lang::En, 100, 30);
    app.update(Msg::Key(Key::char('5')));
    started(&mut app);
    let Screen::Simulator(s) = &mut app.screen else {
        panic!("not the simulator")
    };
    let rows = fault_rows(&app.session, s);
    let blocked = |rows: &[FaultRow], f: model::Fault| {
        rows.iter()
            .find(|r| r.fault == f)
            .and_then(|r| r.blocked.clone())
    };
    assert_eq!(blocked(&rows, model::Fault::PoisonMessage), None);
    assert!(
        blocked(&rows, model::Fault::BlobMissing).is_some(),
        "no claim-check here"
    );
    // Every order accepted, nothing left in the system: the consumer faults cannot fire.
    if let Some(head) = s.timeline.head.as_mut() {
        head.scalars.stages.accepted = 10;
    }
    let rows = fault_rows(&app.session, s);
    assert!(blocked(&rows, model::Fault::PoisonMessage).is_some());
    assert!(blocked(&rows, model::Fault::DuplicateDelivery).is_some());
    assert_eq!(
        blocked(
            &rows,
            model::Fault::BrokerDown {
                duration_ms: 10_000
            }
        ),
        None
    );
}
