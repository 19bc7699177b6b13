//! `--history` records every operation: the early complete of the settle-before-commit pitfall,
//! every message of a publish batch, the queue seq and lock token of each receive, accepted orders
//! of the publish-in-request pitfall; and the checker matches effect rows to performed effect
//! operations by count.

use crate::support::sim_run;

use queuelab_sim::history::{self, HistoryDigest, Operation};
use queuelab_sim::{BrokerKind, Mode, Simulation, checker};
use sim_run::{named, start};

fn record(
    id: &str,
    mode: Mode,
    broker: BrokerKind,
) -> (Vec<Operation>, Simulation, tempfile::TempDir) {
    let (mut sim, dir) = start(named(id), mode, broker, 1);
    let mut ops = Vec::new();
    while let Some(e) = sim.step().expect("step") {
        ops.extend(history::operations(e));
    }
    (ops, sim, dir)
}

fn completed<'a>(ops: &'a [Operation], f: &'a str) -> impl Iterator<Item = &'a Operation> {
    ops.iter().filter(move |o| o.f == f && o.kind != "invoke")
}

#[test]
fn the_early_complete_of_settle_before_commit_is_recorded_for_every_delivery() {
    let (ops, _sim, _dir) = record("lost-ack", Mode::Pitfall, BrokerKind::Asb);
    let receives = completed(&ops, "receive")
        .filter(|o| o.kind == "ok" && o.value["kind"] != "receive-empty")
        .count();
    let completes = completed(&ops, "complete").count();
    assert!(receives > 0);
    assert!(
        completes >= receives,
        "each delivery completes before its work: {completes} complete ops for {receives} receives"
    );
}

#[test]
fn every_message_of_a_publish_batch_is_its_own_operation() {
    let (ops, sim, _dir) = record("backlog", Mode::Safe, BrokerKind::Asb);
    let published: std::collections::BTreeSet<String> = completed(&ops, "publish")
        .filter_map(|o| o.value["message_id"].as_str().map(str::to_string))
        .collect();
    let report = sim.report().expect("report");
    assert_eq!(
        published.len() as u64,
        report.metrics.accepted,
        "one publish per message"
    );
}

#[test]
fn a_receive_records_its_queue_seq_and_lock_token() {
    let (ops, _sim, _dir) = record("happy-path", Mode::Safe, BrokerKind::Sqs);
    let receive = completed(&ops, "receive")
        .find(|o| o.value["kind"] == "received")
        .expect("a receive");
    let args = receive.value["args"].as_array().expect("args");
    assert!(
        args[2].as_str().is_some_and(|s| s.parse::<i64>().is_ok()),
        "{args:?}"
    );
    assert!(
        args[3].as_str().is_some_and(|s| s.starts_with("lt-")),
        "{args:?}"
    );
}

#[test]
fn publish_in_request_records_the_accepted_orders_as_accepted() {
    let (ops, sim, _dir) = record("broker-outage", Mode::Pitfall, BrokerKind::Asb);
    let accepted = completed(&ops, "accept").filter(|o| o.kind == "ok").count() as u64;
    assert_eq!(accepted, sim.report().expect("report").metrics.accepted);
}

/// Two effect rows of one message need two performed effect operations: a history that
/// records only one of them is caught.
#[test]
fn the_checker_matches_effect_rows_to_operations_by_count() {
    let (ops, sim, _dir) = record("twin-consumers", Mode::Naive, BrokerKind::Sqs);
    let report = sim.report().expect("report");
    assert!(
        report.metrics.duplicate_effects > 0,
        "naive twins double an effect"
    );
    let full =
        checker::check(&report.paths, Some(&HistoryDigest::of(&ops)), false).expect("checker");
    assert!(
        !full
            .violations
            .iter()
            .any(|v| v.contains("history performed")),
        "{:?}",
        full.violations
    );
    // Drop one performed effect operation of a doubled message.
    let doubled = ops
        .iter()
        .filter(|o| o.f == "effect" && o.kind == "ok")
        .map(|o| {
            o.value["message_id"]
                .as_str()
                .unwrap_or_default()
                .to_string()
        })
        .find(|id| {
            ops.iter()
                .filter(|o| {
                    o.f == "effect" && o.kind == "ok" && o.value["message_id"] == *id.as_str()
                })
                .count()
                > 1
        })
        .expect("a message with two effects");
    let mut dropped_one = false;
    let thinned: Vec<Operation> = ops
        .into_iter()
        .filter(|o| {
            let hit = !dropped_one
                && o.f == "effect"
                && o.kind == "ok"
                && o.value["message_id"] == *doubled.as_str();
            dropped_one |= hit;
            !hit
        })
        .collect();
    let thin =
        checker::check(&report.paths, Some(&HistoryDigest::of(&thinned)), false).expect("checker");
    assert!(
        thin.violations
            .iter()
            .any(|v| v.contains("history performed 1")),
        "{:?}",
        thin.violations
    );
}
