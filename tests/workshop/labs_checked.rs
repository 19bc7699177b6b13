//! A joined trainee's lab checks reach the host: `queuelab lab check` records the check and hands
//! it over before it exits; the host's summary shows the lab solved for the trainee and, per lab,
//! where those who have not solved it stand.

use crate::support::{Host, free_port, run};
use std::path::Path;

fn lab_check(data: &Path, file: Option<&Path>) -> std::process::Output {
    let mut args = vec!["lab", "check", "1", "--seeds", "1"];
    let shown;
    if let Some(file) = file {
        shown = file.display().to_string();
        args.extend(["--file", &shown]);
    }
    run(data, &args, "")
}

#[test]
fn the_host_sees_a_lab_fail_at_its_moment_then_solved() {
    let dir = tempfile::tempdir().expect("tempdir");
    let host_dir = dir.path().join("host");
    let host = Host::start(&host_dir, free_port(), &[]);
    let data = dir.path().join("ada");
    let (address, code) = host.short.split_once(' ').expect("HOST:PORT CODE");
    let out = run(
        &data,
        &[
            "join",
            address,
            code,
            "--name",
            "Ada",
            "--check-digits",
            &host.digits,
        ],
        "",
    );
    assert!(out.status.success(), "{out:?}");

    // The starting file fails (its consumer applies a duplicate).
    let out = lab_check(&data, None);
    assert!(!out.status.success(), "{out:?}");
    let status = host.status(&host_dir);
    let lab = &status["labs"]["01-idempotent-consumer"];
    assert_eq!(lab["solved"], 0, "{status}");
    let failing = lab["failing"].as_object().expect("failing");
    assert_eq!(
        failing
            .values()
            .map(serde_json::Value::as_u64)
            .sum::<Option<u64>>(),
        Some(1),
        "{status}"
    );
    assert!(
        failing.keys().all(|reason| !reason.is_empty()),
        "the reason names where it stopped: {status}"
    );

    // The lab's solution passes: solved, and nobody stands anywhere any more.
    let solution =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("labs/01-idempotent-consumer/solution.sql");
    let out = lab_check(&data, Some(&solution));
    assert!(out.status.success(), "{out:?}");
    let status = host.status(&host_dir);
    let lab = &status["labs"]["01-idempotent-consumer"];
    assert_eq!(lab["solved"], 1, "{status}");
    assert_eq!(lab["failing"], serde_json::json!({}), "{status}");
    let ada = &status["trainees"][0];
    assert_eq!(
        ada["labs_solved"],
        serde_json::json!(["01-idempotent-consumer"]),
        "{status}"
    );
}
