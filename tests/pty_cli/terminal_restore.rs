//! The terminal is given back after a panic, SIGTERM and SIGHUP: the pseudo-terminal's own
//! termios is in cooked mode again (ICANON and ECHO set; read from the pty master, which
//! outlives the program), and the output ends with mouse reporting off and the alternate screen
//! left. A panic exits non-zero and prints its message on the main screen, after the restore.

#![cfg(unix)] // termios and signals are Unix's

use crate::support::pty;

use nix::sys::termios::LocalFlags;
use pty::Session;

const ENTER_ALT: &str = "\x1b[?1049h";
const LEAVE_ALT: &str = "\x1b[?1049l";
const MOUSE_OFF: &str = "\x1b[?1000l";
const COOKED: LocalFlags = LocalFlags::ICANON.union(LocalFlags::ECHO);
/// The text of the hidden debug panic (`src/runtime/debug_panic.rs`).
const PANIC_TEXT: &str = "deliberate panic after the first frame";

/// The output after the program last entered the alternate screen.
fn after_last_enter(raw: &[u8]) -> String {
    let text = String::from_utf8_lossy(raw);
    let from = text
        .rfind(ENTER_ALT)
        .unwrap_or_else(|| panic!("never entered the alternate screen: {text:?}"));
    text[from..].to_owned()
}

fn assert_restored(s: &Session, why: &str) {
    let flags = s.local_flags();
    assert!(
        flags.contains(COOKED),
        "{why}: ICANON and ECHO set again, got {flags:?}"
    );
    let tail = after_last_enter(&s.raw());
    assert!(tail.contains(MOUSE_OFF), "{why}: mouse reporting off");
    assert!(tail.contains(LEAVE_ALT), "{why}: alternate screen left");
    assert!(!s.in_alternate_screen(), "{why}: main screen shown");
}

#[test]
fn sigterm_and_sighup_give_back_a_cooked_terminal_with_mouse_reporting_off() {
    for signal in ["TERM", "HUP"] {
        let data = tempfile::tempdir().expect("tempdir");
        let mut s = Session::start(data.path(), &["--lang", "en"], 80, 24);
        s.wait_for("Start with chapter 1");
        // While it runs the pty is raw (so the check after the exit can fail) and the mouse is
        // reported.
        let flags = s.local_flags();
        assert!(
            !flags.intersects(COOKED),
            "raw mode while running, got {flags:?}"
        );
        assert!(after_last_enter(&s.raw()).contains("\x1b[?1000h"));
        s.signal(signal);
        assert!(s.wait_exit(), "SIG{signal} ends cleanly");
        assert_restored(&s, &format!("SIG{signal}"));
    }
}

/// Home is drawn before the runtime handles signals (`platform/early_signals.rs`): a SIGTERM in
/// that window is caught on the main thread and the workshop saves and leaves as for any other.
/// `QUEUELAB_DEBUG_SLOW_SETUP` holds the set-up after the first frame back 3 s before it builds
/// the runtime (and then opens the log), so the signal lands in the window every time.
#[test]
fn a_sigterm_before_the_runtime_handles_signals_still_restores_the_terminal() {
    let data = tempfile::tempdir().expect("tempdir");
    let log = data.path().join("queuelab.log");
    let mut s = Session::start_with_env(
        data.path(),
        &["--lang", "en"],
        &[("QUEUELAB_DEBUG_SLOW_SETUP", "1")],
        80,
        24,
    );
    s.wait_for("Start with chapter 1");
    assert!(
        !log.exists(),
        "Home is drawn before the set-up (which opens the log)"
    );
    s.signal("TERM");
    assert!(s.wait_exit(), "SIGTERM ends cleanly");
    assert_restored(&s, "SIGTERM before the runtime");
    let log = std::fs::read_to_string(&log).expect("the log");
    assert!(
        log.contains("SIGTERM: saving and leaving"),
        "the caught signal is handled as one the runtime reports: {log}"
    );
}

#[test]
fn a_panic_restores_the_terminal_then_prints_its_message_and_fails() {
    let data = tempfile::tempdir().expect("tempdir");
    let mut s = Session::start_with_env(
        data.path(),
        &["--lang", "en"],
        // No backtrace, so the message fits on the screen whatever the caller's environment.
        &[("QUEUELAB_DEBUG_PANIC", "1"), ("RUST_BACKTRACE", "0")],
        80,
        24,
    );
    assert!(!s.wait_exit(), "a panic exits non-zero");
    let tail = after_last_enter(&s.raw());
    assert!(
        tail.contains("Start with chapter 1"),
        "the first frame was drawn before the panic: {tail:?}"
    );
    assert_restored(&s, "panic");
    let left = tail.find(LEAVE_ALT).expect("checked above");
    let message = tail
        .find(PANIC_TEXT)
        .unwrap_or_else(|| panic!("the panic message is printed: {tail:?}"));
    assert!(
        message > left,
        "the message comes after the alternate screen was left: {tail:?}"
    );
    let screen = s.screen();
    let row = screen
        .lines()
        .position(|l| l.contains(PANIC_TEXT))
        .unwrap_or_else(|| panic!("the message is on the main screen:\n{screen}"));
    // A second "leave the alternate screen" after the message would move the cursor back to
    // where the program started (DECRC), and the shell prompt would overwrite the message.
    let (cursor_row, _) = s.cursor();
    assert!(
        usize::from(cursor_row) > row,
        "the cursor stays below the message (row {cursor_row}, message on row {row}): {tail:?}"
    );
    // The log is opened after the first frame; the trigger fires once that set-up is done, so
    // the panic reaches the file.
    let log = std::fs::read_to_string(data.path().join("queuelab.log")).expect("the log");
    assert!(
        log.lines()
            .any(|l| l.contains("PANIC") && l.contains(PANIC_TEXT)),
        "the panic is logged: {log}"
    );
}

#[test]
fn without_the_debug_variable_there_is_no_panic() {
    let data = tempfile::tempdir().expect("tempdir");
    let mut s = Session::start(data.path(), &["--lang", "en"], 80, 24);
    s.wait_for("Start with chapter 1");
    s.send("q");
    assert!(s.wait_exit(), "clean exit");
    assert!(!String::from_utf8_lossy(&s.raw()).contains(PANIC_TEXT));
    assert_restored(&s, "quit");
}

/// The data folder is made after the first frame (`runtime::event_loop::run`): one that
/// cannot be made ends the workshop right after that frame, with the terminal given back and
/// the reason on the main screen.
#[test]
fn a_data_folder_that_cannot_be_made_ends_the_workshop_with_its_reason() {
    let parent = tempfile::tempdir().expect("tempdir");
    let file = parent.path().join("a-file");
    std::fs::write(&file, "not a folder").expect("write");
    let data = file.join("data");
    let mut s = Session::start(&data, &["--lang", "en"], 100, 24);
    assert!(!s.wait_exit(), "exits non-zero");
    assert_restored(&s, "data folder");
    let screen = s.screen();
    assert!(
        screen.contains("cannot create the data directory"),
        "the reason is shown:\n{screen}"
    );
    assert!(!data.exists());
}
