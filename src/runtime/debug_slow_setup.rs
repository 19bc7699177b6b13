//! A hidden fault trigger for the terminal-restore test (`tests/pty_cli/terminal_restore.rs`): with the
//! environment variable `QUEUELAB_DEBUG_SLOW_SETUP` set, the set-up after the first frame
//! (`loop_setup.rs`) waits 3 s before it builds the runtime, so the test can send a signal while
//! only the early catch (`platform/early_signals.rs`) handles it, which happens otherwise only
//! in a window of a fraction of a millisecond. Nothing in the workshop sets the variable and no
//! key or flag reaches this; without it the check is one environment lookup at start-up.

use std::time::Duration;

/// The environment variable that arms the trigger.
const VAR: &str = "QUEUELAB_DEBUG_SLOW_SETUP";

/// Sleeps 3 s when `QUEUELAB_DEBUG_SLOW_SETUP` is set; returns at once otherwise.
pub(super) fn before_runtime() {
    if std::env::var_os(VAR).is_some() {
        std::thread::sleep(Duration::from_secs(3));
    }
}
