//! `queuelab sim --json` carries the `moments` array and `--transcript` prints each moment's
//! explanation right after the event that made it visible.

use crate::support::cli;
use cli::queuelab;

#[test]
fn json_moments_carry_the_contract_fields_and_match_the_metrics() {
    let data = tempfile::tempdir().expect("tempdir");
    let out = queuelab(
        data.path(),
        &["sim", "--scenario", "lost-ack", "--mode", "naive", "--json"],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    let moments = v["moments"].as_array().expect("moments array");
    let dups: Vec<&serde_json::Value> = moments
        .iter()
        .filter(|m| m["kind"] == "duplicate-effect")
        .collect();
    assert_eq!(
        dups.len() as u64,
        v["duplicate_effects"].as_u64().expect("metric")
    );
    assert!(!dups.is_empty(), "lost-ack naive must show a duplicate");
    for m in moments {
        for field in [
            "kind",
            "at_ms",
            "event",
            "cause_event",
            "order",
            "message_id",
            "text",
        ] {
            assert!(m.get(field).is_some(), "{field} missing in {m}");
        }
        assert!(m["cause_event"].as_u64() < m["event"].as_u64(), "{m}");
    }
    let text = dups[0]["text"].as_str().expect("text");
    assert!(text.starts_with("Order "), "{text}");
    assert!(text.contains("lost its connection"), "{text}");
}

#[test]
fn transcript_prints_each_moment_after_its_event_in_the_chosen_language() {
    let data = tempfile::tempdir().expect("tempdir");
    let out = queuelab(
        data.path(),
        &[
            "--lang",
            "de",
            "sim",
            "--scenario",
            "lost-ack",
            "--mode",
            "naive",
            "--transcript",
        ],
    );
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    let i = lines
        .iter()
        .position(|l| l.contains(">> duplicate-effect:"))
        .expect("a duplicate-effect line");
    assert!(
        lines[i].contains("hat seine Wirkung zweimal"),
        "{}",
        lines[i]
    );
    // Same virtual time as the event line right before it: printed after its event.
    let stamp = |l: &str| l.split(']').next().map(str::to_owned);
    assert_eq!(stamp(lines[i]), stamp(lines[i - 1]));
    assert!(!lines[i - 1].contains(">>"), "{}", lines[i - 1]);
}
