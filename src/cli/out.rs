//! Standard output for the commands. `println!` panics when the reader has gone away
//! (`queuelab sim ... | head -1`); these write with `writeln!` and turn a closed pipe into
//! [`Failure::Closed`], which ends the command quietly: nobody is left to read the rest.

use super::Failure;
use std::fmt::Display;
use std::io::{ErrorKind, Write};

/// Writes `text` and a newline to standard output.
pub fn line(text: impl Display) -> Result<(), Failure> {
    to(&mut std::io::stdout().lock(), text)
}

/// Writes `text` and a newline to `out`.
pub fn to(out: &mut impl Write, text: impl Display) -> Result<(), Failure> {
    writeln!(out, "{text}").map_err(|e| written(&e))
}

/// Writes `text` without a newline and flushes it (a prompt).
pub fn prompt(out: &mut impl Write, text: impl Display) -> Result<(), Failure> {
    write!(out, "{text}")
        .and_then(|()| out.flush())
        .map_err(|e| written(&e))
}

/// The failure for a failed write: quiet for a closed pipe, a one-line reason otherwise.
pub fn written(e: &std::io::Error) -> Failure {
    if e.kind() == ErrorKind::BrokenPipe {
        Failure::Closed
    } else {
        Failure::new(format!("cannot write to standard output: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer whose reader has gone.
    struct Closed;

    impl Write for Closed {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(ErrorKind::BrokenPipe.into())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Err(ErrorKind::BrokenPipe.into())
        }
    }

    #[test]
    fn a_closed_pipe_ends_quietly_and_other_errors_say_why() {
        let closed = to(&mut Closed, "x").expect_err("a closed pipe fails");
        assert!(matches!(closed, Failure::Closed), "{closed:?}");
        let closed = prompt(&mut Closed, "? ").expect_err("also for prompts");
        assert!(matches!(closed, Failure::Closed), "{closed:?}");
        let full = written(&std::io::Error::from(ErrorKind::StorageFull));
        let Failure::Failed { code, message } = full else {
            panic!("a full disk is a failure: {full:?}");
        };
        assert_eq!(code, 1);
        assert!(message.starts_with("cannot write to standard output: "));
        let mut buffer = Vec::new();
        assert!(to(&mut buffer, "ok").is_ok());
        assert_eq!(buffer, b"ok\n");
    }
}
