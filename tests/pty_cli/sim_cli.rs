//! `queuelab sim` as the real binary: --list, --json fields, transcripts, bad input.

use crate::support::cli;
use cli::queuelab;

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

const JSON_FIELDS: [&str; 26] = [
    "scenario",
    "mode",
    "broker",
    "seed",
    "messages",
    "accepted",
    "published",
    "delivered",
    "redeliveries",
    "effects",
    "duplicate_effects",
    "prevented_duplicates",
    "dead_lettered",
    "lost",
    "lock_lost",
    "retries",
    "age_p50_ms",
    "age_p95_ms",
    "age_max_ms",
    "outbox_lag_max_ms",
    "invariants_ok",
    "trace_hash",
    "events",
    "service_db",
    "broker_db",
    "provider_db",
];

fn json(data: &std::path::Path, args: &[&str]) -> serde_json::Value {
    let out = queuelab(data, args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

#[test]
fn list_names_every_scenario_with_a_description() {
    let data = tempfile::tempdir().expect("tempdir");
    let out = queuelab(data.path(), &["sim", "--list"]);
    assert!(out.status.success());
    let lines: Vec<String> = text(&out.stdout).lines().map(str::to_owned).collect();
    // The scenario ids scripts rely on, in menu order.
    let contract = [
        "happy-path",
        "broker-outage",
        "claim-check",
        "lost-ack",
        "poison-dlq",
        "twin-consumers",
        "duplicate-publish",
        "execute-update-trap",
        "two-phase-claim",
        "dedup-window",
        "backlog",
        "chaos",
        "ordered-group",
        "lock-renewal",
        "dispatcher-lease",
        "dlq-replay-unfixed",
        "dlq-raised-limit",
        "redelivery-no-inbox",
    ];
    assert_eq!(lines.len(), contract.len());
    for (line, id) in lines.iter().zip(contract) {
        assert!(line.starts_with(id) && line.len() > id.len() + 10, "{line}");
    }
    let de = queuelab(data.path(), &["--lang", "de", "sim", "--list"]);
    assert!(text(&de.stdout).contains("Aufträge"));
}

#[test]
fn twin_consumers_json_naive_duplicates_safe_does_not() {
    let data = tempfile::tempdir().expect("tempdir");
    let naive = json(
        data.path(),
        &[
            "sim",
            "--scenario",
            "twin-consumers",
            "--mode",
            "naive",
            "--seed",
            "1",
            "--json",
        ],
    );
    for field in JSON_FIELDS {
        assert!(naive.get(field).is_some(), "missing {field}");
    }
    assert!(naive["duplicate_effects"].as_u64() > Some(0));
    assert_eq!(naive["invariants_ok"], false);
    let safe = json(
        data.path(),
        &[
            "sim",
            "--scenario",
            "twin-consumers",
            "--mode",
            "safe",
            "--seed",
            "1",
            "--json",
        ],
    );
    assert_eq!(safe["duplicate_effects"], 0);
    assert_eq!(safe["lost"], 0);
    assert_eq!(safe["invariants_ok"], true);
    let db = std::path::PathBuf::from(safe["service_db"].as_str().expect("path"));
    assert!(
        db.starts_with(data.path()),
        "default run dir lives under the data dir: {}",
        db.display()
    );
    let conn = rusqlite::Connection::open(&db).expect("open service.db");
    let effects: i64 = conn
        .query_row("SELECT COUNT(*) FROM effects", [], |r| r.get(0))
        .expect("count");
    assert_eq!(Some(effects as u64), safe["effects"].as_u64());
}

#[test]
fn same_seed_same_hash_through_the_binary() {
    let data = tempfile::tempdir().expect("tempdir");
    let args = [
        "sim",
        "--scenario",
        "chaos",
        "--broker",
        "sqs",
        "--seed",
        "9",
        "--messages",
        "120",
        "--json",
    ];
    let a = json(data.path(), &args);
    let b = json(data.path(), &args);
    assert_eq!(a["trace_hash"], b["trace_hash"]);
    assert_eq!(a["messages"], 120);
    assert_eq!(a["invariants_ok"], true);
}

#[test]
fn transcript_prints_captions_in_the_chosen_language() {
    let data = tempfile::tempdir().expect("tempdir");
    let out = queuelab(
        data.path(),
        &[
            "--lang",
            "de",
            "sim",
            "--scenario",
            "lost-ack",
            "--transcript",
        ],
    );
    assert!(out.status.success());
    let t = text(&out.stdout);
    assert!(t.contains("Inbox-Zeile"), "{t}");
    assert!(!t.contains("sim."), "no raw caption keys: {t}");
    // Durations in the captions read like the screen: the 5 s lock, not "5000 ms" (the
    // clock column in brackets stays in ms).
    assert!(t.contains("5 s lang einen Lock"), "{t}");
    for line in t.lines() {
        let caption = line.split_once("] ").map_or(line, |(_, c)| c);
        assert!(!caption.contains("000 ms"), "raw ms in a caption: {line}");
    }
}

#[test]
fn out_dir_is_used_and_never_reused() {
    let data = tempfile::tempdir().expect("tempdir");
    let dir = data.path().join("my-run");
    let dir_s = dir.to_str().expect("utf-8 path");
    let first = queuelab(
        data.path(),
        &["sim", "--scenario", "happy-path", "--out", dir_s],
    );
    assert!(first.status.success(), "{}", text(&first.stderr));
    assert!(
        dir.join("service.db").exists()
            && dir.join("broker.db").exists()
            && dir.join("blobs").is_dir()
    );
    assert!(
        !dir.join("INCOMPLETE.txt").exists(),
        "a finished run carries no mark"
    );
    let again = queuelab(
        data.path(),
        &["sim", "--scenario", "happy-path", "--out", dir_s],
    );
    assert_eq!(again.status.code(), Some(2));
    assert!(text(&again.stderr).contains("already holds a run"));
    // A leftover broker.db alone is refused too: reusing it could hide lost orders.
    for leftover in ["broker.db", "provider.db"] {
        let other = data.path().join(format!("left-{leftover}"));
        std::fs::create_dir_all(&other).expect("mkdir");
        std::fs::write(other.join(leftover), b"").expect("write");
        let out = queuelab(
            data.path(),
            &[
                "sim",
                "--scenario",
                "happy-path",
                "--out",
                other.to_str().expect("utf-8"),
            ],
        );
        assert_eq!(out.status.code(), Some(2), "{leftover}");
        let err = text(&out.stderr);
        assert!(err.contains(leftover) && err.lines().count() == 1, "{err}");
        assert!(!other.join("service.db").exists(), "nothing written");
    }
}

#[test]
fn bad_input_exits_2_with_one_line() {
    let data = tempfile::tempdir().expect("tempdir");
    let file = data.path().join("a-file");
    std::fs::write(&file, "x").expect("write");
    let under_file = file.join("sub");
    let cases: Vec<Vec<&str>> = vec![
        vec!["sim", "--scenario", "no-such-scenario"],
        vec!["sim", "--scenario", "chaos", "--mode", "reckless"],
        vec!["sim", "--scenario", "chaos", "--broker", "kafka"],
        vec!["sim", "--scenario", "chaos", "--messages", "0"],
        vec!["sim", "--scenario", "chaos", "--messages", "5000000000"],
        vec!["sim", "--scenario", "chaos", "--messages", "-3"],
        vec!["sim", "--scenario", "chaos", "--seed", "x"],
        vec!["sim", "--scenario", "happy-path", "--messages", "50"],
        vec![
            "sim",
            "--scenario",
            "chaos",
            "--out",
            under_file.to_str().expect("utf-8"),
        ],
        vec!["sim"],
    ];
    for args in cases {
        let out = queuelab(data.path(), &args);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: one line: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    assert!(
        !data.path().join("sim-runs").exists(),
        "failed runs leave no run directory behind"
    );
}

#[test]
fn list_with_a_scenario_lists_that_scenario_alone() {
    let data = tempfile::tempdir().expect("tempdir");
    let out = queuelab(data.path(), &["sim", "--list", "--scenario", "lost-ack"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let lines: Vec<String> = text(&out.stdout).lines().map(str::to_owned).collect();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].starts_with("lost-ack  "), "{lines:?}");
    let unknown = queuelab(data.path(), &["sim", "--list", "--scenario", "nope"]);
    assert_eq!(unknown.status.code(), Some(2));
    let err = text(&unknown.stderr);
    assert!(
        err.contains("unknown scenario") && err.contains("lost-ack"),
        "{err}"
    );
}

/// A count too large for any number is out of range like any other, and the message names
/// the limit.
#[test]
fn too_many_messages_is_out_of_range_with_the_limit() {
    let data = tempfile::tempdir().expect("tempdir");
    for n in ["4294967296", "5000000000", "99999999999999999999999"] {
        let out = queuelab(
            data.path(),
            &["sim", "--scenario", "chaos", "--messages", n],
        );
        assert_eq!(out.status.code(), Some(2));
        let err = text(&out.stderr);
        assert!(
            err.contains("out of range") && err.contains("1000000"),
            "{n}: {err}"
        );
    }
    let words = queuelab(
        data.path(),
        &["sim", "--scenario", "chaos", "--messages", "ten"],
    );
    assert!(text(&words.stderr).contains("not a whole number"));
}

/// A run stopped by SIGTERM leaves its folder marked as incomplete.
#[test]
fn a_run_stopped_by_sigterm_leaves_its_folder_marked_incomplete() {
    let data = tempfile::tempdir().expect("tempdir");
    let dir = data.path().join("stopped");
    let mut child = cli::command(
        data.path(),
        &[
            "sim",
            "--scenario",
            "backlog",
            "--messages",
            "1000000",
            "--out",
            dir.to_str().expect("utf-8"),
        ],
    )
    .stdin(std::process::Stdio::null())
    .stdout(std::process::Stdio::null())
    .stderr(std::process::Stdio::null())
    .spawn()
    .expect("the binary runs");
    // The mark is written before the first step; the run of a million orders is far from
    // its end then.
    while !dir.join("INCOMPLETE.txt").exists() {
        assert!(
            child.try_wait().expect("wait").is_none(),
            "the run ended before it was stopped"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(killed.success());
    let status = child.wait().expect("it ends");
    assert!(!status.success(), "stopped, not finished");
    assert!(dir.join("service.db").exists());
    let mark = std::fs::read_to_string(dir.join("INCOMPLETE.txt")).expect("the mark stays");
    assert!(mark.contains("did not reach its end"), "{mark}");
}
