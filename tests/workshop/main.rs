//! Workshop sessions with the real binary on loopback: forty trainees join a headless host,
//! answer the four decisions and the quiz through the plain modes, one presses stuck; the host is
//! killed with SIGKILL halfway and restarted on the same data folder; every fact arrives exactly once.

mod dashboard;
mod decide_plain;
mod discovery;
mod feedback_setting;
#[cfg(unix)] // owner-only files are Unix file modes
mod host_files;
mod host_pty;
mod hostile_connections;
mod hostile_room;
mod instructor_copy;
mod instructor_key;
mod join_page;
mod join_refused;
mod kick;
mod labs_checked;
mod mail;
mod presence;
mod projector_login;
mod protocol_version;
mod relay;
mod replay_memory;
mod session_language;
mod session_pty;
mod silent_host;
mod support;
mod votes;

use queuelab::content::{ContentSource, Lang};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use support::{Host, free_port, run};

const TRAINEES: usize = 40;
const PARALLEL: usize = 6;

/// What a trainee answered, as the test expects to find it on the host.
struct Expected {
    name: String,
    decisions: BTreeMap<String, String>,
    score: u64,
}

fn trainee(
    dir: &std::path::Path,
    url: &str,
    i: usize,
    decisions: &[(String, Vec<String>)],
) -> Expected {
    let name = format!("Trainee {i:02}");
    let data = dir.join(format!("t{i:02}"));
    // Joining is checked with the host: while the host is down for its restart a join is refused
    // after its deadline, and the trainee, as a person would, tries again.
    let mut out = run(&data, &["join", url, "--name", &name], "");
    for _ in 0..10 {
        if out.status.success()
            || !String::from_utf8_lossy(&out.stderr).contains("nothing answered")
        {
            break;
        }
        out = run(&data, &["join", url, "--name", &name], "");
    }
    assert!(
        out.status.success(),
        "join: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Trainee i picks option (i mod 2) + 1 in every decision (each has at least two).
    let pick = i % 2;
    let input = "x\n".to_owned() + &format!("{}\n", pick + 1).repeat(decisions.len());
    let out = run(&data, &["decide", "--plain"], &input);
    assert!(
        out.status.success(),
        "decide: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = run(&data, &["quiz", "--plain"], &"1\n".repeat(10));
    assert!(
        out.status.success(),
        "quiz: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let score = text
        .lines()
        .find_map(|l| l.strip_prefix("Score: ")?.split(' ').next()?.parse().ok())
        .unwrap_or_else(|| panic!("quiz prints a score:\n{text}"));
    if i == 7 {
        let out = run(&data, &["stuck", "the", "lock", "expired"], "");
        assert!(
            out.status.success(),
            "stuck: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    Expected {
        name,
        decisions: decisions
            .iter()
            .map(|(d, options)| (d.clone(), options[pick].clone()))
            .collect(),
        score,
    }
}

/// Every trainee runs its session on `PARALLEL` threads; halfway, the host is killed hard,
/// left down for a moment and restarted on the same folder and port. What each trainee did.
fn trainees_across_a_host_kill(
    dir: &std::path::Path,
    url: &str,
    decisions: &[(String, Vec<String>)],
    host: &Arc<Mutex<Option<Host>>>,
    host_data: &std::path::Path,
    port: u16,
) -> Vec<(usize, Expected)> {
    let done = Arc::new(AtomicUsize::new(0));
    let next = Arc::new(AtomicUsize::new(0));
    let results = Arc::new(Mutex::new(Vec::new()));
    let workers: Vec<_> = (0..PARALLEL)
        .map(|_| {
            let (dir, url, decisions) = (PathBuf::from(dir), url.to_owned(), decisions.to_vec());
            let (done, next, results, host, host_data) = (
                done.clone(),
                next.clone(),
                results.clone(),
                host.clone(),
                host_data.to_path_buf(),
            );
            std::thread::spawn(move || {
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= TRAINEES {
                        break;
                    }
                    let expected = trainee(&dir, &url, i, &decisions);
                    results.lock().expect("lock").push((i, expected));
                    if done.fetch_add(1, Ordering::SeqCst) + 1 == TRAINEES / 2 {
                        // Halfway: kill the host hard while others are mid-flight, leave it
                        // down for a moment, restart it on the same folder and port.
                        let mut slot = host.lock().expect("lock");
                        if let Some(h) = slot.take() {
                            h.kill();
                        }
                        std::thread::sleep(std::time::Duration::from_millis(800));
                        *slot = Some(Host::start(&host_data, port, &[]));
                    }
                }
            })
        })
        .collect();
    for w in workers {
        w.join().expect("worker");
    }
    std::mem::take(&mut *results.lock().expect("lock"))
}

/// Each trainee's row on the host holds its decisions, quiz and stuck signal.
fn each_trainee_as_expected(trainees: &[serde_json::Value], results: &[(usize, Expected)]) {
    for (i, expected) in results {
        let t = trainees
            .iter()
            .find(|t| t["name"] == expected.name.as_str())
            .unwrap_or_else(|| panic!("trainee {i} on the host"));
        let got: BTreeMap<String, String> =
            serde_json::from_value(t["decisions"].clone()).expect("decisions");
        assert_eq!(got, expected.decisions, "decisions of {}", expected.name);
        assert_eq!(t["quiz"]["answered"], 10, "{}", expected.name);
        assert_eq!(t["quiz"]["correct"], expected.score, "{}", expected.name);
        assert_eq!(t["stuck"], *i == 7, "{}", expected.name);
    }
}

/// Every fact once: the join, 4 decisions, 10 answers and 1 score per trainee, plus one stuck
/// signal; every decision counted once per trainee.
fn every_fact_once(view: &serde_json::Value, decisions: &[(String, Vec<String>)]) {
    let expected_events = (TRAINEES * (1 + decisions.len() + 10 + 1) + 1) as u64;
    assert_eq!(view["events"], expected_events, "{view}");
    for (decision, _) in decisions {
        let total: u64 = view["decisions"][decision]
            .as_object()
            .expect("distribution")
            .values()
            .filter_map(serde_json::Value::as_u64)
            .sum();
        assert_eq!(total, TRAINEES as u64, "{decision}");
    }
}

#[test]
fn forty_trainees_every_fact_once_across_a_host_sigkill() {
    let content = queuelab::content::load(&ContentSource::Embedded).expect("content");
    let decisions: Vec<(String, Vec<String>)> = content
        .course(Lang::En)
        .decisions
        .iter()
        .map(|d| {
            (
                d.id.clone(),
                d.options.iter().map(|o| o.id.clone()).collect(),
            )
        })
        .collect();
    let dir = tempfile::tempdir().expect("tempdir");
    let host_data = dir.path().join("host");
    let port = free_port();
    let host = Arc::new(Mutex::new(Some(Host::start(&host_data, port, &[]))));
    let url = host
        .lock()
        .expect("lock")
        .as_ref()
        .expect("host")
        .url
        .clone();
    let results =
        trainees_across_a_host_kill(dir.path(), &url, &decisions, &host, &host_data, port);
    // What could not be delivered while the host was down goes with the next command.
    for i in 0..TRAINEES {
        let out = run(&dir.path().join(format!("t{i:02}")), &["join"], "");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.contains("waiting: 0"),
            "trainee {i} still has facts waiting:\n{text}"
        );
    }
    // A receipt lost on the way back looks like this to a trainee: everything is sent again.
    // The host's unique index must recognise all of it.
    let conn = rusqlite::Connection::open(dir.path().join("t03").join("progress.db")).expect("db");
    let resent = conn
        .execute("UPDATE workshop_outbox SET delivered_ms = NULL", [])
        .expect("reset");
    assert_eq!(
        resent,
        1 + decisions.len() + 11,
        "trainee 03's join and facts"
    );
    drop(conn);
    let out = run(&dir.path().join("t03"), &["join"], "");
    assert!(String::from_utf8_lossy(&out.stdout).contains("waiting: 0"));
    let slot = host.lock().expect("lock");
    let host = slot.as_ref().expect("host runs");
    assert_eq!(
        url, host.url,
        "the restarted host keeps code, port and certificate"
    );
    let view = host.status(dir.path());
    let trainees = view["trainees"].as_array().expect("trainees");
    assert_eq!(trainees.len(), TRAINEES, "{view}");
    each_trainee_as_expected(trainees, &results);
    let stuck: Vec<&str> = trainees
        .iter()
        .filter(|t| t["stuck"] == true)
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert_eq!(stuck, ["Trainee 07"]);
    assert_eq!(
        trainees.iter().find(|t| t["stuck"] == true).expect("stuck")["stuck_text"],
        "the lock expired"
    );
    every_fact_once(&view, &decisions);
    assert!(
        view["duplicates"].as_u64().expect("count") >= resent as u64,
        "{view}"
    );
    eprintln!(
        "workshop: {} events stored, {} duplicates recognised",
        view["events"], view["duplicates"]
    );
}
