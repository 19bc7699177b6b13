//! A small append-only log file in the data directory. The TUI owns the screen, so nothing is
//! ever logged to stdout or stderr while it runs.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::Path;
use std::sync::{Mutex, OnceLock};
use std::time::{SystemTime, UNIX_EPOCH};

static LOG: OnceLock<Mutex<File>> = OnceLock::new();

/// Lines logged before the file was opened (the TUI opens it beside its first frame, and a
/// panic in that frame must still reach the file). Bounded: a command that never opens the
/// log keeps only the first few.
static EARLY: Mutex<Vec<String>> = Mutex::new(Vec::new());
const EARLY_MAX: usize = 64;

/// Opens (appending) the log file and writes the lines logged before; later calls keep the
/// first file.
pub fn init(path: &Path) -> std::io::Result<()> {
    let file = OpenOptions::new().create(true).append(true).open(path)?;
    // `EARLY` is held while the file is set, so no line lands there after it was emptied.
    let mut early = EARLY
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if LOG.set(Mutex::new(file)).is_ok() {
        for line in early.drain(..) {
            write(&line);
        }
    }
    Ok(())
}

/// Writes one line with a Unix timestamp. Failing to log never fails the caller.
pub fn line(level: &str, message: &str) {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let line = format!("{secs} {level} {}\n", message.replace('\n', " "));
    if LOG.get().is_none() {
        let mut early = EARLY
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        // Checked again under the lock: `init` may have finished meanwhile.
        if LOG.get().is_none() {
            if early.len() < EARLY_MAX {
                early.push(line);
            }
            return;
        }
    }
    write(&line);
}

/// One write per line: lines from several threads never interleave, and it is one system call
/// instead of six.
fn write(line: &str) {
    let Some(lock) = LOG.get() else { return };
    let Ok(mut file) = lock.lock() else { return };
    let _ = file.write_all(line.as_bytes());
}

/// Logs an informational line.
pub fn info(message: &str) {
    line("INFO", message);
}

/// Logs a warning.
pub fn warn(message: &str) {
    line("WARN", message);
}
