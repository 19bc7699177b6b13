//! `queuelab host kick NAME|ID`: the instructor removes a trainee from a running session; the key
//! comes from the environment as for `host status`.

use crate::support::{Host, command, free_port, run};

#[test]
fn host_kick_removes_a_joined_trainee_and_names_an_unknown_one() {
    let dir = tempfile::tempdir().expect("tempdir");
    let host = Host::start(&dir.path().join("host"), free_port(), &[]);
    let out = run(
        &dir.path().join("fake"),
        &["join", &host.url, "--name", "Fake Trainee"],
        "",
    );
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        host.status(dir.path())["trainees"].as_array().map(Vec::len),
        Some(1)
    );
    let me = dir.path().join("instructor");
    let kick = |who: &str| {
        command(&me, &["host", "kick", "--url", &host.url, who])
            .env("QUEUELAB_INSTRUCTOR_KEY", &host.key)
            .output()
            .expect("kick runs")
    };
    let out = kick("fake trainee");
    assert!(out.status.success(), "{out:?}");
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("removed Fake Trainee"), "{said}");
    assert_eq!(
        host.status(dir.path())["trainees"].as_array().map(Vec::len),
        Some(0)
    );
    let out = kick("fake trainee");
    assert!(!out.status.success(), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no trainee called"), "{err}");
    let help = command(&me, &["host", "kick", "--help"])
        .output()
        .expect("help");
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(help.contains("QUEUELAB_INSTRUCTOR_KEY"), "{help}");
}
