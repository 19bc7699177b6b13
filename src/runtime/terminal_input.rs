//! The terminal's keys, mouse and resizes, read on a thread of their own.
//!
//! Why not crossterm's `EventStream`: its `poll_next` makes its first read on the caller's
//! thread, and crossterm 0.29's reader retries a read that returns nothing or fails — as every
//! read does once the terminal has hung up (a closed window, a dropped SSH connection) — in a
//! loop that never returns (`event/source/unix/mio.rs`, `try_read`). The event loop froze
//! there, spinning, and never saw the SIGHUP that comes with the close. Here a thread waits with
//! `poll(2)` on the terminal itself, which reports a hang-up as such (POLLHUP), and asks
//! crossterm to read only while bytes are waiting. A resize brings no bytes, so SIGWINCH is
//! listened for beside the thread. While an editor has the terminal (a lab file), the reader is
//! held off, so the editor's keys stay the editor's.

use crossterm::event::Event;
use rustix::event::{PollFd, PollFlags, Timespec};
use std::io::IsTerminal;
use std::os::fd::{AsFd, OwnedFd};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;
use tokio::signal::unix::{Signal, SignalKind, signal};
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};

/// What the terminal said.
#[derive(Debug)]
pub enum Input {
    Event(Event),
    /// The terminal is gone: the window was closed. Nothing can be drawn any more.
    HungUp,
    /// Reading failed for another reason.
    Failed(String),
}

/// The reader thread's events and the resize signal.
pub struct TerminalInput {
    events: UnboundedReceiver<Input>,
    resized: Signal,
    /// Held by whoever has lent the terminal out; the reader reads only while it is free.
    lent: Arc<Mutex<()>>,
}

impl TerminalInput {
    /// Starts reading. Call it inside the runtime that will await `next` (the signal
    /// belongs to it).
    pub fn start() -> Result<TerminalInput, String> {
        let resized = signal(SignalKind::window_change())
            .map_err(|e| format!("cannot listen for resizes: {e}"))?;
        let (sender, events) = unbounded_channel();
        let lent = Arc::new(Mutex::new(()));
        let gate = Arc::clone(&lent);
        std::thread::Builder::new()
            .name("terminal-input".into())
            .spawn(move || read_terminal(&sender, &gate))
            .map_err(|e| format!("cannot start the terminal reader: {e}"))?;
        Ok(TerminalInput {
            events,
            resized,
            lent,
        })
    }

    /// Holds the reader off until the guard is dropped: the terminal is lent to another
    /// program (an editor) and what is typed meanwhile is that program's.
    pub fn lend(&self) -> MutexGuard<'_, ()> {
        self.lent.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The next input. A resize whose size cannot be read is skipped (the next one counts).
    pub async fn next(&mut self) -> Input {
        loop {
            tokio::select! {
                input = self.events.recv() => {
                    return input.unwrap_or_else(|| Input::Failed("the terminal reader stopped".to_owned()));
                }
                _ = self.resized.recv() => {
                    if let Ok((width, height)) = crossterm::terminal::size() {
                        return Input::Event(Event::Resize(width, height));
                    }
                }
            }
        }
    }
}

/// What `poll(2)` saw on the terminal.
#[derive(Debug, PartialEq, Eq)]
enum Waiting {
    Bytes,
    Nothing,
    HungUp,
}

/// The thread: waits for bytes, lets crossterm turn them into events, and ends on a hang-up,
/// an error, or when nobody listens any more.
fn read_terminal(sender: &UnboundedSender<Input>, lent: &Mutex<()>) {
    let outcome = (|| -> Result<Input, String> {
        let terminal = open_terminal().map_err(|e| e.to_string())?;
        if wait(&terminal, Some(Duration::ZERO))? == Waiting::HungUp {
            return Ok(Input::HungUp);
        }
        // crossterm sets its reader up on the first call; a terminal it cannot open is an
        // error here rather than a panic later. That first call also reads the keys typed
        // while the workshop started (Home is drawn before this thread runs): they are in
        // crossterm's queue now and the terminal shows no bytes for them, so they go out
        // before the first wait.
        if crossterm::event::poll(Duration::ZERO).map_err(|e| e.to_string())?
            && let Some(ended) = pass_on(&terminal, sender)?
        {
            return Ok(ended);
        }
        loop {
            if wait(&terminal, None)? == Waiting::HungUp {
                return Ok(Input::HungUp);
            }
            // Bytes typed while the terminal is lent out are the borrower's: wait for it to be
            // given back, then look again (the borrower has read them by then).
            let _free = lent.lock().unwrap_or_else(PoisonError::into_inner);
            match wait(&terminal, Some(Duration::ZERO))? {
                Waiting::HungUp => return Ok(Input::HungUp),
                Waiting::Nothing => continue,
                Waiting::Bytes => {}
            }
            if let Some(ended) = pass_on(&terminal, sender)? {
                return Ok(ended);
            }
        }
    })();
    let _ = sender.send(outcome.unwrap_or_else(Input::Failed));
}

/// Sends every event crossterm has or can read now. One read may leave more parsed events
/// inside crossterm than the terminal shows bytes for: take them all, asking the terminal
/// first each time so that crossterm never reads from a terminal that has hung up meanwhile.
/// Returns how the reading ended, or `None` to wait for more bytes.
fn pass_on(terminal: &OwnedFd, sender: &UnboundedSender<Input>) -> Result<Option<Input>, String> {
    loop {
        let event = crossterm::event::read().map_err(|e| e.to_string())?;
        if sender.send(Input::Event(event)).is_err() {
            return Ok(Some(Input::HungUp));
        }
        match wait(terminal, Some(Duration::ZERO))? {
            Waiting::HungUp => return Ok(Some(Input::HungUp)),
            Waiting::Bytes => {}
            Waiting::Nothing => {
                if !crossterm::event::poll(Duration::ZERO).map_err(|e| e.to_string())? {
                    return Ok(None);
                }
            }
        }
    }
}

/// The terminal crossterm reads: standard input when it is one, `/dev/tty` otherwise.
fn open_terminal() -> std::io::Result<OwnedFd> {
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        stdin.as_fd().try_clone_to_owned()
    } else {
        Ok(std::fs::File::open("/dev/tty")?.into())
    }
}

/// Waits up to `timeout` (forever with `None`) for bytes or a hang-up.
fn wait(terminal: &OwnedFd, timeout: Option<Duration>) -> Result<Waiting, String> {
    let timeout = timeout.map(|t| Timespec {
        tv_sec: t.as_secs() as i64,
        tv_nsec: i64::from(t.subsec_nanos()),
    });
    loop {
        let mut fds = [PollFd::new(terminal, PollFlags::IN)];
        match rustix::event::poll(&mut fds, timeout.as_ref()) {
            Ok(_) => {
                let seen = fds[0].revents();
                return Ok(
                    if seen.intersects(PollFlags::HUP | PollFlags::ERR | PollFlags::NVAL) {
                        Waiting::HungUp
                    } else if seen.contains(PollFlags::IN) {
                        Waiting::Bytes
                    } else {
                        Waiting::Nothing
                    },
                );
            }
            Err(rustix::io::Errno::INTR) => {}
            Err(e) => return Err(format!("waiting for the terminal failed: {e}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    /// A pseudo-terminal pair from the test's own process: the slave end is what the reader
    /// polls, the master is the window.
    fn pty() -> (std::fs::File, OwnedFd) {
        let pair = nix::pty::openpty(None, None).expect("openpty");
        (std::fs::File::from(pair.master), pair.slave)
    }

    #[test]
    fn waiting_bytes_are_seen_and_an_idle_terminal_is_not_hung_up() {
        let (mut master, slave) = pty();
        assert_eq!(wait(&slave, Some(Duration::ZERO)), Ok(Waiting::Nothing));
        // A line: the fresh pseudo-terminal is in canonical mode (the app switches to raw mode).
        master.write_all(b"x\n").expect("type");
        assert_eq!(wait(&slave, None), Ok(Waiting::Bytes));
    }

    #[test]
    fn a_closed_window_is_a_hang_up_not_bytes() {
        let (master, slave) = pty();
        drop(master);
        // Forever would hang the test if the hang-up were not reported.
        assert_eq!(wait(&slave, None), Ok(Waiting::HungUp));
    }
}
