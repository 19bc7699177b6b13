//! Events are true to what ran: every provider charge is its own event, and an event's SQL is the
//! SQL that ran.

use crate::support::sim_run;

use queuelab_sim::{Actor, BrokerKind, Event, EventKind, Mode};
use sim_run::{events_to_end, named, start};

fn run(id: &str, mode: Mode, broker: BrokerKind, seed: u64) -> (Vec<Event>, i64) {
    let (mut sim, _dir) = start(named(id), mode, broker, seed);
    let events = events_to_end(&mut sim);
    let provider = rusqlite::Connection::open(&sim.paths().provider_db).expect("provider.db");
    let charges: i64 = provider
        .query_row("SELECT COUNT(*) FROM charges", [], |r| r.get(0))
        .expect("count charges");
    (events, charges)
}

fn is_charge(e: &Event) -> bool {
    matches!(
        e.kind,
        EventKind::ProviderChargedKeyed | EventKind::ProviderChargedUnkeyed
    )
}

/// Every row in the provider's `charges` table has its own provider event, the duplicate
/// charge included; a timeout after the charge is a later consumer event of its own.
#[test]
fn every_provider_charge_is_its_own_event() {
    let mut timeouts_seen = 0;
    let mut duplicate_charges_seen = 0;
    for mode in Mode::ALL {
        for broker in BrokerKind::ALL {
            for seed in 1..=5 {
                let (events, charges) = run("two-phase-claim", mode, broker, seed);
                let charge_events = events.iter().filter(|e| is_charge(e)).count();
                assert_eq!(
                    i64::try_from(charge_events).expect("fits"),
                    charges,
                    "{} {} seed {seed}: charge events vs rows in charges",
                    mode.as_str(),
                    broker.as_str()
                );
                for (i, e) in events.iter().enumerate() {
                    let timed_out = e.args.iter().any(|a| a.contains("provider timed out"));
                    if !timed_out {
                        continue;
                    }
                    timeouts_seen += 1;
                    assert!(matches!(e.actor, Actor::Consumer(_)), "{e:?}");
                    // The charge the timeout hid is the message's previous provider event.
                    let charge = events[..i]
                        .iter()
                        .rev()
                        .find(|p| p.actor == Actor::Provider && p.message_id == e.message_id);
                    assert!(charge.is_some(), "no provider event before {e:?}");
                }
                let mut per_message = std::collections::HashMap::new();
                for e in events.iter().filter(|e| is_charge(e)) {
                    *per_message.entry(e.message_id.clone()).or_insert(0) += 1;
                }
                duplicate_charges_seen += per_message.values().filter(|n| **n > 1).count();
            }
        }
    }
    assert!(timeouts_seen > 0, "the scenario's provider timeouts fired");
    assert!(
        duplicate_charges_seen > 0,
        "the naive duplicate charge shows as a second charge event"
    );
}

fn ran_dedup(e: &Event) -> bool {
    e.sql
        .iter()
        .any(|s| s.contains("FROM dedup") || s.contains("INTO dedup"))
}

/// Without duplicate detection no event shows a deduplication statement; with it, every
/// publish shows its lookup.
#[test]
fn dedup_statements_show_only_when_duplicate_detection_is_on() {
    for broker in BrokerKind::ALL {
        for mode in Mode::ALL {
            let (events, _) = run("lost-ack", mode, broker, 1);
            assert!(
                !events.iter().any(ran_dedup),
                "lost-ack {} {}: a dedup statement without duplicate detection",
                mode.as_str(),
                broker.as_str()
            );
        }
        let (events, _) = run("dedup-window", Mode::Safe, broker, 1);
        let published: Vec<_> = events
            .iter()
            .filter(|e| {
                matches!(
                    e.kind,
                    EventKind::Published | EventKind::PublishedDedup | EventKind::PublishedRetried
                )
            })
            .collect();
        assert!(!published.is_empty());
        assert!(
            published.iter().all(|e| ran_dedup(e)),
            "dedup-window {}: a publish without its lookup",
            broker.as_str()
        );
    }
}
