//! Regression tests for engine defects: each run that once went wrong, kept so it stays right.

use queuelab_sim::scenario::{self, ScriptAction, ScriptStep};
use queuelab_sim::{BrokerKind, EventKind, Fault, Mode, RunConfig, Simulation};

fn step(at_ms: u64, fault: Fault) -> ScriptStep {
    ScriptStep {
        at_ms,
        action: ScriptAction::Fault(fault),
        count: 1,
        duration_ms: None,
    }
}

/// A poison message that is also slower than the lock, MaxDeliveryCount 1, safe mode: the DLQ
/// holds the poison message only (never a healthy message with the poison message's reason),
/// no healthy message's consumer is told "lock lost", and the invariants agree.
#[test]
fn a_slow_poison_message_dead_letters_only_itself() {
    for broker in BrokerKind::ALL {
        for seed in 1..=20 {
            let mut s = scenario::find("happy-path").expect("scenario");
            s.setup.max_deliveries = Some(1);
            s.script = vec![
                step(0, Fault::PoisonMessage),
                // After the first (healthy) order was received: the poison message is the next
                // one received, and it is the one that is slower than the lock.
                step(250, Fault::ConsumerSlowerThanLock),
            ];
            let dir = tempfile::tempdir().expect("tempdir");
            let mut sim = Simulation::new(RunConfig {
                scenario: s,
                mode: Mode::Safe,
                broker,
                seed,
                messages: None,
                dir: dir.path().join("run"),
            })
            .expect("new run");
            let mut lock_lost_on = Vec::new();
            let mut poison = String::new();
            while let Some(e) = sim.step().expect("step") {
                if e.kind == EventKind::ApiAcceptedPoison {
                    poison = e.message_id.clone().unwrap_or_default();
                }
                if e.kind == EventKind::LockLost {
                    lock_lost_on.push(e.message_id.clone().unwrap_or_default());
                }
            }
            let report = sim.report().expect("report");
            let dlq = sim.dlq().expect("dlq");
            let ids: Vec<&str> = dlq.iter().map(|d| d.message_id.as_str()).collect();
            assert_eq!(
                ids,
                [poison.as_str()],
                "{broker:?} seed {seed}: only the poison message"
            );
            for id in &lock_lost_on {
                assert_eq!(id, &poison, "{broker:?} seed {seed}: lock lost on {id}");
            }
            assert!(
                report.invariants.ok(),
                "{broker:?} seed {seed}: {:?}",
                report.invariants.violations
            );
        }
    }
}

fn run_collecting(
    s: queuelab_sim::Scenario,
    broker: BrokerKind,
    seed: u64,
    messages: Option<u32>,
) -> (queuelab_sim::RunReport, Vec<queuelab_sim::Event>) {
    run_collecting_in(Mode::Safe, s, broker, seed, messages)
}

fn run_collecting_in(
    mode: Mode,
    s: queuelab_sim::Scenario,
    broker: BrokerKind,
    seed: u64,
    messages: Option<u32>,
) -> (queuelab_sim::RunReport, Vec<queuelab_sim::Event>) {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut sim = Simulation::new(RunConfig {
        scenario: s,
        mode,
        broker,
        seed,
        messages,
        dir: dir.path().join("run"),
    })
    .expect("new run");
    let mut events = Vec::new();
    while let Some(e) = sim.step().expect("step") {
        events.push(e.clone());
    }
    (sim.report().expect("report"), events)
}

/// `delivered` counts the receives that handed a message out, and `dead_lettered` the moves to
/// the DLQ: exactly the events that say so (a receive the broker dead-lettered on the spot is
/// no delivery).
#[test]
fn counters_agree_with_the_event_stream() {
    for broker in BrokerKind::ALL {
        for seed in 1..=4 {
            let s = scenario::find("chaos").expect("scenario");
            let (r, events) = run_collecting(s, broker, seed, Some(600));
            let count = |kinds: &[EventKind]| {
                events.iter().filter(|e| kinds.contains(&e.kind)).count() as u64
            };
            let delivered = count(&[
                EventKind::Received,
                EventKind::ReceivedAgain,
                EventKind::ReceivedTwice,
                EventKind::LockLostAtBroker,
            ]);
            assert_eq!(r.metrics.delivered, delivered, "{broker:?} seed {seed}");
            let dead = count(&[
                EventKind::DeadLettered,
                EventKind::Redriven,
                EventKind::DeadLetteredByConsumer,
                EventKind::ForwardedToDlq,
            ]);
            assert_eq!(r.metrics.dead_lettered, dead, "{broker:?} seed {seed}");
        }
    }
}

/// Decorrelated jitter grows from the previous delay of the same message: some delay exceeds
/// three times the base, which `U[base, 3 * base]` from a fixed base never could.
#[test]
fn decorrelated_jitter_grows_on_the_consumer_path() {
    let mut s = scenario::find("poison-dlq").expect("scenario");
    s.setup.jitter = queuelab_sim::retry::Jitter::Decorrelated;
    s.setup.max_deliveries = Some(10);
    s.setup.backoff_cap_ms = 60_000;
    let base = s.setup.backoff_base_ms;
    // Naive: it retries the poison messages (safe dead-letters a permanent error at once).
    let (_, events) = run_collecting_in(Mode::Naive, s, BrokerKind::Sqs, 1, None);
    let delays: Vec<u64> = events
        .iter()
        .filter(|e| e.kind == EventKind::RetryDelayed)
        .filter_map(|e| e.args.first()?.parse().ok())
        .collect();
    assert!(delays.len() > 5, "{delays:?}");
    assert!(
        delays.iter().any(|d| *d > 3 * base),
        "no delay above 3 x {base}: {delays:?}"
    );
}

/// A setup beyond a broker's documented limit fails `queuelab check` at its place.
#[test]
fn a_setup_beyond_a_broker_limit_is_reported_with_its_position() {
    let path = "assets/scenarios/lost-ack.toml";
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../assets/scenarios/lost-ack.toml"
    ))
    .expect("read")
    .replace("lock_ms = 5000", "lock_ms = 400000\nmax_deliveries = 2000");
    let problems = content::parse_one(path, &text);
    let lines: Vec<String> = problems.iter().map(ToString::to_string).collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(
        lines[0].starts_with("assets/scenarios/lost-ack.toml:"),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.contains("Service Bus limit")),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.contains("maxReceiveCount")),
        "{lines:?}"
    );
}
