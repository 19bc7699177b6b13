//! A hidden fault trigger for the terminal-restore test (`tests/pty_cli/terminal_restore.rs`): with the
//! environment variable `QUEUELAB_DEBUG_PANIC` set, the event loop panics right after its first
//! frame, so the test can prove that a panic leaves the terminal in cooked mode with mouse
//! reporting off and prints its message on the main screen. Nothing in the workshop sets the
//! variable and no key or flag reaches this; without it the check is one environment lookup at
//! start-up.

/// The environment variable that arms the trigger.
pub(super) const VAR: &str = "QUEUELAB_DEBUG_PANIC";

/// Panics when `QUEUELAB_DEBUG_PANIC` is set; returns otherwise.
pub(super) fn after_first_frame() {
    assert!(
        std::env::var_os(VAR).is_none(),
        "{VAR} is set: deliberate panic after the first frame (terminal-restore test)"
    );
}
