//! Waiting on the terminal for bytes or a hang-up, for the reader thread
//! (`runtime/terminal_input.rs`).
//!
//! Which wait each platform gets, and why:
//! - Linux (and WSL): `poll(2)`. It reports a hang-up as such (POLLHUP), so a closed window is
//!   told apart from a key at once.
//! - macOS: `poll(2)` does not support devices (its man page, under BUGS) and answers POLLNVAL
//!   for a terminal. So the wait starts with `poll(2)`, and when it answers POLLNVAL for a
//!   descriptor that is still open, it switches to `select(2)` for good. `select(2)` reports a
//!   hang-up as "readable", the very answer that once made crossterm's reader spin; so readable
//!   with no byte waiting (FIONREAD says 0), or FIONREAD failing with EIO (Linux's answer on a
//!   hung-up terminal), is a hang-up. Only the reader may be reading then: a program the
//!   terminal is lent to (an editor) may take the bytes between the wake-up and FIONREAD, which
//!   is why the reader decides only on an answer it got while the terminal was its own.
//! - Any platform, for the tests: `QUEUELAB_DEBUG_TERMINAL_WAIT=select` makes the wait use
//!   `select(2)` from the start, so the pseudo-terminal tests run the macOS wait on Linux. The
//!   variable is hidden: nothing in the workshop sets it, and no key or flag reaches it.
//!
//! `select(2)` comes from `nix`, whose `select` is safe (rustix's is an `unsafe fn`, and this
//! workspace forbids unsafe code). It handles descriptors below `FD_SETSIZE` (1024) only, and
//! `nix` panics on a higher one: the terminal is duplicated when the reader starts, to the
//! lowest free descriptor, and a descriptor that is still too high is an error, not a panic.
//!
//! When standard input is not a terminal, the reader opens `/dev/tty`, and so does crossterm,
//! which reads the bytes this wait announces. On macOS, crossterm's default reader registers
//! the terminal with kqueue, which refuses `/dev/tty`; its `use-dev-tty` feature waits with
//! `select(2)` there instead (crossterm's `event/source/unix/tty.rs`, through the
//! `filedescriptor` crate), so the manifest turns that feature on for macOS only.

use nix::sys::select::{FD_SETSIZE, FdSet, select};
use nix::sys::time::TimeVal;
use rustix::event::{PollFd, PollFlags, Timespec};
use std::io::IsTerminal;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, OwnedFd};
use std::time::Duration;

/// The environment variable that forces the `select(2)` wait.
const FORCE_VAR: &str = "QUEUELAB_DEBUG_TERMINAL_WAIT";

/// What the terminal showed.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Waiting {
    Bytes,
    Nothing,
    HungUp,
}

/// One `poll(2)` of one descriptor: what it reported (`revents`). A parameter so that a test
/// can answer as macOS does.
pub(crate) type PollStep = fn(BorrowedFd<'_>, Option<&Timespec>) -> rustix::io::Result<PollFlags>;

/// How the wait is done now.
#[derive(Debug, Clone, Copy)]
enum How {
    Poll(PollStep),
    Select,
}

/// The terminal the reader waits on, and how it waits.
pub(crate) struct TerminalWait {
    terminal: OwnedFd,
    how: How,
}

impl TerminalWait {
    /// The terminal crossterm reads (standard input when it is one, `/dev/tty` otherwise),
    /// waited on with `poll(2)` unless the environment forces `select(2)`.
    pub(crate) fn open() -> std::io::Result<TerminalWait> {
        let forced = std::env::var_os(FORCE_VAR).is_some_and(|v| v == "select");
        let how = if forced {
            How::Select
        } else {
            How::Poll(poll_once)
        };
        TerminalWait::new(open_terminal()?, how)
    }

    /// Waits on `terminal`; a test gives its own `poll`.
    fn new(terminal: OwnedFd, how: How) -> std::io::Result<TerminalWait> {
        let wait = TerminalWait { terminal, how };
        if matches!(wait.how, How::Select) {
            wait.check_selectable()?;
        }
        Ok(wait)
    }

    /// Waits up to `timeout` (forever with `None`) for bytes or a hang-up.
    pub(crate) fn wait(&mut self, timeout: Option<Duration>) -> Result<Waiting, String> {
        if let How::Poll(step) = self.how {
            match poll_wait(step, self.terminal.as_fd(), timeout)? {
                Polled::Seen(waiting) => return Ok(waiting),
                Polled::Refused => self.switch_to_select()?,
            }
        }
        select_wait(self.terminal.as_fd(), timeout)
    }

    /// `poll(2)` answered POLLNVAL. For a closed descriptor that is the truth; for an open one
    /// it is `poll(2)` refusing the device (macOS), and `select(2)` takes over.
    fn switch_to_select(&mut self) -> Result<(), String> {
        rustix::io::fcntl_getfd(&self.terminal)
            .map_err(|e| format!("the terminal's descriptor is not open: {e}"))?;
        self.check_selectable().map_err(|e| e.to_string())?;
        services::log::info("poll(2) refuses the terminal (POLLNVAL): waiting with select(2)");
        self.how = How::Select;
        Ok(())
    }

    /// `select(2)` handles descriptors below `FD_SETSIZE` only.
    fn check_selectable(&self) -> std::io::Result<()> {
        let fd = self.terminal.as_raw_fd();
        if usize::try_from(fd).is_ok_and(|fd| fd < FD_SETSIZE) {
            Ok(())
        } else {
            Err(std::io::Error::other(format!(
                "the terminal's descriptor {fd} is too high for select(2) (limit {FD_SETSIZE})"
            )))
        }
    }
}

/// The terminal crossterm reads: standard input when it is one, `/dev/tty` otherwise. Either
/// way a new descriptor, the lowest free one.
fn open_terminal() -> std::io::Result<OwnedFd> {
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        stdin.as_fd().try_clone_to_owned()
    } else {
        Ok(std::fs::File::open("/dev/tty")?.into())
    }
}

/// What one round of `poll(2)` gave.
enum Polled {
    Seen(Waiting),
    /// POLLNVAL: the descriptor is closed, or `poll(2)` does not support it.
    Refused,
}

/// The real `poll(2)`.
fn poll_once(
    terminal: BorrowedFd<'_>,
    timeout: Option<&Timespec>,
) -> rustix::io::Result<PollFlags> {
    let mut fds = [PollFd::from_borrowed_fd(terminal, PollFlags::IN)];
    rustix::event::poll(&mut fds, timeout)?;
    Ok(fds[0].revents())
}

fn poll_wait(
    step: PollStep,
    terminal: BorrowedFd<'_>,
    timeout: Option<Duration>,
) -> Result<Polled, String> {
    let timeout = timeout.map(|t| Timespec {
        tv_sec: t.as_secs() as i64,
        tv_nsec: i64::from(t.subsec_nanos()),
    });
    loop {
        match step(terminal, timeout.as_ref()) {
            Ok(seen) if seen.contains(PollFlags::NVAL) => return Ok(Polled::Refused),
            Ok(seen) => {
                return Ok(Polled::Seen(
                    if seen.intersects(PollFlags::HUP | PollFlags::ERR) {
                        Waiting::HungUp
                    } else if seen.contains(PollFlags::IN) {
                        Waiting::Bytes
                    } else {
                        Waiting::Nothing
                    },
                ));
            }
            Err(rustix::io::Errno::INTR) => {}
            Err(e) => return Err(format!("waiting for the terminal failed: {e}")),
        }
    }
}

fn select_wait(terminal: BorrowedFd<'_>, timeout: Option<Duration>) -> Result<Waiting, String> {
    loop {
        let mut readable = FdSet::new();
        readable.insert(terminal);
        // select(2) may change the time left: a fresh one for each round.
        let mut limit = timeout.map(|t| {
            TimeVal::new(
                t.as_secs().try_into().unwrap_or(nix::libc::time_t::MAX),
                t.subsec_micros().into(),
            )
        });
        match select(None, &mut readable, None, None, limit.as_mut()) {
            Ok(_) if readable.contains(terminal) => return bytes_or_hang_up(terminal),
            Ok(_) => return Ok(Waiting::Nothing),
            Err(nix::errno::Errno::EINTR) => {}
            Err(e) => return Err(format!("waiting for the terminal failed: {e}")),
        }
    }
}

/// The terminal is readable: bytes are waiting, or it hung up (readable, and a read would
/// return nothing or fail with EIO).
fn bytes_or_hang_up(terminal: BorrowedFd<'_>) -> Result<Waiting, String> {
    match rustix::io::ioctl_fionread(terminal) {
        Ok(0) | Err(rustix::io::Errno::IO) => Ok(Waiting::HungUp),
        Ok(_) => Ok(Waiting::Bytes),
        Err(e) => Err(format!("asking the terminal for waiting bytes failed: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    /// A pseudo-terminal pair from the test's own process: the slave end is what the reader
    /// waits on, the master is the window.
    fn pty() -> (std::fs::File, OwnedFd) {
        let pair = nix::pty::openpty(None, None).expect("openpty");
        (std::fs::File::from(pair.master), pair.slave)
    }

    /// `poll(2)` as macOS answers it for a terminal: at once, POLLNVAL. (A `PollStep`, so it
    /// returns a `Result` like the real one.)
    #[allow(clippy::unnecessary_wraps)]
    fn refusing_poll(_: BorrowedFd<'_>, _: Option<&Timespec>) -> rustix::io::Result<PollFlags> {
        Ok(PollFlags::NVAL)
    }

    fn waits() -> [(&'static str, How); 2] {
        [("poll", How::Poll(poll_once)), ("select", How::Select)]
    }

    #[test]
    fn waiting_bytes_are_seen_and_an_idle_terminal_is_not_hung_up() {
        for (name, how) in waits() {
            let (mut master, slave) = pty();
            let mut wait = TerminalWait::new(slave, how).expect("a low descriptor");
            assert_eq!(
                wait.wait(Some(Duration::ZERO)),
                Ok(Waiting::Nothing),
                "{name}"
            );
            // A line: the fresh pseudo-terminal is in canonical mode (the app switches to raw).
            master.write_all(b"x\n").expect("type");
            assert_eq!(wait.wait(None), Ok(Waiting::Bytes), "{name}");
        }
    }

    #[test]
    fn a_closed_window_is_a_hang_up_not_bytes() {
        for (name, how) in waits() {
            let (master, slave) = pty();
            let mut wait = TerminalWait::new(slave, how).expect("a low descriptor");
            drop(master);
            // Forever would hang the test if the hang-up were not reported.
            assert_eq!(wait.wait(None), Ok(Waiting::HungUp), "{name}");
        }
    }

    /// Readable with nothing to read is a hang-up for `select(2)`. On Linux a hung-up terminal
    /// answers FIONREAD with EIO (the test above); the end of input in canonical mode (Ctrl+D
    /// on an empty line) is readable with 0 bytes waiting, as macOS shows a closed window.
    #[test]
    fn select_takes_readable_with_nothing_waiting_for_a_hang_up() {
        let (mut master, slave) = pty();
        let mut wait = TerminalWait::new(slave, How::Select).expect("a low descriptor");
        master.write_all(b"\x04").expect("Ctrl+D");
        assert_eq!(wait.wait(None), Ok(Waiting::HungUp));
    }

    #[test]
    fn a_poll_that_refuses_the_terminal_hands_over_to_select_for_good() {
        let (mut master, slave) = pty();
        let mut wait = TerminalWait::new(slave, How::Poll(refusing_poll)).expect("a pty");
        assert!(matches!(wait.how, How::Poll(_)));
        assert_eq!(wait.wait(Some(Duration::ZERO)), Ok(Waiting::Nothing));
        assert!(
            matches!(wait.how, How::Select),
            "POLLNVAL on an open terminal switches to select"
        );
        master.write_all(b"keys\n").expect("type");
        assert_eq!(wait.wait(None), Ok(Waiting::Bytes));
        let mut line = String::new();
        std::io::BufRead::read_line(
            &mut std::io::BufReader::new(std::fs::File::from(
                wait.terminal.try_clone().expect("dup"),
            )),
            &mut line,
        )
        .expect("read the keys");
        assert_eq!(line, "keys\n", "the keys arrive");
        assert_eq!(wait.wait(Some(Duration::ZERO)), Ok(Waiting::Nothing));
        drop(master);
        assert_eq!(wait.wait(None), Ok(Waiting::HungUp));
    }

    #[test]
    fn a_descriptor_too_high_for_select_is_an_error_not_a_panic() {
        let (_master, slave) = pty();
        let high = rustix::io::fcntl_dupfd_cloexec(&slave, FD_SETSIZE as i32);
        // A process limited to fewer descriptors cannot make one that high: nothing to test.
        let Ok(high) = high else { return };
        let err = TerminalWait::new(high, How::Select).err().expect("refused");
        assert!(err.to_string().contains("too high for select"), "{err}");
    }
}
