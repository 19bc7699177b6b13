//! The simulator screen with the real engine behind it, continued from `sim_screen.rs`: DLQ
//! triage, scenarios counted in progress, and "see it happen" from a decision.

use crate::support::sim_harness as harness;

use harness::{Harness, open, sim};
use queuelab::app::simulator::{Compare, Tab, Timeline};
use queuelab::app::{Effect, Options, Screen, StoreRequest};
use queuelab::content::Lang;
use queuelab::domain::Fact;
use queuelab::sim::{EventKind, Mode};

fn timeline(h: &Harness) -> &Timeline {
    &sim(h).timeline
}

#[test]
fn dlq_triage_replays_a_small_batch_after_the_cause_is_fixed() {
    let mut h = open(Lang::En, 80, 24, "poison-dlq", Options::default());
    for _ in 0..400 {
        if sim(&h).triage.dlq.len() >= 2 {
            break;
        }
        h.keys(">");
    }
    let before = sim(&h).triage.dlq.len();
    assert!(before >= 2, "poison messages reached the DLQ");
    for _ in 0..3 {
        h.keys("\t");
    }
    assert_eq!(sim(&h).tab, Tab::Dlq);
    assert!(h.screen().contains("cause fixed"));
    h.keys("k");
    h.repeat('j', 20);
    assert_eq!(
        sim(&h).triage.batch,
        1,
        "arrows set the batch size, at least one"
    );
    h.keys("k");
    h.keys("f");
    assert!(sim(&h).triage.cause_fixed);
    // poison-dlq has duplicate detection on: Enter (same ids) would be dropped, so replay
    // under new message ids (`sim_triage_screen.rs` covers the drop).
    h.keys("N");
    assert!(sim(&h).triage.fix_sent);
    h.repeat('>', 10);
    let replayed = sim(&h)
        .timeline
        .log
        .iter()
        .any(|e| e.kind == EventKind::DlqReplayedNewId);
    assert!(replayed, "a replay happened: {:?}", timeline(&h).log.back());
    assert!(sim(&h).triage.dlq.len() < before, "the batch left the DLQ");
}

#[test]
fn scenarios_run_are_counted_once_and_shown_on_home() {
    let mut h = open(Lang::En, 80, 24, "lost-ack", Options::default());
    assert!(
        !h.saved
            .iter()
            .any(|e| matches!(e, Effect::Store(StoreRequest::Save(Fact::ScenarioRun(_)))))
    );
    h.keys(">>>");
    let runs: Vec<_> = h
        .saved
        .iter()
        .filter(|e| matches!(e, Effect::Store(StoreRequest::Save(Fact::ScenarioRun(id))) if id == "lost-ack"))
        .collect();
    assert_eq!(runs.len(), 1);
    assert!(h.app.session.progress.scenarios_run.contains("lost-ack"));
    h.keys("q");
    assert!(matches!(h.app.screen, Screen::Home(_)));
    let all = h.app.session.content.scenarios.len();
    assert!(
        h.screen()
            .contains(&format!("Simulator scenarios run: 1/{all}")),
        "{}",
        h.screen()
    );
}

#[test]
fn see_it_happen_in_a_decision_opens_its_scenario() {
    let mut h = Harness::new(Lang::En, 80, 24, Options::default());
    h.keys("2");
    h.keys("3\n\t3s");
    let s = sim(&h);
    assert_eq!(s.scenario_id(), "broker-outage");
    // Option 3 (publish once after the commit) plays as the scenario's pitfall, beside safe mode.
    assert_eq!(s.settings.mode, Mode::Pitfall);
    let Some(Compare::Done { safe, naive }) = &s.compare else {
        panic!("the compare view opened: {:?}", s.compare.is_some());
    };
    assert_eq!((safe.mode, naive.mode), (Mode::Safe, Mode::Pitfall));
    assert!(h.screen().contains("safe vs pitfall"), "{}", h.screen());
    // `q` closes the compare view only, as its label says; a second `q` leaves the simulator.
    h.keys("q");
    assert!(sim(&h).compare.is_none(), "the compare view closed");
    h.keys("q");
    assert!(
        matches!(h.app.screen, Screen::Reader(_)),
        "back to the reader"
    );
}

#[test]
fn see_it_happen_after_the_right_answer_plays_safe_mode_alone() {
    let mut h = Harness::new(Lang::En, 80, 24, Options::default());
    h.keys("2");
    h.keys("3\n\t2s");
    let s = sim(&h);
    assert_eq!(s.scenario_id(), "broker-outage");
    assert_eq!(s.settings.mode, Mode::Safe);
    assert!(s.compare.is_none(), "no compare view for the safe choice");
}
