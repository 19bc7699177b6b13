//! The vendor truths the engine must keep: who dead-letters with which reason, what a delivery
//! count means, what a DLQ replay does, what FIFO and an outage do.

use crate::support::sim_run;

use queuelab_sim::scenario::{self, Scenario};
use queuelab_sim::state::rows::QueueColumn;
use queuelab_sim::{BrokerKind, Event, EventKind, Mode};
use sim_run::{fault_at, named, run, start};

/// `poison-dlq` without the operator's fix and replays.
fn poison_only() -> Scenario {
    let mut sc = named("poison-dlq");
    sc.script
        .retain(|s| matches!(s.action, scenario::ScriptAction::Fault(_)));
    sc
}

/// Safe mode classifies the unknown schema version as permanent and dead-letters it at the
/// first delivery through the application's own call; naive spends the delivery limit and the
/// broker dead-letters with its own fixed description.
#[test]
fn safe_dead_letters_a_permanent_error_at_once_and_naive_retries_to_the_limit() {
    for broker in BrokerKind::ALL {
        let (safe, safe_report) = run(poison_only(), Mode::Safe, broker, 1);
        let own = match broker {
            BrokerKind::Asb => EventKind::DeadLetteredByConsumer,
            BrokerKind::Sqs => EventKind::ForwardedToDlq,
        };
        let own_calls: Vec<&Event> = safe.iter().filter(|e| e.kind == own).collect();
        assert_eq!(own_calls.len(), 4, "{broker:?}: every poison message, once");
        for e in &own_calls {
            assert_eq!(
                e.args[0], "UnsupportedSchemaVersion",
                "the application's reason"
            );
            assert!(e.args[1].contains("schema version v2"), "{:?}", e.args);
            assert_eq!(e.args[2], "1", "at the first delivery");
        }
        assert!(
            !safe.iter().any(|e| matches!(
                e.kind,
                EventKind::DeadLettered | EventKind::Redriven | EventKind::Abandoned
            ) || e.kind == EventKind::RetryDelayed),
            "{broker:?}: safe never waits for the broker's limit"
        );
        let (naive, naive_report) = run(poison_only(), Mode::Naive, broker, 1);
        let by_broker: Vec<&Event> = naive
            .iter()
            .filter(|e| matches!(e.kind, EventKind::DeadLettered | EventKind::Redriven))
            .collect();
        assert_eq!(by_broker.len(), 4, "{broker:?}");
        if broker == BrokerKind::Asb {
            for e in &by_broker {
                assert_eq!(e.args[0], "MaxDeliveryCountExceeded");
                assert_eq!(
                    e.args[1], "Message could not be consumed after 4 delivery attempts.",
                    "the broker's own description, never the consumer's exception"
                );
            }
        }
        assert!(
            naive_report.metrics.retries > safe_report.metrics.retries,
            "{broker:?}: naive and safe differ"
        );
        assert_eq!(safe_report.metrics.dead_lettered, 4);
        assert_eq!(naive_report.metrics.dead_lettered, 4);
    }
}

/// One delivery count, one meaning: the DLQ entry records the deliveries that took place,
/// the same number the last receive event and the broker's dead-letter event name.
#[test]
fn the_dlq_delivery_count_is_the_number_of_deliveries_that_took_place() {
    for broker in BrokerKind::ALL {
        let (mut sim, _dir) = start(poison_only(), Mode::Naive, broker, 1);
        let mut last_delivery = std::collections::HashMap::new();
        while let Some(e) = sim.step().expect("step") {
            if matches!(e.kind, EventKind::Received | EventKind::ReceivedAgain) {
                last_delivery.insert(e.message_id.clone().unwrap_or_default(), e.args[0].clone());
            }
        }
        let dlq = sim.dlq().expect("dlq");
        assert_eq!(dlq.len(), 4);
        for entry in dlq {
            assert_eq!(entry.delivery_count.to_string(), "4", "{broker:?}: max 4");
            assert_eq!(
                last_delivery.get(&entry.message_id),
                Some(&entry.delivery_count.to_string()),
                "{broker:?}: the last receive named the same count"
            );
        }
    }
}

/// A renewal that falls into an outage fails like every broker call, is shown, and is tried
/// again: the lock is renewed once the broker is back (lock-renewal, outage 1.5 s at 4.9 s).
#[test]
fn a_renewal_in_an_outage_fails_visibly_and_is_retried() {
    for broker in BrokerKind::ALL {
        let mut sc = named("lock-renewal");
        sc.script.push(fault_at(
            4_900,
            queuelab_sim::Fault::BrokerDown { duration_ms: 1_500 },
        ));
        sc.script.sort_by_key(|s| s.at_ms);
        let (events, report) = run(sc, Mode::Safe, broker, 1);
        let failed: Vec<&Event> = events
            .iter()
            .filter(|e| e.kind == EventKind::RenewFailedBrokerDown)
            .collect();
        assert!(
            !failed.is_empty(),
            "{broker:?}: the failed renewal is an event"
        );
        let first = failed[0];
        assert!((4_900..6_400).contains(&first.at_ms), "{}", first.at_ms);
        let renewed_after = events.iter().any(|e| {
            matches!(
                e.kind,
                EventKind::LockRenewed | EventKind::VisibilityExtended
            ) && e.at_ms >= 6_400
                && e.message_id == first.message_id
        });
        assert!(
            renewed_after,
            "{broker:?}: renewal goes on after the outage"
        );
        assert!(
            report.invariants.ok(),
            "{broker:?}: {:?}",
            report.invariants
        );
    }
}

/// While the broker is down every broker call fails, the abandon / visibility change too.
#[test]
fn abandon_fails_in_an_outage() {
    for broker in BrokerKind::ALL {
        // A transient failure (claim-check blob missing would be permanent for the payload;
        // use the naive poison path: naive retries, so it abandons) inside an outage.
        let mut sc = poison_only();
        sc.script.push(fault_at(
            500,
            queuelab_sim::Fault::BrokerDown { duration_ms: 3_000 },
        ));
        sc.script.sort_by_key(|s| s.at_ms);
        let (events, _) = run(sc, Mode::Naive, broker, 1);
        let down = 500..3_500;
        for e in &events {
            if down.contains(&e.at_ms) {
                assert!(
                    !matches!(
                        e.kind,
                        EventKind::Abandoned
                            | EventKind::RetryDelayed
                            | EventKind::Settled
                            | EventKind::Received
                            | EventKind::ReceivedAgain
                    ),
                    "{broker:?}: {:?} at {} ms succeeded in the outage",
                    e.kind,
                    e.at_ms
                );
            }
        }
        assert!(
            events
                .iter()
                .any(|e| e.kind == EventKind::BrokerCallFailed && down.contains(&e.at_ms)),
            "{broker:?}: the failed call is shown"
        );
    }
}

/// "Reachable again" only when the last of overlapping outages ends.
#[test]
fn the_broker_is_up_again_only_when_the_last_overlapping_outage_ends() {
    let mut sc = named("happy-path");
    sc.script.push(fault_at(
        1_000,
        queuelab_sim::Fault::BrokerDown { duration_ms: 5_000 },
    ));
    sc.script.push(fault_at(
        2_000,
        queuelab_sim::Fault::BrokerDown { duration_ms: 1_000 },
    ));
    sc.script.push(fault_at(
        4_000,
        queuelab_sim::Fault::BrokerDown { duration_ms: 2_000 },
    ));
    for broker in BrokerKind::ALL {
        let (events, _) = run(sc.clone(), Mode::Safe, broker, 1);
        let ups: Vec<u64> = events
            .iter()
            .filter(|e| e.kind == EventKind::BrokerUp)
            .map(|e| e.at_ms)
            .collect();
        assert_eq!(ups, [6_000], "{broker:?}");
    }
}

/// SQS FIFO introduces no duplicates: `ordered-group`'s duplicate fault finds nothing to copy.
#[test]
fn sqs_fifo_never_delivers_a_copy() {
    for seed in 1..=5 {
        let (events, report) = run(named("ordered-group"), Mode::Naive, BrokerKind::Sqs, seed);
        assert!(
            !events.iter().any(|e| e.kind == EventKind::ReceivedTwice),
            "seed {seed}"
        );
        assert_eq!(report.metrics.duplicate_effects, 0);
    }
}

/// `prevented_duplicates` counts only duplicates that did not take effect: in the
/// effect-outside-the-transaction trap the marker is refused but the credit stays.
#[test]
fn prevented_duplicates_never_counts_a_duplicate_that_took_effect() {
    for broker in BrokerKind::ALL {
        for seed in 1..=3 {
            let (events, report) = run(named("twin-consumers"), Mode::Pitfall, broker, seed);
            let stays = events
                .iter()
                .filter(|e| e.kind == EventKind::TrapDuplicateEffectStays)
                .count() as u64;
            assert!(stays > 0, "{broker:?} seed {seed}: the trap shows");
            let checked = events
                .iter()
                .filter(|e| {
                    matches!(
                        e.kind,
                        EventKind::CheckFound | EventKind::DuplicatePrevented
                    )
                })
                .count() as u64;
            assert_eq!(
                report.metrics.prevented_duplicates, checked,
                "{broker:?} seed {seed}: only real preventions"
            );
        }
    }
}

/// SQS standard: a `DeleteMessage` with a stale receipt handle succeeds for the caller (it is
/// never "refused") and deletes nothing while a newer receive holds the message.
#[test]
fn an_sqs_delete_with_a_stale_handle_succeeds_without_deleting() {
    let mut stale = 0;
    // The slow order outlasts its renewal limit: the message is received again while the naive
    // consumer (no lock check) still works, and its delete comes with the older handle.
    for seed in 1..=3 {
        let (events, report) = run(named("lock-renewal"), Mode::Naive, BrokerKind::Sqs, seed);
        assert!(
            !events
                .iter()
                .any(|e| e.kind == EventKind::LockLost
                    && e.sql.iter().any(|s| s.starts_with("DELETE"))),
            "seed {seed}: SQS never refuses a DeleteMessage"
        );
        let mut here = 0;
        for e in events
            .iter()
            .filter(|e| e.kind == EventKind::DeletedStaleHandle)
        {
            here += 1;
            assert_eq!(e.outcome, queuelab_sim::Outcome::Ok, "the call succeeded");
            let id = e.message_id.clone();
            assert!(
                events.iter().any(|r| r.at_ms <= e.at_ms
                    && r.message_id == id
                    && r.kind == EventKind::ReceivedAgain),
                "seed {seed}: someone received it again before"
            );
        }
        assert!(report.metrics.lock_lost >= here, "seed {seed}");
        stale += here;
    }
    assert!(stale > 0, "a late delete with a stale handle shows");
}

/// A run of `id` on `broker` in which, once order 1 exists, a row without a `MessageGroupId`
/// is written into the outbox by hand (real SQL on the run's `service.db`). Returns the
/// events up to the first refusal (or the end) and whether every queue row had a group.
fn with_groupless_row(id: &str, broker: BrokerKind) -> (Vec<Event>, bool) {
    let (mut sim, _dir) = start(named(id), Mode::Safe, broker, 1);
    let mut events = Vec::new();
    let mut written = false;
    let mut grouped = true;
    while let Some(e) = sim.step().expect("step") {
        let e = e.clone();
        let refused = e.kind == EventKind::SendRefusedNoGroup;
        if e.kind == EventKind::ApiAccepted && !written {
            written = true;
            let conn = rusqlite::Connection::open(&sim.paths().service_db).expect("service.db");
            conn.busy_timeout(std::time::Duration::from_secs(5))
                .expect("busy timeout");
            conn.execute(
                "INSERT INTO outbox (message_id, order_id, body, group_id, created_ms) \
                 VALUES ('msg-by-hand', 1, '{}', NULL, ?1)",
                [e.at_ms as i64],
            )
            .expect("a row without a group");
        }
        grouped &= sim
            .snapshot()
            .tables
            .rows_of::<QueueColumn>()
            .all(|(_, r)| {
                &r[QueueColumn::MessageId] == "msg-by-hand" || !r.is_empty(QueueColumn::GroupId)
            });
        events.push(e);
        if refused {
            break;
        }
    }
    (events, grouped)
}

/// SQS FIFO refuses a send without a MessageGroupId (`MissingParameter`) and a Service Bus
/// queue with sessions one without a SessionId, so the engine's senders give every message on
/// such a queue a group (the customer where order matters, else on SQS FIFO the message's own
/// id); Service Bus without sessions and SQS standard take the same row as it is.
#[test]
fn an_ordered_queue_refuses_a_send_without_a_group() {
    for (id, broker) in [
        ("dedup-window", BrokerKind::Sqs),
        ("ordered-group", BrokerKind::Sqs),
        ("ordered-group", BrokerKind::Asb),
    ] {
        let (events, grouped) = with_groupless_row(id, broker);
        let refused = events
            .iter()
            .find(|e| e.kind == EventKind::SendRefusedNoGroup)
            .unwrap_or_else(|| panic!("{id}: SQS FIFO refuses the row without a group"));
        assert_eq!(refused.message_id.as_deref(), Some("msg-by-hand"), "{id}");
        assert_eq!(refused.outcome, queuelab_sim::Outcome::Failed);
        assert!(
            grouped,
            "{id}: every message the engine sent names its group"
        );
    }
    for (id, broker) in [
        ("dedup-window", BrokerKind::Asb),
        ("happy-path", BrokerKind::Sqs),
    ] {
        let (events, _) = with_groupless_row(id, broker);
        assert!(
            !events
                .iter()
                .any(|e| e.kind == EventKind::SendRefusedNoGroup),
            "{id} {broker:?} takes a message without a group"
        );
        assert!(
            events.iter().any(|e| {
                e.kind == EventKind::Published && e.args[2].split(' ').any(|w| w == "msg-by-hand")
            }),
            "{id} {broker:?} publishes the row"
        );
    }
    let content = content::load(&content::ContentSource::Embedded).expect("content");
    for lang in content::Lang::ALL {
        for (broker, field) in [
            (BrokerKind::Sqs, "MessageGroupId"),
            (BrokerKind::Asb, "SessionId"),
        ] {
            let text = content.captions.render(
                lang,
                EventKind::SendRefusedNoGroup.caption_key_on(broker),
                &["msg-by-hand".into()],
            );
            assert!(
                text.contains(field) && text.contains("msg-by-hand"),
                "{text}"
            );
        }
    }
}
