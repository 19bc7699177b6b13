//! Service Bus makes no copies of its own: every copy a consumer receives comes from a send in
//! the history (a publish, a producer's retried send, a scheduled copy, a DLQ replay). Where a
//! scenario needs a duplicate on Service Bus, it is a second send, recorded as such.

use crate::support::sim_run;

use std::collections::{HashMap, HashSet};

use queuelab_sim::history::{Operation, operations};
use queuelab_sim::scenario::IDS;
use queuelab_sim::{BrokerKind, Mode};

/// Scenarios whose runs cost the most: fewer seeds, so the matrix stays a test.
const HEAVY: [&str; 3] = ["claim-check", "chaos", "backlog"];

/// The history of one run, as `sim --history` writes it.
fn history(id: &str, mode: Mode, seed: u64) -> Vec<Operation> {
    let dir = sim_run::temp_dir();
    let mut sim = sim_run::start_in(dir.path(), sim_run::named(id), mode, BrokerKind::Asb, seed);
    let mut ops = Vec::new();
    while let Some(e) = sim.step().expect("step") {
        ops.extend(operations(e));
    }
    ops
}

/// Per message id: the sends that succeeded for the sender, and the distinct queue rows
/// (broker messages) receives handed out.
fn sends_and_copies(ops: &[Operation]) -> HashMap<String, (usize, HashSet<String>)> {
    let mut per: HashMap<String, (usize, HashSet<String>)> = HashMap::new();
    for op in ops.iter().filter(|o| o.kind == "ok") {
        let Some(id) = op.value["message_id"].as_str() else {
            continue;
        };
        let entry = per.entry(id.to_string()).or_default();
        match op.f.as_str() {
            "publish" | "replay" | "schedule-copy" => entry.0 += 1,
            "receive" => {
                if let Some(row) = op.value["args"][2].as_str() {
                    entry.1.insert(row.to_string());
                }
            }
            _ => {}
        }
    }
    per
}

/// Every received copy maps to a distinct send: a message never sits in more queue rows than
/// it was sent times.
fn copies_beyond_sends(id: &str, mode: Mode, seed: u64) -> Vec<String> {
    sends_and_copies(&history(id, mode, seed))
        .into_iter()
        .filter(|(_, (sends, rows))| rows.len() > *sends)
        .map(|(msg, (sends, rows))| {
            format!(
                "{id} {} seed {seed}: {msg} received from {} queue rows, sent {sends} time(s)",
                mode.as_str(),
                rows.len()
            )
        })
        .collect()
}

#[test]
fn every_received_copy_on_service_bus_comes_from_a_send() {
    let mut found = Vec::new();
    for id in IDS.iter() {
        let seeds = if HEAVY.contains(id) { 1..=3 } else { 1..=20 };
        for mode in Mode::ALL {
            for seed in seeds.clone() {
                found.extend(copies_beyond_sends(id, mode, seed));
            }
        }
    }
    assert!(found.is_empty(), "{} runs:\n{found:#?}", found.len());
}

/// The duplicate the twin consumers need is a recorded second send, named by its event.
#[test]
fn the_twin_consumers_duplicate_is_a_second_send() {
    let ops = history("twin-consumers", Mode::Safe, 1);
    let per = sends_and_copies(&ops);
    let (sends, rows) = &per["msg-000002"];
    assert_eq!((*sends, rows.len()), (2, 2), "{per:?}");
    assert!(
        ops.iter()
            .any(|o| o.f == "publish" && o.value["kind"] == "published-retried"),
        "the retried send is its own kind of event"
    );
    assert!(
        !ops.iter().any(|o| o.value["kind"] == "received-twice"),
        "no copy made at a receive"
    );
}

/// The check can fail: a history with a copy the sender never sent is caught.
#[test]
fn a_copy_without_a_send_is_caught() {
    let mut ops = history("happy-path", Mode::Safe, 1);
    let receive = ops
        .iter()
        .find(|o| o.f == "receive" && o.kind == "ok" && o.value["message_id"] == "msg-000001")
        .expect("a receive")
        .clone();
    let mut copy = receive;
    copy.value["args"][2] = serde_json::json!("999");
    ops.push(copy);
    let per = sends_and_copies(&ops);
    let (sends, rows) = &per["msg-000001"];
    assert!(rows.len() > *sends);
}
