//! Simulator budgets, each against a floor measured in the same process:
//! 1. engine throughput on `chaos` with 10,000 messages vs the same number and shape of bare
//!    SQLite transactions (budget: engine >= 50% of the floor; target >= 70%);
//! 2. `state_at` at random earlier events of a 10,000-event run (budget: <= 50 ms);
//! 3. peak memory (`VmHWM`) of a 100,000-message headless run (budget: <= 50 MB; target <= 35 MB);
//! 4. peak memory of the CLI's 100,000-message chaos run with `--history --check` (both stream)
//!    against the same run without them, measured by `/usr/bin/time -v` (budget: <= 100 MB).
//!
//! Run with `cargo bench --bench sim_engine`.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use queuelab::sim::Actor;
use queuelab::sim::scenario;
use queuelab::sim::store::{self, BROKER_SQL, INBOX_SAFE_SQL, SERVICE_SQL};
use queuelab::sim::{BrokerKind, Mode, RunConfig, Simulation};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use rusqlite::{Connection, params};

fn new_run(dir: &std::path::Path, messages: u32, seed: u64) -> Simulation {
    Simulation::new(RunConfig {
        scenario: scenario::find("chaos").expect("chaos scenario"),
        mode: Mode::Safe,
        broker: BrokerKind::Asb,
        seed,
        messages: Some(messages),
        dir: dir.to_path_buf(),
    })
    .expect("new run")
}

/// Runs the engine and records, per event, its kind (the shape of its SQL).
/// One engine event that ran SQL: its kind, its actor and how many rows its batch held.
type Shape = (&'static str, Actor, usize);

fn engine(dir: &std::path::Path, messages: u32) -> (Duration, Vec<Shape>, bool) {
    let start = Instant::now();
    let mut sim = new_run(dir, messages, 1);
    let mut kinds = Vec::new();
    while let Some(e) = sim.step().expect("step") {
        if !e.sql.is_empty() {
            // Batch events name their row count in an argument (see captions.toml).
            let rows_arg = match e.kind.as_str() {
                "published" | "published-dedup" | "dispatcher-crashed-after-publish" => Some(0),
                "dispatcher-marked" | "dispatcher-mark-lease-lost" => Some(1),
                _ => None,
            };
            let rows = rows_arg
                .and_then(|i| e.args.get(i))
                .and_then(|a| a.parse().ok())
                .unwrap_or(1);
            kinds.push((e.kind.as_str(), e.actor, rows));
        }
    }
    let elapsed = start.elapsed();
    let ok = sim.report().expect("report").invariants.ok();
    (elapsed, kinds, ok)
}

/// The ids the floor's statements number their rows with.
#[derive(Default)]
struct Counters {
    order: i64,
    seq: i64,
    effect: i64,
}

/// One engine event's statements on the bare connections: `svc` is the acting instance's
/// service connection.
fn floor_event(
    svc: &Connection,
    broker: &Connection,
    kind: &str,
    rows: usize,
    now: i64,
    n: &mut Counters,
) {
    match kind {
        k if k.starts_with("api-") => {
            n.order += 1;
            let order = n.order;
            let tx = svc.unchecked_transaction().expect("tx");
            tx.prepare_cached("INSERT INTO orders (request_id, customer, amount_cents, created_ms) VALUES (?1, 'c', 100, ?2) ON CONFLICT(request_id) DO NOTHING RETURNING id")
                .and_then(|mut s| s.query_row(params![format!("req-{order}"), now], |r| r.get::<_, i64>(0)))
                .expect("order");
            tx.prepare_cached("INSERT INTO outbox (message_id, order_id, body, created_ms) VALUES (?1, ?2, 'v1|1|100|0|-', ?3)")
                .and_then(|mut s| s.execute(params![format!("msg-{order}"), order, now]))
                .expect("outbox");
            tx.commit().expect("commit");
        }
        "dispatcher-claimed" => {
            let mut s = svc
                .prepare_cached("UPDATE outbox SET lease_owner = 'd', lease_until_ms = ?1 + 1000, attempts = attempts + 1 WHERE id IN (SELECT id FROM outbox WHERE published_ms IS NULL AND (lease_until_ms IS NULL OR lease_until_ms <= ?1) ORDER BY id LIMIT 10) RETURNING id, message_id, body")
                .expect("claim");
            let n = s
                .query_map(params![now], |r| r.get::<_, i64>(0))
                .expect("claim")
                .count();
            std::hint::black_box(n);
        }
        k if k.starts_with("published") || k.starts_with("dispatcher-crashed") => {
            let tx = broker.unchecked_transaction().expect("tx");
            for _ in 0..rows {
                n.seq += 1;
                let seq = n.seq;
                tx.prepare_cached("INSERT INTO queue (message_id, logical_id, order_id, body, enqueued_ms, visible_ms, dedup_id) VALUES (?1, ?1, ?2, 'v1|1|100|0|-', ?3, ?3, ?1)")
                    .and_then(|mut s| s.execute(params![format!("msg-{seq}"), seq, now]))
                    .expect("enqueue");
            }
            tx.commit().expect("commit");
        }
        k if k.starts_with("dispatcher-mark") => {
            let tx = svc.unchecked_transaction().expect("tx");
            for _ in 0..rows {
                tx.prepare_cached("UPDATE outbox SET published_ms = ?1, lease_owner = NULL, lease_until_ms = NULL WHERE id = (SELECT MIN(id) FROM outbox WHERE published_ms IS NULL)")
                    .and_then(|mut s| s.execute(params![now]))
                    .expect("mark");
            }
            tx.commit().expect("commit");
        }
        k if k.starts_with("receive") => {
            let mut s = broker
                .prepare_cached("UPDATE queue SET visible_ms = ?1 + 5000, locked_until_ms = ?1 + 5000, lock_token = 'lt', delivery_count = delivery_count + 1 WHERE seq = (SELECT seq FROM queue WHERE visible_ms <= ?1 ORDER BY seq LIMIT 1) RETURNING seq, message_id, body")
                .expect("receive");
            let r = s
                .query_map(params![now], |r| r.get::<_, i64>(0))
                .expect("receive")
                .count();
            std::hint::black_box(r);
        }
        k if k.starts_with("check") => {
            let found = svc
                .prepare_cached("SELECT 1 FROM inbox WHERE message_id = ?1 AND consumer = 'billing' AND processed_ms IS NOT NULL LIMIT 1")
                .and_then(|mut s| s.exists(params![format!("msg-{}", n.effect)]))
                .expect("check");
            std::hint::black_box(found);
        }
        k if k.starts_with("applied") || k == "duplicate-prevented" => floor_apply(svc, now, n),
        _ => {
            // settle, abandon, dead-letter, sweep, replay: one single-row write on the broker.
            broker
                .prepare_cached("DELETE FROM queue WHERE seq = (SELECT MIN(seq) FROM queue)")
                .and_then(|mut s| s.execute([]))
                .expect("settle");
        }
    }
}

/// An applied delivery: inbox row, effect and receipt in one transaction.
fn floor_apply(svc: &Connection, now: i64, n: &mut Counters) {
    n.effect += 1;
    let effect = n.effect;
    let tx = svc.unchecked_transaction().expect("tx");
    tx.prepare_cached("INSERT INTO inbox (message_id, consumer, instance, received_ms, processed_ms) VALUES (?1, 'billing', 'A', ?2, ?2)")
        .and_then(|mut s| s.execute(params![format!("m-{effect}"), now]))
        .expect("inbox");
    tx.prepare_cached("INSERT INTO effects (business_key, order_id, message_id, kind, amount_cents, payload_ok, applied_ms, instance) VALUES (?1, ?2, ?3, 'credit', 100, 1, ?4, 'A')")
        .and_then(|mut s| s.execute(params![format!("CR-{effect}"), effect, format!("m-{effect}"), now]))
        .expect("effect");
    tx.prepare_cached("INSERT INTO receipts (message_id, instance, outcome, at_ms) VALUES (?1, 'A', 'applied', ?2)")
        .and_then(|mut s| s.execute(params![format!("m-{effect}"), now]))
        .expect("receipt");
    tx.commit().expect("commit");
}

/// The bare floor: for every engine event that ran SQL, the same statements in the same
/// transactions on the same schema and pragmas, through the same actor's connection (each
/// dispatcher and consumer instance has its own, as in the engine), with a plain loop instead
/// of the engine.
fn floor(dir: &std::path::Path, kinds: &[Shape]) -> Duration {
    std::fs::create_dir_all(dir).expect("floor dir");
    let start = Instant::now();
    let open = || store::open(&dir.join("service.db"), "service.db").expect("service.db");
    let api = open();
    api.execute_batch(SERVICE_SQL).expect("schema");
    api.execute_batch(INBOX_SAFE_SQL).expect("schema");
    let dispatchers = [open(), open()];
    let consumers = [open(), open()];
    let sweeper = open();
    let broker = store::open(&dir.join("broker.db"), "broker.db").expect("broker.db");
    broker.execute_batch(BROKER_SQL).expect("schema");
    let _provider = store::open(&dir.join("provider.db"), "provider.db").expect("provider.db");
    let mut n = Counters::default();
    for (t, (kind, actor, rows)) in kinds.iter().enumerate() {
        let now = t as i64;
        let svc: &Connection = match actor {
            Actor::Dispatcher(i) => &dispatchers[usize::from(*i) % 2],
            Actor::Consumer(i) => &consumers[usize::from(*i) % 2],
            Actor::Sweeper => &sweeper,
            _ => &api,
        };
        floor_event(svc, &broker, kind, *rows, now, &mut n);
    }
    start.elapsed()
}

/// Random jumps measured for step back.
const JUMPS: u32 = 200;

fn vm_hwm_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}

fn main() {
    let root = tempfile::tempdir().expect("tempdir");
    if !measure_throughput(root.path()) {
        return;
    }
    measure_step_back(root.path());
    measure_memory(root.path());
    // 4. The CLI run with the history written and checked: both stream, so its peak stays
    //    near the plain run's.
    cli_history_memory(root.path());
}

/// 1. Throughput against the bare floor; false when only throughput was asked for.
fn measure_throughput(root: &std::path::Path) -> bool {
    // 1. Throughput: best of three alternating rounds (the machine is shared).
    let mut engine_time = Duration::MAX;
    let mut floor_time = Duration::MAX;
    let mut kinds = Vec::new();
    for round in 0..3 {
        let (t, k, ok) = engine(&root.join(format!("engine-{round}")), 10_000);
        assert!(ok, "chaos with 10,000 messages broke a safe-mode invariant");
        engine_time = engine_time.min(t);
        floor_time = floor_time.min(floor(&root.join(format!("floor-{round}")), &k));
        kinds = k;
    }
    let mut shape: HashMap<&str, usize> = HashMap::new();
    for (k, _, _) in &kinds {
        *shape.entry(k).or_default() += 1;
    }
    let ratio = floor_time.as_secs_f64() / engine_time.as_secs_f64();
    println!(
        "throughput: chaos 10,000 messages, {} SQL events ({} kinds): engine {:.0} ms, bare SQLite {:.0} ms -> engine at {:.0}% of the floor (budget >= 50%, engine target >= 70%) {}",
        kinds.len(),
        shape.len(),
        engine_time.as_secs_f64() * 1e3,
        floor_time.as_secs_f64() * 1e3,
        ratio * 100.0,
        if ratio >= 0.7 {
            "OK"
        } else if ratio >= 0.5 {
            "OK (below target)"
        } else {
            "OVER BUDGET"
        }
    );

    if std::env::var_os("SIM_BENCH_THROUGHPUT_ONLY").is_some() {
        let mut v: Vec<_> = shape.into_iter().collect();
        v.sort_by_key(|(_, n)| std::cmp::Reverse(*n));
        println!("{v:?}");
        return false;
    }
    true
}

/// 2. Step back in a 10,000-event run.
fn measure_step_back(root: &std::path::Path) {
    let mut sim = new_run(&root.join("stepback"), 1_500, 2);
    while sim.event_count() < 10_000 && sim.step().expect("step").is_some() {}
    let n = sim.event_count();
    let mut rng = StdRng::seed_from_u64(5);
    let mut worst = Duration::ZERO;
    let mut total = Duration::ZERO;
    for _ in 0..JUMPS {
        let i = rng.random_range(0..n);
        let t = Instant::now();
        let snap = sim.state_at(i).expect("inside the step-back window");
        let d = t.elapsed();
        std::hint::black_box(snap);
        worst = worst.max(d);
        total += d;
    }
    println!(
        "step back: {JUMPS} jumps to random events of a {n}-event run: mean {:.2} ms, worst {:.2} ms (budget <= 50 ms) {}",
        total.as_secs_f64() * 1e3 / f64::from(JUMPS),
        worst.as_secs_f64() * 1e3,
        if worst <= Duration::from_millis(50) {
            "OK"
        } else {
            "OVER BUDGET"
        }
    );
    drop(sim);
}

/// 3. Peak memory of a 100,000-message headless run.
fn measure_memory(root: &std::path::Path) {
    // 3. Peak memory of a 100,000-message headless run (VmHWM covers the whole process, so
    //    it also bounds the runs above).
    let t = Instant::now();
    let mut big = new_run(&root.join("big"), 100_000, 3);
    let report = big.run_to_end().expect("100k run");
    let hwm = vm_hwm_kib().unwrap_or(0);
    println!(
        "memory: chaos 100,000 messages ({} events, {:.1} s, invariants {}): peak RSS (VmHWM) {:.1} MB (budget <= 50 MB, target <= 35 MB) {}",
        report.events,
        t.elapsed().as_secs_f64(),
        if report.invariants.ok() {
            "ok"
        } else {
            "BROKEN"
        },
        hwm as f64 / 1024.0,
        if hwm <= 35 * 1024 {
            "OK"
        } else if hwm <= 50 * 1024 {
            "OK (above target)"
        } else {
            "OVER BUDGET"
        }
    );
    drop(big);
}

/// Peak RSS (kB) of `queuelab sim` with `args`, by `/usr/bin/time -v`; `None` when the tool
/// is missing or the run failed.
fn cli_peak_kib(args: &[&str]) -> Option<u64> {
    let out = std::process::Command::new("/usr/bin/time")
        .arg("-v")
        .arg(env!("CARGO_BIN_EXE_queuelab"))
        .args(args)
        .stdout(std::process::Stdio::null())
        .output()
        .ok()?;
    if !out.status.success() {
        eprintln!("{}", String::from_utf8_lossy(&out.stderr));
        return None;
    }
    String::from_utf8_lossy(&out.stderr)
        .lines()
        .find_map(|l| l.trim().strip_prefix("Maximum resident set size (kbytes):"))
        .and_then(|v| v.trim().parse().ok())
}

fn cli_history_memory(root: &std::path::Path) {
    let data = root.join("cli-data");
    let data = data.to_str().expect("utf-8 path");
    let base = [
        "sim",
        "--scenario",
        "chaos",
        "--messages",
        "100000",
        "--seed",
        "3",
        "--json",
        "--data-dir",
        data,
    ];
    let history = root.join("history.jsonl");
    let history = history.to_str().expect("utf-8 path");
    let mut with = base.to_vec();
    with.extend(["--history", history, "--check"]);
    match (cli_peak_kib(&base), cli_peak_kib(&with)) {
        (Some(plain), Some(streamed)) => println!(
            "history: chaos 100,000 messages via the CLI: peak RSS {:.1} MB without flags, {:.1} MB with --history --check (ratio {:.2}; budget <= 100 MB) {}",
            plain as f64 / 1024.0,
            streamed as f64 / 1024.0,
            streamed as f64 / plain.max(1) as f64,
            if streamed <= 100 * 1024 {
                "OK"
            } else {
                "OVER BUDGET"
            }
        ),
        _ => println!("history: skipped (needs /usr/bin/time and a successful CLI run)"),
    }
}
