//! The terminal's keys, mouse and resizes, read on a thread of their own.
//!
//! Why not crossterm's `EventStream`: its `poll_next` makes its first read on the caller's
//! thread, and crossterm 0.29's reader retries a read that returns nothing or fails — as every
//! read does once the terminal has hung up (a closed window, a dropped SSH connection) — in a
//! loop that never returns (`event/source/unix/mio.rs`, `try_read`). The event loop froze
//! there, spinning, and never saw the SIGHUP that comes with the close. Here a thread waits on
//! the terminal itself for bytes or a hang-up (`platform/terminal_wait.rs`: `poll(2)`, or
//! `select(2)` where `poll(2)` refuses terminals, as on macOS), and asks crossterm to read only
//! while bytes are waiting. A hang-up ends the thread, so nothing spins, and the workshop
//! leaves even when no SIGHUP comes. A resize brings no bytes, so SIGWINCH is listened for
//! beside the thread. While an editor has the terminal (a lab file), the reader is held off,
//! so the editor's keys stay the editor's.

use crate::platform::signals::Resizes;
use crate::platform::terminal_wait::{TerminalWait, Waiting};
use crossterm::event::Event;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;
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
    resized: Resizes,
    /// Held by whoever has lent the terminal out; the reader reads only while it is free.
    lent: Arc<Mutex<()>>,
}

impl TerminalInput {
    /// Starts reading. Call it inside the runtime that will await `next` (the signal
    /// belongs to it).
    pub fn start() -> Result<TerminalInput, String> {
        let resized = Resizes::listen().map_err(|e| format!("cannot listen for resizes: {e}"))?;
        // Opened here, before the thread: a terminal that cannot be waited on ends the start
        // with its reason.
        let terminal =
            TerminalWait::open().map_err(|e| format!("cannot wait for the terminal: {e}"))?;
        let (sender, events) = unbounded_channel();
        let lent = Arc::new(Mutex::new(()));
        let gate = Arc::clone(&lent);
        std::thread::Builder::new()
            .name("terminal-input".into())
            .spawn(move || read_terminal(terminal, &sender, &gate))
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
                () = self.resized.next() => {
                    if let Ok((width, height)) = crossterm::terminal::size() {
                        return Input::Event(Event::Resize(width, height));
                    }
                }
            }
        }
    }
}

/// The thread: waits for bytes, lets crossterm turn them into events, and ends on a hang-up,
/// an error, or when nobody listens any more.
fn read_terminal(mut terminal: TerminalWait, sender: &UnboundedSender<Input>, lent: &Mutex<()>) {
    let outcome = (|| -> Result<Input, String> {
        if terminal.wait(Some(Duration::ZERO))? == Waiting::HungUp {
            return Ok(Input::HungUp);
        }
        // crossterm sets its reader up on the first call; a terminal it cannot open is an
        // error here rather than a panic later. That first call also reads the keys typed
        // while the workshop started (Home is drawn before this thread runs): they are in
        // crossterm's queue now and the terminal shows no bytes for them, so they go out
        // before the first wait.
        if crossterm::event::poll(Duration::ZERO).map_err(|e| e.to_string())?
            && let Some(ended) = pass_on(&mut terminal, sender)?
        {
            return Ok(ended);
        }
        loop {
            // Only a wake-up: while the terminal is lent out, its borrower may read the bytes
            // that woke this wait, and a `select(2)` wait would then see a readable terminal
            // with nothing waiting, its sign of a hang-up (`platform/terminal_wait.rs`). A
            // hung-up terminal stays so, and the look below, with the terminal back, sees it.
            terminal.wait(None)?;
            // Bytes typed while the terminal is lent out are the borrower's: wait for it to be
            // given back, then look again (the borrower has read them by then).
            let _free = lent.lock().unwrap_or_else(PoisonError::into_inner);
            match terminal.wait(Some(Duration::ZERO))? {
                Waiting::HungUp => return Ok(Input::HungUp),
                Waiting::Nothing => continue,
                Waiting::Bytes => {}
            }
            if let Some(ended) = pass_on(&mut terminal, sender)? {
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
fn pass_on(
    terminal: &mut TerminalWait,
    sender: &UnboundedSender<Input>,
) -> Result<Option<Input>, String> {
    loop {
        let event = crossterm::event::read().map_err(|e| e.to_string())?;
        if sender.send(Input::Event(event)).is_err() {
            return Ok(Some(Input::HungUp));
        }
        match terminal.wait(Some(Duration::ZERO))? {
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
