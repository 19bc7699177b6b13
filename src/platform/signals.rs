//! The signals queuelab listens for while its runtime runs, as streams of that runtime (tokio's
//! signal driver). Each listener must be made inside the runtime that awaits it.

use tokio::signal::unix::{Signal, SignalKind, signal};

/// SIGTERM, SIGHUP and SIGINT: each ends the workshop or the dashboard, after saving.
pub(crate) struct EndSignals {
    terminate: Signal,
    hangup: Signal,
    interrupt: Signal,
}

impl EndSignals {
    /// Listens from now on.
    pub(crate) fn listen() -> std::io::Result<EndSignals> {
        Ok(EndSignals {
            terminate: signal(SignalKind::terminate())?,
            hangup: signal(SignalKind::hangup())?,
            interrupt: signal(SignalKind::interrupt())?,
        })
    }

    /// The name of the next of the three to arrive. Cancel-safe: a signal that arrives while
    /// nobody awaits this is kept for the next call.
    pub(crate) async fn next(&mut self) -> &'static str {
        tokio::select! {
            _ = self.terminate.recv() => "SIGTERM",
            _ = self.hangup.recv() => "SIGHUP",
            _ = self.interrupt.recv() => "SIGINT",
        }
    }
}

/// SIGINT (Ctrl+C) and SIGTERM: what stops `queuelab share`.
pub(crate) struct StopSignals {
    interrupt: Signal,
    terminate: Signal,
}

impl StopSignals {
    /// Listens from now on.
    pub(crate) fn listen() -> std::io::Result<StopSignals> {
        Ok(StopSignals {
            interrupt: signal(SignalKind::interrupt())?,
            terminate: signal(SignalKind::terminate())?,
        })
    }

    /// Returns when either arrives.
    pub(crate) async fn next(&mut self) {
        tokio::select! {
            _ = self.interrupt.recv() => {}
            _ = self.terminate.recv() => {}
        }
    }
}

/// SIGWINCH: the terminal was resized. A resize brings no bytes to the terminal, so the reader
/// thread cannot see it.
pub(crate) struct Resizes(Signal);

impl Resizes {
    /// Listens from now on.
    pub(crate) fn listen() -> std::io::Result<Resizes> {
        signal(SignalKind::window_change()).map(Resizes)
    }

    /// Returns at the next resize (cancel-safe).
    pub(crate) async fn next(&mut self) {
        self.0.recv().await;
    }
}
