//! The mail relay's own dispatcher: a thread with its own connection to `host-mail.db` that
//! sends what is due, leaves a failed mail queued with backoff and jitter (the outbox's retry
//! policy and lease), and sleeps until the next mail is due or a request wakes it. Requests
//! only queue and answer; no SMTP conversation ever runs inside one, or under a lock a request
//! needs. Queued mails survive a restart: the thread starts by sending what is due.

use crate::Store;
use crate::log;
use crate::mail::{Dispatcher, Outcome};
use crate::store::now_secs;
use std::collections::HashMap;
use std::path::Path;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// Longest sleep while nothing is due: a `mail retry` from another process (which makes
/// mails due now) and an expired lease are noticed within this.
const IDLE_WAKE_SECS: i64 = 30;
/// Most outcomes kept for requests that wait for their mail (older ones are dropped).
const MAX_OUTCOMES: usize = 1024;

/// Outcomes of recent sends, by mail id, for a request that waits briefly for its own.
#[derive(Default)]
struct Outcomes {
    sent: Mutex<HashMap<i64, bool>>,
    changed: Condvar,
}

impl Outcomes {
    fn record(&self, outcomes: &[Outcome]) {
        let mut sent = crate::host::lock(&self.sent);
        if sent.len() > MAX_OUTCOMES {
            sent.clear();
        }
        for outcome in outcomes {
            let (id, ok) = match outcome {
                Outcome::Sent { id, .. } => (*id, true),
                Outcome::Retry { id, .. } | Outcome::Failed { id, .. } => (*id, false),
            };
            sent.insert(id, ok);
        }
        drop(sent);
        self.changed.notify_all();
    }

    fn wait(&self, id: i64, patience: Duration) -> bool {
        let until = Instant::now() + patience;
        let mut sent = crate::host::lock(&self.sent);
        loop {
            if let Some(ok) = sent.remove(&id) {
                return ok;
            }
            let Some(left) = until.checked_duration_since(Instant::now()) else {
                return false;
            };
            sent = match self.changed.wait_timeout(sent, left) {
                Ok((guard, _)) => guard,
                Err(poisoned) => poisoned.into_inner().0,
            };
        }
    }
}

/// The running dispatcher thread; it ends when this is dropped.
pub struct RelayWorker {
    wake: Mutex<mpsc::Sender<()>>,
    outcomes: Arc<Outcomes>,
}

impl RelayWorker {
    /// Opens its own connection to the relay's store at `path` and starts sending.
    pub fn start(path: &Path, dispatcher: Dispatcher) -> Result<RelayWorker, String> {
        let (store, _) = Store::open(path).map_err(|e| e.to_string())?;
        let (wake, woken) = mpsc::channel();
        let outcomes = Arc::new(Outcomes::default());
        let shared = Arc::clone(&outcomes);
        std::thread::Builder::new()
            .name("queuelab-relay".to_owned())
            .spawn(move || run(store, &dispatcher, &woken, &shared))
            .map_err(|e| format!("cannot start the mail relay's dispatcher: {e}"))?;
        Ok(RelayWorker {
            wake: Mutex::new(wake),
            outcomes,
        })
    }

    /// Asks the thread to look at the outbox now (a mail was queued).
    pub fn wake(&self) {
        let _ = crate::host::lock(&self.wake).send(());
    }

    /// Waits at most `patience` for the first attempt at mail `id`; true when it was sent.
    pub fn sent_within(&self, id: i64, patience: Duration) -> bool {
        self.outcomes.wait(id, patience)
    }
}

fn run(mut store: Store, dispatcher: &Dispatcher, woken: &mpsc::Receiver<()>, outcomes: &Outcomes) {
    loop {
        match dispatcher.run_due(&mut store, now_secs()) {
            Ok(done) => outcomes.record(&done),
            Err(e) => log::warn(&format!("host mail relay: {e}")),
        }
        let next = store.next_mail_due().unwrap_or(None);
        // At least a second: a due mail another process holds (lease) must not spin the loop.
        let wait = next.map_or(IDLE_WAKE_SECS, |at| at - now_secs());
        let wait = Duration::from_secs(wait.clamp(1, IDLE_WAKE_SECS) as u64);
        match woken.recv_timeout(wait) {
            Ok(()) | Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => return,
        }
        // Several requests at once need one run.
        while woken.try_recv().is_ok() {}
    }
}
