//! `host status` and `host pace` take the instructor key from a file or the environment, so it need
//! not stand on a command line that `ps` shows to every user.

use crate::support::{Host, command, free_port};

#[test]
fn the_instructor_key_comes_from_a_file_or_the_environment() {
    let dir = tempfile::tempdir().expect("tempdir");
    let host = Host::start(&dir.path().join("host"), free_port(), &[]);
    let me = dir.path().join("instructor");
    let key_file = dir.path().join("key.txt");
    std::fs::write(&key_file, format!("{}\n", host.key)).expect("key file");
    let status = |extra: &[&str], env: Option<&str>| {
        let mut args = vec!["host", "status", "--url", &host.url, "--json"];
        args.extend_from_slice(extra);
        let mut cmd = command(&me, &args);
        cmd.env_remove("QUEUELAB_INSTRUCTOR_KEY");
        if let Some(key) = env {
            cmd.env("QUEUELAB_INSTRUCTOR_KEY", key);
        }
        cmd.output().expect("status runs")
    };
    let out = status(&["--key-file", key_file.to_str().expect("utf8")], None);
    assert!(out.status.success(), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("\"session\""));
    let out = status(&[], Some(&host.key));
    assert!(out.status.success(), "{out:?}");
    let out = status(&[], None);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--key-file") && err.contains("QUEUELAB_INSTRUCTOR_KEY"),
        "{err}"
    );
    let help = command(&me, &["host", "status", "--help"])
        .output()
        .expect("help");
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(
        help.contains("QUEUELAB_INSTRUCTOR_KEY") && help.contains("--key-file"),
        "{help}"
    );
}
