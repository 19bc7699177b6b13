//! The session's language everywhere: a host started with `--lang de` serves the projector page in
//! German with titles instead of ids and the stuck trainees as a count; `host export` without
//! `--lang` writes the German summary the session was held in; `join` answers a German learner in
//! German, refusals and status lines alike.

use crate::support::{Host, command_in, free_port, run};
use queuelab::domain::workshop::JoinUrl;
use queuelab::services::trainee::client::{deadline_in, request};
use std::process::{Command, Output};

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The binary without `--lang` and without a locale: only the session can choose German.
fn without_lang(data: &std::path::Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_queuelab"))
        .arg("--data-dir")
        .arg(data)
        .args(args)
        .env("LANG", "C")
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .output()
        .expect("the binary runs")
}

/// The projector page of a German session: German headings, the stuck trainee as a count.
fn projector_page_is_german(host: &Host) {
    let url = JoinUrl::parse(&host.url).expect("url");
    let page = request(
        &url,
        "GET",
        "/dashboard",
        Some(&host.key),
        b"",
        deadline_in(10_000),
    )
    .expect("the projector page answers");
    assert_eq!(page.status, 200, "{}", text(&page.body));
    let html = text(&page.body);
    assert!(html.contains("<html lang=\"de\">"), "{html}");
    assert!(html.contains("Entscheidungen"), "{html}");
    assert!(html.contains("Antworten, verborgen"), "{html}");
    assert!(html.contains("Stecken fest (1)"), "{html}");
    for english in [
        "Trainees",
        "Stuck",
        "Decisions",
        "hidden until",
        "Scenarios run",
    ] {
        assert!(!html.contains(english), "{english}: {html}");
    }
    // The stuck trainee is a count, never a name on the wall.
    assert!(!html.contains("Grace"), "{html}");
}

#[test]
fn a_german_session_projects_and_exports_in_german() {
    let dir = tempfile::tempdir().expect("tempdir");
    let host_dir = dir.path().join("host");
    let host = Host::start_in("de", &host_dir, free_port(), &[]);
    let trainee = dir.path().join("t");
    let out = run(&trainee, &["join", &host.url, "--name", "Grace"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = run(&trainee, &["decide", "--plain"], "1\n");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = run(&trainee, &["quiz", "--plain"], &"1\n".repeat(10));
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = run(&trainee, &["stuck", "lost"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));

    projector_page_is_german(&host);

    let status = host.status(&trainee);
    let grace = &status["trainees"][0];
    assert_eq!(grace["stuck_screen"], "Kommandozeile", "{status}");
    assert_eq!(grace["screen"], "Kommandozeile", "{status}");
    // The score is right of answered; the level of the finished attempt by its German name.
    assert_eq!(grace["quiz"]["answered"], 10, "{status}");
    let content =
        queuelab::content::load(&queuelab::content::ContentSource::Embedded).expect("content");
    let quiz = &content.course(queuelab::content::Lang::De).quiz;
    let correct = u32::try_from(grace["quiz"]["correct"].as_u64().expect("correct")).expect("u32");
    let level = quiz.level_for(correct).map(|l| l.name.clone());
    assert_eq!(
        grace["level"].as_str().map(str::to_owned),
        level,
        "{status}"
    );
    assert_eq!(
        status["date"].as_str().map(str::len),
        Some(10),
        "the session date: {status}"
    );
    host.kill();

    // The export after the session: German, because the session was German.
    let out_dir = dir.path().join("export");
    let out = without_lang(
        &host_dir,
        &["host", "export", "--out", out_dir.to_str().expect("utf8")],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let html = std::fs::read_to_string(out_dir.join("summary.html")).expect("summary.html");
    assert!(html.contains("<html lang=\"de\">"), "{html}");
    for german in [
        "Zusammenfassung der Sitzung: Room 1",
        "Letzter Schritt",
        "Grace",
    ] {
        assert!(html.contains(german), "{german}: {html}");
    }
    assert!(!html.contains("session summary"), "{html}");
    let csv = std::fs::read_to_string(out_dir.join("summary.csv")).expect("summary.csv");
    assert!(
        csv.lines().next().is_some_and(|h| h.contains("quiz_level")
            && h.contains("last_step")
            && h.contains("last_seen_utc")),
        "{csv}"
    );
    assert!(csv.contains("Kommandozeile"), "{csv}");
    // --lang still chooses for one export.
    let out = command_in(
        "en",
        &host_dir,
        &["host", "export", "--out", out_dir.to_str().expect("utf8")],
    )
    .output()
    .expect("runs");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let html = std::fs::read_to_string(out_dir.join("summary.html")).expect("summary.html");
    assert!(html.contains("Session summary: Room 1"), "{html}");
}

#[test]
fn join_answers_a_german_learner_in_german() {
    let dir = tempfile::tempdir().expect("tempdir");
    let host = Host::start(&dir.path().join("host"), free_port(), &[]);
    let data = dir.path().join("t");
    let de = |args: &[&str]| command_in("de", &data, args).output().expect("runs");
    // A wrong code: refused, non-zero, in German, never "joined".
    let mut url = JoinUrl::parse(&host.url).expect("url");
    url.code = "WRONGCODE2".to_owned();
    let out = de(&["join", &url.to_string(), "--name", "Ada"]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("falscher Beitrittscode"),
        "{}",
        text(&out.stderr)
    );
    assert!(!text(&out.stdout).contains("Beigetreten"), "{out:?}");
    // Another certificate: refused in German.
    let mut url = JoinUrl::parse(&host.url).expect("url");
    let flipped = if url.fingerprint.starts_with('0') {
        "1"
    } else {
        "0"
    };
    url.fingerprint.replace_range(0..1, flipped);
    let out = de(&["join", &url.to_string(), "--name", "Ada"]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("anderes Zertifikat"),
        "{}",
        text(&out.stderr)
    );
    // Typing mistakes and a missing name are German too.
    let out = de(&["join", "no-such-thing"]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("weder ein Beitrittscode"),
        "{}",
        text(&out.stderr)
    );
    let out = de(&["join", &host.url]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("Zum Beitreten fehlt --name"),
        "{}",
        text(&out.stderr)
    );
    // Nothing recorded; the status line says so in German.
    let out = de(&["join"]);
    assert!(out.status.success(), "{out:?}");
    assert!(
        text(&out.stdout).contains("keiner Workshop-Sitzung beigetreten"),
        "{}",
        text(&out.stdout)
    );
    // Joined: every status line in German.
    let out = de(&["join", &host.url, "--name", "Ada"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = de(&["join"]);
    let shown = text(&out.stdout);
    for line in [
        "Sitzung: Room 1",
        "Host: 127.0.0.1:",
        "Name: Ada",
        "wartend: 0",
    ] {
        assert!(shown.contains(line), "{line}: {shown}");
    }
    assert!(!shown.contains("waiting"), "{shown}");
    let out = de(&["leave"]);
    assert!(
        text(&out.stdout).contains("Workshop-Sitzung verlassen"),
        "{}",
        text(&out.stdout)
    );
}
