//! Safe mode on Service Bus retries a transient error the way chapters 10 and 12 teach: a copy
//! scheduled for later under a new `MessageId`, its own attempt counter one higher, then the
//! delivery completed; after the last attempt the consumer dead-letters the message itself with
//! `TransientRetriesExhausted`. Naive mode keeps abandon (released at once), SQS keeps
//! `ChangeMessageVisibility`. One order; the provider's answer times out after it charged, with
//! no immediate retry, so the timeout is one retry of that order through the broker (the retry
//! gets the first charge back by its idempotency key and succeeds).

use crate::support::sim_run;

use queuelab_sim::scenario::Scenario;
use queuelab_sim::{BrokerKind, Event, EventKind, Fault, Mode, checker, history};
use sim_run::{fault_at, named, start};

/// two-phase-claim with one order, no immediate retry and `timeouts` provider timeouts in a row.
fn timeouts(timeouts: usize, max_deliveries: Option<u32>) -> Scenario {
    let mut s = named("two-phase-claim");
    s.setup.messages = 1;
    s.setup.immediate_retries = 0;
    s.setup.max_deliveries = max_deliveries;
    s.script = (0..timeouts)
        .map(|_| fault_at(0, Fault::ProviderTimeoutAfterPerform))
        .collect();
    s
}

/// Runs to the end and checks the engine's verdict against the independent checker.
fn run(
    scenario: Scenario,
    mode: Mode,
    broker: BrokerKind,
) -> (Vec<Event>, queuelab_sim::RunReport) {
    let (mut sim, _dir) = start(scenario, mode, broker, 1);
    let mut events = Vec::new();
    let mut ops = Vec::new();
    while let Some(e) = sim.step().expect("step") {
        ops.extend(history::operations(e));
        events.push(e.clone());
    }
    let report = sim.report().expect("report");
    let verdict = checker::check(
        &report.paths,
        Some(&history::HistoryDigest::of(&ops)),
        false,
    )
    .expect("checker runs");
    assert_eq!(
        verdict.ok(),
        report.invariants.ok(),
        "checker {:?} vs engine {:?}",
        verdict.violations,
        report.invariants.violations
    );
    (events, report)
}

fn kinds(events: &[Event]) -> Vec<EventKind> {
    events.iter().map(|e| e.kind).collect()
}

#[test]
fn the_safe_service_bus_consumer_schedules_a_copy_and_completes_the_delivery() {
    let (events, report) = run(timeouts(1, None), Mode::Safe, BrokerKind::Asb);
    let all = kinds(&events);
    assert!(
        !all.contains(&EventKind::Abandoned),
        "no abandon in safe mode"
    );
    let copies: Vec<&Event> = events
        .iter()
        .filter(|e| e.kind == EventKind::ScheduledCopy)
        .collect();
    assert_eq!(copies.len(), 1, "one copy for the timeout: {all:?}");
    for copy in &copies {
        let msg = copy.message_id.clone().expect("message");
        let delay: u64 = copy.args[1].parse().expect("delay");
        let copy_id = &copy.args[4];
        assert!(copy_id.starts_with(&format!("{msg}-a")), "{copy:?}");
        // The delivery it came from is completed right after, by the same instance.
        let next = events[copy.index as usize + 1..]
            .iter()
            .find(|e| e.actor == copy.actor)
            .expect("a next event");
        assert_eq!(next.kind, EventKind::Settled, "{next:?}");
        // The copy is received no earlier than it was scheduled for.
        let received = events[copy.index as usize + 1..]
            .iter()
            .find(|e| e.message_id.as_deref() == Some(&msg) && e.kind == EventKind::Received)
            .expect("the copy is received");
        assert!(
            received.at_ms >= copy.at_ms + delay,
            "scheduled for {} ms after {}, received at {}",
            delay,
            copy.at_ms,
            received.at_ms
        );
    }
    // Attempt 1 failed; the copy carries attempt 2 of the default MaxDeliveryCount.
    assert_eq!(copies[0].args[0], "1", "{:?}", copies[0]);
    assert_eq!(copies[0].args[5], "2", "{:?}", copies[0]);
    assert_eq!(copies[0].args[6], "10", "{:?}", copies[0]);
    // The copy went out under a new MessageId, so duplicate detection let it through, and the
    // retry found the first charge by its idempotency key instead of charging again.
    assert!(all.contains(&EventKind::ProviderReplayed), "{all:?}");
    assert!(report.invariants.ok(), "{:?}", report.invariants.violations);
    assert_eq!(report.metrics.duplicate_effects, 0);
    assert_eq!(report.metrics.dead_lettered, 0);
}

/// With one attempt allowed, the first failure is the last: no copy, the consumer's own
/// dead-letter call with chapter 10's reason (the broker's `MaxDeliveryCountExceeded` could
/// never come, since every copy starts at `DeliveryCount` 1).
#[test]
fn after_the_last_attempt_the_consumer_dead_letters_with_its_own_reason() {
    let (events, report) = run(timeouts(1, Some(1)), Mode::Safe, BrokerKind::Asb);
    let dead = events
        .iter()
        .find(|e| e.kind == EventKind::DeadLetteredByConsumer)
        .unwrap_or_else(|| panic!("dead-lettered: {:?}", kinds(&events)));
    assert_eq!(dead.args[0], "TransientRetriesExhausted", "{dead:?}");
    assert_eq!(
        events
            .iter()
            .filter(|e| e.kind == EventKind::ScheduledCopy)
            .count(),
        0,
        "attempt 1 was the last"
    );
    assert!(
        !kinds(&events).contains(&EventKind::DeadLettered),
        "not the broker's MaxDeliveryCountExceeded"
    );
    assert_eq!(report.metrics.dead_lettered, 1);
    assert_eq!(report.metrics.lost, 0, "in the DLQ is not lost");
}

#[test]
fn naive_mode_abandons_and_sqs_changes_the_visibility() {
    let (naive, _) = run(timeouts(1, None), Mode::Naive, BrokerKind::Asb);
    assert!(
        kinds(&naive).contains(&EventKind::Abandoned),
        "{:?}",
        kinds(&naive)
    );
    assert!(!kinds(&naive).contains(&EventKind::ScheduledCopy));
    let (sqs, _) = run(timeouts(1, None), Mode::Safe, BrokerKind::Sqs);
    assert!(
        kinds(&sqs).contains(&EventKind::RetryDelayed),
        "{:?}",
        kinds(&sqs)
    );
    assert!(!kinds(&sqs).contains(&EventKind::ScheduledCopy));
}
