//! The host's files: the databases are owner-only, a folder other users can read gets a warning
//! that names the host's files, and a second host on the same folder is refused with a clear
//! message.

use crate::support::{Host, command, free_port};
use std::os::unix::fs::PermissionsExt;
use std::process::Stdio;

fn mode(path: &std::path::Path) -> u32 {
    std::fs::metadata(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .permissions()
        .mode()
        & 0o777
}

#[test]
fn host_files_are_owner_only_a_shared_folder_is_named_and_a_second_host_is_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    let data = dir.path().join("host");
    std::fs::create_dir_all(&data).expect("dir");
    // A folder others can read, as a home directory often is.
    std::fs::set_permissions(&data, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let config = data.join("host.toml");
    std::fs::write(
        &config,
        "[mail]\ntransport = \"smtp\"\nhost = \"127.0.0.1\"\nport = 9\nsecurity = \"none\"\nfrom = \"lab@example.org\"\n",
    )
    .expect("config");
    let cfg = config.to_str().expect("utf8");
    let host = Host::start(&data, free_port(), &["--config", cfg]);
    for file in ["host.db", "host-mail.db"] {
        assert_eq!(mode(&data.join(file)), 0o600, "{file}");
    }

    let second = command(
        &data,
        &[
            "host",
            "--headless",
            "--bind",
            "127.0.0.1",
            "--port",
            &free_port().to_string(),
            "--config",
            cfg,
        ],
    )
    .stdin(Stdio::null())
    .output()
    .expect("a second host runs");
    assert!(!second.status.success(), "a second host must not start");
    let stderr = String::from_utf8_lossy(&second.stderr);
    assert!(
        stderr.contains("another queuelab host already serves a session from"),
        "{stderr}"
    );
    assert!(
        stderr.contains("host.db") && stderr.contains("warning"),
        "the shared-folder warning names the host's files: {stderr}"
    );
    drop(host);
}
