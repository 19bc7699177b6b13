//! Runs the queuelab binary the way the CLI tests need it: English, its own data folder, the
//! given input on stdin, and the whole output collected.

use std::path::Path;
use std::process::{Child, Command, Output, Stdio};

/// `queuelab --lang en --data-dir DATA ARGS…` with a plain locale.
pub fn command(data: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_queuelab"));
    cmd.args(["--lang", "en", "--data-dir"])
        .arg(data)
        .args(args)
        .env("LANG", "C");
    cmd
}

/// `queuelab --data-dir DATA ARGS…` with a plain locale and nothing on stdin, waited for: the
/// language is whatever ARGS say (the default when they say nothing).
pub fn queuelab(data: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_queuelab"))
        .arg("--data-dir")
        .arg(data)
        .args(args)
        .env("LANG", "C")
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs")
}

/// Runs [`command`] with `input` on stdin and waits for it to end.
pub fn run(data: &Path, args: &[&str], input: &str) -> Output {
    super::child::output_with_input(command(data, args), input)
}

/// `queuelab --lang en share` on a free loopback port, with an empty config file of its own in
/// DATA: its stdout piped (the first lines name the address), its stderr as given.
pub fn spawn_share(data: &Path, stderr: Stdio) -> Child {
    let config = data.join("queuelab.toml");
    std::fs::write(&config, "").expect("config");
    Command::new(env!("CARGO_BIN_EXE_queuelab"))
        .arg("--data-dir")
        .arg(data)
        .arg("--config")
        .arg(&config)
        .args([
            "--lang",
            "en",
            "share",
            "--bind",
            "127.0.0.1",
            "--port",
            "0",
        ])
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .expect("spawn queuelab share")
}
