//! DLQ replay as the brokers document it: with duplicate detection on, a replay that keeps its
//! `MessageId` inside the window is silently dropped by the broker, and the resubmit tool that
//! completes the DLQ entry after the "successful" send loses the message; a replay under a new
//! broker `MessageId` gets through, and the envelope's logical id lets the inbox recognise what
//! was already processed. Plus the captions that must name the message and the mode truthfully.

use crate::support::sim_run;

use queuelab_sim::scenario::ScriptAction;
use queuelab_sim::state::rows::QueueColumn;
use queuelab_sim::{BrokerKind, Event, EventKind, Mode, MomentKind, Outcome, Simulation, Story};
use sim_run::{named, start, start_in};

/// `poison-dlq` with its poison messages but without the scripted fix and replays: the test is
/// the operator.
fn operator_run(broker: BrokerKind, dedup: bool, dir: &std::path::Path) -> Simulation {
    let mut sc = named("poison-dlq");
    sc.script
        .retain(|s| matches!(s.action, ScriptAction::Fault(_)));
    sc.setup.dedup = dedup;
    start_in(
        &dir.join(format!("{}-{dedup}", broker.as_str())),
        sc,
        Mode::Safe,
        broker,
        1,
    )
}

/// An [`operator_run`] stepped until its four poison messages sit in the DLQ, with the cause
/// fixed: ready for the operator's replay.
fn fixed_after_four(broker: BrokerKind, dedup: bool, dir: &std::path::Path) -> (Simulation, Story) {
    let mut s = operator_run(broker, dedup, dir);
    let mut story = Story::for_run(&s);
    until_dlq_holds(&mut s, 4, &mut story);
    s.fix_cause();
    (s, story)
}

/// Steps until the DLQ holds `n` entries (the poison messages are dead-lettered early).
fn until_dlq_holds(s: &mut Simulation, n: usize, story: &mut Story) {
    while s.dlq().expect("dlq").len() < n {
        step(s, story).expect("the DLQ fills before the run ends");
    }
}

fn step(s: &mut Simulation, story: &mut Story) -> Option<Event> {
    s.step().expect("step")?;
    let (event, facts) = s.last_step().expect("an event");
    let event = event.clone();
    story.observe(&event, facts);
    Some(event)
}

/// Steps until the operator's replay event ran and returns it.
fn replay_event(s: &mut Simulation, story: &mut Story) -> Event {
    loop {
        let e = step(s, story).expect("the replay runs");
        if e.actor == queuelab_sim::Actor::Operator {
            return e;
        }
    }
}

fn queued_ids(s: &Simulation) -> Vec<String> {
    s.snapshot()
        .tables
        .rows_of::<QueueColumn>()
        .map(|(_, r)| r[QueueColumn::MessageId].to_owned())
        .collect()
}

#[test]
fn same_id_replay_is_dropped_and_lost_inside_the_window_and_a_new_id_gets_through() {
    for broker in [BrokerKind::Asb, BrokerKind::Sqs] {
        let dir = tempfile::tempdir().expect("tempdir");
        let (mut s, mut story) = fixed_after_four(broker, true, dir.path());
        s.replay_dlq(2);
        let fixed = replay_event(&mut s, &mut story);
        assert_eq!(fixed.kind, EventKind::CauseFixed);
        let dropped = replay_event(&mut s, &mut story);
        assert_eq!(
            dropped.kind,
            EventKind::ReplayDroppedDuplicate,
            "{broker:?}"
        );
        assert_eq!(dropped.outcome, Outcome::Failed);
        // first id, ms since seen, window, dropped, sent, all dropped ids
        assert_eq!(dropped.args[3], "2");
        assert_eq!(dropped.args[4], "0");
        assert_eq!(dropped.args[5], "msg-000002 msg-000003");
        let window: u64 = dropped.args[2].parse().expect("window");
        let ago: u64 = dropped.args[1].parse().expect("ago");
        assert!(ago < window, "{ago} ms inside {window} ms");
        // Nothing reached the queue, and the tool completed both DLQ entries: lost.
        let left: Vec<String> = s
            .dlq()
            .expect("dlq")
            .into_iter()
            .map(|e| e.message_id)
            .collect();
        assert_eq!(left, ["msg-000004", "msg-000005"], "{broker:?}");
        assert!(!queued_ids(&s).iter().any(|id| id.starts_with("msg-000002")));
        // The SQL panel shows what ran: the lookup, no queue insert, no dedup write.
        assert!(
            dropped.sql.iter().any(|q| q.contains("FROM dedup")),
            "{:?}",
            dropped.sql
        );
        assert!(
            !dropped
                .sql
                .iter()
                .any(|q| q.contains("INSERT INTO queue") || q.contains("INSERT INTO dedup")),
            "{broker:?}: {:?}",
            dropped.sql
        );

        s.replay_dlq_with_new_ids(2);
        let sent = replay_event(&mut s, &mut story);
        assert_eq!(sent.kind, EventKind::DlqReplayedNewId);
        assert_eq!(sent.outcome, Outcome::Ok);
        assert_eq!(
            sent.args[..2],
            ["msg-000004".to_owned(), "msg-000004-r3".to_owned()]
        );
        assert!(s.dlq().expect("dlq").is_empty());
        let queued = queued_ids(&s);
        assert!(queued.contains(&"msg-000004-r3".to_owned()), "{queued:?}");
        assert!(queued.contains(&"msg-000005-r4".to_owned()), "{queued:?}");

        while step(&mut s, &mut story).is_some() {}
        story.finish();
        let r = s.report().expect("report");
        assert_eq!(r.metrics.lost, 2, "{broker:?}: the two dropped replays");
        assert_eq!(r.invariants.lost, 2, "{broker:?}: the files agree");
        assert!(!r.invariants.ok());
        assert_eq!(r.metrics.effects, 10, "every other order took effect once");
        // The story names the new id and follows the copy to its order.
        let replayed: Vec<_> = story
            .moments()
            .iter()
            .filter(|m| m.kind == MomentKind::Replayed)
            .collect();
        assert_eq!(replayed.len(), 2);
        assert_eq!(replayed[0].order, 4);
        assert_eq!(replayed[0].text, "moment.replayed.new-id");
        assert_eq!(replayed[0].message_id, "msg-000004");
    }
}

/// The sound replay: every entry under a new broker `MessageId`, all of them take effect once.
#[test]
fn new_id_replays_take_effect_once_and_lose_nothing() {
    for broker in [BrokerKind::Asb, BrokerKind::Sqs] {
        let dir = tempfile::tempdir().expect("tempdir");
        let (mut s, _story) = fixed_after_four(broker, true, dir.path());
        s.replay_dlq_with_new_ids(4);
        let r = s.run_to_end().expect("run");
        assert!(r.invariants.ok(), "{broker:?}: {:?}", r.invariants);
        assert_eq!(r.metrics.effects, 12);
        assert_eq!(r.metrics.lost, 0);
    }
}

#[test]
fn without_duplicate_detection_a_same_id_replay_is_enqueued() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (mut s, mut story) = fixed_after_four(BrokerKind::Asb, false, dir.path());
    s.replay_dlq(2);
    replay_event(&mut s, &mut story);
    let e = replay_event(&mut s, &mut story);
    assert_eq!(e.kind, EventKind::DlqReplayed);
    // sent, batch size, and for the record the message id of each copy sent
    assert_eq!(e.args, ["2", "2", "msg-000002 msg-000003"]);
    assert_eq!(s.dlq().expect("dlq").len(), 2);
    assert!(queued_ids(&s).contains(&"msg-000002".to_owned()));
}

/// A new broker `MessageId` does not bypass the inbox: the envelope keeps the logical message
/// id, so replaying an order that already took effect is recognised, never applied twice.
#[test]
fn a_new_id_replay_of_an_applied_order_is_recognised_by_the_inbox() {
    let mut sc = named("poison-dlq");
    sc.script.clear();
    sc.setup.dedup = true;
    let (mut s, _dir) = start(sc, Mode::Safe, BrokerKind::Asb, 1);
    s.run_to_end().expect("run");
    // Nothing was dead-lettered: put an applied message into the DLQ by hand, as a stuck
    // entry an operator might find (the same row the broker would write).
    let service = rusqlite::Connection::open(&s.paths().service_db).expect("service.db");
    let body: String = service
        .query_row(
            "SELECT body FROM outbox WHERE message_id = 'msg-000001'",
            [],
            |r| r.get(0),
        )
        .expect("order 1's message");
    let broker = rusqlite::Connection::open(&s.paths().broker_db).expect("broker.db");
    broker
        .execute(
            "INSERT INTO dlq (message_id, logical_id, order_id, body, reason, description, \
             delivery_count, dead_lettered_ms) VALUES ('msg-000001', 'msg-000001', 1, ?1, 'x', '', 1, 0)",
            [&body],
        )
        .expect("dlq row");
    drop(broker);
    let before = s.report().expect("report").metrics.prevented_duplicates;
    s.replay_dlq_with_new_ids(1);
    let r = s.run_to_end().expect("new id");
    assert_eq!(
        r.invariants.duplicate_effects, 0,
        "the inbox recognises the logical id: order 1 takes effect once"
    );
    assert_eq!(r.metrics.prevented_duplicates, before + 1);
    assert_eq!(r.metrics.effects, 12);
}

#[test]
fn lock_expiry_captions_name_the_message_not_the_queue_row() {
    for broker in [BrokerKind::Asb, BrokerKind::Sqs] {
        let (mut s, _dir) = start(named("lost-ack"), Mode::Naive, broker, 1);
        let mut expiries = 0;
        while let Some(e) = s.step().expect("step") {
            if matches!(
                e.kind,
                EventKind::LockExpired | EventKind::VisibilityExpired
            ) {
                expiries += 1;
                let id = e.message_id.clone().expect("the event names its message");
                assert!(id.starts_with("msg-"), "{id}");
                assert_eq!(e.args[0], id, "caption argument {{0}} is the message id");
            }
        }
        assert!(
            expiries > 0,
            "{broker:?}: lost-ack naive lets a lock expire"
        );
    }
}

#[test]
fn naive_two_phase_claim_never_speaks_of_a_claim_phase() {
    let run = |mode| {
        let (mut s, _dir) = start(named("two-phase-claim"), mode, BrokerKind::Asb, 1);
        let mut kinds = Vec::new();
        while let Some(e) = s.step().expect("step") {
            kinds.push(e.kind);
        }
        kinds
    };
    let naive = run(Mode::Naive);
    assert!(!naive.contains(&EventKind::Claimed));
    assert!(!naive.contains(&EventKind::TwoPhaseFinished));
    assert!(naive.contains(&EventKind::AppliedNaive));
    let safe = run(Mode::Safe);
    assert!(safe.contains(&EventKind::Claimed));
    assert!(safe.contains(&EventKind::TwoPhaseFinished));
}
