//! Data-driven scenario tests: every scenario's expected outcome in every mode, determinism,
//! and the integrity of the files after crash faults.

use queuelab::sim::scenario::{self, IDS};
use queuelab::sim::store::integrity_check;
use queuelab::sim::{BrokerKind, Mode, RunConfig, RunReport, Simulation};

fn run(id: &str, mode: Mode, broker: BrokerKind, seed: u64) -> (RunReport, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("tempdir");
    let scenario = scenario::find(id).expect("scenario");
    let mut sim = Simulation::new(RunConfig {
        scenario,
        mode,
        broker,
        seed,
        messages: None,
        dir: dir.path().join("run"),
    })
    .expect("new run");
    let report = sim.run_to_end().expect("run");
    (report, dir)
}

/// Runs `id` in every mode on the default broker and checks the file's expectations; the
/// safe mode must also keep the invariants on the other broker.
fn check_scenario(id: &str) {
    let s = scenario::find(id).expect("scenario");
    for mode in Mode::ALL {
        let (r, _dir) = run(id, mode, BrokerKind::Asb, 1);
        let expect = s.expectation(mode).expect("expectation per mode");
        let bad = r.mismatches(expect);
        assert!(bad.is_empty(), "{id} {}: {bad:?}", mode.as_str());
        assert_eq!(
            r.metrics.accepted,
            u64::from(s.setup.messages),
            "{id} {}",
            mode.as_str()
        );
    }
    let (r, _dir) = run(id, Mode::Safe, BrokerKind::Sqs, 1);
    assert!(
        r.invariants.ok(),
        "{id} safe on sqs: {:?}",
        r.invariants.violations
    );
}

macro_rules! scenario_tests {
    ($($name:ident => $id:literal),* $(,)?) => {
        $(#[test] fn $name() { check_scenario($id); })*

        #[test]
        fn every_scenario_has_a_test() {
            let tested = [$($id),*];
            assert_eq!(tested.to_vec(), IDS.to_vec());
        }
    };
}

scenario_tests! {
    happy_path => "happy-path",
    broker_outage => "broker-outage",
    claim_check => "claim-check",
    lost_ack => "lost-ack",
    poison_dlq => "poison-dlq",
    twin_consumers => "twin-consumers",
    duplicate_publish => "duplicate-publish",
    execute_update_trap => "execute-update-trap",
    two_phase_claim => "two-phase-claim",
    dedup_window => "dedup-window",
    backlog => "backlog",
    chaos => "chaos",
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
