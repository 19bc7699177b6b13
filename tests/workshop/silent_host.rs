//! A host that accepts TCP and never answers the TLS handshake: `join`, `stuck` and the
//! library client give up at their one deadline instead of hanging until killed.

use crate::support::command;
use queuelab::domain::workshop::JoinUrl;
use queuelab::services::trainee::client::{deadline_in, request};
use std::net::{TcpListener, TcpStream};
use std::process::{Output, Stdio};
use std::time::{Duration, Instant};

/// Accepts every connection and keeps it open without sending a byte.
fn silent_listener() -> (u16, std::thread::JoinHandle<()>) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("addr").port();
    let holder = std::thread::spawn(move || {
        let mut held: Vec<TcpStream> = Vec::new();
        for stream in listener.incoming().flatten() {
            held.push(stream);
        }
    });
    (port, holder)
}

fn silent_url(port: u16) -> JoinUrl {
    JoinUrl {
        host: "127.0.0.1".to_owned(),
        port,
        code: "ABCDEFGHJK".to_owned(),
        fingerprint: "ab".repeat(32),
    }
}

/// Runs the binary; a run longer than `limit` is killed and reported as hanging.
fn run_bounded(data: &std::path::Path, args: &[&str], limit: Duration) -> (Output, Duration) {
    let started = Instant::now();
    let mut child = command(data, args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    while child.try_wait().expect("wait").is_none() {
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("queuelab {args:?} still ran after {limit:?}: it hangs on a silent host");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().expect("output");
    (out, started.elapsed())
}

#[test]
fn join_and_stuck_give_up_at_their_deadline_on_a_host_that_never_answers_tls() {
    let (port, _holder) = silent_listener();
    let url = silent_url(port).to_string();
    let dir = tempfile::tempdir().expect("tempdir");
    // A line command delivers for 2 s at most; a debug binary on a loaded machine needs seconds
    // more to start. Before the one deadline both commands waited until killed.
    let limit = Duration::from_mins(1);
    let (out, _) = run_bounded(dir.path(), &["join", &url, "--name", "Ada"], limit);
    // Nothing reaches the host: the join is refused with the reason, never "joined".
    let text = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{out:?}");
    assert!(
        text.contains("did not answer in time"),
        "join said:\n{text}"
    );
    // A trainee joined while the host still answered: its stuck signal waits for it.
    let (mut store, _) =
        queuelab::services::Store::open(&dir.path().join("progress.db")).expect("store");
    store.join(&silent_url(port), "Ada").expect("joined");
    drop(store);
    let (out, _) = run_bounded(dir.path(), &["stuck", "lost"], limit);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.to_lowercase().contains("stuck signal saved"),
        "stuck said:\n{text}"
    );
}

#[test]
fn one_client_deadline_covers_connect_handshake_request_and_response() {
    let (port, _holder) = silent_listener();
    let started = Instant::now();
    let answer = request(
        &silent_url(port),
        "GET",
        "/api/pace",
        None,
        b"",
        deadline_in(300),
    );
    let err = answer.expect_err("a silent host gives no answer");
    assert!(err.contains("did not answer in time"), "{err}");
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "the request waited {:?}",
        started.elapsed()
    );
}

#[test]
fn a_delivery_says_whether_it_really_asked_the_host() {
    let (port, _holder) = silent_listener();
    let dir = tempfile::tempdir().expect("tempdir");
    let (mut store, _) =
        queuelab::services::Store::open(&dir.path().join("progress.db")).expect("store");
    store.join(&silent_url(port), "Ada").expect("joined");
    // Nothing due: no request, so nothing is known about the host (Home must not say
    // "reachable" on the strength of it).
    let idle =
        queuelab::services::trainee::deliver(&mut store, deadline_in(300), false).expect("runs");
    assert!(!idle.attempted && idle.error.is_none(), "{idle:?}");
    let asked =
        queuelab::services::trainee::deliver(&mut store, deadline_in(300), true).expect("runs");
    assert!(asked.attempted && asked.error.is_some(), "{asked:?}");
}
