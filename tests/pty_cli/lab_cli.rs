//! `queuelab lab ...` as the real binary: the learner's copy, exit codes 0 / 1 / 2, the report
//! of a broken seed, reset, and the status list that survives between runs.

use crate::support::cli;
use cli::queuelab;

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

const SOLUTION: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/labs/01-idempotent-consumer/solution.sql"
);

#[test]
fn path_makes_the_copy_and_check_fails_it_with_exit_1_naming_the_statement() {
    let data = tempfile::tempdir().expect("tempdir");
    let out = queuelab(data.path(), &["lab", "path", "1"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let copy = text(&out.stdout).trim().to_owned();
    assert!(copy.ends_with("labs/01-idempotent-consumer.sql"), "{copy}");
    assert!(
        std::fs::read_to_string(&copy)
            .expect("copy")
            .contains("-- @handle")
    );
    let out = queuelab(
        data.path(),
        &["--lang", "en", "lab", "check", "1", "--seeds", "1"],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("lab 1 BROKEN: seed 1, scenario lost-ack, asb"),
        "{stdout}"
    );
    assert!(stdout.contains("moment duplicate-effect"), "{stdout}");
    assert!(stdout.contains("message msg-"), "{stdout}");
    assert!(
        stdout.contains(&format!("your statement: {copy}:8:1 (@handle")),
        "{stdout}"
    );
    let list = queuelab(data.path(), &["--lang", "en", "lab", "list"]);
    assert!(
        text(&list.stdout).contains(" 1  attempted"),
        "{}",
        text(&list.stdout)
    );
}

#[test]
fn the_solution_passes_with_exit_0_and_the_list_says_done_in_german() {
    let data = tempfile::tempdir().expect("tempdir");
    let out = queuelab(
        data.path(),
        &[
            "--lang", "de", "lab", "check", "1", "--file", SOLUTION, "--seeds", "1",
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).starts_with("Lab 1 bestanden: 8 Läufe"),
        "{}",
        text(&out.stdout)
    );
    let list = queuelab(data.path(), &["--lang", "de", "lab", "list"]);
    assert!(
        text(&list.stdout).contains(" 1  gelöst"),
        "{}",
        text(&list.stdout)
    );
}

#[test]
fn a_file_that_cannot_run_exits_2_with_file_line_col() {
    let data = tempfile::tempdir().expect("tempdir");
    let bad = data.path().join("bad.sql");
    std::fs::write(&bad, "-- @handle\nSELECT :nope;\n").expect("write");
    let bad_arg = bad.display().to_string();
    let out = queuelab(
        data.path(),
        &["--lang", "en", "lab", "check", "1", "--file", &bad_arg],
    );
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains(&format!(
            "{bad_arg}:2:8: unknown parameter :nope in @handle"
        )),
        "{stderr}"
    );
    let out = queuelab(
        data.path(),
        &[
            "--lang", "en", "lab", "check", "1", "--file", &bad_arg, "--json",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(value["status"], "cannot-run");
    assert_eq!(value["error"]["line"], 2);
}

#[test]
fn reset_restores_the_starting_file_and_an_unknown_lab_exits_2() {
    let data = tempfile::tempdir().expect("tempdir");
    let out = queuelab(data.path(), &["lab", "path", "1"]);
    let copy = text(&out.stdout).trim().to_owned();
    std::fs::write(&copy, "garbage").expect("edit");
    let out = queuelab(data.path(), &["--lang", "en", "lab", "reset", "1"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        std::fs::read_to_string(&copy)
            .expect("copy")
            .starts_with("-- @schema")
    );
    let out = queuelab(data.path(), &["--lang", "en", "lab", "check", "99"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("no lab 99"),
        "{}",
        text(&out.stderr)
    );
    let out = queuelab(data.path(), &["lab", "check", "1", "--seeds", "0"]);
    assert_eq!(out.status.code(), Some(2));
}
