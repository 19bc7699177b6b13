//! Data-driven scenario tests: every scenario's expected outcome in every mode, determinism,
//! and the integrity of the files after crash faults.

use crate::support::sim_run;

use content::scenario::SEEDS_CHECKED;
use queuelab_sim::scenario::IDS;
use queuelab_sim::store::integrity_check;
use queuelab_sim::{BrokerKind, Mode, RunReport, checker, history};
use sim_run::{named, start};

fn run(id: &str, mode: Mode, broker: BrokerKind, seed: u64) -> (RunReport, tempfile::TempDir) {
    let (mut sim, dir) = start(named(id), mode, broker, seed);
    let mut ops = Vec::new();
    while let Some(e) = sim.step().expect("step") {
        ops.extend(history::operations(e));
    }
    let report = sim.report().expect("report");
    // The independent checker reads only the files and the history; it must agree.
    let ordered = sim.scenario().setup.groups > 0;
    let digest = history::HistoryDigest::of(&ops);
    let verdict = checker::check(&report.paths, Some(&digest), ordered).expect("checker runs");
    assert_eq!(
        verdict.ok(),
        report.invariants.ok(),
        "{id} {} {} seed {seed}: checker {:?} vs engine {:?}",
        mode.as_str(),
        broker.as_str(),
        verdict.violations,
        report.invariants.violations
    );
    assert_eq!(
        (verdict.lost, verdict.duplicate_effects),
        (report.metrics.lost, report.metrics.duplicate_effects),
        "{id} {} {} seed {seed}: lost / duplicate effects",
        mode.as_str(),
        broker.as_str()
    );
    (report, dir)
}

/// One cell of the matrix: scenario x mode x broker over the seeds 1..=20.
struct Cell {
    id: String,
    mode: Mode,
    broker: BrokerKind,
    met: u32,
    broken: u32,
    required: u32,
    first_miss: Option<String>,
}

fn run_cell(id: &str, mode: Mode, broker: BrokerKind) -> Cell {
    let s = named(id);
    let expect =
        queuelab_sim::scenario::expectation(&s, mode, broker).expect("expectation per mode");
    let mut met = 0;
    let mut seeds_broken = 0;
    let mut first_miss = None;
    for seed in 1..=SEEDS_CHECKED {
        let (r, _dir) = run(id, mode, broker, u64::from(seed));
        assert_eq!(r.metrics.accepted, u64::from(s.setup.messages), "{id}");
        seeds_broken += u32::from(!r.invariants.ok());
        let bad = r.mismatches(&expect);
        if bad.is_empty() {
            met += 1;
        } else if first_miss.is_none() {
            first_miss = Some(format!("seed {seed}: {bad:?}"));
        }
    }
    Cell {
        id: id.to_string(),
        mode,
        broker,
        met,
        broken: seeds_broken,
        required: expect.seeds_required(),
        first_miss,
    }
}

/// Every scenario x mode x both brokers x seeds 1..=20 against the scenario file's
/// expectations (safe mode on every seed, naive and pitfall on at least the stated share) and
/// against the independent checker, which must reach the engine's verdict on every run.
/// The cells run on all cores (CI has two); the table is printed so a changed share is easy
/// to read off.
#[test]
fn every_scenario_mode_and_broker_meets_its_expectations_on_seeds_1_to_20() {
    let mut cells: Vec<(String, Mode, BrokerKind)> = Vec::new();
    for id in IDS.iter() {
        for mode in Mode::ALL {
            for broker in BrokerKind::ALL {
                cells.push(((*id).to_string(), mode, broker));
            }
        }
    }
    let threads = std::thread::available_parallelism().map_or(2, usize::from);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some((id, mode, broker)) = cells.get(i) else {
                        break;
                    };
                    let cell = run_cell(id, *mode, *broker);
                    results.lock().expect("results").push(cell);
                }
            });
        }
    });
    let mut results = results.into_inner().expect("results");
    results.sort_by_key(|c| {
        (
            IDS.iter().position(|i| *i == c.id),
            c.mode.as_str(),
            c.broker.as_str(),
        )
    });
    println!(
        "{} cells x 20 seeds = {} runs",
        results.len(),
        results.len() * 20
    );
    let mut failed = Vec::new();
    for c in &results {
        let line = format!(
            "{:20} {:7} {} met on {:2}/20 seeds (required {:2}), invariants broken on {:2}/20 {}",
            c.id,
            c.mode.as_str(),
            c.broker.as_str(),
            c.met,
            c.required,
            c.broken,
            c.first_miss.as_deref().unwrap_or("")
        );
        println!("{line}");
        if c.met < c.required {
            failed.push(line);
        }
    }
    assert!(
        failed.is_empty(),
        "cells below their stated share:\n{}",
        failed.join("\n")
    );
}

#[test]
fn same_settings_same_trace_hash() {
    let (a, _d1) = run("chaos", Mode::Safe, BrokerKind::Sqs, 42);
    let (b, _d2) = run("chaos", Mode::Safe, BrokerKind::Sqs, 42);
    assert_eq!(a.trace_hash, b.trace_hash);
    assert_eq!(a.events, b.events);
    assert_eq!(a.metrics, b.metrics);
    let (c, _d3) = run("chaos", Mode::Safe, BrokerKind::Sqs, 43);
    assert_ne!(
        a.trace_hash, c.trace_hash,
        "another seed must give another trace"
    );
    assert_eq!(a.trace_hash.len(), 64);
}

#[test]
fn files_pass_integrity_check_after_crash_faults() {
    for id in [
        "lost-ack",
        "duplicate-publish",
        "execute-update-trap",
        "chaos",
    ] {
        for mode in Mode::ALL {
            let (r, _d) = run(id, mode, BrokerKind::Asb, 7);
            let problems = integrity_check(&r.paths).expect("integrity check runs");
            assert!(problems.is_empty(), "{id} {}: {problems:?}", mode.as_str());
        }
    }
}

#[test]
fn the_json_counts_match_the_files() {
    let (r, _d) = run("twin-consumers", Mode::Naive, BrokerKind::Asb, 1);
    let svc = rusqlite::Connection::open(&r.paths.service_db).expect("open service.db");
    let count = |sql: &str| -> u64 {
        svc.query_row(sql, [], |row| row.get::<_, i64>(0))
            .expect("count") as u64
    };
    assert_eq!(count("SELECT COUNT(*) FROM orders"), r.metrics.accepted);
    assert_eq!(count("SELECT COUNT(*) FROM effects"), r.metrics.effects);
    assert_eq!(
        count(
            "SELECT COALESCE(SUM(n - 1), 0) FROM (SELECT COUNT(*) AS n FROM effects GROUP BY order_id)"
        ),
        r.metrics.duplicate_effects
    );
    assert!(r.metrics.duplicate_effects > 0);
    let (safe, _d2) = run("twin-consumers", Mode::Safe, BrokerKind::Asb, 1);
    let svc = rusqlite::Connection::open(&safe.paths.service_db).expect("open service.db");
    let unique: i64 = svc
        .query_row("SELECT \"unique\" FROM pragma_index_list('inbox') WHERE name = 'inbox_message_consumer'", [], |row| row.get(0))
        .expect("index exists");
    assert_eq!(unique, 1, "safe mode has the UNIQUE inbox index");
    assert_eq!((safe.metrics.duplicate_effects, safe.metrics.lost), (0, 0));
}

/// Every duplicate the inbox recognised has its `duplicate` receipt: without a broker's
/// duplicate detection or a provider's key in play, the metric is exactly those rows.
#[test]
fn prevented_duplicates_are_the_inboxs_duplicate_receipts() {
    for (mode, broker) in [
        (Mode::Safe, BrokerKind::Asb),
        (Mode::Safe, BrokerKind::Sqs),
        (Mode::Naive, BrokerKind::Asb),
    ] {
        let (r, _d) = run("twin-consumers", mode, broker, 1);
        let svc = rusqlite::Connection::open(&r.paths.service_db).expect("open service.db");
        let receipts = |outcome: &str| -> u64 {
            svc.query_row(
                "SELECT COUNT(*) FROM receipts WHERE outcome = ?1",
                [outcome],
                |row| row.get::<_, i64>(0),
            )
            .expect("count") as u64
        };
        assert_eq!(
            receipts("duplicate"),
            r.metrics.prevented_duplicates,
            "{mode:?} {broker:?}"
        );
        if mode == Mode::Safe {
            assert!(r.metrics.prevented_duplicates > 0, "{broker:?}");
            assert_eq!(receipts("applied"), r.metrics.effects, "{broker:?}");
        }
    }
}
