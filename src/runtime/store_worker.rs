//! The progress store on its own thread: SQLite never blocks the UI loop. Commands go in over a
//! channel; results come back as messages.

mod opening;

use super::faults::store_fault;
use app::{DamagedCopy, Msg, SaveError, StoreRequest};
use content::{Content, Lang};
use domain::quiz::Attempt;
use domain::workshop::EventKind;
use opening::{Opened, open_waiting};
use services::log;
use std::path::{Path, PathBuf};
use std::sync::{Arc, mpsc};
use std::thread::JoinHandle;
use tokio::sync::mpsc::UnboundedSender;

/// Handle to the store thread.
pub struct StoreWorker {
    commands: mpsc::Sender<StoreRequest>,
    thread: JoinHandle<Option<String>>,
}

/// Where the store is and what the thread tells others once it has opened it.
pub struct StoreSetup {
    /// The progress store file.
    pub path: PathBuf,
    /// Whether the data folder is readable by others (a note for the learner at the start).
    pub shared_folder: bool,
    /// Hung up once the first open is over: the mail and workshop threads open the same file
    /// only then (two first opens at once race, and the loser takes the file for damaged).
    pub opened: Vec<mpsc::Sender<()>>,
}

impl StoreWorker {
    /// Opens the store on a new thread (the first frame waits neither for the integrity check
    /// and migrations nor for another queuelab holding the file) and answers
    /// [`Msg::StoreOpened`] or [`Msg::StoreFailed`] before anything else; requests sent
    /// meanwhile run after it, in order. `content` supplies the quiz new attempts shuffle;
    /// `workshop` is woken after each save.
    pub fn spawn(
        setup: StoreSetup,
        content: Arc<Content>,
        replies: UnboundedSender<Msg>,
        workshop: Option<mpsc::Sender<()>>,
    ) -> std::io::Result<StoreWorker> {
        let (commands, inbox) = mpsc::channel::<StoreRequest>();
        let thread = std::thread::Builder::new()
            .name("store".into())
            .spawn(move || {
                let opened = open_waiting(&setup.path, setup.shared_folder, &inbox, &replies);
                drop(setup.opened);
                let (mut store, early) = match opened {
                    Opened::Ready {
                        store,
                        stored,
                        early,
                    } => {
                        let _ = replies.send(Msg::StoreOpened(stored));
                        (store, early)
                    }
                    // The app ends the loop; the reason is said after the terminal is back.
                    Opened::Failed(e) => {
                        let _ = replies.send(Msg::StoreFailed(store_fault(&e)));
                        return Some(e.to_string());
                    }
                    Opened::GaveUp { unsaved: 0 } => return None,
                    Opened::GaveUp { unsaved } => {
                        return Some(format!(
                            "{} stayed in use by another queuelab: {unsaved} change(s) of this session were not saved",
                            setup.path.display()
                        ));
                    }
                };
                for command in early.into_iter().chain(inbox) {
                    let msg = answer(&mut store, &content, command);
                    // A saved fact may have queued a workshop event: wake the dispatcher.
                    if let (Some(wake), Msg::FactSaved(Ok(()))) = (&workshop, &msg) {
                        let _ = wake.send(());
                    }
                    // The UI may already be gone at shutdown; the save itself has happened.
                    let _ = replies.send(msg);
                }
                None
            })?;
        Ok(StoreWorker { commands, thread })
    }

    /// Queues a request.
    pub fn send(&self, command: StoreRequest) {
        if self.commands.send(command).is_err() {
            log::warn("the store thread has stopped; a save was not queued");
        }
    }

    /// Waits until every queued command is done (called before exit); says why the store
    /// could not be opened or what could not be saved, if anything.
    pub fn finish(self) -> Option<String> {
        drop(self.commands);
        self.thread.join().unwrap_or_else(|_| {
            log::warn("the store thread panicked");
            None
        })
    }
}

/// Runs one request on the open store and says how it went.
fn answer(store: &mut services::Store, content: &Content, command: StoreRequest) -> Msg {
    match command {
        StoreRequest::Save(fact) => Msg::FactSaved(store.save(&fact).map_err(|e| {
            log::warn(&format!("saving {fact:?} failed: {e}"));
            store_fault(&e)
        })),
        StoreRequest::ClearResults => {
            Msg::ResultsCleared(store.clear().map_err(|e| SaveError::Store(store_fault(&e))))
        }
        StoreRequest::ListDamaged => {
            Msg::DamagedCopies(store.damaged_copies().iter().map(|p| describe(p)).collect())
        }
        StoreRequest::DeleteDamaged => Msg::DamagedDeleted(
            store
                .delete_damaged_copies()
                .map(|deleted| deleted.len())
                .map_err(|e| store_fault(&e)),
        ),
        StoreRequest::Reread => match opening::reread(store) {
            Ok(stored) => Msg::StoreReread(Box::new(stored)),
            Err(e) => Msg::FactSaved(Err(store_fault(&e))),
        },
        StoreRequest::StartAttempt => {
            // Question and option ids are the same in every language (content
            // check), so the order from either course fits both.
            let quiz = &content.course(Lang::default()).quiz;
            let attempt = Attempt::new(quiz, rand::random());
            Msg::AttemptStarted(store.start_attempt(&attempt).map_err(|e| store_fault(&e)))
        }
        StoreRequest::ReadLabs => lab_results(store),
        StoreRequest::LabChecked {
            lab_id,
            passed,
            reason,
        } => match store.record_lab_check(&lab_id, passed, &reason) {
            Ok(()) => lab_results(store),
            Err(e) => Msg::FactSaved(Err(store_fault(&e))),
        },
        StoreRequest::LabHint { lab_id, level } => match store.record_lab_hint(&lab_id, level) {
            Ok(()) => lab_results(store),
            Err(e) => Msg::FactSaved(Err(store_fault(&e))),
        },
        StoreRequest::Stuck(screen) => Msg::FactSaved(
            store
                .queue_event(&EventKind::Stuck {
                    screen,
                    text: String::new(),
                })
                .map_err(|e| store_fault(&e)),
        ),
        StoreRequest::Solved => Msg::FactSaved(
            store
                .queue_event(&EventKind::Solved)
                .map_err(|e| store_fault(&e)),
        ),
        StoreRequest::SaveAnswer {
            attempt_id,
            question_id,
            chosen,
            correct,
            finished,
        } => Msg::FactSaved(
            store
                .save_answer(attempt_id, &question_id, &chosen, correct, finished)
                .map_err(|e| store_fault(&e)),
        ),
    }
}

/// The lab results, or why they could not be read (shown like a failed save).
fn lab_results(store: &services::Store) -> Msg {
    match store.lab_results() {
        Ok(results) => Msg::LabResults(results),
        Err(e) => Msg::FactSaved(Err(store_fault(&e))),
    }
}

/// Name, size (with the WAL files) and time of one damaged copy, as Settings lists it.
fn describe(copy: &Path) -> DamagedCopy {
    let size = |suffix: &str| {
        std::fs::metadata(format!("{}{suffix}", copy.display())).map_or(0, |m| m.len())
    };
    let modified_secs = std::fs::metadata(copy)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .and_then(|d| i64::try_from(d.as_secs()).ok())
        .unwrap_or(0);
    DamagedCopy {
        name: copy
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
        bytes: size("") + size("-wal") + size("-shm"),
        modified_secs,
    }
}

#[cfg(test)]
mod tests;
