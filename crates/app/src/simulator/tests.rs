//! The simulator's controls as commands: which `SimCommand` each key sends, with replies
//! written by hand (no engine, no thread). The real engine runs in `tests/screens/sim_screen.rs`.

use super::*;
use crate::input::{Key, KeyCode};
use crate::test_app::test_app;
use crate::{App, Msg};
use content::Lang;
use model::{Metrics, Snapshot};

fn empty_snapshot() -> Box<Snapshot> {
    Box::new(Snapshot {
        scalars: model::state::Scalars::default(),
        metrics: Metrics::default(),
        tokens: Vec::new(),
        last_event: None,
        tables: model::Tables::default(),
    })
}

fn commands(effects: &[Effect]) -> Vec<SimCommand> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Sim(c) => Some(c.clone()),
            _ => None,
        })
        .collect()
}

fn opened() -> (App, u64) {
    let mut app = test_app(Lang::En, 80, 24);
    let effects = app.update(Msg::Key(Key::char('5')));
    let cmds = commands(&effects);
    let [SimCommand::Start { run, spec }] = &cmds[..] else {
        panic!("one start command: {cmds:?}")
    };
    let run = *run;
    assert_eq!(spec.scenario, "happy-path");
    app.update(Msg::Sim(SimReply::Started {
        run,
        dir: "/runs/x".into(),
        consumers: 2,
        head: empty_snapshot(),
        expected_events: 100,
    }));
    (app, run)
}

fn key(app: &mut App, code: KeyCode) -> Vec<SimCommand> {
    commands(&app.update(Msg::Key(Key::plain(code))))
}

fn ch(app: &mut App, c: char) -> Vec<SimCommand> {
    commands(&app.update(Msg::Key(Key::char(c))))
}

fn advanced(app: &mut App, run: u64, total: u64, finished: bool) -> Vec<SimCommand> {
    commands(&app.update(Msg::Sim(SimReply::Advanced {
        run,
        head: empty_snapshot(),
        events: Vec::new(),
        total,
        finished,
        dlq: Vec::new(),
        report: None,
        moments: Vec::new(),
    })))
}

fn viewed(app: &mut App, run: u64, index: u64) -> Vec<SimCommand> {
    commands(&app.update(Msg::Sim(SimReply::Viewed {
        run,
        index,
        snapshot: empty_snapshot(),
    })))
}

#[test]
fn every_step_press_is_one_step_however_fast_they_come() {
    let (mut app, run) = opened();
    // A burst of three presses before the engine answered the first.
    assert_eq!(
        key(&mut app, KeyCode::Right),
        vec![SimCommand::Step { run, count: 1 }]
    );
    assert!(key(&mut app, KeyCode::Right).is_empty());
    assert!(key(&mut app, KeyCode::Right).is_empty());
    assert_eq!(
        advanced(&mut app, run, 1, false),
        vec![SimCommand::Step { run, count: 1 }]
    );
    assert_eq!(
        advanced(&mut app, run, 2, false),
        vec![SimCommand::Step { run, count: 1 }]
    );
    assert!(advanced(&mut app, run, 3, false).is_empty(), "three steps");
    assert_eq!(sim(&app).timeline.total, 3);
    // Back in history: two quick presses are two pictures back.
    assert_eq!(
        key(&mut app, KeyCode::Left),
        vec![SimCommand::View { run, index: 1 }]
    );
    assert!(key(&mut app, KeyCode::Left).is_empty());
    assert_eq!(
        viewed(&mut app, run, 1),
        vec![SimCommand::View { run, index: 0 }]
    );
    assert!(viewed(&mut app, run, 0).is_empty());
    assert_eq!(sim(&app).timeline.cursor, Some(0));
    // Pressed forward and back while busy: they cancel out.
    assert_eq!(
        key(&mut app, KeyCode::Right),
        vec![SimCommand::View { run, index: 1 }]
    );
    key(&mut app, KeyCode::Right);
    key(&mut app, KeyCode::Left);
    assert!(viewed(&mut app, run, 1).is_empty());
    assert_eq!(sim(&app).timeline.cursor, Some(1));
}

fn sim(app: &App) -> &SimState {
    match &app.screen {
        Screen::Simulator(s) => s,
        _ => panic!("not the simulator"),
    }
}

#[test]
fn step_keys_send_step_and_view_commands() {
    let (mut app, run) = opened();
    assert_eq!(
        key(&mut app, KeyCode::Right),
        vec![SimCommand::Step { run, count: 1 }]
    );
    assert!(
        key(&mut app, KeyCode::Right).is_empty(),
        "one command in flight; the press waits for its reply"
    );
    assert_eq!(
        advanced(&mut app, run, 4, false),
        vec![SimCommand::Step { run, count: 1 }],
        "the waiting press is taken when the reply arrives"
    );
    assert!(advanced(&mut app, run, 5, false).is_empty());
    assert_eq!(
        key(&mut app, KeyCode::Left),
        vec![SimCommand::View { run, index: 3 }]
    );
    assert_eq!(sim(&app).timeline.cursor, Some(3));
    app.update(Msg::Sim(SimReply::Viewed {
        run,
        index: 3,
        snapshot: empty_snapshot(),
    }));
    assert_eq!(
        key(&mut app, KeyCode::Home),
        vec![SimCommand::View { run, index: 0 }]
    );
    app.update(Msg::Sim(SimReply::Viewed {
        run,
        index: 0,
        snapshot: empty_snapshot(),
    }));
    assert!(
        key(&mut app, KeyCode::Left).is_empty(),
        "nothing before the first"
    );
    assert_eq!(key(&mut app, KeyCode::End), vec![SimCommand::ToEnd { run }]);
    assert_eq!(sim(&app).timeline.cursor, None);
}

#[test]
fn settings_restart_with_a_new_run_tag_and_old_replies_are_dropped() {
    let (mut app, run) = opened();
    for (c, check) in [
        ('m', "mode"),
        ('b', "broker"),
        ('n', "seed"),
        ('r', "restart"),
    ] {
        let cmds = ch(&mut app, c);
        assert!(
            matches!(cmds[..], [SimCommand::Start { run: r, .. }] if r > run),
            "{check}: {cmds:?}"
        );
    }
    advanced(&mut app, run, 99, true);
    assert_eq!(
        sim(&app).timeline.total,
        0,
        "a reply for the old run is ignored"
    );
}

#[test]
fn ticks_drive_playback_only_while_playing() {
    let (mut app, run) = opened();
    assert!(commands(&app.update(Msg::Tick { elapsed_ms: 5_000 })).is_empty());
    ch(&mut app, ' ');
    let beat = sim(&app).beat_ms();
    assert!(
        commands(&app.update(Msg::Tick {
            elapsed_ms: beat - 1
        }))
        .is_empty()
    );
    assert_eq!(
        commands(&app.update(Msg::Tick { elapsed_ms: 1 })),
        vec![SimCommand::StepToMoment { run, max: 1 }],
        "pause at moments is on for the first run: the engine stops at a moment"
    );
    assert!(
        commands(&app.update(Msg::Tick {
            elapsed_ms: beat * 3
        }))
        .is_empty(),
        "pending"
    );
    advanced(&mut app, run, 1, false);
    ch(&mut app, 'p');
    assert!(!sim(&app).settings.pause_at_moments);
    assert!(matches!(
        &commands(&app.update(Msg::Tick { elapsed_ms: beat }))[..],
        [SimCommand::Step { .. }]
    ));
    advanced(&mut app, run, 2, true);
    assert!(!sim(&app).timeline.playing, "the end pauses");
    assert_eq!(app.tick_interval_ms(), None);
}

#[test]
fn fault_menu_compare_replay_and_leaving() {
    let (mut app, run) = opened();
    ch(&mut app, 'i');
    assert!(app.tick_interval_ms().is_none());
    key(&mut app, KeyCode::Down);
    let cmds = key(&mut app, KeyCode::Enter);
    assert!(
        matches!(cmds[..], [SimCommand::Inject { run: r, fault: model::Fault::BrokerDown { .. } }] if r == run),
        "{cmds:?}"
    );
    assert!(matches!(
        ch(&mut app, 'v')[..],
        [SimCommand::Compare { .. }]
    ));
    assert_eq!(sim(&app).compare, Some(Compare::Running));
    ch(&mut app, 'v');
    assert_eq!(sim(&app).compare, None);
    for _ in 0..3 {
        key(&mut app, KeyCode::Tab);
    }
    assert_eq!(sim(&app).tab, Tab::Dlq);
    assert!(
        key(&mut app, KeyCode::Enter).is_empty(),
        "empty DLQ: nothing to replay"
    );
    ch(&mut app, 'f');
    app.update(Msg::Sim(SimReply::Advanced {
        run,
        head: empty_snapshot(),
        events: Vec::new(),
        total: 3,
        finished: false,
        dlq: vec![model::DlqEntry {
            seq: 1,
            message_id: "msg-000001".into(),
            reason: "MaxDeliveryCountExceeded".into(),
            description: "schema".into(),
            delivery_count: 4,
        }],
        report: None,
        moments: Vec::new(),
    }));
    assert_eq!(
        key(&mut app, KeyCode::Enter),
        vec![SimCommand::Replay {
            run,
            count: 3,
            fix_cause: true,
            new_ids: false
        }]
    );
    let leaving = app.update(Msg::Key(Key::char('q')));
    assert_eq!(commands(&leaving), vec![SimCommand::Stop]);
}

fn moment(event: u64, cause: u64) -> model::Moment {
    model::Moment {
        kind: model::MomentKind::DuplicateEffect,
        at_ms: event * 100,
        event,
        cause_event: cause,
        cause_ms: cause * 100,
        order: 3,
        message_id: "msg-000003".into(),
        text: "moment.duplicate-effect.other",
        args: Vec::new(),
    }
}

#[test]
fn a_moment_pauses_playback_and_w_jumps_to_its_cause_and_back() {
    let (mut app, run) = opened();
    ch(&mut app, ' ');
    assert!(sim(&app).timeline.playing);
    app.update(Msg::Sim(SimReply::Advanced {
        run,
        head: empty_snapshot(),
        events: Vec::new(),
        total: 40,
        finished: false,
        dlq: Vec::new(),
        report: None,
        moments: vec![moment(39, 12)],
    }));
    assert!(!sim(&app).timeline.playing, "paused at the moment");
    assert_eq!(
        ch(&mut app, 'w'),
        vec![SimCommand::View { run, index: 12 }],
        "w shows the cause"
    );
    assert_eq!(sim(&app).timeline.cursor, Some(12));
    assert_eq!(
        sim(&app)
            .story
            .current(sim(&app).shown_index())
            .map(|m| m.event),
        Some(39),
        "the panel keeps explaining the moment at its cause"
    );
    app.update(Msg::Sim(SimReply::Viewed {
        run,
        index: 12,
        snapshot: empty_snapshot(),
    }));
    assert!(
        ch(&mut app, 'w').is_empty(),
        "back to the head needs no engine"
    );
    assert_eq!(sim(&app).timeline.cursor, None);
    assert_eq!(
        ch(&mut app, ']'),
        vec![SimCommand::StepToMoment { run, max: 100_000 }],
        "no later moment known: the engine plays on to the next one"
    );
}

#[test]
fn bracket_goes_back_to_the_moment_before_the_event_shown() {
    let (mut app, run) = opened();
    app.update(Msg::Sim(SimReply::Advanced {
        run,
        head: empty_snapshot(),
        events: Vec::new(),
        total: 40,
        finished: false,
        dlq: Vec::new(),
        report: None,
        moments: vec![moment(10, 2), moment(25, 12), moment(39, 30)],
    }));
    assert_eq!(
        ch(&mut app, '['),
        vec![SimCommand::View { run, index: 25 }],
        "from the head (the moment at #39 is the current one) to the one before"
    );
    app.update(Msg::Sim(SimReply::Viewed {
        run,
        index: 25,
        snapshot: empty_snapshot(),
    }));
    assert_eq!(ch(&mut app, '['), vec![SimCommand::View { run, index: 10 }]);
    app.update(Msg::Sim(SimReply::Viewed {
        run,
        index: 10,
        snapshot: empty_snapshot(),
    }));
    assert!(ch(&mut app, '[').is_empty(), "no moment before the first");
    assert_eq!(
        ch(&mut app, ']'),
        vec![SimCommand::View { run, index: 25 }],
        "and forward again"
    );
}

#[test]
fn the_fault_armed_notice_leaves_the_status_line_when_the_run_ends() {
    let (mut app, run) = opened();
    ch(&mut app, 'i');
    key(&mut app, KeyCode::Down);
    key(&mut app, KeyCode::Enter);
    let armed = app.session.status.clone().expect("the notice");
    assert!(armed.text.contains("armed"), "{}", armed.text);
    advanced(&mut app, run, 5, false);
    assert!(
        app.session.status.is_some(),
        "still armed while the run goes on"
    );
    advanced(&mut app, run, 9, true);
    assert_eq!(app.session.status, None, "the run ended");
}
