//! `queuelab quiz --plain`, `report --plain` and `mail status|retry` as the real binary driven
//! by a script: resume after kill, and the whole flow against a real SMTP server on loopback,
//! including a server that refuses the report until `mail retry` delivers it exactly once.

use crate::mail_smtp::server;

use server::{Mode, Smtp};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

/// Generous: a loaded machine starts a debug build slowly, and a deadline is no speed claim.
const WAIT: Duration = Duration::from_mins(1);

use crate::support::cli;
use cli::{command, run};

/// A running command whose stdout arrives line by line.
struct Live {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    seen: Vec<String>,
}

impl Live {
    fn spawn(data: &Path, args: &[&str]) -> Live {
        let mut child = command(data, args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the binary runs");
        let stdout = child.stdout.take().expect("stdout");
        let stdin = child.stdin.take();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Live {
            child,
            stdin,
            lines,
            seen: Vec::new(),
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").expect("write");
        stdin.flush().expect("flush");
    }

    /// Waits for a line containing `text`.
    fn expect(&mut self, text: &str) {
        let deadline = Instant::now() + WAIT;
        while Instant::now() < deadline {
            if let Ok(line) = self.lines.recv_timeout(Duration::from_millis(100)) {
                let hit = line.contains(text);
                self.seen.push(line);
                if hit {
                    return;
                }
            }
        }
        panic!("no line with {text:?}; saw:\n{}", self.seen.join("\n"));
    }
}

#[test]
fn quiz_resumes_after_kill_with_every_answer_kept() {
    let data = tempfile::tempdir().expect("tempdir");
    let mut quiz = Live::spawn(data.path(), &["quiz", "--plain"]);
    quiz.expect("Question 1 of 10");
    for n in 2..=4 {
        quiz.send("1");
        quiz.expect(&format!("Question {n} of 10"));
    }
    quiz.child.kill().expect("kill");
    let _ = quiz.child.wait();
    let out = run(data.path(), &["quiz", "--plain"], "");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    assert!(
        text.contains("Continuing your attempt at question 4 of 10"),
        "{text}"
    );
    assert!(text.contains("Input ended. Your answers so far are saved"));
    let out = run(data.path(), &["quiz", "--plain"], &"1\n".repeat(7));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Score: "), "{text}");
    assert!(text.contains("queuelab report --plain"));
}

#[test]
fn bad_quiz_input_gets_a_reason_and_eof_ends_cleanly() {
    let data = tempfile::tempdir().expect("tempdir");
    let out = run(data.path(), &["quiz", "--plain"], "9\n1,2\nx\n");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("9 is not an option; choose between 1 and 4."),
        "{text}"
    );
    assert!(text.contains("exactly one right answer"));
    assert!(text.contains("\"x\" is not an option number."));
    let out = run(data.path(), &["report", "--plain"], "");
    assert!(!out.status.success(), "no report before the quiz");
    let err = String::from_utf8_lossy(&out.stderr);
    // A temporary folder is readable by others, so a warning line may come first.
    assert!(
        err.lines()
            .find(|l| !l.starts_with("warning: "))
            .is_some_and(|l| l.starts_with("queuelab: Finish the final quiz first")),
        "{err}"
    );
}

#[test]
fn report_by_script_through_smtp_waits_in_the_outbox_and_goes_out_once() {
    let smtp = Smtp::start();
    let data = tempfile::tempdir().expect("tempdir");
    let config = data.path().join("queuelab.toml");
    std::fs::write(
        &config,
        format!(
            "[workshop]\nname = \"Queue Lab\"\n\n[mail]\ntransport = \"smtp\"\nhost = \"127.0.0.1\"\nport = {}\nsecurity = \"none\"\nfrom = \"Queue Lab <lab@example.org>\"\n",
            smtp.port
        ),
    )
    .expect("config");
    let cfg = config.to_str().expect("utf8 path");
    let out = run(data.path(), &["quiz", "--plain"], &"1\n".repeat(10));
    assert!(out.status.success());

    let mut report = Live::spawn(data.path(), &["--config", cfg, "report", "--plain"]);
    report.expect("Your report is saved at");
    // A bare CR inside the line: the header-injection attempt a line protocol can carry.
    report.send("ada@example.org\rBcc: eve@evil.org");
    report.expect("line break or control character");
    report.send("ada@example.org");
    report.expect("A 6-digit code is on its way to ada@example.org");
    let deadline = Instant::now() + WAIT;
    while smtp.received().is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    let raw = smtp.received().pop().expect("the code mail arrived").data;
    let start = raw.find("report: ").expect("code line") + "report: ".len();
    let code: String = raw[start..].chars().take(6).collect();
    // The server refuses everything from now on: the report must wait in the outbox.
    smtp.set_mode(Mode::Temporary);
    report.send("000000");
    report.send(&code);
    report.expect("Code confirmed.");
    report.expect("stays in the outbox");
    drop(report.stdin.take());
    assert!(report.child.wait().expect("ends").success());

    let status = run(data.path(), &["--config", cfg, "mail", "status"], "");
    let text = String::from_utf8_lossy(&status.stdout);
    assert!(text.contains("report queued"), "{text}");
    assert!(text.contains("code sent"), "{text}");
    let out = run(data.path(), &["--config", cfg, "mail", "retry"], "");
    assert!(!out.status.success(), "still refused");
    smtp.set_mode(Mode::Accept);
    let out = run(data.path(), &["--config", cfg, "mail", "retry"], "");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("report sent via smtp 127.0.0.1"));
    let out = run(data.path(), &["--config", cfg, "mail", "retry"], "");
    assert!(out.status.success());
    let received = smtp.received();
    assert_eq!(received.len(), 2, "one code mail and exactly one report");
    assert!(received[1].data.contains("Subject: Your queuelab report"));
    let db = std::fs::read(data.path().join("progress.db")).expect("db");
    assert!(
        !db.windows(6).any(|w| w == code.as_bytes()),
        "no code at rest"
    );
}

#[test]
fn report_name_flag_names_the_saved_copy_and_a_bad_name_is_refused() {
    let data = tempfile::tempdir().expect("tempdir");
    let out = run(data.path(), &["quiz", "--plain"], &"1\n".repeat(10));
    assert!(out.status.success());
    let long = "x".repeat(61);
    let out = run(data.path(), &["report", "--plain", "--name", &long], "");
    assert_eq!(out.status.code(), Some(2), "a usage error");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--name: the name is longer than 60 characters"),
        "{err}"
    );
    let out = run(
        data.path(),
        &["report", "--plain", "--name", " Ada Lovelace "],
        "",
    );
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let saved = text
        .lines()
        .find_map(|l| l.strip_prefix("Your report is saved at "))
        .unwrap_or_else(|| panic!("the saved path in {text}"));
    let html = std::fs::read_to_string(saved.trim()).expect("the saved HTML copy");
    assert!(html.contains("queuelab report of Ada Lovelace"), "{html}");
    let copy = std::fs::read_to_string(Path::new(saved.trim()).with_extension("txt"))
        .expect("the saved text copy");
    assert!(
        copy.starts_with("queuelab report of Ada Lovelace\n"),
        "{copy}"
    );
    assert!(copy.contains("Name: Ada Lovelace"));
}
