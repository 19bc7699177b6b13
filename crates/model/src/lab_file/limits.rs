//! The bounds a lab file and each of its statements are held to, named here because the
//! learner's messages state them; the guard in `queuelab-sim` enforces them on the connection
//! that runs the file.

/// The largest lab file, in bytes (the reference solutions are 1–3 KB with their comments).
pub const MAX_FILE_BYTES: usize = 256 * 1024;
/// The longest single statement, in bytes.
pub const MAX_STATEMENT_BYTES: usize = 16 * 1024;
/// Virtual-machine steps between two calls of the progress handler.
pub const STEPS_PER_TICK: i32 = 1_000;
/// Calls of the progress handler one statement may use (about 20 million VM steps: far more
/// than any honest handler statement needs, a fraction of a second of work).
pub const TICKS_PER_STATEMENT: u32 = 20_000;
/// The VM steps one statement may use.
pub const STEPS_PER_STATEMENT: u64 = STEPS_PER_TICK as u64 * TICKS_PER_STATEMENT as u64;
/// The seconds one statement may run, whatever its count of steps.
pub const STATEMENT_SECONDS: u64 = 5;

/// `n` bytes as a person reads it: `812 bytes`, `16 KB`, `1.0 MB`, `52.4 MB`.
pub fn human_bytes(n: usize) -> String {
    const KB: usize = 1024;
    const MB: usize = 1024 * 1024;
    match n {
        n if n < KB => format!("{n} B"),
        n if n < MB => format!("{} KB", n.div_ceil(KB)),
        n => {
            let tenths = n.saturating_mul(10) / MB;
            format!("{}.{} MB", tenths / 10, tenths % 10)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_as_people_say_them() {
        assert_eq!(human_bytes(812), "812 B");
        assert_eq!(human_bytes(16 * 1024), "16 KB");
        assert_eq!(human_bytes(52_428_800), "50.0 MB");
    }
}
