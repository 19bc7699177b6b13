//! Runs a prepared command with text on its stdin and collects its whole output. Shared by the
//! CLI and the workshop test binaries (the workshop includes this file by path).

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `cmd` with `input` on stdin and waits for it to end.
pub fn output_with_input(mut cmd: Command, input: &str) -> Output {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("input written");
    child.wait_with_output().expect("the command ends")
}
