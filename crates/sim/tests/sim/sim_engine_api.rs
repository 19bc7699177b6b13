//! The API the UI drives: step, inject, snapshot, `state_at`, DLQ triage.

use queuelab_sim::scenario;
use queuelab_sim::{BrokerKind, EventKind, Fault, Mode, RunConfig, Simulation, Stage, Table};

fn sim(id: &str, mode: Mode, dir: &std::path::Path) -> Simulation {
    Simulation::new(RunConfig {
        scenario: scenario::find(id).expect("scenario"),
        mode,
        broker: BrokerKind::Asb,
        seed: 3,
        messages: None,
        dir: dir.join("run"),
    })
    .expect("new run")
}

#[test]
fn step_back_rebuilds_the_same_picture() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut s = sim("backlog", Mode::Safe, dir.path());
    let mut pictures = Vec::new();
    while let Some(e) = s.step().expect("step") {
        let i = e.index;
        if i % 97 == 0 {
            pictures.push((i, s.snapshot()));
        }
    }
    assert!(pictures.len() > 5);
    for (i, pic) in &pictures {
        let back = s.state_at(*i).expect("in the window");
        assert_eq!(
            &back, pic,
            "state_at({i}) differs from the live snapshot taken then"
        );
    }
    assert!(
        s.state_at(s.event_count()).is_none(),
        "future events cannot be rebuilt"
    );
}

#[test]
fn snapshot_shows_tables_tokens_and_the_last_event() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut s = sim("happy-path", Mode::Safe, dir.path());
    for _ in 0..5 {
        s.step().expect("step");
    }
    let snap = s.snapshot();
    assert!(snap.last_event.is_some());
    assert!(snap.tables.len(Table::Orders) >= 1);
    assert!(snap.tokens.iter().any(|t| t.stage != Stage::Api));
    let report = s.run_to_end().expect("run");
    let end = s.snapshot();
    assert_eq!(end.metrics.effects, report.metrics.effects);
    assert_eq!(end.tables.len(Table::Effects), 10);
    assert!(
        end.tokens.is_empty(),
        "nothing in flight after the run: {:?}",
        end.tokens
    );
}

#[test]
fn injected_slow_consumer_loses_its_lock_and_safe_mode_stays_correct() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut s = sim("lost-ack", Mode::Safe, dir.path());
    s.inject(Fault::ConsumerSlowerThanLock);
    let r = s.run_to_end().expect("run");
    assert!(r.invariants.ok(), "{:?}", r.invariants.violations);
    assert!(r.metrics.lock_lost >= 1, "{:?}", r.metrics);

    let dir = tempfile::tempdir().expect("tempdir");
    let mut n = sim("happy-path", Mode::Naive, dir.path());
    n.inject(Fault::ConsumerSlowerThanLock);
    let r = n.run_to_end().expect("run");
    assert!(
        r.metrics.duplicate_effects >= 1,
        "naive consumer slower than its lock: {:?}",
        r.metrics
    );
}

#[test]
fn dlq_triage_lists_reasons_and_replays_a_small_batch() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut s = sim("happy-path", Mode::Safe, dir.path());
    s.inject(Fault::PoisonMessage);
    s.inject(Fault::PoisonMessage);
    s.run_to_end().expect("run");
    let dlq = s.dlq().expect("dlq");
    assert_eq!(dlq.len(), 2);
    assert!(
        dlq.iter()
            .all(|e| e.reason == "UnsupportedSchemaVersion" && e.description.contains("poison")),
        "safe mode dead-letters a permanent error itself, with its own reason: {dlq:?}"
    );
    s.fix_cause();
    s.replay_dlq(1);
    s.run_to_end().expect("run again");
    let left = s.dlq().expect("dlq");
    assert_eq!(left.len(), 1);
    assert_eq!(s.report().expect("report").metrics.effects, 9);
    // The operator picks the remaining entry by its sequence number.
    s.replay_dlq_entries(&[left[0].seq, 999]);
    s.run_to_end().expect("run after the chosen replay");
    assert!(s.dlq().expect("dlq").is_empty());
    let r = s.report().expect("report");
    assert_eq!(r.metrics.effects, 10);
    assert!(r.invariants.ok());
}

#[test]
fn bad_settings_are_errors_not_panics() {
    let dir = tempfile::tempdir().expect("tempdir");
    let base = || RunConfig {
        scenario: scenario::find("happy-path").expect("scenario"),
        mode: Mode::Safe,
        broker: BrokerKind::Sqs,
        seed: 1,
        messages: None,
        dir: dir.path().join("x"),
    };
    let zero = Simulation::new(RunConfig {
        messages: Some(0),
        ..base()
    });
    assert!(zero.is_err());
    let fixed = Simulation::new(RunConfig {
        messages: Some(50),
        ..base()
    });
    assert!(
        fixed
            .err()
            .is_some_and(|e| e.to_string().contains("scales only"))
    );
    let first = Simulation::new(base());
    assert!(first.is_ok());
    let again = Simulation::new(base());
    assert!(
        again
            .err()
            .is_some_and(|e| e.to_string().contains("already holds a run"))
    );
}

#[test]
fn lock_renewal_keeps_a_slow_consumer_its_message() {
    for broker in [BrokerKind::Asb, BrokerKind::Sqs] {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut scenario = scenario::find("lost-ack").expect("scenario");
        scenario.script.clear();
        scenario.setup.renew_lock = true;
        let mut s = Simulation::new(RunConfig {
            scenario,
            mode: Mode::Naive,
            broker,
            seed: 3,
            messages: None,
            dir: dir.path().join("run"),
        })
        .expect("new run");
        s.inject(Fault::ConsumerSlowerThanLock);
        let mut renewed = 0;
        while let Some(e) = s.step().expect("step") {
            if matches!(
                e.kind,
                EventKind::LockRenewed | EventKind::VisibilityExtended
            ) {
                renewed += 1;
            }
        }
        let r = s.report().expect("report");
        assert!(renewed >= 2, "{broker:?}: renewed {renewed} times");
        assert_eq!(
            (
                r.metrics.lock_lost,
                r.metrics.redeliveries,
                r.metrics.duplicate_effects
            ),
            (0, 0, 0),
            "{broker:?}"
        );
        assert!(r.invariants.ok());
    }
}

#[test]
fn a_simulation_can_move_to_another_thread() {
    fn assert_send<T: Send>() {}
    assert_send::<Simulation>();
}
