//! `queuelab host --feedback held|immediate` sets the session's held-feedback setting (issue
//! 25, peer instruction): the trainees' pace poll carries it, a restart without the flag keeps
//! it, and `host --help` explains it.

use crate::support::{Host, command, free_port};
use queuelab::domain::workshop::JoinUrl;
use queuelab::domain::workshop::pace::PaceReply;
use queuelab::services::trainee::client::{deadline_in, request};

/// What the trainees' pace poll says about feedback.
fn held(host: &Host) -> bool {
    let url = JoinUrl::parse(&host.url).expect("url");
    let reply = request(
        &url,
        "GET",
        "/api/pace?after=0",
        Some(&url.code),
        b"",
        deadline_in(10_000),
    )
    .expect("the pace poll answers");
    assert_eq!(
        reply.status,
        200,
        "{}",
        String::from_utf8_lossy(&reply.body)
    );
    let reply: PaceReply = serde_json::from_slice(&reply.body).expect("a pace reply");
    reply.hold_feedback
}

#[test]
fn the_feedback_flag_sets_the_session_and_a_restart_keeps_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let data = dir.path().join("host");
    let port = free_port();
    let host = Host::start(&data, port, &[]);
    assert!(held(&host), "held by default");
    host.kill();
    let host = Host::start(&data, port, &["--feedback", "immediate"]);
    assert!(!held(&host), "--feedback immediate");
    host.kill();
    let host = Host::start(&data, port, &[]);
    assert!(!held(&host), "a restart without the flag keeps the setting");
    host.kill();
    let host = Host::start(&data, port, &["--feedback", "held"]);
    assert!(held(&host), "--feedback held");
    host.kill();
    let out = command(&data, &["host", "--feedback", "sometimes"])
        .output()
        .expect("runs");
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("held"),
        "clap names the values: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let help = command(&data, &["host", "--help"]).output().expect("help");
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(
        help.contains("--feedback") && help.contains("immediate") && help.contains("reveal"),
        "{help}"
    );
}
