//! Lab budgets, each against a floor measured in the same process:
//! 1. a correct file's full check (each lab's solution over its default seeds): budget <= 5 s;
//! 2. a broken file's first failure (each lab's starting file): budget <= 1 s;
//! 3. time per run of the learner's SQL (lab 1's solution) against the same scenario, seed and
//!    broker in the built-in safe mode: budget <= 1.3x.
//!
//! Run with `cargo bench --bench lab_budget` (a release build; the debug build is far slower).

use std::sync::Arc;
use std::time::{Duration, Instant};

use queuelab::content::{ContentSource, load};
use queuelab::sim::lab::{CheckOutcome, CheckRequest, LabSql, run_check};
use queuelab::sim::{BrokerKind, Mode, RunConfig, Simulation, scenario};

fn check(sql: Arc<LabSql>, lab: &queuelab::content::Lab, seeds: u64) -> (Duration, CheckOutcome) {
    let dir = tempfile::tempdir().expect("tempdir");
    let request = CheckRequest {
        sql,
        scenarios: lab
            .scenarios
            .iter()
            .map(|id| scenario::find(id).expect("scenario"))
            .collect(),
        brokers: lab
            .brokers
            .iter()
            .filter_map(|b| BrokerKind::parse(b))
            .collect(),
        seeds: (1, seeds),
        charged: lab.charged,
        poison: lab.poison,
        work_dir: dir.path(),
    };
    let start = Instant::now();
    let outcome = run_check(&request).expect("check runs");
    (start.elapsed(), outcome)
}

fn run(id: &str, broker: BrokerKind, seed: u64, lab: Option<&Arc<LabSql>>) -> Duration {
    let dir = tempfile::tempdir().expect("tempdir");
    let config = RunConfig {
        scenario: scenario::find(id).expect("scenario"),
        mode: Mode::Safe,
        broker,
        seed,
        messages: None,
        dir: dir.path().to_path_buf(),
    };
    let start = Instant::now();
    let mut sim = match lab {
        Some(sql) => Simulation::with_lab(config, Arc::clone(sql)),
        None => Simulation::new(config),
    }
    .expect("run");
    sim.run_to_end().expect("run to end");
    start.elapsed()
}

/// "ok" within `budget`, else "OVER".
fn verdict(took: Duration, budget: f64) -> &'static str {
    if took.as_secs_f64() <= budget {
        "ok"
    } else {
        "OVER"
    }
}

fn main() {
    let content = load(&ContentSource::Embedded).expect("content");
    let mut labs: Vec<_> = content.labs.iter().cloned().collect();
    labs.sort_by_key(|l| l.number);
    for lab in &labs {
        let n = lab.number;
        let solution = Arc::new(LabSql::prepare(&lab.solution, &lab.sections).expect("solution"));
        let start = Arc::new(LabSql::prepare(&lab.start, &lab.sections).expect("start"));
        let (full, outcome) = check(solution, lab, lab.seeds);
        let CheckOutcome::Passed { runs, .. } = outcome else {
            panic!("lab {n}: the solution must pass");
        };
        println!(
            "lab {n} full check, solution: {runs} runs in {:.2} s (budget 5 s: {})",
            full.as_secs_f64(),
            verdict(full, 5.0)
        );
        let (first, outcome) = check(start, lab, lab.seeds);
        assert!(
            matches!(outcome, CheckOutcome::Broken(_)),
            "lab {n}: the start must fail"
        );
        println!(
            "lab {n} first failure, starting file: {:.3} s (budget 1 s: {})",
            first.as_secs_f64(),
            verdict(first, 1.0)
        );
    }

    let lab = labs.iter().find(|l| l.number == 1).expect("lab 1");
    let solution = Arc::new(LabSql::prepare(&lab.solution, &lab.sections).expect("solution"));
    let (mut lab_total, mut safe_total) = (Duration::ZERO, Duration::ZERO);
    for id in &lab.scenarios {
        for broker in [BrokerKind::Asb, BrokerKind::Sqs] {
            for seed in 1..=3 {
                // Alternate the order so neither side profits from a warm cache.
                if seed % 2 == 0 {
                    safe_total += run(id, broker, seed, None);
                    lab_total += run(id, broker, seed, Some(&solution));
                } else {
                    lab_total += run(id, broker, seed, Some(&solution));
                    safe_total += run(id, broker, seed, None);
                }
            }
        }
    }
    let ratio = lab_total.as_secs_f64() / safe_total.as_secs_f64();
    println!(
        "lab run vs built-in safe mode, same scenarios, seeds and brokers: {:.2} s vs {:.2} s = {ratio:.2}x (budget 1.3x: {})",
        lab_total.as_secs_f64(),
        safe_total.as_secs_f64(),
        if ratio <= 1.3 { "ok" } else { "OVER" }
    );
}
