//! The copy for the instructor through the host: the address is in the host's config only; a
//! joined trainee's `report --plain` is asked for consent and the report goes to the instructor
//! exactly once with it, and not at all without it.

use crate::mail::{code_in, host_with_config, post, read_caller, server, wait_for_mails};
use crate::support::{command, run};
use queuelab::domain::workshop::JoinUrl;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

const INSTRUCTOR: &str = "coach@example.org";
const WAIT: Duration = Duration::from_secs(30);

/// A host whose config names the instructor, and Ada joined with a finished quiz.
fn joined(root: &Path) -> (server::Smtp, crate::support::Host, std::path::PathBuf) {
    let extra = format!("\n[workshop]\ninstructor_cc = \"{INSTRUCTOR}\"\n");
    let (smtp, host) = host_with_config(root, &extra);
    let trainee = root.join("trainee");
    let out = run(&trainee, &["join", &host.url, "--name", "Ada"], "");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = run(&trainee, &["quiz", "--plain"], &"1\n".repeat(10));
    assert!(out.status.success());
    (smtp, host, trainee)
}

/// `report --plain` with its input open and its output lines on a channel.
fn report(trainee: &Path) -> (Child, ChildStdin, mpsc::Receiver<String>) {
    let mut child = command(trainee, &["report", "--plain"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("report runs");
    let stdin = child.stdin.take().expect("stdin");
    let stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        // Prompts end without a newline: split on the prompt's final space as well.
        let mut reader = BufReader::new(stdout);
        let mut buf = Vec::new();
        while reader.read_until(b'\n', &mut buf).is_ok_and(|n| n > 0) {
            let _ = tx.send(String::from_utf8_lossy(&buf).into_owned());
            buf.clear();
        }
    });
    (child, stdin, rx)
}

/// Waits for a line containing `text`; every line seen up to it.
fn expect(rx: &mpsc::Receiver<String>, text: &str) -> Vec<String> {
    let deadline = Instant::now() + WAIT;
    let mut seen = Vec::new();
    while Instant::now() < deadline {
        if let Ok(line) = rx.recv_timeout(Duration::from_millis(100)) {
            let found = line.contains(text);
            seen.push(line);
            if found {
                return seen;
            }
        }
    }
    panic!("no line with {text:?}; saw:\n{}", seen.join(""));
}

/// Runs the report flow answering the consent question with `answer`; the mails received.
fn report_with_consent(smtp: &server::Smtp, trainee: &Path, answer: &str) -> Vec<server::Received> {
    let (mut child, mut stdin, rx) = report(trainee);
    writeln!(stdin, "ada@example.org").expect("write");
    expect(&rx, "A 6-digit code is on its way to ada@example.org");
    let code = code_in(&wait_for_mails(smtp, 1)[0]);
    // The question names no address: the trainee's machine never learns it.
    writeln!(stdin, "{answer}").expect("write");
    writeln!(stdin, "{code}").expect("write");
    let seen = expect(&rx, "Report sent to ada@example.org.");
    let all = seen.concat();
    assert!(
        all.contains("a copy goes there only if you agree")
            && all.contains("Also send a copy to this workshop's instructor? (y/n)")
            && !all.contains(INSTRUCTOR),
        "{all}"
    );
    drop(stdin);
    assert!(child.wait().expect("ends").success());
    wait_for_mails(smtp, 2)
}

/// The export's instructor-copy cell for Ada in the CSV, and the HTML and JSON files, after
/// the host stopped (the answer comes from the host's database).
fn exported(root: &Path, host: crate::support::Host) -> (String, String, String) {
    host.kill();
    let out_dir = root.join("export");
    let out = run(
        &root.join("host"),
        &["host", "export", "--out", out_dir.to_str().expect("utf8")],
        "",
    );
    assert!(out.status.success(), "{out:?}");
    let read = |name: &str| std::fs::read_to_string(out_dir.join(name)).expect("export file");
    let csv = read("summary.csv");
    let header: Vec<&str> = csv.lines().next().expect("header").split(',').collect();
    let column = header
        .iter()
        .position(|h| *h == "instructor_copy")
        .expect("an instructor_copy column");
    let ada = csv
        .lines()
        .find(|l| l.starts_with("Ada,"))
        .expect("Ada's row");
    let cell = ada.split(',').nth(column).expect("the cell").to_owned();
    (cell, read("summary.html"), read("summary.json"))
}

/// The envelopes that went to the instructor.
fn to_instructor(mails: &[server::Received]) -> Vec<&server::Received> {
    mails
        .iter()
        .filter(|m| m.to.iter().any(|to| to == INSTRUCTOR))
        .collect()
}

#[test]
fn a_joined_trainee_who_agrees_sends_the_instructor_exactly_one_copy() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (smtp, host, trainee) = joined(dir.path());
    let mails = report_with_consent(&smtp, &trainee, "y");
    let copies = to_instructor(&mails);
    assert_eq!(
        copies.len(),
        1,
        "{:?}",
        mails.iter().map(|m| &m.to).collect::<Vec<_>>()
    );
    assert!(copies[0].to.iter().any(|to| to == "ada@example.org"));
    assert!(
        copies[0].data.contains(&format!("Cc: {INSTRUCTOR}")),
        "{}",
        copies[0].data
    );
    assert!(
        copies[0].data.contains("queuelab report of Ada"),
        "{}",
        copies[0].data
    );
    // The code mail never goes to the instructor.
    assert_eq!(mails[0].to, ["ada@example.org"]);
    // The same code sent again, consent and all, is used up: no second report, no second copy.
    let url = JoinUrl::parse(&host.url).expect("url");
    let shown = serde_json::json!({"subject": "x", "lang": "en", "blocks": []});
    let again = serde_json::json!({
        "caller": read_caller(&trainee, &url), "address": "ada@example.org",
        "typed": code_in(&mails[0]), "report": shown, "instructor_copy": true,
    });
    assert_eq!(
        post(&url, "/api/report/send", &again)["verdict"],
        "already-used"
    );
    // Running the flow again right away meets the host's cooldown: the first report's copy
    // stays the only one.
    let (mut child, mut stdin, rx) = report(&trainee);
    writeln!(stdin, "ada@example.org").expect("write");
    expect(&rx, "A new code is possible in");
    drop(stdin);
    let _ = child.wait();
    let after = smtp.received();
    assert_eq!(to_instructor(&after).len(), 1, "{}", after.len());
    let (cell, html, json) = exported(dir.path(), host);
    assert_eq!(cell, "yes");
    assert!(html.contains("<th>Copy to instructor</th>"), "{html}");
    assert!(json.contains("\"instructor_copy\": true"), "{json}");
    assert!(!html.contains(INSTRUCTOR) && !json.contains(INSTRUCTOR));
}

#[test]
fn a_joined_trainee_who_declines_sends_the_instructor_nothing() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (smtp, host, trainee) = joined(dir.path());
    let mails = report_with_consent(&smtp, &trainee, "n");
    assert!(
        to_instructor(&mails).is_empty(),
        "{:?}",
        mails.iter().map(|m| &m.to).collect::<Vec<_>>()
    );
    assert_eq!(mails[1].to, ["ada@example.org"]);
    assert!(!mails[1].data.contains(INSTRUCTOR), "{}", mails[1].data);
    let (cell, _, json) = exported(dir.path(), host);
    assert_eq!(cell, "no");
    assert!(json.contains("\"instructor_copy\": false"), "{json}");
}
