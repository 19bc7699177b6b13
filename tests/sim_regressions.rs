//! Regression tests for engine defects found in review (issue 12).

use queuelab::sim::scenario::{self, ScriptAction, ScriptStep};
use queuelab::sim::{BrokerKind, EventKind, Fault, Mode, RunConfig, Simulation};

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
