//! The triage keys as commands, with engine replies written by hand: Enter replays under the
//! same ids, a drop by duplicate detection reaches the status line at once, `N` replays under
//! new ids, and nothing is sent while a reply is outstanding.

use super::super::{SimReply, SimState, Tab};
use super::*;
use crate::input::{Key, KeyCode};
use crate::test_app::test_app;
use crate::{App, Msg, Screen};
use content::Lang;
use model::{Actor, DlqEntry, Event, Metrics, Outcome, Snapshot, Stage};

fn snapshot() -> Box<Snapshot> {
    Box::new(Snapshot {
        scalars: model::state::Scalars::default(),
        metrics: Metrics::default(),
        tokens: Vec::new(),
        last_event: None,
        tables: model::Tables::default(),
    })
}

fn commands(app: &mut App, key: Key) -> Vec<SimCommand> {
    app.update(Msg::Key(key))
        .into_iter()
        .filter_map(|e| match e {
            Effect::Sim(c) => Some(c),
            _ => None,
        })
        .collect()
}

fn sim(app: &App) -> &SimState {
    match &app.screen {
        Screen::Simulator(s) => s,
        _ => panic!("not the simulator"),
    }
}

fn entry(seq: i64) -> DlqEntry {
    DlqEntry {
        seq,
        message_id: format!("msg-{seq:06}"),
        reason: "MaxDeliveryCountExceeded".into(),
        description: "schema".into(),
        delivery_count: 4,
    }
}

fn replay_event(index: u64, kind: EventKind, args: &[&str]) -> Event {
    Event {
        index,
        at_ms: 31_000,
        actor: Actor::Operator,
        stage: Stage::Dlq,
        message_id: Some("msg-000002".into()),
        kind,
        sql: &[],
        outcome: Outcome::Failed,
        caption: kind.caption_key(),
        args: args.iter().map(|a| (*a).to_owned()).collect(),
    }
}

fn advanced(app: &mut App, run: u64, events: Vec<Event>, dlq: Vec<DlqEntry>) {
    let total = events.last().map_or(5, |e| e.index + 1);
    app.update(Msg::Sim(SimReply::Advanced {
        run,
        head: snapshot(),
        events,
        total,
        finished: false,
        dlq,
        report: None,
        moments: Vec::new(),
    }));
}

#[test]
fn enter_replays_a_drop_shows_at_once_and_n_replays_under_new_ids() {
    let mut app = test_app(Lang::En, 80, 24);
    let started = commands(&mut app, Key::char('5'));
    let [SimCommand::Start { run, .. }] = started[..] else {
        panic!("one start: {started:?}")
    };
    app.update(Msg::Sim(SimReply::Started {
        run,
        dir: "/runs/x".into(),
        consumers: 2,
        head: snapshot(),
        expected_events: 100,
    }));
    advanced(&mut app, run, Vec::new(), vec![entry(2), entry(3)]);
    for _ in 0..3 {
        commands(&mut app, Key::plain(KeyCode::Tab));
    }
    assert_eq!(sim(&app).tab, Tab::Dlq);
    assert!(
        commands(&mut app, Key::char('N')) != Vec::new(),
        "N replays from the DLQ tab"
    );
    // The first replay is out: no second command until its reply came back.
    assert!(commands(&mut app, Key::plain(KeyCode::Enter)).is_empty());
    let dropped = replay_event(
        5,
        EventKind::ReplayDroppedDuplicate,
        &[
            "msg-000002",
            "2714",
            "600000",
            "2",
            "0",
            "msg-000002 msg-000003",
        ],
    );
    advanced(&mut app, run, vec![dropped], vec![entry(2), entry(3)]);
    let status = app
        .session
        .status
        .clone()
        .expect("the outcome is on the status line");
    assert!(status.error, "a drop is a warning");
    assert!(
        status
            .text
            .starts_with("Duplicate detection dropped 2 replayed message(s)"),
        "{}",
        status.text
    );
    assert!(status.text.contains("2.7 s ago"), "{}", status.text);
    let shown = last_drop(sim(&app)).expect("the tab shows the drop");
    assert_eq!(shown.ids, ["msg-000002", "msg-000003"]);
    assert_eq!(shown.window_ms, 600_000);

    assert_eq!(
        commands(&mut app, Key::plain(KeyCode::Enter)),
        vec![SimCommand::Replay {
            run,
            count: 3,
            fix_cause: false,
            new_ids: false
        }]
    );
    advanced(&mut app, run, Vec::new(), vec![entry(2), entry(3)]);
    assert_eq!(
        commands(&mut app, Key::char('N')),
        vec![SimCommand::Replay {
            run,
            count: 3,
            fix_cause: false,
            new_ids: true
        }]
    );
    // Outside the DLQ tab, N is not a replay.
    advanced(&mut app, run, Vec::new(), vec![entry(2), entry(3)]);
    commands(&mut app, Key::plain(KeyCode::Tab));
    assert!(commands(&mut app, Key::char('N')).is_empty());
}
