//! The workshop host under a class (`cargo bench --bench workshop`): 40 trainees, each with its
//! own progress store, save a full course's facts (every chapter, the four decisions, the
//! ordering game, every scenario, the ten quiz answers and the score) with a short think time
//! between facts, and deliver each at once over TLS to a headless host process. Prints the
//! host's CPU time, its peak memory (bar: <= 50 MB) and the 99th-percentile delay from saving a
//! fact to the host's receipt (bar: <= 1 s). The host applies an event to its summary before it
//! answers, so the receipt is the moment the fact is visible in `GET /api/summary`.
//!
//! Linux only (reads /proc). Not part of `cargo test`.

use queuelab::content::{ContentSource, Lang};
use queuelab::domain::Fact;
use queuelab::domain::quiz::Attempt;
use queuelab::domain::workshop::JoinUrl;
use queuelab::services::trainee::{client, deliver};
use queuelab::services::{HostClient, Store};
use std::collections::BTreeSet;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const TRAINEES: usize = 40;
/// Mean think time between two facts of one trainee: a very fast class (a real one saves a fact
/// every few seconds). 40 trainees then send about 70 requests per second from one loopback
/// address, under the host's per-address limit of 100 per second.
const THINK_MS: u64 = 600;
/// Clock ticks per second (`getconf CLK_TCK` on Linux).
const TICKS: f64 = 100.0;

fn proc_field(pid: u32, file: &str, key: &str) -> u64 {
    let text = std::fs::read_to_string(format!("/proc/{pid}/{file}")).unwrap_or_default();
    text.lines()
        .find(|l| l.starts_with(key))
        .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        .unwrap_or(0)
}

fn cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let after = stat
        .rsplit(')')
        .next()
        .unwrap_or("")
        .split_whitespace()
        .collect::<Vec<_>>();
    let get = |i: usize| {
        after
            .get(i)
            .and_then(|v| v.parse::<u64>().ok())
            .unwrap_or(0)
    };
    get(11) + get(12)
}

/// Trainee `i`'s session on its own store: joins, saves every chapter, decision, ordering and
/// scenario fact and a whole quiz, each after a think time, and delivers it at once; each
/// save-to-delivered delay goes into `delays`.
fn one_trainee(
    i: usize,
    path: &std::path::Path,
    course: &queuelab::content::Course,
    scenarios: &[String],
    join: &JoinUrl,
    delays: &Mutex<Vec<Duration>>,
) {
    let (mut store, _) = Store::open(path).expect("store");
    store.join(join, &format!("Trainee {i:02}")).expect("join");
    let timed = |store: &mut Store, save: &dyn Fn(&mut Store)| {
        std::thread::sleep(Duration::from_millis(
            THINK_MS / 2 + rand::random_range(0..THINK_MS),
        ));
        let t = Instant::now();
        save(store);
        let d = deliver(store, client::deadline_in(10_000), false).expect("deliver");
        assert!(d.error.is_none() && d.pending == 0, "{d:?}");
        delays.lock().expect("lock").push(t.elapsed());
    };
    let mut facts: Vec<Fact> = course
        .chapters
        .iter()
        .map(|c| Fact::ChapterRead(c.id.clone()))
        .collect();
    facts.extend(course.decisions.iter().map(|d| Fact::DecisionAnswered {
        decision: d.id.clone(),
        option: d.options[i % d.options.len()].id.clone(),
    }));
    facts.extend([
        Fact::OrderingAttempt,
        Fact::OrderingMistake,
        Fact::OrderingSolved,
    ]);
    facts.extend(scenarios.iter().map(|s| Fact::ScenarioRun(s.clone())));
    for fact in facts {
        timed(&mut store, &|s: &mut Store| s.save(&fact).expect("save"));
    }
    let mut attempt = store
        .start_attempt(&Attempt::new(&course.quiz, i as u64))
        .expect("attempt");
    while let Some(q) = attempt.next_question(&course.quiz) {
        let chosen: BTreeSet<String> = [attempt.options(q)[0].id.clone()].into_iter().collect();
        attempt.answer(&q.id, chosen.clone());
        let correct = attempt.is_correct(q);
        let finished = attempt
            .is_complete(&course.quiz)
            .then(|| attempt.score(&course.quiz).correct);
        let (id, qid) = (attempt.id, q.id.clone());
        timed(&mut store, &|s: &mut Store| {
            s.save_answer(id, &qid, &chosen, correct, finished)
                .expect("answer");
        });
    }
}

fn main() {
    let content = queuelab::content::load(&ContentSource::Embedded).expect("content");
    let course = content.course(Lang::En).clone();
    let dir = tempfile::tempdir().expect("tempdir");
    let mut host = Command::new(env!("CARGO_BIN_EXE_queuelab"))
        .args(["--data-dir"])
        .arg(dir.path().join("host"))
        .args(["host", "--headless", "--bind", "127.0.0.1", "--port", "0"])
        .stdout(Stdio::piped())
        .spawn()
        .expect("host starts");
    let pid = host.id();
    let mut lines = BufReader::new(host.stdout.take().expect("stdout")).lines();
    let url = lines
        .by_ref()
        .map_while(Result::ok)
        .find_map(|l| l.strip_prefix("join: ").map(str::to_owned))
        .expect("join URL");
    let key = lines
        .map_while(Result::ok)
        .find_map(|l| l.strip_prefix("instructor key: ").map(str::to_owned))
        .expect("key");
    let join = JoinUrl::parse(&url).expect("url");
    let ticks_before = cpu_ticks(pid);
    let started = Instant::now();
    let delays = Arc::new(Mutex::new(Vec::new()));
    let scenarios: Vec<String> = content.scenarios.iter().map(|s| s.id.clone()).collect();
    let threads: Vec<_> = (0..TRAINEES)
        .map(|i| {
            let (course, scenarios, join, delays) = (
                course.clone(),
                scenarios.clone(),
                join.clone(),
                delays.clone(),
            );
            let path = dir.path().join(format!("t{i:02}.db"));
            std::thread::spawn(move || one_trainee(i, &path, &course, &scenarios, &join, &delays))
        })
        .collect();
    for t in threads {
        t.join().expect("trainee");
    }
    let elapsed = started.elapsed();
    let cpu = (cpu_ticks(pid) - ticks_before) as f64 / TICKS;
    let peak_kb = proc_field(pid, "status", "VmHWM");
    let (_, summary) = HostClient::new(join.clone())
        .summary(&key)
        .expect("summary");
    let view: serde_json::Value = serde_json::from_str(&summary).expect("json");
    let _ = host.kill();
    let _ = host.wait();
    let mut delays = delays.lock().expect("lock").clone();
    delays.sort();
    let p = |q: f64| delays[((delays.len() - 1) as f64 * q) as usize];
    assert_eq!(view["trainees"].as_array().map(Vec::len), Some(TRAINEES));
    println!(
        "workshop host: {TRAINEES} trainees, {} facts in {:.1} s ({} events stored)",
        delays.len(),
        elapsed.as_secs_f64(),
        view["events"]
    );
    println!(
        "host CPU: {cpu:.2} s ({:.1}% of one core over the run)",
        cpu / elapsed.as_secs_f64() * 100.0
    );
    println!(
        "host peak memory (VmHWM): {:.1} MB (bar 50 MB, ratio {:.2})",
        peak_kb as f64 / 1024.0,
        peak_kb as f64 / 1024.0 / 50.0
    );
    println!(
        "save-to-summary delay: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms (bar p99 1000 ms, ratio {:.3})",
        p(0.5).as_secs_f64() * 1e3,
        p(0.99).as_secs_f64() * 1e3,
        p(1.0).as_secs_f64() * 1e3,
        p(0.99).as_secs_f64()
    );
}
