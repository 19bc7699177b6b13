//! What a dead letter keeps and when a message becomes one: a message replayed from the DLQ rejoins
//! its customer's session / message group; a missing or altered claim-check blob is a permanent
//! error that goes to the DLQ at its first delivery; the sweeper keeps inbox rows as long as the
//! course computes.

use crate::support::sim_run;

use content::{ContentSource, Lang, load};
use queuelab_sim::moments;
use queuelab_sim::{BrokerKind, EventKind, Fault, Mode};
use rusqlite::Connection;
use sim_run::{events_to_end, fault_at, named, run, start};

/// `ordered-group` with its first order poisoned: safe mode dead-letters it at once; the
/// operator fixes the cause and replays it. The DLQ entry keeps the customer's group, and the
/// copy goes back into that group (SQS redrive keeps the `MessageGroupId`, a Service Bus
/// resubmit the `SessionId`); the caption names the group.
#[test]
fn a_replayed_message_rejoins_its_customers_group() {
    let (captions, _) = texts();
    for broker in BrokerKind::ALL {
        let mut sc = named("ordered-group");
        sc.script.push(fault_at(0, Fault::PoisonMessage));
        let (mut sim, _dir) = start(sc, Mode::Safe, broker, 1);
        events_to_end(&mut sim);
        let broker_db = Connection::open(&sim.paths().broker_db).expect("broker.db");
        let service_db = Connection::open(&sim.paths().service_db).expect("service.db");
        let (message_id, order_id, kept): (String, i64, Option<String>) = broker_db
            .query_row("SELECT logical_id, order_id, group_id FROM dlq", [], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?))
            })
            .expect("one DLQ entry");
        let customer: String = service_db
            .query_row(
                "SELECT customer FROM orders WHERE id = ?1",
                [order_id],
                |r| r.get(0),
            )
            .expect("the order");
        assert_eq!(kept.as_deref(), Some(customer.as_str()), "{broker:?}");

        sim.fix_cause();
        sim.replay_dlq(1);
        let replay = loop {
            let e = sim.step().expect("step").expect("the replay comes").clone();
            if e.kind.is_dlq_replay() {
                break e;
            }
        };
        assert_eq!(replay.kind, EventKind::DlqReplayedIntoGroup, "{broker:?}");
        assert_eq!(replay.args[1], customer);
        let requeued: Option<String> = broker_db
            .query_row(
                "SELECT group_id FROM queue WHERE logical_id = ?1",
                [&message_id],
                |r| r.get(0),
            )
            .expect("the copy is queued");
        assert_eq!(requeued.as_deref(), Some(customer.as_str()), "{broker:?}");
        let words = [
            ("MessageGroupId", BrokerKind::Sqs),
            ("SessionId", BrokerKind::Asb),
        ];
        for lang in Lang::ALL {
            let text = moments::caption(&captions, lang, &replay);
            assert!(text.contains(&customer), "{lang}: {text}");
            for (word, of) in words {
                assert_eq!(text.contains(word), of == broker, "{lang}: {text}");
            }
        }

        events_to_end(&mut sim);
        let report = sim.report().expect("report");
        assert!(
            report.invariants.ok(),
            "{broker:?}: {:?}",
            report.invariants
        );
        let effects: i64 = service_db
            .query_row(
                "SELECT COUNT(*) FROM effects WHERE order_id = ?1",
                [order_id],
                |r| r.get(0),
            )
            .expect("effects");
        assert_eq!(
            effects, 1,
            "{broker:?}: the replayed order took effect once"
        );
    }
}

/// A blob that is gone or altered stays that way: safe mode dead-letters the message at its
/// first delivery with a reason of its own and never retries it. Naive mode, which does not
/// classify errors, still spends the delivery limit on the missing blob.
#[test]
fn a_missing_or_altered_blob_goes_to_the_dlq_at_its_first_delivery() {
    for broker in BrokerKind::ALL {
        let (events, report) = run(named("claim-check"), Mode::Safe, broker, 1);
        let own = match broker {
            BrokerKind::Asb => EventKind::DeadLetteredByConsumer,
            BrokerKind::Sqs => EventKind::ForwardedToDlq,
        };
        let mut reasons: Vec<&str> = events
            .iter()
            .filter(|e| e.kind == own)
            .inspect(|e| assert_eq!(e.args[2], "1", "{broker:?}: at the first delivery"))
            .map(|e| e.args[0].as_str())
            .collect();
        reasons.sort_unstable();
        assert_eq!(reasons, ["BlobHashMismatch", "BlobMissing"], "{broker:?}");
        let retried: Vec<EventKind> = events
            .iter()
            .map(|e| e.kind)
            .filter(|k| {
                matches!(
                    k,
                    EventKind::Failed
                        | EventKind::FailedRetryNow
                        | EventKind::Abandoned
                        | EventKind::RetryDelayed
                        | EventKind::DeadLettered
                        | EventKind::Redriven
                        | EventKind::ReceivedAgain
                )
            })
            .collect();
        assert!(retried.is_empty(), "{broker:?}: no retry: {retried:?}");
        assert_eq!(report.metrics.redeliveries, 0, "{broker:?}");
        assert_eq!(report.metrics.dead_lettered, 2, "{broker:?}");
        assert!(report.invariants.ok(), "{broker:?}");

        let (naive, _) = run(named("claim-check"), Mode::Naive, broker, 1);
        assert!(
            naive
                .iter()
                .any(|e| matches!(e.kind, EventKind::DeadLettered | EventKind::Redriven)),
            "{broker:?}: naive retries the missing blob to the broker's limit"
        );
    }
}

/// Chapter 10: inbox retention = the source queue's 4 days + the DLQ's 14 days + the replayed
/// copy's 4 days + a reserve, "about 25 days". The sweeper's caption prints the scenario's
/// retention, in both languages.
#[test]
fn the_sweeper_keeps_inbox_rows_as_long_as_the_course_computes() {
    let (captions, _) = texts();
    assert_eq!(named("chaos").setup.retention_ms, 25 * 24 * 3_600_000);
    let (events, _) = run(named("chaos"), Mode::Safe, BrokerKind::Asb, 1);
    let sweep = events
        .iter()
        .find(|e| e.kind == EventKind::Sweep)
        .expect("the sweeper runs");
    let en = moments::caption(&captions, Lang::En, sweep);
    let de = moments::caption(&captions, Lang::De, sweep);
    assert!(en.contains("25 days"), "{en}");
    assert!(de.contains("25 Tage"), "{de}");
}

fn texts() -> (content::Captions, content::Captions) {
    let content = load(&ContentSource::Embedded).expect("valid content");
    (
        content::Captions::clone(&content.captions),
        content::Captions::clone(&content.moments),
    )
}
