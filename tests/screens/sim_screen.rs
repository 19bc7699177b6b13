//! The simulator screen through `App::update` with the real engine behind it (the same
//! `SimDriver` the runtime's thread uses): every control, the timeline ends, fault injection
//! mid-run, compare, and snapshots at fixed events of fixed seeds. DLQ triage and progress are
//! in `sim_screen_progress.rs`.

use crate::support::sim_harness as harness;

use harness::{Harness, open, sim};
use queuelab::app::simulator::{Compare, PickerKind, SPEEDS, Tab, Timeline};
use queuelab::app::{Msg, Options};
use queuelab::content::Lang;
use queuelab::sim::{BrokerKind, EventKind, Fault, Mode};

fn timeline(h: &Harness) -> &Timeline {
    &sim(h).timeline
}

fn shown_event(h: &Harness) -> Option<u64> {
    sim(h)
        .shown()
        .and_then(|s| s.last_event.as_ref())
        .map(|e| e.index)
}

#[test]
fn step_forward_back_to_the_very_first_event_and_forward_to_the_end() {
    let mut h = open(Lang::En, 80, 24, "twin-consumers", Options::default());
    assert_eq!(timeline(&h).total, 0);
    assert!(
        timeline(&h).dir.is_some(),
        "the run directory is shown at once"
    );
    h.keys("<");
    assert_eq!(shown_event(&h), None, "nothing before the start");
    h.repeat('>', 10);
    assert_eq!(timeline(&h).total, 10);
    assert_eq!(shown_event(&h), Some(9));
    h.repeat('<', 3);
    assert_eq!(timeline(&h).cursor, Some(6));
    assert_eq!(shown_event(&h), Some(6), "the picture of event 7 arrived");
    h.repeat('<', 20);
    assert_eq!(timeline(&h).cursor, Some(0));
    assert_eq!(
        shown_event(&h),
        Some(0),
        "step back stops at the very first event"
    );
    h.keys(">");
    assert_eq!(shown_event(&h), Some(1));
    assert_eq!(timeline(&h).total, 10, "moving in history executes nothing");
    h.repeat('>', 8);
    assert_eq!(timeline(&h).cursor, None, "back at the head");
    assert_eq!(shown_event(&h), Some(9));
    h.keys("^");
    assert_eq!(shown_event(&h), Some(0), "Home jumps to the first event");
    h.keys("$");
    let s = sim(&h);
    assert!(s.timeline.finished && s.timeline.cursor.is_none());
    let report = s.timeline.report.as_ref().expect("report at the end");
    assert!(
        report.invariants.ok(),
        "safe twin-consumers keeps the invariants"
    );
    assert_eq!(shown_event(&h), Some(s.timeline.total - 1));
    let total = s.timeline.total;
    h.keys(">");
    assert_eq!(timeline(&h).total, total, "nothing after the end");
}

#[test]
fn play_runs_on_ticks_only_and_pause_stops() {
    let mut h = open(Lang::En, 80, 24, "happy-path", Options::default());
    assert_eq!(h.app.tick_interval_ms(), None, "no ticks while paused");
    h.keys(" ");
    assert!(timeline(&h).playing);
    assert_eq!(
        h.app.tick_interval_ms(),
        Some(33),
        "30 frames per second while playing"
    );
    let beat = sim(&h).beat_ms();
    h.send(Msg::Tick {
        elapsed_ms: beat / 2,
    });
    assert_eq!(
        timeline(&h).total,
        0,
        "half a beat moves tokens, no event yet"
    );
    h.send(Msg::Tick {
        elapsed_ms: beat / 2 + 1,
    });
    assert_eq!(timeline(&h).total, 1);
    h.keys("+");
    h.keys("+");
    assert!(
        (SPEEDS[sim(&h).settings.speed] - 4.0).abs() < f64::EPSILON,
        "x1 -> x4"
    );
    let fast = sim(&h).beat_ms();
    h.send(Msg::Tick {
        elapsed_ms: fast * 4,
    });
    assert_eq!(
        timeline(&h).total,
        5,
        "four beats at once ask for four events"
    );
    h.keys("-");
    assert!((SPEEDS[sim(&h).settings.speed] - 2.0).abs() < f64::EPSILON);
    h.keys(".");
    assert!(!timeline(&h).playing, "the presenter key pauses");
    assert_eq!(h.app.tick_interval_ms(), None);
    h.send(Msg::Tick { elapsed_ms: 5_000 });
    assert_eq!(
        timeline(&h).total,
        5,
        "a stray tick while paused does nothing"
    );
}

#[test]
fn reduced_motion_ticks_once_per_event_and_shows_the_transcript() {
    let options = Options {
        reduced_motion: true,
        ..Options::default()
    };
    let mut h = open(Lang::En, 80, 24, "happy-path", options);
    h.keys(" ");
    assert_eq!(h.app.tick_interval_ms(), Some(sim(&h).beat_ms()));
    h.keys(".");
    h.repeat('>', 3);
    let screen = h.screen();
    // The narration is a transcript: the newest captions that fit, in full.
    assert!(screen.contains("\n #3 Dispatcher published"), "{screen}");
    h.keys(">");
    let screen = h.screen();
    assert!(screen.contains("\n #3 Dispatcher published"), "{screen}");
    assert!(screen.contains("\n #4 "), "{screen}");
}

#[test]
fn a_fault_injected_mid_run_fires() {
    let mut h = open(Lang::En, 80, 24, "happy-path", Options::default());
    h.repeat('>', 5);
    h.repeat('<', 2);
    h.keys("i");
    assert_eq!(sim(&h).picker.map(|p| p.kind), Some(PickerKind::Fault));
    let index = Fault::MENU
        .iter()
        .position(|f| matches!(f, Fault::BrokerDown { .. }))
        .expect("broker-down in the menu");
    for _ in 0..index {
        h.keys("j");
    }
    h.keys("\n");
    let s = sim(&h);
    assert!(s.picker.is_none());
    assert_eq!(s.timeline.cursor, None, "injecting returns to the head");
    assert!(matches!(
        s.timeline.last_fault,
        Some(Fault::BrokerDown { .. })
    ));
    let status = h.app.session.status.as_ref().expect("armed notice");
    assert!(status.text.contains("Broker down"), "{}", status.text);
    h.repeat('>', 3);
    let down = timeline(&h)
        .log
        .iter()
        .any(|e| e.kind == EventKind::BrokerDown);
    assert!(down, "the outage began");
    let screen = h.screen();
    assert!(
        screen.contains("DOWN"),
        "failing broker marked in words:\n{screen}"
    );
}

#[test]
fn mode_broker_seed_scenario_and_restart_start_new_runs() {
    let mut h = open(Lang::En, 80, 24, "twin-consumers", Options::default());
    h.repeat('>', 4);
    let first_run = timeline(&h).run;
    h.keys("m");
    assert_eq!(sim(&h).settings.mode, Mode::Naive);
    assert!(timeline(&h).run > first_run && timeline(&h).total == 0);
    h.keys("m");
    assert_eq!(sim(&h).settings.mode, Mode::Pitfall);
    h.keys("m");
    assert_eq!(sim(&h).settings.mode, Mode::Safe);
    h.keys("b");
    assert_eq!(sim(&h).settings.broker, BrokerKind::Sqs);
    assert!(
        h.screen().contains("╭SQS"),
        "the broker box is named after SQS"
    );
    h.keys("n");
    assert_eq!(sim(&h).settings.seed, 2);
    h.repeat('>', 3);
    h.keys("r");
    assert_eq!(timeline(&h).total, 0);
    assert_eq!(
        (sim(&h).settings.seed, sim(&h).settings.broker),
        (2, BrokerKind::Sqs),
        "restart keeps settings"
    );
    h.keys("c\x1b");
    assert!(sim(&h).picker.is_none());
    assert_eq!(
        sim(&h).scenario_id(),
        "twin-consumers",
        "Esc keeps the scenario"
    );
}

#[test]
fn tabs_scroll_and_tables_show_the_inbox_rows() {
    let mut h = open(Lang::En, 100, 40, "twin-consumers", Options::default());
    h.keys("$");
    h.keys("\t");
    assert_eq!(sim(&h).tab, Tab::Tables);
    let mut seen = false;
    for _ in 0..40 {
        h.keys("j");
        seen |= h.screen().contains("service.db · inbox (");
    }
    assert!(seen, "scrolling reaches the inbox rows");
    h.keys("\t");
    assert_eq!(sim(&h).tab, Tab::Metrics);
    assert!(h.screen().contains("Prevented duplicates"));
    h.keys("\t\t");
    assert_eq!(sim(&h).tab, Tab::Log);
}

#[test]
fn naive_twin_consumers_doubles_an_effect_and_compare_names_the_difference() {
    let mut h = open(Lang::En, 80, 24, "twin-consumers", Options::default());
    // SQS standard hands a second copy to the other instance at once; Service Bus only
    // after a lost lock, which the careful consumer notices before its commit.
    h.keys("b");
    assert_eq!(sim(&h).settings.broker, BrokerKind::Sqs);
    h.keys("m");
    h.keys("$");
    assert!(
        !sim(&h)
            .timeline
            .report
            .as_ref()
            .expect("report")
            .invariants
            .ok()
    );
    assert!(h.screen().contains("duplicate"), "{}", h.screen());
    h.keys("m");
    h.keys("m");
    assert_eq!(sim(&h).settings.mode, Mode::Safe);
    h.keys("$");
    let caught = sim(&h)
        .timeline
        .log
        .iter()
        .find(|e| e.kind == EventKind::DuplicatePrevented)
        .expect("the unique index caught the twin");
    let index = caught.index;
    while sim(&h).shown_index() != Some(index) {
        h.keys("<");
    }
    assert!(
        // The story panel explains the prevented duplicate at the event that caught it.
        h.screen().contains("19/2067"),
        "{}",
        h.screen()
    );
    h.keys("v");
    let Some(Compare::Done { safe, naive }) = &sim(&h).compare else {
        panic!("compare done")
    };
    assert_eq!(safe.metrics.duplicate_effects, 0);
    assert!(naive.metrics.duplicate_effects > 0);
    assert!(
        h.screen()
            .contains("Final difference - Duplicate effects: 0 (safe)")
    );
    h.keys("v");
    assert!(sim(&h).compare.is_none());
}

#[test]
fn snapshots_at_fixed_events_of_fixed_seeds() {
    for (w, hgt) in [(80, 24), (160, 48)] {
        let mut h = open(Lang::En, w, hgt, "twin-consumers", Options::default());
        h.repeat('>', 30);
        insta::assert_snapshot!(format!("sim_twin_safe_e30_en_{w}x{hgt}"), h.screen());
        h.keys("m");
        h.keys("$");
        insta::assert_snapshot!(format!("sim_twin_naive_end_en_{w}x{hgt}"), h.screen());
        h.keys("\t");
        insta::assert_snapshot!(format!("sim_twin_naive_tables_en_{w}x{hgt}"), h.screen());
        h.keys("\t");
        insta::assert_snapshot!(format!("sim_twin_naive_metrics_en_{w}x{hgt}"), h.screen());
        h.keys("v");
        insta::assert_snapshot!(format!("sim_compare_twin_en_{w}x{hgt}"), h.screen());
    }
    let mut h = open(Lang::De, 80, 24, "broker-outage", Options::default());
    h.repeat('>', 20);
    insta::assert_snapshot!("sim_broker_outage_e20_de_80x24", h.screen());
    h.keys("i");
    insta::assert_snapshot!("sim_fault_menu_de_80x24", h.screen());
    h.keys("\x1b?");
    insta::assert_snapshot!("sim_help_de_80x24", h.screen());
}

#[test]
fn tokens_move_during_a_beat_and_rest_when_paused() {
    let mut h = open(Lang::En, 80, 24, "happy-path", Options::default());
    h.repeat('>', 2);
    h.keys(" ");
    let beat = sim(&h).beat_ms();
    h.send(queuelab::app::Msg::Tick { elapsed_ms: beat });
    assert!(
        !timeline(&h).moves.is_empty(),
        "the published message moves"
    );
    h.send(queuelab::app::Msg::Tick {
        elapsed_ms: beat / 2,
    });
    let moving = h.screen();
    // Order 1 was published: its token rides the arrow into the broker box with its number.
    let arrow_row = moving
        .lines()
        .nth(4)
        .expect("the map's arrow row")
        .to_owned();
    assert!(arrow_row.contains("1▶"), "a token on its way:\n{moving}");
    insta::assert_snapshot!("sim_token_moving_en_80x24", moving);
    h.keys(" ");
    let rested = h.screen();
    let arrow_row = rested
        .lines()
        .nth(4)
        .expect("the map's arrow row")
        .to_owned();
    assert!(
        arrow_row.contains("1▶"),
        "paused: the token stands at the end of its arrow:\n{rested}"
    );
}
