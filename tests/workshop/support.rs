//! Running the real binary as a workshop host and as trainees.

#[path = "../pty_cli/support/child.rs"]
mod child;

use queuelab::services::discovery::PORT_ENV;
use std::io::{BufRead, BufReader};
use std::net::TcpListener;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// The binary with a data folder, English, no locale surprises.
pub fn command(data: &Path, args: &[&str]) -> Command {
    command_in("en", data, args)
}

/// The binary with a data folder in language `lang`.
pub fn command_in(lang: &str, data: &Path, args: &[&str]) -> Command {
    let mut cmd = command_saved_lang(data, &["--lang", lang]);
    cmd.args(args);
    cmd
}

/// The binary with a data folder and no `--lang`: the language is the one the trainee chose
/// before (the locale is C).
pub fn command_saved_lang(data: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_queuelab"));
    cmd.arg("--data-dir")
        .arg(data)
        .args(args)
        .env("LANG", "C")
        // Hosts advertise themselves on the LAN: tests keep off the real mDNS port and out of
        // each other's way (a discovery test gives its host and trainees a port of their own).
        .env(PORT_ENV, test_discovery_port().to_string());
    cmd
}

/// A multicast DNS port for this test process's hosts.
fn test_discovery_port() -> u16 {
    static PORT: std::sync::OnceLock<u16> = std::sync::OnceLock::new();
    *PORT.get_or_init(free_udp_port)
}

/// A UDP port nothing on this machine uses now.
pub fn free_udp_port() -> u16 {
    std::net::UdpSocket::bind("127.0.0.1:0")
        .and_then(|s| s.local_addr())
        .expect("a free UDP port")
        .port()
}

/// Runs a command with `input` on stdin.
pub fn run(data: &Path, args: &[&str], input: &str) -> Output {
    child::output_with_input(command(data, args), input)
}

/// A free loopback port (the host must come back on the same one: it is in the join URL).
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
}

/// A running headless host with its join URL and instructor key.
pub struct Host {
    /// The process.
    pub child: Child,
    /// `join: URL`.
    pub url: String,
    /// `instructor key: KEY`.
    pub key: String,
    /// `join short: HOST:PORT CODE`.
    pub short: String,
    /// `check digits: DIGITS`.
    pub digits: String,
}

impl Host {
    /// Starts `queuelab host --headless` on 127.0.0.1:`port` and waits for its two lines.
    pub fn start(data: &Path, port: u16, extra: &[&str]) -> Host {
        Host::start_in("en", data, port, extra)
    }

    /// [`Host::start`] with the session in language `lang`.
    pub fn start_in(lang: &str, data: &Path, port: u16, extra: &[&str]) -> Host {
        Host::start_with(lang, data, port, extra, &[])
    }

    /// [`Host::start_in`] with environment variables set for the host.
    pub fn start_with(
        lang: &str,
        data: &Path,
        port: u16,
        extra: &[&str],
        env: &[(&str, &str)],
    ) -> Host {
        let port = port.to_string();
        let mut args = vec!["host", "--headless", "--bind", "127.0.0.1", "--port", &port];
        if !extra.contains(&"--name") {
            args.extend(["--name", "Room 1"]);
        }
        args.extend_from_slice(extra);
        let mut child = command_in(lang, data, &args)
            .envs(env.iter().copied())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the host starts");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut url = None;
        let mut key = None;
        let mut short = String::new();
        let mut digits = String::new();
        while url.is_none() || key.is_none() {
            // Generous: a debug build on a 2-core machine shared with other builds can take a minute
            // to load the content; a host that never prints still fails here.
            let Ok(line) = rx.recv_timeout(Duration::from_mins(2)) else {
                let _ = child.kill();
                let _ = child.wait();
                panic!("the host did not print its join URL and key");
            };
            if let Some(u) = line.strip_prefix("join: ") {
                url = Some(u.to_owned());
            }
            if let Some(k) = line.strip_prefix("instructor key: ") {
                key = Some(k.to_owned());
            }
            if let Some(s) = line.strip_prefix("join short: ") {
                s.clone_into(&mut short);
            }
            if let Some(d) = line.strip_prefix("check digits: ") {
                d.clone_into(&mut digits);
            }
        }
        Host {
            child,
            url: url.expect("url"),
            key: key.expect("key"),
            short,
            digits,
        }
    }

    /// SIGKILL: no chance to clean up.
    pub fn kill(mut self) {
        self.child.kill().expect("killed");
        self.child.wait().expect("reaped");
    }

    /// Sends `queuelab host pace WHAT K` from `data`, asserts it was stored and returns what
    /// the command said.
    pub fn pace(&self, data: &Path, what: &str, k: &str) -> String {
        let args = [
            "host", "pace", "--url", &self.url, "--key", &self.key, what, k,
        ];
        let out = run(data, &args, "");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// The summary through `queuelab host status --json`.
    pub fn status(&self, data: &Path) -> serde_json::Value {
        let out = run(
            data,
            &[
                "host", "status", "--url", &self.url, "--key", &self.key, "--json",
            ],
            "",
        );
        assert!(
            out.status.success(),
            "status: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).expect("status prints JSON")
    }
}

impl Drop for Host {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A host data folder whose session will use `code` (an attacker's host takes
/// the code it saw on the projector).
pub fn folder_with_code(dir: &Path, code: &str) {
    std::fs::create_dir_all(dir).expect("folder");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700)).expect("mode");
    }
    let db = queuelab::services::host::db::HostDb::open(&dir.join("host.db")).expect("host db");
    db.set_meta("join_code", code).expect("code set");
}
