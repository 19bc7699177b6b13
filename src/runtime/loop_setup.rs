//! What the event loop needs besides the terminal and the app, set up on a thread of its own
//! while the main thread reads the config and the strings, enters the terminal and draws Home:
//! the runtime, the signal handlers, the data folder and the log. None of them is needed for
//! the first frame, and on a machine with a second core the learner sees Home that much
//! sooner (SPEC 6, start-up budget). A signal that comes before the runtime handles it is
//! caught on the main thread (`early_signals.rs`).

use super::early_signals::EarlySignals;
use services::Paths;
use services::log;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread::JoinHandle;
use tokio::signal::unix::{Signal, SignalKind, signal};

/// The set-up under way.
pub struct LoopSetup {
    thread: JoinHandle<Result<Ready, String>>,
    /// One message once SIGTERM, SIGHUP and SIGINT are handled by the runtime, or why they
    /// could not be.
    handled: Receiver<Result<(), String>>,
    /// The three signals caught on the main thread until then, unless that could not be
    /// installed (`early_signals.rs`).
    early: Option<EarlySignals>,
}

/// The finished set-up.
pub(super) struct Ready {
    pub(super) runtime: tokio::runtime::Runtime,
    pub(super) signals: Signals,
    /// The data folder is readable by others: the learner is told with the store's notes.
    pub(super) shared_folder: bool,
}

/// SIGTERM, SIGHUP and SIGINT: each saves and leaves.
pub(super) struct Signals {
    pub(super) terminate: Signal,
    pub(super) hangup: Signal,
    pub(super) interrupt: Signal,
}

impl LoopSetup {
    /// Starts the set-up for the data folder and log in `paths`.
    pub fn start(paths: Paths) -> Result<LoopSetup, String> {
        // Before the set-up thread: the catch must be installed before any other thread.
        let early = match EarlySignals::catch() {
            Ok(early) => Some(early),
            Err(e) => {
                // Then the terminal waits for the runtime's handlers (`signals_handled`).
                log::warn(&format!("cannot catch signals early: {e}"));
                None
            }
        };
        let (report, handled) = channel();
        let thread = std::thread::Builder::new()
            .name("loop-setup".into())
            .spawn(move || Ready::build(&paths, &report))
            .map_err(|e| format!("cannot start the event loop: {e}"))?;
        Ok(LoopSetup {
            thread,
            handled,
            early,
        })
    }

    /// Whether the signals that end the workshop are handled, so that the terminal may be
    /// entered: a SIGTERM that found no handler would end the program with the terminal raw.
    /// They are from the start when the early catch is installed (the event loop then looks at
    /// what it caught); otherwise this blocks until the runtime handles them. On failure the
    /// set-up has ended; [`LoopSetup::finish`] says why.
    pub(super) fn signals_handled(&self) -> bool {
        self.early.is_some() || matches!(self.handled.recv(), Ok(Ok(())))
    }

    /// What the early catch noted, for the event loop to look at when it starts.
    pub(super) fn early_signals(&self) -> Option<EarlySignals> {
        self.early.clone()
    }

    /// Waits for the rest of the set-up. A panic on its thread goes on in this one, after
    /// `before_panic` (which gives the terminal back).
    pub(super) fn finish(self, before_panic: impl FnOnce()) -> Result<Ready, String> {
        match self.thread.join() {
            Ok(ready) => ready,
            Err(panic) => {
                before_panic();
                std::panic::resume_unwind(panic)
            }
        }
    }
}

impl Ready {
    fn build(paths: &Paths, handled: &Sender<Result<(), String>>) -> Result<Ready, String> {
        super::debug_slow_setup::before_runtime();
        let started = Ready::runtime_and_signals();
        let _ = handled.send(started.as_ref().map(drop).map_err(Clone::clone));
        let (runtime, signals) = started?;
        let shared = paths.ensure_data_dir()?;
        let _ = log::init(&paths.log_file());
        if let Some(warning) = &shared {
            log::warn(warning);
        }
        Ok(Ready {
            runtime,
            signals,
            shared_folder: shared.is_some(),
        })
    }

    fn runtime_and_signals() -> Result<(tokio::runtime::Runtime, Signals), String> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| format!("cannot start the event loop: {e}"))?;
        // Signal streams belong to the runtime they were made in.
        let signals = {
            let _context = runtime.enter();
            let listen = |kind| signal(kind).map_err(|e| format!("cannot listen for signals: {e}"));
            Signals {
                terminate: listen(SignalKind::terminate())?,
                hangup: listen(SignalKind::hangup())?,
                interrupt: listen(SignalKind::interrupt())?,
            }
        };
        Ok((runtime, signals))
    }
}
