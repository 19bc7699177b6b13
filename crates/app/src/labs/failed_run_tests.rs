//! `s` on a lab's screen: the check's broken run in the simulator, playing the learner's file
//! as it was checked; what would swap that program for another is refused there.

use super::*;
use crate::simulator::SimCommand;
use crate::test_app::{chars, key, test_app};
use crate::{App, Msg, Screen};
use content::Lang;
use content::key;
use model::{BrokerKind, Mode};

fn broken(app: &mut App, text: &str) {
    broken_at(app, text, None);
}

fn broken_at(app: &mut App, text: &str, statement: Option<(u64, content::LabSection)>) {
    let lab_id = app.session.content.labs[0].id.clone();
    app.update(Msg::LabChecked {
        lab_id,
        passed: false,
        reason: "duplicate-effect".into(),
        report: LabReport {
            kind: LabReportKind::Broken,
            lines: vec!["lab 1 BROKEN: seed 3, scenario lost-ack, sqs".into()],
            failed_run: Some(FailedRun {
                scenario: "lost-ack".into(),
                broker: BrokerKind::Sqs,
                seed: 3,
                text: text.into(),
                statement,
                probe: None,
            }),
        },
    });
}

#[test]
fn s_opens_the_broken_run_with_the_checked_file_and_keeps_it_there() {
    for lang in [Lang::En, Lang::De] {
        let mut app = test_app(lang, 100, 30);
        chars(&mut app, "l");
        key(&mut app, KeyCode::Enter);
        // Before any check broke, `s` says when it works.
        assert!(chars(&mut app, "s").is_empty());
        let said = app.session.status.clone().expect("a word").text;
        assert_eq!(said, app.session.strings().get(key::labs::NO_FAILED_RUN));
        broken(&mut app, "-- @handle\nSELECT 1;\n");
        let effects = chars(&mut app, "s");
        let Screen::Simulator(sim) = &app.screen else {
            panic!("the simulator opens");
        };
        let lab = sim.settings.lab.clone().expect("the lab's run");
        assert_eq!(
            lab.text, "-- @handle\nSELECT 1;\n",
            "the file as it was checked"
        );
        assert_eq!(lab.number, app.session.content.labs[0].number);
        assert_eq!(
            (sim.scenario_id(), sim.settings.broker, sim.settings.seed),
            ("lost-ack", BrokerKind::Sqs, 3)
        );
        let start = effects.iter().find_map(|e| match e {
            Effect::Sim(SimCommand::Start { spec, .. }) => Some(spec.clone()),
            _ => None,
        });
        assert_eq!(start.and_then(|s| s.lab), Some(lab));
        // The mode, the compare view and another scenario would play another program.
        app.session.status = None;
        for refused in ["m", "v", "c"] {
            assert!(chars(&mut app, refused).is_empty(), "{refused}");
            let Screen::Simulator(sim) = &app.screen else {
                panic!("still the simulator");
            };
            assert!(sim.settings.lab.is_some() && sim.settings.mode == Mode::Safe);
            assert!(sim.picker.is_none() && sim.compare.is_none(), "{refused}");
        }
        let said = app.session.status.clone().expect("a word").text;
        assert_eq!(
            said,
            app.session.strings().get(key::simulator::LAB_RUN_FIXED)
        );
        // Another seed plays the same file; nothing of it is remembered for the next start.
        let effects = chars(&mut app, "n");
        let Some(Effect::Sim(SimCommand::Start { spec, .. })) = effects.first() else {
            panic!("a restart: {effects:?}");
        };
        assert_eq!((spec.seed, spec.lab.is_some()), (4, true));
        assert!(app.session.progress.simulator.is_none(), "not remembered");
    }
}

#[test]
fn s_opens_at_the_statement_the_report_names() {
    let mut app = test_app(Lang::En, 100, 30);
    chars(&mut app, "l");
    key(&mut app, KeyCode::Enter);
    broken_at(
        &mut app,
        "-- @handle\nSELECT 1;\n",
        Some((4_250, content::LabSection::Handle)),
    );
    let effects = chars(&mut app, "s");
    let commands: Vec<&SimCommand> = effects
        .iter()
        .filter_map(|e| match e {
            Effect::Sim(c) => Some(c),
            _ => None,
        })
        .collect();
    let [SimCommand::Start { run, .. }, step] = commands[..] else {
        panic!("start, then step to the statement: {commands:?}")
    };
    assert_eq!(
        step,
        &SimCommand::StepToStatement {
            run: *run,
            at_ms: 4_250,
            section: content::LabSection::Handle,
        }
    );
    // The start's reply does not end the wait: a step key now would run past the statement.
    let head = || {
        Box::new(model::Snapshot {
            scalars: model::state::Scalars::default(),
            metrics: model::Metrics::default(),
            tokens: Vec::new(),
            last_event: None,
            tables: model::Tables::default(),
        })
    };
    let run = *run;
    app.update(Msg::Sim(crate::simulator::SimReply::Started {
        run,
        dir: "/runs/x".into(),
        consumers: 2,
        head: head(),
        expected_events: 195,
    }));
    let pending = |app: &App| match &app.screen {
        Screen::Simulator(sim) => sim.timeline.pending,
        _ => panic!("the simulator"),
    };
    assert!(pending(&app), "still stepping to the statement");
    app.update(Msg::Sim(crate::simulator::SimReply::Advanced {
        run,
        head: head(),
        events: Vec::new(),
        total: 40,
        finished: false,
        dlq: Vec::new(),
        report: None,
        moments: Vec::new(),
    }));
    assert!(!pending(&app), "at the statement");
}
