//! The real binary against a host of another protocol: a TLS host on loopback whose hello names
//! the next protocol and which refuses this build's requests as a host refuses another
//! protocol. `queuelab join` refuses it in the learner's language with the version to install,
//! and records nothing; an instructor's command names the version too. The real host refuses a
//! client of another protocol the same way. A host whose answer is not the route's body gets a
//! clear message, never a panic.

use crate::support::{Host, command_in, free_port, run};
use queuelab::domain::workshop::JoinUrl;
use queuelab::domain::workshop::wire::{Hello, PROTOCOL, Route, VERSION_STATUS, VersionRefusal};
use queuelab::services::tls::Identity;
use queuelab::services::trainee::client::{deadline_in, send_as};
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

/// The version the host of the next protocol runs.
const NEWER: &str = "99.0.0";

/// What the fake host answers to a path: status and JSON body.
type Answer = fn(&str) -> (u16, String);

/// A host of the next protocol: its hello names it; every other route is refused.
fn newer_protocol(path: &str) -> (u16, String) {
    let refusal = VersionRefusal {
        protocol: PROTOCOL + 1,
        queuelab: NEWER.into(),
    };
    if path == Route::Hello.path() {
        let hello = Hello {
            session: "Room 1".into(),
            protocol: refusal.protocol,
            queuelab: refusal.queuelab,
        };
        (200, serde_json::to_string(&hello).expect("json"))
    } else {
        (
            VERSION_STATUS,
            serde_json::to_string(&refusal).expect("json"),
        )
    }
}

/// A host of the first protocol, from before hellos named one: its hello names none, and it
/// knows no other route a join asks.
fn older_protocol(path: &str) -> (u16, String) {
    if path == Route::Hello.path() {
        (200, r#"{"session":"Room 1"}"#.to_owned())
    } else {
        (404, "{}".to_owned())
    }
}

/// A host of this protocol whose summary is a body of another shape.
fn unreadable_summary(_path: &str) -> (u16, String) {
    (200, r#"{"outcome":"teleported"}"#.to_owned())
}

/// Serves `answer` over TLS on a free loopback port; the join URL pinned to its certificate.
fn fake_host(dir: &Path, answer: Answer) -> String {
    let identity = Identity::load_or_create(&dir.join("fake-host.cert")).expect("identity");
    let config = identity.server_config().expect("TLS config");
    let listener = TcpListener::bind("127.0.0.1:0").expect("binds");
    let port = listener.local_addr().expect("address").port();
    std::thread::spawn(move || {
        for tcp in listener.incoming().flatten() {
            serve_one(tcp, &config, answer);
        }
    });
    JoinUrl {
        host: "127.0.0.1".into(),
        port,
        code: "K7Q2M9X".into(),
        fingerprint: identity.fingerprint(),
    }
    .to_string()
}

/// Reads one request's head and body and writes the answer for its path.
fn serve_one(tcp: TcpStream, config: &Arc<rustls::ServerConfig>, answer: Answer) {
    let _ = tcp.set_read_timeout(Some(Duration::from_secs(10)));
    let Ok(conn) = rustls::ServerConnection::new(Arc::clone(config)) else {
        return;
    };
    let mut tls = rustls::StreamOwned::new(conn, tcp);
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        match tls.read(&mut byte) {
            Ok(1) => head.push(byte[0]),
            _ => return,
        }
    }
    let head = String::from_utf8_lossy(&head).into_owned();
    let length = head
        .lines()
        .find_map(|l| {
            l.to_ascii_lowercase()
                .strip_prefix("content-length:")
                .map(|v| v.trim().parse::<usize>().unwrap_or(0))
        })
        .unwrap_or(0);
    let mut body = vec![0u8; length];
    if tls.read_exact(&mut body).is_err() {
        return;
    }
    let target = head.split(' ').nth(1).unwrap_or("");
    let (status, text) = answer(target.split('?').next().unwrap_or(""));
    let _ = write!(
        tls,
        "HTTP/1.1 {status} Answer\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{text}",
        text.len()
    );
    let _ = tls.flush();
    tls.conn.send_close_notify();
    let _ = tls.flush();
}

fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn join_refuses_a_host_of_another_protocol_in_the_learners_language() {
    let dir = tempfile::tempdir().expect("tempdir");
    let url = fake_host(dir.path(), newer_protocol);
    for (lang, says) in [
        ("en", "Update queuelab to version 99.0.0"),
        ("de", "Aktualisiere queuelab auf Version 99.0.0"),
    ] {
        let data = dir.path().join(lang);
        let out = command_in(lang, &data, &["join", &url, "--name", "Ada"])
            .output()
            .expect("join runs");
        assert!(!out.status.success(), "{out:?}");
        assert!(stderr(&out).contains(says), "{lang}: {}", stderr(&out));
        assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
        let status = run(&data, &["join"], "");
        assert!(
            stdout(&status).contains("not joined"),
            "a refused join records nothing: {}",
            stdout(&status)
        );
    }
}

#[test]
fn join_asks_for_the_older_hosts_update_not_this_ones() {
    let dir = tempfile::tempdir().expect("tempdir");
    let url = fake_host(dir.path(), older_protocol);
    let ours = queuelab::domain::workshop::wire::QUEUELAB_VERSION;
    for (lang, says) in [
        (
            "en",
            format!("Ask the instructor to update the host to queuelab {ours}"),
        ),
        (
            "de",
            format!("den Host auf queuelab {ours} zu aktualisieren"),
        ),
    ] {
        let data = dir.path().join(lang);
        let out = command_in(lang, &data, &["join", &url, "--name", "Ada"])
            .output()
            .expect("join runs");
        assert!(!out.status.success(), "{out:?}");
        assert!(stderr(&out).contains(&says), "{lang}: {}", stderr(&out));
        assert!(
            !stderr(&out).contains("Update queuelab to")
                && !stderr(&out).contains("Aktualisiere queuelab auf"),
            "this queuelab is the newer one: {}",
            stderr(&out)
        );
        let status = run(&data, &["join"], "");
        assert!(
            stdout(&status).contains("not joined"),
            "{}",
            stdout(&status)
        );
    }
}

#[test]
fn an_instructor_command_names_the_hosts_version() {
    let dir = tempfile::tempdir().expect("tempdir");
    let url = fake_host(dir.path(), newer_protocol);
    let args = ["host", "status", "--url", &url, "--key", "any-key"];
    let out = run(&dir.path().join("instructor"), &args, "");
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(
        stderr(&out).contains("The host runs queuelab 99.0.0")
            && stderr(&out).contains("Update queuelab to version 99.0.0"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_reply_of_another_shape_is_a_clear_message_not_a_panic() {
    let dir = tempfile::tempdir().expect("tempdir");
    let url = fake_host(dir.path(), unreadable_summary);
    let args = ["host", "status", "--url", &url, "--key", "any-key"];
    let out = run(&dir.path().join("instructor"), &args, "");
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let said = stderr(&out);
    let unreadable = format!(
        "the host's answer to {} is not readable",
        Route::Summary.spelled()
    );
    assert!(said.contains(&unreadable), "{said}");
    assert!(!said.contains("panicked"), "{said}");
}

#[test]
fn the_host_refuses_a_client_of_another_protocol_with_its_own_version() {
    let dir = tempfile::tempdir().expect("tempdir");
    let host = Host::start(&dir.path().join("host"), free_port(), &[]);
    let url = JoinUrl::parse(&host.url).expect("url");
    let ask = |protocol| {
        send_as(
            &url,
            protocol,
            Route::Hello.method(),
            Route::Hello.path(),
            Some(&url.code),
            b"",
            deadline_in(10_000),
        )
        .expect("the host answers")
    };
    let older = ask(PROTOCOL - 1);
    assert_eq!(older.status, VERSION_STATUS, "{}", older.text());
    let refusal: VersionRefusal = serde_json::from_slice(&older.body).expect("a refusal");
    assert_eq!(refusal, VersionRefusal::this_build());
    assert_eq!(ask(PROTOCOL).status, 200, "this build's client is served");
}
