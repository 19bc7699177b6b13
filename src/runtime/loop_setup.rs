//! What the event loop needs besides the terminal and the app: the runtime, the signal handlers,
//! the data folder and the log. None of them is needed for the first frame, so they are set up
//! right after it, on the main thread; until the runtime handles the signals that end the workshop,
//! they are caught early (`platform/early_signals.rs`). On a thread of its own, the set-up made the
//! first frame later, not sooner: the thread's start and its page faults beside the main thread's
//! cost more than the work it took off (the first frame may take at most 1.3x a minimal ratatui
//! program's; the book's Performance chapter has the figures).

use crate::platform::early_signals::EarlySignals;
use crate::platform::signals::EndSignals;
use services::Paths;
use services::log;

/// The set-up still to do once Home is drawn.
pub struct LoopSetup {
    early: EarlySignals,
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
    pub(super) ending: EndSignals,
    /// What came before `ending` listened.
    pub(super) early: EarlySignals,
}

impl LoopSetup {
    /// Catches the signals that end the workshop from now on (call it before any other thread
    /// starts, see [`EarlySignals::catch`]). The terminal may be entered only afterwards: a
    /// SIGTERM that found no handler would end the program with the terminal raw.
    pub fn start() -> Result<LoopSetup, String> {
        let early = EarlySignals::catch().map_err(|e| format!("cannot listen for signals: {e}"))?;
        Ok(LoopSetup { early })
    }

    /// The rest of the set-up: the runtime and its signal streams, the data folder and the log
    /// in `paths` (lines logged before are kept and written then).
    pub(super) fn finish(self, paths: &Paths) -> Result<Ready, String> {
        super::debug_slow_setup::before_runtime();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| format!("cannot start the event loop: {e}"))?;
        // Signal streams belong to the runtime they were made in.
        let signals = {
            let _context = runtime.enter();
            Signals {
                ending: EndSignals::listen()
                    .map_err(|e| format!("cannot listen for signals: {e}"))?,
                early: self.early,
            }
        };
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
}
