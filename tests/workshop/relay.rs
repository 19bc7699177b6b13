//! The host's mail relay under faults: an SMTP server that is down and comes up, a slow one, one
//! trainee asking for many codes, an attacker guessing a victim's code, a host without mail
//! settings. Trainees register over real TLS connections with an empty batch.

use crate::mail::server::{self, Smtp};
use crate::support::{Host, command, free_port, run};
use queuelab::content::{ContentSource, Lang};
use queuelab::domain::workshop::JoinUrl;
use queuelab::services::trainee::client::{deadline_in, request};
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::path::Path;
use std::time::{Duration, Instant};

/// Longest wait for a mail the relay sends on its own (first retry after 7-15 s).
const WAIT: Duration = Duration::from_mins(1);

fn wait_for_mails(smtp: &Smtp, n: usize, within: Duration) -> Vec<server::Received> {
    let deadline = Instant::now() + within;
    while smtp.received().len() < n && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    let got = smtp.received();
    assert!(got.len() >= n, "expected {n} mails, got {}", got.len());
    got
}

fn code_in(data: &str) -> String {
    let start = data.find("report: ").expect("code line") + "report: ".len();
    data[start..].chars().take(6).collect()
}

fn post_raw(url: &JoinUrl, path: &str, body: &serde_json::Value) -> (u16, String) {
    let bytes = serde_json::to_vec(body).expect("json");
    let reply =
        request(url, "POST", path, None, &bytes, deadline_in(60_000)).expect("host answers");
    (reply.status, reply.text())
}

fn post(url: &JoinUrl, path: &str, body: &serde_json::Value) -> serde_json::Value {
    let (status, text) = post_raw(url, path, body);
    assert_eq!(status, 200, "{text}");
    serde_json::from_str(&text).expect("json reply")
}

/// The first quiz question's id and its right option ids (from the embedded content).
fn first_question() -> (String, Vec<String>) {
    let content = queuelab::content::load(&ContentSource::Embedded).expect("content");
    let q = &content.course(Lang::En).quiz.questions[0];
    let right = q.options.iter().filter(|o| o.correct);
    (q.id.clone(), right.map(|o| o.id.clone()).collect())
}

/// Registers trainee `i` with `events`; its credentials for the mail requests.
fn register_with(url: &JoinUrl, i: usize, events: &serde_json::Value) -> serde_json::Value {
    let caller = serde_json::json!({
        "code": url.code,
        "trainee": format!("{i:032x}"),
        "token": format!("token-of-trainee-{i:08}"),
    });
    let batch = serde_json::json!({
        "code": url.code, "trainee": caller["trainee"], "token": caller["token"],
        "name": format!("Trainee {i}"), "events": events,
    });
    post(url, "/api/events", &batch);
    caller
}

/// Registers trainee `i` with a finished quiz attempt (one question answered right), so the
/// host has a report to compose; its credentials for the mail requests.
fn register(url: &JoinUrl, i: usize) -> serde_json::Value {
    let (question, right) = first_question();
    let events = serde_json::json!([
        {"id": "answer-1", "n": 1, "at_ms": 1, "kind": "quiz-answer", "attempt": 1,
         "question": question, "options": right},
        {"id": "score-1", "n": 2, "at_ms": 2, "kind": "quiz-score", "attempt": 1, "score": 1},
    ]);
    register_with(url, i, &events)
}

fn ask_code(url: &JoinUrl, caller: &serde_json::Value, address: &str) -> serde_json::Value {
    post(
        url,
        "/api/report/code",
        &serde_json::json!({"caller": caller, "address": address, "lang": "en"}),
    )
}

fn submit(url: &JoinUrl, caller: &serde_json::Value, address: &str, typed: &str) -> String {
    let report = serde_json::json!({"subject": "x", "lang": "en", "blocks": []});
    let body =
        serde_json::json!({"caller": caller, "address": address, "typed": typed, "report": report});
    post(url, "/api/report/send", &body)["verdict"]
        .as_str()
        .expect("key")
        .to_owned()
}

/// A headless host under `root/host` whose mail goes to 127.0.0.1:`smtp_port`.
fn host_on(root: &Path, smtp_port: u16, extra_mail: &str) -> (Host, JoinUrl) {
    let data = root.join("host");
    std::fs::create_dir_all(&data).expect("host dir");
    let config = data.join("host.toml");
    std::fs::write(
        &config,
        format!(
            "[mail]\ntransport = \"smtp\"\nhost = \"127.0.0.1\"\nport = {smtp_port}\nsecurity = \"none\"\nfrom = \"Queue Lab <lab@example.org>\"\n{extra_mail}"
        ),
    )
    .expect("config");
    let host = Host::start(
        &data,
        free_port(),
        &["--config", config.to_str().expect("utf8")],
    );
    let url = JoinUrl::parse(&host.url).expect("url");
    (host, url)
}

#[test]
fn a_code_queued_while_smtp_is_down_goes_out_on_its_own_once_it_is_up() {
    let dir = tempfile::tempdir().expect("tempdir");
    let smtp_port = server::dead_port();
    let (host, url) = host_on(dir.path(), smtp_port, "");
    let ada = register(&url, 1);
    let reply = ask_code(&url, &ada, "ada@example.org");
    assert_eq!(reply["outcome"], "issued", "{reply}");
    assert_eq!(reply["sent"], false, "the server is down: {reply}");
    // The host's data folder shows the relay's outbox.
    let out = run(&dir.path().join("host"), &["mail", "status"], "");
    let status = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{out:?}");
    assert!(
        status.contains("host-mail.db") && status.contains("code queued"),
        "mail status on the host's folder:\n{status}"
    );
    // The instructor sees the relay as counts (no addresses), in JSON and in plain lines.
    let trainee_dir = dir.path().join("status");
    let relay = &host.status(&trainee_dir)["relay"];
    assert_eq!(
        relay["queued"].as_u64().unwrap_or(0) + relay["retrying"].as_u64().unwrap_or(0),
        1,
        "{relay}"
    );
    assert_eq!(relay["sent"], 0, "{relay}");
    let plain = run(
        &trainee_dir,
        &["host", "status", "--url", &host.url, "--key", &host.key],
        "",
    );
    let plain = String::from_utf8_lossy(&plain.stdout);
    assert!(plain.contains("mail relay: "), "{plain}");
    assert!(!plain.contains("ada@example.org"), "{plain}");
    // The status lines follow --lang.
    let german = crate::support::command_in(
        "de",
        &trainee_dir,
        &["host", "status", "--url", &host.url, "--key", &host.key],
    )
    .output()
    .expect("runs");
    let german = String::from_utf8_lossy(&german.stdout);
    for line in ["Sitzung: ", "Teilnehmende: 1", "Mails über den Host: "] {
        assert!(german.contains(line), "{line}: {german}");
    }
    // The server comes up; nobody asks again; the relay retries on its own.
    let smtp = Smtp::start_on(smtp_port);
    let mails = wait_for_mails(&smtp, 1, WAIT);
    // The relay marks the mail sent once the server has accepted it: a moment after.
    let since = Instant::now();
    while host.status(&trainee_dir)["relay"]["sent"] != 1 {
        assert!(since.elapsed() < WAIT, "the sent mail is never counted");
        std::thread::sleep(Duration::from_millis(100));
    }
    assert_eq!(mails[0].to, ["ada@example.org"]);
    let code = code_in(&mails[0].data);
    assert_eq!(submit(&url, &ada, "ada@example.org", &code), "accepted");
    wait_for_mails(&smtp, 2, WAIT);
    drop(host);
}

/// An SMTP responder that waits `delay` before its greeting, then accepts every mail.
fn slow_smtp(delay: Duration) -> (u16, std::sync::Arc<std::sync::atomic::AtomicUsize>) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("addr").port();
    let accepted = std::sync::Arc::new(AtomicUsize::new(0));
    let count = std::sync::Arc::clone(&accepted);
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let count = std::sync::Arc::clone(&count);
            std::thread::spawn(move || {
                std::thread::sleep(delay);
                let mut out = stream.try_clone().expect("clone");
                let mut lines = BufReader::new(stream).lines();
                let _ = out.write_all(b"220 slow.test ESMTP\r\n");
                while let Some(Ok(line)) = lines.next() {
                    let upper = line.to_ascii_uppercase();
                    let answer: &[u8] = if upper.starts_with("DATA") {
                        b"354 go on\r\n"
                    } else if upper.starts_with("QUIT") {
                        let _ = out.write_all(b"221 bye\r\n");
                        return;
                    } else if upper.starts_with("EHLO") {
                        b"250 slow.test\r\n"
                    } else if line == "." {
                        count.fetch_add(1, Ordering::SeqCst);
                        b"250 queued\r\n"
                    } else if upper.starts_with("MAIL") || upper.starts_with("RCPT") {
                        b"250 ok\r\n"
                    } else {
                        continue;
                    };
                    if out.write_all(answer).is_err() {
                        return;
                    }
                }
            });
        }
    });
    (port, accepted)
}

#[test]
fn trainees_get_their_answer_at_once_while_a_slow_server_takes_the_mails() {
    use std::sync::atomic::Ordering;
    let dir = tempfile::tempdir().expect("tempdir");
    let (smtp_port, accepted) = slow_smtp(Duration::from_secs(6));
    let (_host, url) = host_on(dir.path(), smtp_port, "");
    let callers: Vec<_> = (1..=3).map(|i| register(&url, i)).collect();
    let asks: Vec<_> = callers
        .into_iter()
        .enumerate()
        .map(|(i, caller)| {
            let url = url.clone();
            std::thread::spawn(move || {
                let started = Instant::now();
                let reply = ask_code(&url, &caller, &format!("t{i}@example.org"));
                (reply, started.elapsed())
            })
        })
        .collect();
    for ask in asks {
        let (reply, took) = ask.join().expect("ask");
        assert_eq!(reply["outcome"], "issued", "{reply}");
        // Sent in the request, three mails at 6 s each took 6, 12 and 18 s (or a 408).
        assert!(took < Duration::from_secs(5), "an answer took {took:?}");
    }
    let deadline = Instant::now() + WAIT;
    while accepted.load(Ordering::SeqCst) < 3 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(100));
    }
    assert_eq!(
        accepted.load(Ordering::SeqCst),
        3,
        "every code still went out"
    );
}

#[test]
fn fake_trainees_cannot_use_up_the_rooms_codes_nor_lock_out_or_flood_a_victim() {
    let dir = tempfile::tempdir().expect("tempdir");
    let smtp = Smtp::start();
    // A small room pool: with the old counting five fake trainees used it up.
    let (_host, url) = host_on(dir.path(), smtp.port, "relay_codes_per_hour = 4\n");
    let fakes: Vec<_> = (10..15).map(|i| register(&url, i)).collect();
    // Each fake trainee asks for codes to five addresses, the victim's first.
    for fake in &fakes {
        let keys: Vec<String> = ["victim@example.org", "v1@example.org", "v2@example.org"]
            .iter()
            .map(|a| {
                ask_code(&url, fake, a)["outcome"]
                    .as_str()
                    .expect("key")
                    .to_owned()
            })
            .collect();
        assert_eq!(
            keys,
            ["issued", "other-address", "other-address"],
            "one address per trainee and hour"
        );
    }
    // The real trainees: each one's first code goes out, the victim's own included.
    let (honest, victim) = (register(&url, 2), register(&url, 3));
    let reply = ask_code(&url, &honest, "honest@example.org");
    assert_eq!(reply["outcome"], "issued", "{reply}");
    let reply = ask_code(&url, &victim, "victim@example.org");
    assert_eq!(reply["outcome"], "issued", "not locked out: {reply}");
    let mails = wait_for_mails(&smtp, 7, WAIT);
    assert_eq!(
        mails
            .iter()
            .filter(|m| m.to == ["victim@example.org"])
            .count(),
        6,
        "one unasked mail per fake trainee, and the victim's own"
    );
    let code = code_in(
        &mails
            .iter()
            .rev()
            .find(|m| m.to == ["victim@example.org"])
            .expect("the victim's code")
            .data,
    );
    // A fake trainee guesses for the victim's address: only its own code counts the tries.
    for _ in 0..6 {
        let key = submit(&url, &fakes[0], "victim@example.org", "000000");
        assert_ne!(key, "accepted");
    }
    assert_eq!(
        submit(&url, &victim, "victim@example.org", &code),
        "accepted",
        "the attacker's guesses do not count against the victim"
    );
}

#[test]
fn the_room_limit_from_the_config_never_refuses_a_first_code() {
    let dir = tempfile::tempdir().expect("tempdir");
    let smtp = Smtp::start();
    let (_host, url) = host_on(dir.path(), smtp.port, "relay_codes_per_hour = 1\n");
    // One repeat an hour for the whole room; every trainee's first code still goes out.
    for i in 1..=3 {
        let caller = register(&url, i);
        let reply = ask_code(&url, &caller, &format!("t{i}@example.org"));
        assert_eq!(reply["outcome"], "issued", "{reply}");
    }
}

#[test]
fn a_host_without_mail_settings_warns_and_refuses_relay_requests_in_the_trainees_language() {
    let dir = tempfile::tempdir().expect("tempdir");
    let data = dir.path().join("host");
    let mut child = command(
        &data,
        &[
            "host",
            "--headless",
            "--bind",
            "127.0.0.1",
            "--port",
            &free_port().to_string(),
        ],
    )
    .stdout(std::process::Stdio::piped())
    .stderr(std::process::Stdio::piped())
    .spawn()
    .expect("host");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout")).lines();
    let url = loop {
        let line = stdout.next().expect("a line").expect("text");
        if let Some(u) = line.strip_prefix("join: ") {
            break JoinUrl::parse(u).expect("url");
        }
    };
    let caller = register(&url, 1);
    let ask = |lang: &str| {
        post_raw(
            &url,
            "/api/report/code",
            &serde_json::json!({"caller": caller, "address": "ada@example.org", "lang": lang}),
        )
    };
    let (status, text) = ask("de");
    assert_eq!(status, 503, "{text}");
    assert!(text.contains("keine Mail-Einstellungen"), "{text}");
    let (status, text) = ask("en");
    assert_eq!(status, 503, "{text}");
    assert!(text.contains("no mail settings"), "{text}");
    assert!(
        !data.join("mail").exists(),
        "no code was written into the host's mail folder"
    );
    let _ = child.kill();
    let out = child.wait_with_output().expect("ends");
    let warning = String::from_utf8_lossy(&out.stderr);
    assert!(
        warning.contains("warning") && warning.contains("[mail]"),
        "stderr:\n{warning}"
    );
}

#[test]
fn the_relayed_report_is_the_hosts_own_never_the_trainees_text() {
    let dir = tempfile::tempdir().expect("tempdir");
    let smtp = Smtp::start();
    let (_host, url) = host_on(dir.path(), smtp.port, "");
    let ada = register(&url, 1);
    assert_eq!(ask_code(&url, &ada, "ada@example.org")["outcome"], "issued");
    let code = code_in(&wait_for_mails(&smtp, 1, WAIT)[0].data);
    // A forged score and a phishing link, in the subject and in the body.
    let forged = serde_json::json!({
        "subject": "Score 10/10: claim your certificate",
        "lang": "en",
        "blocks": [
            {"Para": "Score: 10 of 10, level expert"},
            {"Item": "Confirm your password at https://evil.example/login"},
        ],
    });
    let body = serde_json::json!({"caller": ada, "address": "ada@example.org",
        "typed": code, "report": forged});
    assert_eq!(post(&url, "/api/report/send", &body)["verdict"], "accepted");
    let mails = wait_for_mails(&smtp, 2, WAIT);
    let report = &mails[1].data;
    for forged_text in ["evil.example", "10/10", "10 of 10", "certificate"] {
        assert!(
            !report.contains(forged_text),
            "{forged_text:?} reached the mail server:\n{report}"
        );
    }
    assert!(
        report.contains("Trainee 1"),
        "the host's name for the trainee:\n{report}"
    );
    assert!(
        report.contains("1 of 1") || report.contains("1/1"),
        "the score the host counted:\n{report}"
    );

    // A trainee without a finished quiz has nothing to report: refused with the reason in
    // the request's language, nothing sent.
    let bob = register_with(&url, 2, &serde_json::json!([]));
    let body = serde_json::json!({"caller": bob, "address": "bob@example.org",
        "typed": "123456", "report": forged});
    let (status, text) = post_raw(&url, "/api/report/send", &body);
    assert_eq!(status, 409, "{text}");
    assert!(text.contains("Finish the final quiz first"), "{text}");
    assert_eq!(smtp.received().len(), 2, "nothing more went out");
}
