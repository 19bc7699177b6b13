//! A host that refuses a trainee (here: a wrong join code) makes `join` fail with the reason,
//! not exit 0 as if the host were only unreachable (issue 24, item 8).

use crate::support::{Host, free_port, run};

#[test]
fn join_exits_non_zero_when_the_host_refuses() {
    let dir = tempfile::tempdir().expect("tempdir");
    let host = Host::start(&dir.path().join("host"), free_port(), &[]);
    let mut url = queuelab::domain::workshop::JoinUrl::parse(&host.url).expect("url");
    url.code = "WRONGCODE2".to_owned();
    let out = run(
        &dir.path().join("t"),
        &["join", &url.to_string(), "--name", "Ada"],
        "",
    );
    assert!(!out.status.success(), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("403") && err.contains("wrong join code"),
        "{err}"
    );
}
