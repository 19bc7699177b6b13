//! Mail through the host: the SMTP server is configured only on the host; a joined trainee's
//! report flow gets its code and its report delivered; twenty concurrent wrong guesses cannot
//! get past the host's try limit.

use crate::support::{Host, free_port, run};
use queuelab::domain::workshop::JoinUrl;
use queuelab::services::trainee::client::{deadline_in, request};
use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;
use std::sync::mpsc;
use std::time::{Duration, Instant};

#[path = "../pty_cli/mail_smtp/server.rs"]
#[allow(dead_code)] // the fault helpers serve the mail_smtp tests
pub(crate) mod server;

const WAIT: Duration = Duration::from_secs(30);

pub(crate) fn wait_for_mails(smtp: &server::Smtp, n: usize) -> Vec<server::Received> {
    let deadline = Instant::now() + WAIT;
    while smtp.received().len() < n && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    let got = smtp.received();
    assert!(got.len() >= n, "expected {n} mails, got {}", got.len());
    got
}

pub(crate) fn code_in(mail: &server::Received) -> String {
    let start = mail.data.find("report: ").expect("code line") + "report: ".len();
    mail.data[start..].chars().take(6).collect()
}

/// Every file under `dir`, as bytes.
fn all_files(dir: &std::path::Path) -> Vec<(std::path::PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).expect("dir").flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(all_files(&path));
        } else {
            out.push((path.clone(), std::fs::read(&path).expect("read")));
        }
    }
    out
}

/// Ada joins, finishes the quiz and sends her report with `report --plain` through the host:
/// a wrong code first, then the right one; her folder holds no mail settings.
fn ada_reports_through_the_host(trainee: &std::path::Path, smtp: &server::Smtp, host: &Host) {
    let out = run(trainee, &["join", &host.url, "--name", "Ada"], "");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = run(trainee, &["quiz", "--plain"], &"1\n".repeat(10));
    assert!(out.status.success());

    let mut child = crate::support::command(trainee, &["report", "--plain"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("report runs");
    let mut stdin = child.stdin.take().expect("stdin");
    let stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    let expect = |text: &str| {
        let deadline = Instant::now() + WAIT;
        let mut seen = Vec::new();
        while Instant::now() < deadline {
            if let Ok(line) = rx.recv_timeout(Duration::from_millis(100)) {
                if line.contains(text) {
                    return;
                }
                seen.push(line);
            }
        }
        panic!("no line with {text:?}; saw:\n{}", seen.join("\n"));
    };
    writeln!(stdin, "ada@example.org").expect("write");
    expect("A 6-digit code is on its way to ada@example.org");
    let code = code_in(&wait_for_mails(smtp, 1)[0]);
    writeln!(stdin, "000000").expect("write");
    expect("Wrong code. 4 tries left.");
    writeln!(stdin, "{code}").expect("write");
    expect("Code confirmed.");
    expect("Report sent to ada@example.org.");
    drop(stdin);
    assert!(child.wait().expect("ends").success());
    let mails = wait_for_mails(smtp, 2);
    assert_eq!(mails[1].to, ["ada@example.org"]);
    assert!(
        mails[1].data.contains("queuelab report"),
        "{}",
        mails[1].data
    );
    // The report of a joined trainee names the session and the trainee as the room knows them.
    assert!(
        mails[1]
            .data
            .contains("Subject: Room 1: queuelab report of Ada"),
        "{}",
        mails[1].data
    );
    for (path, bytes) in all_files(trainee) {
        let text = String::from_utf8_lossy(&bytes);
        assert!(
            !text.contains("smtp")
                && !text.contains("password")
                && !text.contains(&format!(":{}", smtp.port)),
            "{} holds mail settings",
            path.display()
        );
    }
}

/// Twenty trainees guess at once for one address: the host counts every try. Bob asks from a
/// client of his own (a trainee's codes go to one address an hour).
fn twenty_guesses_stop_at_the_try_limit(smtp: &server::Smtp, host: &Host) {
    let url = JoinUrl::parse(&host.url).expect("url");
    let caller = serde_json::json!({
        "code": url.code, "trainee": "b".repeat(32), "token": "token-of-bob-0123456789",
    });
    // Bob finished the quiz (one question answered right), so the host has a report to send.
    let content =
        queuelab::content::load(&queuelab::content::ContentSource::Embedded).expect("content");
    let question = &content.course(queuelab::content::Lang::En).quiz.questions[0];
    let right: Vec<&str> = question
        .options
        .iter()
        .filter(|o| o.correct)
        .map(|o| o.id.as_str())
        .collect();
    let registration = serde_json::json!({
        "code": url.code, "trainee": caller["trainee"], "token": caller["token"],
        "name": "Bob", "events": [
            {"id": "answer-1", "n": 1, "at_ms": 1, "kind": "quiz-answer", "attempt": 1,
             "question": question.id, "options": right},
            {"id": "score-1", "n": 2, "at_ms": 2, "kind": "quiz-score", "attempt": 1, "score": 1},
        ],
    });
    post(&url, "/api/events", &registration);
    let ask = serde_json::json!({"caller": caller, "address": "bob@example.org", "lang": "en"});
    let reply = post(&url, "/api/report/code", &ask);
    assert_eq!(reply["outcome"], "issued", "{reply}");
    let right = code_in(&wait_for_mails(smtp, 3)[2]);
    let wrong = if right == "123456" {
        "654321"
    } else {
        "123456"
    };
    let report = serde_json::json!({"subject": "x", "lang": "en", "blocks": []});
    let guesses: Vec<_> = (0..20)
        .map(|_| {
            let (url, caller, report) = (url.clone(), caller.clone(), report.clone());
            std::thread::spawn(move || {
                let body = serde_json::json!({"caller": caller, "address": "bob@example.org", "typed": wrong, "report": report});
                post(&url, "/api/report/send", &body)["verdict"].as_str().expect("key").to_owned()
            })
        })
        .collect();
    let keys: Vec<String> = guesses
        .into_iter()
        .map(|g| g.join().expect("guess"))
        .collect();
    let wrongs = keys.iter().filter(|k| *k == "wrong").count();
    assert_eq!(
        wrongs, 5,
        "exactly the try limit is counted as wrong: {keys:?}"
    );
    assert!(
        keys.iter().all(|k| k == "wrong" || k == "locked"),
        "{keys:?}"
    );
    let body = serde_json::json!({"caller": caller, "address": "bob@example.org", "typed": right, "report": report});
    assert_eq!(
        post(&url, "/api/report/send", &body)["verdict"],
        "locked",
        "the right code comes too late"
    );
    assert_eq!(smtp.received().len(), 3, "no report for bob");
}

#[test]
fn report_goes_through_the_host_and_guesses_stop_at_its_try_limit() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (smtp, host) = host_with_mail(dir.path());

    ada_reports_through_the_host(&dir.path().join("trainee"), &smtp, &host);
    twenty_guesses_stop_at_the_try_limit(&smtp, &host);
}

pub(crate) fn post(url: &JoinUrl, path: &str, body: &serde_json::Value) -> serde_json::Value {
    let bytes = serde_json::to_vec(body).expect("json");
    let reply =
        request(url, "POST", path, None, &bytes, deadline_in(30_000)).expect("host answers");
    assert_eq!(reply.status, 200, "{}", reply.text());
    serde_json::from_slice(&reply.body).expect("json reply")
}

pub(crate) fn read_caller(trainee: &std::path::Path, url: &JoinUrl) -> serde_json::Value {
    let conn = rusqlite::Connection::open(trainee.join("progress.db")).expect("db");
    let (id, token): (String, String) = conn
        .query_row(
            "SELECT trainee_id, token FROM workshop_membership",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .expect("membership");
    serde_json::json!({"code": url.code, "trainee": id, "token": token})
}

#[test]
fn the_tui_report_of_a_joined_trainee_goes_through_the_host() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (smtp, host) = host_with_mail(dir.path());
    let trainee = dir.path().join("trainee");
    let out = run(&trainee, &["join", &host.url, "--name", "Bea"], "");
    assert!(out.status.success(), "{out:?}");
    let out = run(&trainee, &["quiz", "--plain"], &"1\n".repeat(10));
    assert!(out.status.success(), "{out:?}");
    let mut s = crate::host_pty::pty::Session::start(&trainee, &["--lang", "en"], 100, 30);
    s.wait_for("host reachable");
    s.send("7");
    s.wait_for("Your result");
    s.send("m");
    s.wait_for("Your report is saved at");
    for c in "bea@example.org".chars() {
        s.send(&c.to_string());
    }
    s.send("\r");
    s.wait_for("bea@example.org");
    let code = code_in(&wait_for_mails(&smtp, 1)[0]);
    for c in code.chars() {
        s.send(&c.to_string());
    }
    s.send("\r");
    s.wait_for("Report sent to bea@example.org");
    let mails = wait_for_mails(&smtp, 2);
    assert!(
        mails[1].to.iter().any(|r| r.contains("bea@example.org")),
        "the report went out through the host's SMTP server"
    );
    assert!(
        !trainee.join("mail").exists()
            || std::fs::read_dir(trainee.join("mail"))
                .expect("dir")
                .next()
                .is_none(),
        "nothing was written or sent on the trainee's machine"
    );
    s.send("\x03");
    assert!(s.wait_exit(), "clean exit");
}

/// A loopback SMTP server and a headless host under `root/host` whose config (the only one
/// holding mail settings) points at it.
fn host_with_mail(root: &std::path::Path) -> (server::Smtp, Host) {
    host_with_config(root, "")
}

/// [`host_with_mail`] with more lines at the end of the host's config (`extra`).
pub(crate) fn host_with_config(root: &std::path::Path, extra: &str) -> (server::Smtp, Host) {
    let smtp = server::Smtp::start();
    let host_data = root.join("host");
    std::fs::create_dir_all(&host_data).expect("host dir");
    let config = host_data.join("host.toml");
    std::fs::write(
        &config,
        format!(
            "[mail]\ntransport = \"smtp\"\nhost = \"127.0.0.1\"\nport = {}\nsecurity = \"none\"\nfrom = \"Queue Lab <lab@example.org>\"\n{extra}",
            smtp.port
        ),
    )
    .expect("config");
    let cfg = config.to_str().expect("utf8");
    let host = Host::start(&host_data, free_port(), &["--config", cfg]);
    (smtp, host)
}
