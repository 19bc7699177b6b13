//! Each actor's SQL against real SQLite files in a temporary run directory.

use rusqlite::{Connection, params};

use super::api::{SQL_ORDER_INSERT, SQL_OUTBOX_INSERT};
use super::broker::{
    DeadLetterNote, HeldMessage, abandon, complete, dead_letter, enqueue, forward_to_dlq, receive,
    renew,
};
use super::dispatch::{claim, mark};
use super::inbox::{self, Applied, EffectRow, Violation, apply_safe, charge, insert_marker};
use super::upkeep::SQL_SWEEP_RETENTION;
use crate::model::Mode;
use crate::store::{self, RunPaths};

struct Run {
    _dir: tempfile::TempDir,
    paths: RunPaths,
}

fn run(mode: Mode) -> Run {
    let dir = tempfile::tempdir().expect("tempdir");
    let paths = store::create(&dir.path().join("run"), mode).expect("create run");
    Run { _dir: dir, paths }
}

fn svc(r: &Run) -> Connection {
    store::open(&r.paths.service_db, "service.db").expect("service.db")
}

fn broker(r: &Run) -> Connection {
    store::open(&r.paths.broker_db, "broker.db").expect("broker.db")
}

fn order(conn: &Connection, n: u32) -> Option<i64> {
    conn.query_row(
        SQL_ORDER_INSERT,
        params![format!("req-{n}"), "c", 100, 0],
        |r| r.get(0),
    )
    .ok()
}

fn outbox(conn: &Connection, n: u32, order_id: i64) {
    conn.query_row(
        SQL_OUTBOX_INSERT,
        params![
            format!("msg-{n}"),
            order_id,
            "v1|1|100|0|-",
            None::<String>,
            None::<String>,
            None::<String>,
            0
        ],
        |r| r.get::<_, i64>(0),
    )
    .expect("outbox row");
}

fn effect(key: &str, msg: &str, instance: &str) -> EffectRow {
    EffectRow {
        business_key: key.into(),
        order_id: 1,
        message_id: msg.into(),
        kind: "credit",
        amount_cents: 100,
        payload_ok: true,
        instance: instance.into(),
    }
}

#[test]
fn api_order_is_idempotent_on_the_request_id() {
    let r = run(Mode::Safe);
    let c = svc(&r);
    let id = order(&c, 1).expect("first insert returns the id");
    assert_eq!(
        order(&c, 1),
        None,
        "a retry with the same request id inserts nothing"
    );
    let found: i64 = c
        .query_row(super::api::SQL_ORDER_FIND, ["req-1"], |r| r.get(0))
        .expect("find");
    assert_eq!(found, id);
}

#[test]
fn dispatcher_lease_keeps_a_second_dispatcher_away_until_it_expires() {
    let r = run(Mode::Safe);
    let a = svc(&r);
    let b = svc(&r);
    for n in 1..=3 {
        let id = order(&a, n).expect("order");
        outbox(&a, n, id);
    }
    let got = claim(&a, "A", 0, 1_000, 2).expect("claim");
    assert_eq!(got.len(), 2);
    assert_eq!(
        claim(&b, "B", 500, 1_000, 10).expect("claim").len(),
        1,
        "only the unleased row"
    );
    assert!(claim(&b, "B", 900, 1_000, 10).expect("claim").is_empty());
    let expired = claim(&b, "B", 1_000, 1_000, 10).expect("claim after lease end");
    assert_eq!(expired.len(), 2, "the lease ran out: B takes A's rows");
    let ids: Vec<i64> = got.iter().map(|(c, _)| c.id).collect();
    assert_eq!(
        mark(&a, "A", &ids, 1_100).expect("mark"),
        0,
        "A lost its lease and marks nothing"
    );
    assert_eq!(mark(&b, "B", &ids, 1_100).expect("mark"), 2);
}

#[test]
fn broker_duplicate_detection_works_inside_its_window_only() {
    let r = run(Mode::Safe);
    let b = broker(&r);
    assert!(
        enqueue(&b, 0, Some(60_000), "m1", 1, "x", None)
            .expect("enqueue")
            .is_some()
    );
    assert!(
        enqueue(&b, 59_999, Some(60_000), "m1", 1, "x", None)
            .expect("enqueue")
            .is_none()
    );
    assert!(
        enqueue(&b, 60_000, Some(60_000), "m1", 1, "x", None)
            .expect("enqueue")
            .is_some()
    );
    assert!(
        enqueue(&b, 60_001, None, "m1", 1, "x", None)
            .expect("enqueue")
            .is_some(),
        "no window: no detection"
    );
}

#[test]
fn broker_lock_complete_abandon_renew_and_dead_letter() {
    let r = run(Mode::Safe);
    let b = broker(&r);
    let seq = enqueue(&b, 0, None, "m1", 1, "x", None)
        .expect("enqueue")
        .expect("seq");
    let got = receive(&b, 0, 100, 7, false, 0)
        .expect("receive")
        .expect("a message");
    assert_eq!((got.seq, got.delivery_count), (seq, 1));
    assert!(
        receive(&b, 50, 100, 8, false, 0)
            .expect("receive")
            .is_none(),
        "locked"
    );
    assert!(renew(&b, seq, 7, 50, 300).expect("renew"));
    assert!(
        receive(&b, 150, 100, 8, false, 0)
            .expect("receive")
            .is_none(),
        "renewed lock"
    );
    assert!(
        !complete(&b, seq, 8, 160).expect("complete"),
        "wrong lock token"
    );
    assert!(
        !abandon(&b, seq, 8, 160, 400).expect("abandon"),
        "another token's abandon is refused (MessageLockLost)"
    );
    assert!(abandon(&b, seq, 7, 160, 400).expect("abandon"));
    assert!(
        receive(&b, 399, 100, 9, false, 0)
            .expect("receive")
            .is_none(),
        "delayed retry"
    );
    let again = receive(&b, 400, 100, 9, false, 0)
        .expect("receive")
        .expect("visible again");
    assert_eq!(again.delivery_count, 2);
    assert!(
        !complete(&b, seq, 9, 500).expect("complete"),
        "the lock expired at 500: lock lost"
    );
    assert!(
        !abandon(&b, seq, 9, 500, 900).expect("abandon"),
        "an expired lock cannot abandon"
    );
    let note = |description| DeadLetterNote {
        reason: "MaxDeliveryCountExceeded",
        description,
        deliveries: 2,
    };
    let stale = dead_letter(&b, seq, 7, &note("x"), 600).expect("dlq");
    assert!(stale.is_none(), "a stale lock token dead-letters nothing");
    let d = dead_letter(&b, seq, 9, &note("poison"), 600).expect("dead-letter");
    assert!(d.is_some());
    let recorded: u32 = b
        .query_row("SELECT delivery_count FROM dlq", [], |r| r.get(0))
        .expect("dlq row");
    assert_eq!(
        recorded, 2,
        "the DLQ records the deliveries that took place"
    );
    let next = enqueue(&b, 700, None, "m2", 2, "x", None)
        .expect("enqueue")
        .expect("seq");
    assert!(
        next > seq,
        "sequence numbers are never reused (AUTOINCREMENT)"
    );
    let (n_queue, reason): (i64, String) = b
        .query_row(
            "SELECT (SELECT COUNT(*) FROM queue), (SELECT reason FROM dlq)",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .expect("counts");
    assert_eq!((n_queue, reason.as_str()), (1, "MaxDeliveryCountExceeded"));
}

#[test]
fn ordered_receive_holds_back_a_group_behind_its_locked_head() {
    let r = run(Mode::Safe);
    let b = broker(&r);
    enqueue(&b, 0, None, "m1", 1, "x", Some("g1")).expect("enqueue");
    enqueue(&b, 0, None, "m2", 2, "x", Some("g1")).expect("enqueue");
    enqueue(&b, 0, None, "m3", 3, "x", Some("g2")).expect("enqueue");
    let first = receive(&b, 1, 100, 1, true, 0)
        .expect("receive")
        .expect("m1");
    let second = receive(&b, 1, 100, 2, true, 0)
        .expect("receive")
        .expect("m3");
    assert_eq!(
        (first.message_id.as_str(), second.message_id.as_str()),
        ("m1", "m3")
    );
    assert!(
        receive(&b, 1, 100, 3, true, 0).expect("receive").is_none(),
        "m2 waits for m1"
    );
}

#[test]
fn safe_consumer_recognises_the_duplicate_and_only_the_duplicate() {
    let r = run(Mode::Safe);
    let a = svc(&r);
    let b = svc(&r);
    assert!(matches!(
        apply_safe(&a, "billing", &effect("CR-1", "m1", "A"), 1),
        Ok(Applied::Done(..))
    ));
    assert_eq!(
        apply_safe(&b, "billing", &effect("CR-2", "m1", "B"), 2).expect("no error"),
        Applied::Duplicate
    );
    // Another message reusing a business key is a real error, not a duplicate.
    let err =
        apply_safe(&b, "billing", &effect("CR-1", "m2", "B"), 3).expect_err("business key clash");
    match inbox::classify(&err) {
        Violation::OtherUnique(text) => assert!(text.contains("effects.business_key"), "{text}"),
        other => panic!("classified as {other:?}"),
    }
    let (effects, markers): (i64, i64) = a
        .query_row(
            "SELECT (SELECT COUNT(*) FROM effects), (SELECT COUNT(*) FROM inbox)",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .expect("counts");
    assert_eq!(
        (effects, markers),
        (1, 1),
        "the failed transactions left nothing behind"
    );
}

#[test]
fn naive_schema_lets_two_markers_in() {
    let r = run(Mode::Naive);
    let a = svc(&r);
    insert_marker(&a, "m1", "billing", "A", 1, Some(1)).expect("first");
    insert_marker(&a, "m1", "billing", "B", 2, Some(2)).expect("second: no unique index");
    let unique: i64 = a
        .query_row("SELECT \"unique\" FROM pragma_index_list('inbox') WHERE name = 'inbox_message_consumer'", [], |r| r.get(0))
        .expect("index");
    assert_eq!(unique, 0);
}

#[test]
fn provider_honours_the_idempotency_key() {
    let r = run(Mode::Safe);
    let p = store::open(&r.paths.provider_db, "provider.db").expect("provider.db");
    let (id, new) = charge(&p, Some("m1"), 1, 100, 0).expect("charge");
    assert!(new);
    assert_eq!(
        charge(&p, Some("m1"), 1, 100, 5).expect("again"),
        (id, false)
    );
    assert!(charge(&p, None, 1, 100, 6).expect("no key").1);
    assert!(
        charge(&p, None, 1, 100, 7).expect("no key").1,
        "without a key every call charges"
    );
}

#[test]
fn sweeper_removes_markers_past_retention_only() {
    let r = run(Mode::Safe);
    let c = svc(&r);
    insert_marker(&c, "old", "billing", "A", 0, Some(10)).expect("old");
    insert_marker(&c, "new", "billing", "A", 0, Some(1_000)).expect("new");
    let mut stmt = c.prepare(SQL_SWEEP_RETENTION).expect("sweep");
    let gone: Vec<i64> = stmt
        .query_map([500], |r| r.get(0))
        .expect("sweep")
        .map(|r| r.expect("id"))
        .collect();
    assert_eq!(gone.len(), 1);
}

/// SQS: the consumer's own forward to the DLQ needs no receipt handle, and its `DeleteMessage`
/// with a stale handle succeeds without deleting - the message is then in the DLQ and still
/// queued. With the newest handle the delete works even after the visibility timeout ran out.
/// Either way the DLQ entry keeps the message group.
#[test]
fn an_sqs_forward_to_the_dlq_with_a_stale_handle_leaves_the_message_queued() {
    let r = run(Mode::Safe);
    let b = broker(&r);
    let seq = enqueue(&b, 0, None, "m1", 1, "v1|1|100|0|-", Some("customer-1"))
        .expect("enqueue")
        .expect("seq");
    receive(&b, 0, 100, 7, false, 0)
        .expect("receive")
        .expect("first");
    receive(&b, 150, 100, 8, false, 0)
        .expect("receive")
        .expect("again after the timeout");
    let note = DeadLetterNote {
        reason: "BlobMissing",
        description: "blob k is missing",
        deliveries: 1,
    };
    let held = |token| HeldMessage {
        seq,
        token,
        message_id: "m1",
        order_id: 1,
        body: "v1|1|100|0|-",
    };
    let (_, deleted) = forward_to_dlq(&b, &held(7), &note, 200).expect("forward");
    assert!(!deleted, "a stale receipt handle deletes nothing");
    let queued: i64 = b
        .query_row("SELECT COUNT(*) FROM queue", [], |r| r.get(0))
        .expect("count");
    assert_eq!(queued, 1, "the message is still in the queue");
    let (_, deleted) = forward_to_dlq(&b, &held(8), &note, 300).expect("forward");
    assert!(
        deleted,
        "the newest handle deletes, even after its timeout ran out"
    );
    let groups: Vec<Option<String>> = b
        .prepare("SELECT group_id FROM dlq ORDER BY seq")
        .and_then(|mut st| st.query_map([], |r| r.get(0))?.collect())
        .expect("dlq rows");
    assert_eq!(groups, vec![Some("customer-1".to_owned()); 2]);
}
