//! A small append-only log file in the data directory. The TUI owns the screen, so nothing is
//! ever logged to stdout or stderr while it runs.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::Path;
use std::sync::{Mutex, OnceLock};
use std::time::{SystemTime, UNIX_EPOCH};

static LOG: OnceLock<Mutex<File>> = OnceLock::new();

/// Opens (appending) the log file; later calls keep the first file.
pub fn init(path: &Path) -> std::io::Result<()> {
    let file = OpenOptions::new().create(true).append(true).open(path)?;
    let _ = LOG.set(Mutex::new(file));
    Ok(())
}

/// Writes one line with a Unix timestamp. Failing to log never fails the caller.
pub fn line(level: &str, message: &str) {
    let Some(lock) = LOG.get() else { return };
    let Ok(mut file) = lock.lock() else { return };
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    // One write per line: lines from several threads never interleave, and it is one system
    // call instead of six.
    let line = format!("{secs} {level} {}\n", message.replace('\n', " "));
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
