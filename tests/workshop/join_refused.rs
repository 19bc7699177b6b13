//! Joining is checked with the host before anything is recorded: a wrong code, another host's
//! certificate or nothing at the address is refused at join time with a non-zero exit and the
//! reason in the learner's language; `HOST:PORT CODE` shows the check digits of the certificate the
//! trainee's connection saw and joins only when they are confirmed.

use crate::support::{Host, folder_with_code, free_port, run};
use std::process::{Command, Stdio};

fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// `queuelab join` with nothing recorded afterwards.
fn not_joined(data: &std::path::Path) {
    let out = run(data, &["join"], "");
    assert!(
        stdout(&out).contains("not joined"),
        "a refused join records nothing: {}",
        stdout(&out)
    );
}

#[test]
fn a_wrong_code_is_refused_and_nothing_is_recorded() {
    let dir = tempfile::tempdir().expect("tempdir");
    let host = Host::start(&dir.path().join("host"), free_port(), &[]);
    let mut url = queuelab::domain::workshop::JoinUrl::parse(&host.url).expect("url");
    url.code = "WRONGCODE2".to_owned();
    let data = dir.path().join("t");
    let out = run(&data, &["join", &url.to_string(), "--name", "Ada"], "");
    assert!(!out.status.success(), "{out:?}");
    assert!(stderr(&out).contains("wrong join code"), "{}", stderr(&out));
    assert!(!stdout(&out).contains("Joined"), "{}", stdout(&out));
    not_joined(&data);
    // The short form with a wrong code: the host is asked before any digits are shown, so the
    // learner reads "wrong join code" whatever digits they would have confirmed.
    let address = host.short.split(' ').next().expect("address");
    let typo_digits =
        queuelab::domain::workshop::check_digits(&url.fingerprint, "WRONG22").expect("digits");
    for digits in [host.digits.as_str(), typo_digits.as_str()] {
        let out = run(
            &data,
            &[
                "join",
                address,
                "WRONG22",
                "--name",
                "Ada",
                "--check-digits",
                digits,
            ],
            "",
        );
        let reason = "wrong join code";
        assert!(
            !stdout(&out).contains(digits),
            "no digits before the code is refused: {}",
            stdout(&out)
        );
        assert!(!out.status.success(), "{out:?}");
        assert!(stderr(&out).contains(reason), "{}", stderr(&out));
        not_joined(&data);
    }
}

#[test]
fn host_port_code_joins_in_about_twenty_characters_after_the_digits_are_confirmed() {
    let dir = tempfile::tempdir().expect("tempdir");
    let host = Host::start(&dir.path().join("host"), free_port(), &[]);
    let (address, code) = host.short.split_once(' ').expect("HOST:PORT CODE");
    assert!((6..=8).contains(&code.len()), "{code}");
    assert!(!code.contains(['0', 'O', '1', 'I', 'L']), "{code}");
    assert!(host.short.len() <= 24, "{}", host.short);
    assert_eq!(host.digits.len(), 14, "{}", host.digits);
    // On a terminal the learner answers y; here the answer comes on stdin.
    let data = dir.path().join("t1");
    let out = run(
        &data,
        &["join", address, &code.to_lowercase(), "--name", "Ada"],
        "y\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains(&format!("Check digits of this host: {}", host.digits)),
        "{text}"
    );
    assert!(text.contains("Joined Room 1 at"), "{text}");
    // Scripts pass the projector's digits instead.
    let out = run(
        &dir.path().join("t2"),
        &[
            "join",
            address,
            code,
            "--name",
            "Bob",
            "--check-digits",
            &host.digits.replace(' ', ""),
        ],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let view = host.status(dir.path());
    let names: Vec<&str> = view["trainees"]
        .as_array()
        .expect("trainees")
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert_eq!(names, ["Ada", "Bob"], "{view}");
    // The pin is recorded: later commands reach the host with the full URL.
    let out = run(&data, &["join"], "");
    assert!(stdout(&out).contains("session: Room 1"), "{}", stdout(&out));
}

#[test]
fn another_host_shows_other_digits_and_is_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    let host = Host::start(&dir.path().join("host"), free_port(), &[]);
    // Another machine (another certificate) where the trainee thinks the session is, serving
    // the code it read off the projector, so it takes that code.
    let (_, code) = host.short.split_once(' ').expect("short");
    let impostor_dir = dir.path().join("impostor");
    folder_with_code(&impostor_dir, code);
    let impostor = Host::start(&impostor_dir, free_port(), &[]);
    assert_ne!(
        host.digits, impostor.digits,
        "another certificate, other digits"
    );
    let (address, _) = impostor.short.split_once(' ').expect("short");
    let data = dir.path().join("t");
    // Not confirmed on stdin: refused, and the digits shown are the impostor's certificate's
    // with this code.
    let out = run(&data, &["join", address, code, "--name", "Ada"], "n\n");
    assert!(!out.status.success(), "{out:?}");
    let impostor_fp = queuelab::domain::workshop::JoinUrl::parse(&impostor.url)
        .expect("url")
        .fingerprint;
    let shown = queuelab::domain::workshop::check_digits(&impostor_fp, code).expect("digits");
    assert!(stdout(&out).contains(&shown), "{}", stdout(&out));
    assert!(
        stderr(&out).contains("were not confirmed"),
        "{}",
        stderr(&out)
    );
    not_joined(&data);
    // The projector's digits typed for a script: they do not match, refused.
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
    assert!(!out.status.success(), "{out:?}");
    not_joined(&data);
    // The full URL pins the real host's certificate: the impostor's address is refused.
    let mut url = queuelab::domain::workshop::JoinUrl::parse(&host.url).expect("url");
    let impostor_url = queuelab::domain::workshop::JoinUrl::parse(&impostor.url).expect("url");
    url.port = impostor_url.port;
    let out = run(&data, &["join", &url.to_string(), "--name", "Ada"], "");
    assert!(!out.status.success(), "{out:?}");
    assert!(
        stderr(&out).contains("another certificate"),
        "{}",
        stderr(&out)
    );
    not_joined(&data);
}

#[test]
fn an_unreachable_host_is_refused_in_the_learners_language() {
    let dir = tempfile::tempdir().expect("tempdir");
    let port = free_port();
    let data = dir.path().join("t");
    let out = Command::new(env!("CARGO_BIN_EXE_queuelab"))
        .args(["--lang", "de", "--data-dir"])
        .arg(&data)
        .args([
            "join",
            &format!("127.0.0.1:{port}"),
            "ABCDEFG",
            "--name",
            "Ada",
        ])
        .env("LANG", "C")
        .stdin(Stdio::null())
        .output()
        .expect("runs");
    assert!(!out.status.success(), "{out:?}");
    assert!(
        stderr(&out).contains(&format!(
            "Nicht beigetreten: unter 127.0.0.1:{port} antwortet nichts"
        )),
        "{}",
        stderr(&out)
    );
    not_joined(&data);
}

#[test]
fn stuck_speaks_the_learners_language() {
    let dir = tempfile::tempdir().expect("tempdir");
    for (lang, words) in [
        ("de", "Du bist keiner Workshop-Sitzung"),
        ("en", "Not joined"),
    ] {
        let out = crate::support::command_in(lang, dir.path(), &["stuck", "help"])
            .stdin(Stdio::null())
            .output()
            .expect("runs");
        assert!(!out.status.success());
        assert!(stderr(&out).contains(words), "{lang}: {}", stderr(&out));
    }
    // Joined, with the host reachable: the answer in German.
    let host = Host::start(&dir.path().join("host"), free_port(), &[]);
    let trainee = dir.path().join("t");
    let joined = crate::support::command_in("de", &trainee, &["join", &host.url, "--name", "Ada"])
        .stdin(Stdio::null())
        .output()
        .expect("joins");
    assert!(joined.status.success(), "{}", stderr(&joined));
    let out = crate::support::command_in("de", &trainee, &["stuck", "Lock-Token?"])
        .stdin(Stdio::null())
        .output()
        .expect("runs");
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("Die Kursleitung hat dein Feststecken-Signal"),
        "{}",
        stdout(&out)
    );
}
