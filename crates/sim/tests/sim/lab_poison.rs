//! Lab 6's particulars, poison messages, checked for real: the starting file retries a permanent
//! error and fails with the lab invariant `poison-retried`, naming each poison message once; a
//! dead-letter records the handler's reason at the first delivery. What every lab must do is
//! `lab_catalogue.rs`.

use crate::support::lab as support;

use std::sync::Arc;

use content::LabInvariant;
use queuelab_sim::lab::LabSql;
use queuelab_sim::{BrokerKind, Mode, RunConfig, Simulation, scenario};
use support::{failed_as, lab, start_failure};

#[test]
fn the_starting_file_retries_the_poison_message_and_fails_on_its_named_seed() {
    let lab = lab(6);
    let f = start_failure(&lab);
    assert_eq!(failed_as(&f), lab.start_fails.moment);
    let breach = f.breach.as_ref().expect("a lab invariant");
    assert_eq!(breach.invariant, LabInvariant::PoisonRetried);
    assert!(f.moment.is_none(), "the engine's invariants hold: {f:?}");
    assert!(f.checker_agrees);
    // The credit insert that fails on the NULL amount: line 16 of start.sql.
    let statement = f.statement.as_ref().expect("the statement is named");
    assert_eq!((statement.line, statement.column), (16, 1));
    assert_eq!(statement.message_id, breach.message_id);
    // Each poison message is named once, not once per retry.
    let named = f
        .violations
        .iter()
        .filter(|v| {
            v.contains(&format!("message {},", breach.message_id))
                || v.ends_with(&format!("message {}", breach.message_id))
        })
        .count();
    assert_eq!(named, 1, "{:?}", f.violations);
}

/// The handler's reason is the DLQ's reason, at the first delivery, on both brokers; and a
/// dead-letter is not undone by the rollback of the section's open transaction.
#[test]
fn dead_letter_records_the_handlers_reason_at_the_first_delivery() {
    let lab = lab(6);
    // dead_letter inside the transaction, after the inbox row: the section's rollback takes
    // the inbox row back, not the dead-letter.
    let text = "-- @schema
CREATE UNIQUE INDEX inbox_message_consumer ON inbox (message_id, consumer);
-- @handle
BEGIN IMMEDIATE;
INSERT INTO inbox (message_id, consumer, instance, received_ms, processed_ms)
VALUES (:message_id, :consumer, :instance, :now_ms, :now_ms);
SELECT dead_letter('UnsupportedSchemaVersion: ' || :payload_error)
 WHERE :payload_error IS NOT NULL;
INSERT INTO effects (business_key, order_id, message_id, kind, amount_cents, payload_ok,
                     applied_ms, instance)
VALUES (:business_key, :order_id, :message_id, 'credit', :amount_cents, 1, :now_ms, :instance);
COMMIT;
";
    let sql = Arc::new(LabSql::prepare(text, &lab.sections).expect("prepares"));
    for broker in [BrokerKind::Asb, BrokerKind::Sqs] {
        let dir = tempfile::tempdir().expect("tempdir");
        let config = RunConfig {
            scenario: scenario::find("poison-dlq").expect("scenario"),
            mode: Mode::Safe,
            broker,
            seed: 1,
            messages: None,
            dir: dir.path().to_path_buf(),
        };
        let mut sim = Simulation::with_lab(config, Arc::clone(&sql)).expect("lab run");
        sim.lab_hand_unreadable_to_handler();
        while sim.step().expect("step").is_some() {}
        assert!(sim.lab_breaches().is_empty(), "{:?}", sim.lab_breaches());
        let broker_db = rusqlite::Connection::open(dir.path().join("broker.db")).expect("db");
        let mut st = broker_db
            .prepare("SELECT reason, delivery_count FROM dlq ORDER BY seq")
            .expect("dlq");
        let rows: Vec<(String, i64)> = st
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .expect("rows")
            .collect::<Result<_, _>>()
            .expect("rows");
        assert_eq!(rows.len(), 4, "{broker:?}: {rows:?}");
        for (reason, deliveries) in rows {
            assert!(
                reason.starts_with("UnsupportedSchemaVersion: unsupported schema version v2"),
                "{broker:?}: {reason}"
            );
            assert_eq!(deliveries, 1, "{broker:?}");
        }
    }
}
