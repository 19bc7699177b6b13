//! The store thread's first job: open the progress store (waiting while another queuelab holds
//! it), read what the session starts from, and keep every request that arrives meanwhile.

use app::{Msg, QuizRecord, StoreRequest, StoredSession};
use services::log;
use services::store::OpenNote;
use services::{Store, StoreError};
use std::path::Path;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};
use tokio::sync::mpsc::UnboundedSender;

/// How long the thread waits between two tries on a store another process holds.
const RETRY: Duration = Duration::from_secs(1);

/// What [`open_waiting`] ended with.
pub(super) enum Opened {
    /// The store and what it held; `early` are the requests that arrived before, in order.
    Ready {
        store: Store,
        stored: Box<StoredSession>,
        early: Vec<StoreRequest>,
    },
    /// The learner quit while another queuelab still held the store: `unsaved` requests
    /// could not be carried out.
    GaveUp { unsaved: usize },
    /// Opening failed for another reason than a busy file.
    Failed(StoreError),
}

/// Opens the store at `path`. While another queuelab holds it, tells the UI once
/// ([`Msg::StoreBusy`]) and tries again every second, collecting requests from `inbox`
/// (they run after the opening, never lost); stops when the UI hangs up.
pub(super) fn open_waiting(
    path: &Path,
    shared_folder: bool,
    inbox: &mpsc::Receiver<StoreRequest>,
    replies: &UnboundedSender<Msg>,
) -> Opened {
    let mut early = Vec::new();
    let mut waited = false;
    loop {
        match Store::open(path) {
            Err(err @ StoreError::Busy { .. }) => {
                if !waited {
                    log::warn(&format!("{err}; waiting"));
                    let _ = replies.send(Msg::StoreBusy);
                    waited = true;
                }
                if !collect_for(RETRY, inbox, &mut early) {
                    return Opened::GaveUp {
                        unsaved: early.len(),
                    };
                }
            }
            Err(err) => return Opened::Failed(err),
            Ok((store, note)) => {
                return match read_session(&store, note, shared_folder, waited) {
                    Ok(stored) => Opened::Ready {
                        store,
                        stored: Box::new(stored),
                        early,
                    },
                    Err(err) => Opened::Failed(err),
                };
            }
        }
    }
}

/// Takes requests from `inbox` into `early` for `span`; false once the sender hung up.
fn collect_for(
    span: Duration,
    inbox: &mpsc::Receiver<StoreRequest>,
    early: &mut Vec<StoreRequest>,
) -> bool {
    let until = Instant::now() + span;
    loop {
        let left = until.saturating_duration_since(Instant::now());
        match inbox.recv_timeout(left) {
            Ok(request) => early.push(request),
            Err(RecvTimeoutError::Timeout) => return true,
            Err(RecvTimeoutError::Disconnected) => return false,
        }
    }
}

/// Reads what the store holds now (no start-up notes): Home shows it when it comes back into
/// view, so a change by another process is not hidden behind the state read at the start.
pub(super) fn reread(store: &Store) -> Result<StoredSession, StoreError> {
    read_session(store, OpenNote::Clean, false, false)
}

/// Reads what the session starts from, with the notes the learner sees at the start.
fn read_session(
    store: &Store,
    note: OpenNote,
    shared_folder: bool,
    waited: bool,
) -> Result<StoredSession, StoreError> {
    let progress = store.load()?;
    let quiz = store
        .latest_attempt()?
        .map(|stored| QuizRecord {
            finished: stored.finished_score.is_some(),
            attempt: Some(stored.attempt),
        })
        .unwrap_or_default();
    let report_status = store.report_mail_status()?;
    let recovered_backup = match note {
        OpenNote::Clean => None,
        OpenNote::Recovered { backup, reason } => {
            log::warn(&format!(
                "progress store was damaged ({reason}); kept {}",
                backup.display()
            ));
            Some(backup)
        }
    };
    Ok(StoredSession {
        progress,
        quiz,
        report_status,
        recovered_backup,
        shared_folder,
        waited,
    })
}
