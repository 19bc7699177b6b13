//! The workshop dispatcher of the TUI: its own SQLite connection to the progress store and its
//! own thread, so neither the UI loop nor the store thread ever waits on the network. The store
//! thread wakes it after each save; while facts wait, it retries when the earliest is due
//! (backoff and jitter are in the outbox rows); with nothing waiting it sleeps without a timer.

use crate::app::{Msg, WorkshopLine};
use crate::services::Store;
use crate::services::log;
use crate::services::store::now_ms;
use crate::services::trainee::{client::deadline_in, deliver};
use std::path::PathBuf;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::thread::JoinHandle;
use std::time::Duration;
use tokio::sync::mpsc::UnboundedSender;

/// How long one delivery may take.
const DELIVERY_MS: u64 = 5_000;

/// Handle to the dispatcher thread; dropping the sender ends it.
pub struct WorkshopWorker {
    /// Wakes the dispatcher (a fact was saved).
    pub notify: mpsc::Sender<()>,
    thread: JoinHandle<()>,
}

impl WorkshopWorker {
    /// Starts the dispatcher on the store at `path`; it reports each delivery to the UI.
    /// `store_ready` ends (a hang-up) once the store thread has opened and migrated the file:
    /// two first opens at once would race on creating it. `notify` wakes `wake`; the store
    /// thread holds a clone of it, made before this thread starts.
    pub fn spawn(
        path: PathBuf,
        replies: UnboundedSender<Msg>,
        store_ready: mpsc::Receiver<()>,
        (notify, wake): (mpsc::Sender<()>, mpsc::Receiver<()>),
    ) -> std::io::Result<WorkshopWorker> {
        let thread = std::thread::Builder::new()
            .name("workshop".into())
            .spawn(move || {
                let _ = store_ready.recv();
                let mut store = match Store::open(&path) {
                    Ok((store, _)) => store,
                    Err(e) => {
                        log::warn(&format!("workshop dispatcher: {e}"));
                        return;
                    }
                };
                // First round at start: say hello to the host and send what waits.
                let mut all = true;
                loop {
                    if let Some(line) = round(&mut store, all) {
                        let _ = replies.send(Msg::WorkshopUpdated(line));
                    }
                    all = false;
                    let wait = match store.next_due_ms() {
                        Ok(Some(due)) => Some(Duration::from_millis(
                            (due - now_ms()).clamp(10, 60_000) as u64,
                        )),
                        _ => None,
                    };
                    let signal = match wait {
                        Some(d) => wake.recv_timeout(d),
                        None => wake.recv().map_err(|_| RecvTimeoutError::Disconnected),
                    };
                    if matches!(signal, Err(RecvTimeoutError::Disconnected)) {
                        break;
                    }
                }
            })?;
        Ok(WorkshopWorker { notify, thread })
    }

    /// Lets the dispatcher end after its current round without waiting for it: quitting must
    /// not hang on an unreachable host, and what was not confirmed stays in the outbox.
    pub fn finish(self) {
        drop(self.notify);
        drop(self.thread);
    }
}

/// One delivery round; None when not joined.
fn round(store: &mut Store, all: bool) -> Option<WorkshopLine> {
    let member = store.membership().ok()??;
    let delivery = deliver(store, deadline_in(DELIVERY_MS), all);
    let (reachable, pending, session) = match delivery {
        Ok(d) => (d.error.is_none(), d.pending, d.session),
        Err(e) => {
            log::warn(&format!("workshop delivery: {e}"));
            (false, store.pending_count().unwrap_or(0), None)
        }
    };
    Some(WorkshopLine {
        session: session
            .or(member.session_name)
            .unwrap_or_else(|| member.url.authority()),
        // Nothing was due and nothing sent: reachability is what the last attempt showed.
        reachable,
        pending,
    })
}
