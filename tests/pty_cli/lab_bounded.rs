//! Whatever the lab file holds, `queuelab lab check` ends with a message at its line and exit
//! 2: a runaway trigger fired inside the engine's own SQL, a gigabyte `randomblob`, `zeroblob`
//! inserts, a database filled past its limit, a 50 MB string literal, an oversized statement,
//! a file that is not UTF-8, a file without the section the lab needs, a drop of the engine's
//! table. Each case runs for real through the binary; two checks on one data folder do not
//! break each other.

use crate::support::cli;
use cli::queuelab;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::Stdio;

const SOLUTION: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/labs/01-idempotent-consumer/solution.sql"
);

/// Lab 1's reference solution: sections and statements that run.
fn solution() -> String {
    std::fs::read_to_string(SOLUTION).expect("solution")
}

/// The solution with `extra` added to the end of its `@handle`, and the line it starts on.
fn with_handle_tail(extra: &str) -> (String, usize) {
    let mut text = solution();
    if !text.ends_with('\n') {
        text.push('\n');
    }
    let line = text.lines().count() + 1;
    text.push_str(extra);
    (text, line)
}

/// The solution with `extra` put into `@schema` right after its header, at line 2.
fn with_schema_head(extra: &str) -> String {
    solution().replacen("-- @schema\n", &format!("-- @schema\n{extra}"), 1)
}

struct Checked {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    file: PathBuf,
}

/// `queuelab --lang LANG lab check 1 --file F --seeds 1` on `bytes` written to a file.
fn check_bytes(data: &Path, lang: &str, bytes: &[u8]) -> Checked {
    let file = data.join("lab.sql");
    std::fs::write(&file, bytes).expect("write the file");
    let shown = file.display().to_string();
    let out = queuelab(
        data,
        &[
            "--lang", lang, "lab", "check", "1", "--file", &shown, "--seeds", "1",
        ],
    );
    Checked {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        file,
    }
}

/// Asserts exit 2 and `file:line:col: message` on stderr.
fn assert_cannot_run(c: &Checked, line: usize, column: usize, message: &str) {
    let expected = format!("{}:{line}:{column}: {message}", c.file.display());
    assert_eq!(c.code, Some(2), "stdout {}\nstderr {}", c.stdout, c.stderr);
    assert!(
        c.stderr.contains(&expected),
        "expected {expected}\nstderr {}",
        c.stderr
    );
}

#[test]
fn a_runaway_trigger_fired_by_the_engine_is_stopped_at_its_create() {
    let data = tempfile::tempdir().expect("tempdir");
    let text = with_schema_head(
        "CREATE TRIGGER hang AFTER INSERT ON orders BEGIN\n  SELECT (WITH RECURSIVE n(i) AS \
         (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT max(i) FROM n);\nEND;\n",
    );
    let c = check_bytes(data.path(), "en", text.as_bytes());
    assert_cannot_run(
        &c,
        2,
        1,
        "trigger hang fired inside the engine's own SQL: statement ran too long and was stopped",
    );
    let c = check_bytes(data.path(), "de", text.as_bytes());
    assert_cannot_run(
        &c,
        2,
        1,
        "Trigger hang lief im eigenen SQL der Engine: Anweisung lief zu lange",
    );
}

#[test]
fn a_runaway_trigger_fired_by_the_learners_statement_is_stopped_at_that_statement() {
    let data = tempfile::tempdir().expect("tempdir");
    let text = with_schema_head(
        "CREATE TRIGGER hang AFTER INSERT ON effects BEGIN\n  SELECT (WITH RECURSIVE n(i) AS \
         (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT max(i) FROM n);\nEND;\n",
    );
    let line = text
        .lines()
        .position(|l| l.starts_with("INSERT INTO effects"))
        .expect("the effect insert")
        + 1;
    let c = check_bytes(data.path(), "en", text.as_bytes());
    assert_cannot_run(&c, line, 1, "statement ran too long and was stopped");
}

#[test]
fn a_gigabyte_randomblob_is_refused_at_its_line() {
    let data = tempfile::tempdir().expect("tempdir");
    let (text, line) = with_handle_tail("SELECT length(randomblob(900000000));\n");
    let c = check_bytes(data.path(), "en", text.as_bytes());
    assert_cannot_run(
        &c,
        line,
        1,
        "a string or blob grew past the limit of 1.0 MB and the statement was stopped",
    );
}

#[test]
fn zeroblob_inserts_are_refused_at_the_first() {
    let data = tempfile::tempdir().expect("tempdir");
    let (text, line) = with_handle_tail(
        "INSERT INTO big VALUES (zeroblob(900000000));\nINSERT INTO big VALUES (zeroblob(900000000));\n",
    );
    let text = text.replacen(
        "-- @schema\n",
        "-- @schema\nCREATE TABLE big (b BLOB);\n",
        1,
    );
    let c = check_bytes(data.path(), "de", text.as_bytes());
    assert_cannot_run(
        &c,
        line + 1,
        1,
        "eine Zeichenkette oder ein Blob wurde größer als die Grenze von 1.0 MB",
    );
}

#[test]
fn a_database_filled_past_its_limit_is_stopped_at_the_statement() {
    let data = tempfile::tempdir().expect("tempdir");
    let (text, line) = with_handle_tail(
        "INSERT INTO big SELECT zeroblob(900000) FROM\n  (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL \
         SELECT i + 1 FROM n WHERE i < 200) SELECT i FROM n);\n",
    );
    let text = text.replacen(
        "-- @schema\n",
        "-- @schema\nCREATE TABLE big (b BLOB);\n",
        1,
    );
    let c = check_bytes(data.path(), "en", text.as_bytes());
    assert_cannot_run(
        &c,
        line + 1,
        1,
        "the database grew past a lab run's limit of 32.0 MB and the statement was stopped",
    );
}

#[test]
fn a_fifty_megabyte_literal_is_refused_with_the_size_and_the_limit() {
    let data = tempfile::tempdir().expect("tempdir");
    let literal = "x".repeat(50 * 1024 * 1024);
    let text = solution().replacen(
        "-- @check\n",
        &format!("-- @check\nSELECT 1 WHERE '{literal}' = :message_id;\n"),
        1,
    );
    let c = check_bytes(data.path(), "en", text.as_bytes());
    assert_cannot_run(
        &c,
        1,
        1,
        "the file is 50.0 MB; a lab file may hold at most 256 KB",
    );
}

#[test]
fn an_oversized_statement_is_refused_with_its_size_and_the_limit() {
    let data = tempfile::tempdir().expect("tempdir");
    let (text, line) = with_handle_tail(&format!("SELECT '{}';\n", "y".repeat(20 * 1024)));
    let c = check_bytes(data.path(), "en", text.as_bytes());
    assert_cannot_run(
        &c,
        line,
        1,
        "this statement is 21 KB long; a statement may be at most 16 KB",
    );
}

#[test]
fn a_file_that_is_not_utf8_is_named_at_the_byte() {
    let data = tempfile::tempdir().expect("tempdir");
    let mut bytes = b"-- @schema\n-- caf".to_vec();
    bytes.push(0xE9);
    bytes.extend_from_slice(b" au lait\n");
    bytes.extend_from_slice(solution().replacen("-- @schema\n", "", 1).as_bytes());
    let c = check_bytes(data.path(), "en", &bytes);
    assert_cannot_run(
        &c,
        2,
        7,
        "byte 0xE9 is not UTF-8 text; save the file as UTF-8",
    );
}

#[test]
fn a_file_without_the_handle_says_so_instead_of_losing_orders() {
    let data = tempfile::tempdir().expect("tempdir");
    let c = check_bytes(data.path(), "en", b"");
    assert_cannot_run(
        &c,
        1,
        1,
        "this lab needs section @handle with at least one statement",
    );
    let c = check_bytes(
        data.path(),
        "de",
        b"-- @schema\nCREATE UNIQUE INDEX i ON inbox (message_id, consumer);\n",
    );
    assert_cannot_run(
        &c,
        2,
        1,
        "dieses Lab braucht den Abschnitt @handle mit mindestens einer Anweisung",
    );
    let c = check_bytes(data.path(), "en", b"-- @handle\n-- nothing yet\n");
    assert_cannot_run(&c, 1, 1, "this lab needs section @handle");
}

#[test]
fn a_drop_of_the_engines_table_is_refused_at_its_line() {
    let data = tempfile::tempdir().expect("tempdir");
    let (text, line) = with_handle_tail("DROP TABLE outbox;\n");
    let c = check_bytes(data.path(), "en", text.as_bytes());
    assert_cannot_run(
        &c,
        line,
        1,
        "DROP TABLE outbox: the engine's tables, indexes and triggers are its own",
    );
    // The learner's own table is theirs to drop.
    let (text, _) = with_handle_tail("DROP TABLE IF EXISTS mine;\n");
    let text = text.replacen("-- @schema\n", "-- @schema\nCREATE TABLE mine (x);\n", 1);
    let c = check_bytes(data.path(), "en", text.as_bytes());
    assert_eq!(c.code, Some(0), "{}{}", c.stdout, c.stderr);
}

#[test]
fn two_checks_on_one_data_folder_both_finish() {
    let data = tempfile::tempdir().expect("tempdir");
    let copy = data.path().join("labs").join("01-idempotent-consumer.sql");
    std::fs::create_dir_all(copy.parent().expect("folder")).expect("labs folder");
    std::fs::copy(SOLUTION, &copy).expect("the solution as the learner's copy");
    // The progress store exists, as it does once the lab screen is open.
    let listed = queuelab(data.path(), &["lab", "list"]);
    assert!(listed.status.success());
    let start = || {
        cli::command(data.path(), &["lab", "check", "1", "--seeds", "2"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary runs")
    };
    let (first, second) = (start(), start());
    for child in [first, second] {
        let out = child.wait_with_output().expect("it ends");
        let stderr = String::from_utf8_lossy(&out.stderr);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
        assert!(!stderr.contains("disk I/O error"), "{stderr}");
    }
}

#[test]
fn a_check_waits_for_the_running_one_and_says_so() {
    let data = tempfile::tempdir().expect("tempdir");
    let runs = data.path().join("lab-runs").join("01-idempotent-consumer");
    let held = queuelab::sim::lab::runs_lock::lock_runs(&runs, || {}).expect("the first check");
    let mut child = cli::command(
        data.path(),
        &["lab", "check", "1", "--file", SOLUTION, "--seeds", "1"],
    )
    .stdin(Stdio::null())
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .spawn()
    .expect("the binary runs");
    let mut stderr = BufReader::new(child.stderr.take().expect("stderr"));
    // Other lines (a warning about the folder's mode) may come first.
    let said = (&mut stderr)
        .lines()
        .map(|l| l.expect("a line"))
        .find(|l| l.starts_with("Another check of lab 1 is running on this data folder"))
        .expect("the check says it waits");
    drop(held);
    let out = child.wait_with_output().expect("it ends");
    assert_eq!(out.status.code(), Some(0), "{said}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("lab 1 passed"));
}

#[test]
fn the_broken_invariants_are_said_in_german() {
    let data = tempfile::tempdir().expect("tempdir");
    let start = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/labs/01-idempotent-consumer/start.sql"
    );
    let out = queuelab(
        data.path(),
        &[
            "--lang", "de", "lab", "check", "1", "--file", start, "--seeds", "1",
        ],
    );
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let broken: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("Invariante verletzt: "))
        .collect();
    assert!(!broken.is_empty(), "{stdout}");
    for line in broken {
        assert!(line.contains("Auftrag "), "{line}");
        for english in ["order ", "effects", " lost", "message "] {
            assert!(!line.contains(english), "{line}");
        }
    }
}

#[test]
fn a_claim_returning_gigabytes_of_rows_is_stopped_at_its_statement() {
    let data = tempfile::tempdir().expect("tempdir");
    let file = data.path().join("claim.sql");
    std::fs::write(
        &file,
        "-- @claim\nSELECT id, message_id, order_id, randomblob(1000000) AS body, group_id\n\
         FROM outbox, (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n \
         WHERE i < 3000) SELECT i FROM n)\nWHERE published_ms IS NULL;\n\n\
         -- @published\nUPDATE outbox SET published_ms = :now_ms WHERE id = :outbox_id;\n",
    )
    .expect("write");
    let shown = file.display().to_string();
    let out = queuelab(
        data.path(),
        &[
            "--lang", "en", "lab", "check", "3", "--file", &shown, "--seeds", "1",
        ],
    );
    let c = Checked {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        file,
    };
    assert_cannot_run(
        &c,
        2,
        1,
        "the rows of this statement hold more than the 4.0 MB the engine reads",
    );
}
