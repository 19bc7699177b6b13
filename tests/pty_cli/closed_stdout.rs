//! The commands on a standard output whose reader has gone (`queuelab sim ... | head -1`): they
//! end quietly with exit code 0, never with a panic or a "Broken pipe" message.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Output, Stdio};

fn command(data: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_queuelab"));
    cmd.arg("--lang")
        .arg("en")
        .arg("--data-dir")
        .arg(data)
        .args(args)
        .env("LANG", "C")
        .stdin(Stdio::null())
        .stderr(Stdio::piped());
    cmd
}

/// Runs with stdout on a pipe whose read end is closed before the command starts, so its very
/// first write fails with EPIPE (no race with a reader that is still there).
fn with_closed_stdout(data: &Path, args: &[&str]) -> Output {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    command(data, args)
        .stdout(writer)
        .output()
        .expect("the binary runs")
}

fn assert_quiet_end(out: &Output, what: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !err.contains("panicked") && !err.contains("Broken pipe") && !err.contains("os error"),
        "{what}: {err}"
    );
    assert_eq!(out.status.code(), Some(0), "{what}: {err}");
}

#[test]
fn every_command_ends_quietly_when_nobody_reads_its_output() {
    let data = tempfile::tempdir().expect("tempdir");
    let export = data.path().join("progress.json");
    let map = data.path().join("map");
    let commands: [&[&str]; 10] = [
        &["check"],
        &["sim", "--list"],
        &["sim", "--scenario", "happy-path", "--seed", "1"],
        &["sim", "--scenario", "happy-path", "--json"],
        &["progress", "export", export.to_str().expect("utf-8 path")],
        &["progress", "import", export.to_str().expect("utf-8 path")],
        &["mail", "status"],
        &["quiz", "--plain"],
        &[
            "export",
            "map",
            "--out",
            map.to_str().expect("utf-8 path"),
            "--url",
            "https://example.org/m",
        ],
        &["reset", "--yes"],
    ];
    for args in commands {
        let out = with_closed_stdout(data.path(), args);
        assert_quiet_end(&out, &args.join(" "));
    }
    assert!(
        export.exists(),
        "the export itself was done before the output failed"
    );
}

#[test]
fn a_reader_that_stops_after_the_first_line_ends_a_long_transcript_quietly() {
    let data = tempfile::tempdir().expect("tempdir");
    let mut child = command(data.path(), &["sim", "--scenario", "chaos", "--transcript"])
        .stdout(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut first = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut first)
        .expect("one line");
    // The reader is dropped here, like `head -1` exiting.
    assert!(first.contains(" ms] "), "{first}");
    let out = child.wait_with_output().expect("it ends");
    assert_quiet_end(&out, "sim --transcript");
}
