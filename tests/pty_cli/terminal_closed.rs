//! A terminal window closed by the learner: the pseudo-terminal's master goes away (every
//! descriptor of it), the kernel hangs up the session, and from then on every write to the
//! terminal fails with EIO. The workshop must leave without a panic (a panic on a vanished
//! terminal wrote `PANIC … failed printing to stderr` to the log on every real close) and keep
//! the log and the progress intact. A signal alone (`tests/pty_cli/terminal_restore.rs`) leaves the
//! terminal open, so it cannot show this.
//!
//! Each close runs under both terminal waits: `poll(2)`, and `select(2)` as on macOS
//! (`src/platform/terminal_wait.rs`). And the workshop must leave by its own reader's hang-up
//! even when no SIGHUP comes: the kernel sends the hang-up signal to the session leader only,
//! so a shell that ignores SIGHUP and runs queuelab as its child keeps the signal from it.

use crate::support::course::chapters_read;
use portable_pty::{CommandBuilder, PtySize, native_pty_system};
use std::io::Read;
use std::time::{Duration, Instant};

/// Generous: CI is shared.
const WAIT: Duration = Duration::from_secs(30);

/// The close races the event loop (crossterm's reader used to spin on the hung-up terminal when
/// it was polled before the SIGHUP was seen, about one close in ten under load), so one window is
/// closed several times.
const CLOSES: usize = 5;

/// The environment that makes queuelab wait with `select(2)` (`tests/pty_cli/support/pty.rs`).
const SELECT_WAIT: (&str, &str) = ("QUEUELAB_DEBUG_TERMINAL_WAIT", "select");
/// What the log says when the reader's hang-up ends the workshop, and when SIGHUP does.
const READER_HUNG_UP: &str = "the terminal hung up: saving and leaving";
const SIGHUP_CAME: &str = "SIGHUP: saving and leaving";

/// How queuelab is started in the window.
#[derive(Clone, Copy)]
enum Start {
    /// As the session leader, as a terminal starts a shell: the close sends it SIGHUP.
    Leader,
    /// As the child of a shell that ignores SIGHUP: no SIGHUP reaches queuelab.
    WithoutSighup,
}

#[test]
fn closing_the_terminal_ends_the_workshop_without_a_panic() {
    for _ in 0..CLOSES {
        close_once(Start::Leader, None);
    }
}

#[test]
fn closing_the_terminal_ends_the_workshop_with_the_select_wait_too() {
    for _ in 0..CLOSES {
        close_once(Start::Leader, Some(SELECT_WAIT));
    }
}

/// Without SIGHUP, only the terminal reader can see the close: a reader that took a hang-up
/// for bytes, or spun on it, would leave the workshop running in a closed window.
#[test]
fn a_closed_terminal_ends_the_workshop_by_its_own_hang_up_when_no_sighup_comes() {
    for env in [None, Some(SELECT_WAIT)] {
        let log = close_once(Start::WithoutSighup, env);
        assert!(log.contains(READER_HUNG_UP), "{log}");
        assert!(
            !log.contains(SIGHUP_CAME),
            "no SIGHUP reached queuelab: {log}"
        );
    }
}

/// Starts queuelab in a window, closes the window once Home is drawn, and returns the log once
/// queuelab has left.
fn close_once(start: Start, env: Option<(&str, &str)>) -> String {
    let data = tempfile::tempdir().expect("tempdir");
    let pair = native_pty_system()
        .openpty(PtySize {
            rows: 24,
            cols: 80,
            pixel_width: 0,
            pixel_height: 0,
        })
        .expect("openpty");
    let program = env!("CARGO_BIN_EXE_queuelab");
    let mut cmd = match start {
        Start::Leader => CommandBuilder::new(program),
        Start::WithoutSighup => {
            // Not `exec`: queuelab must stay the shell's child, not become the leader. The
            // `exit` keeps a shell from running the last command by `exec` on its own.
            let mut shell = CommandBuilder::new("sh");
            shell.args(["-c", "trap '' HUP; \"$0\" \"$@\"; exit $?", program]);
            shell
        }
    };
    cmd.arg("--data-dir");
    cmd.arg(data.path());
    cmd.args(["--lang", "en"]);
    cmd.env("TERM", "xterm-256color");
    cmd.env("LANG", "C.UTF-8");
    cmd.env("RUST_BACKTRACE", "0");
    if let Some((key, value)) = env {
        cmd.env(key, value);
    }
    let mut child = pair.slave.spawn_command(cmd).expect("spawn queuelab");
    drop(pair.slave);
    // A watchdog: a program that never draws must not hang the blocking read below.
    let killer = std::sync::Mutex::new(child.clone_killer());
    let started = Instant::now();
    let (done, watch) = std::sync::mpsc::channel::<()>();
    let watchdog = std::thread::spawn(move || {
        if watch.recv_timeout(WAIT).is_err() {
            let _ = killer.lock().map(|mut k| k.kill());
        }
    });

    // Read (on this thread, so no clone of the master outlives the close) until Home is drawn.
    let mut reader = pair.master.try_clone_reader().expect("reader");
    let size = |n: u16| std::num::NonZeroU16::new(n).expect("not zero");
    let mut parser = vt100::Parser::new(size(24), size(80), 0);
    let mut buf = [0u8; 8192];
    // Home with the progress the store loaded: nothing is left to draw, so the close is seen
    // by the reader (or the signal), not by a draw that fails on the closed window.
    let home = chapters_read(0);
    while !parser.screen().contents().contains(&home) {
        let n = reader.read(&mut buf).unwrap_or(0);
        assert!(n > 0, "Home was drawn before the output ended");
        parser.process(&buf[..n]);
    }
    // The learner closes the window: every descriptor of the master goes.
    drop(reader);
    drop(pair.master);

    let closed = Instant::now();
    let status = loop {
        if let Ok(Some(status)) = child.try_wait() {
            break status;
        }
        assert!(
            started.elapsed() < WAIT,
            "queuelab did not leave within {WAIT:?} of its start ({:?} after the close)",
            closed.elapsed()
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    let _ = done.send(());
    watchdog.join().expect("watchdog");
    let log = std::fs::read_to_string(data.path().join("queuelab.log")).expect("the log");
    assert!(
        !log.contains("PANIC"),
        "no panic on the vanished terminal (exit {status:?}): {log}"
    );
    assert!(log.contains("start:"), "the workshop had started: {log}");
    log
}
