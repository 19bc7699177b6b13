//! The progress store on its own thread: SQLite never blocks the UI loop. Commands go in over a
//! channel; results come back as messages.

use crate::app::{Msg, QuizRecord, StoreRequest, StoredSession};
use crate::content::{Content, Lang};
use crate::domain::quiz::Attempt;
use crate::services::log;
use crate::services::store::OpenNote;
use crate::services::{Store, StoreError};
use std::path::PathBuf;
use std::sync::{Arc, mpsc};
use std::thread::JoinHandle;
use tokio::sync::mpsc::UnboundedSender;

/// Opens the store and reads what the session starts from.
fn open(path: &std::path::Path) -> Result<(Store, StoredSession), StoreError> {
    let (store, note) = Store::open(path)?;
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
    let stored = StoredSession {
        progress,
        quiz,
        report_status,
        recovered_backup,
    };
    Ok((store, stored))
}

/// Handle to the store thread.
pub struct StoreWorker {
    commands: mpsc::Sender<StoreRequest>,
    thread: JoinHandle<()>,
}

impl StoreWorker {
    /// Opens the store at `path` on a new thread (the first frame does not wait for the
    /// integrity check and migrations) and answers [`Msg::StoreOpened`] or
    /// [`Msg::StoreFailed`] before anything else; requests queued meanwhile run after it.
    /// `content` supplies the quiz new attempts shuffle; `opened` hears once the open is
    /// over (the mail thread opens the same file after it).
    pub fn spawn(
        path: PathBuf,
        content: Arc<Content>,
        replies: UnboundedSender<Msg>,
        opened: mpsc::Sender<()>,
    ) -> std::io::Result<StoreWorker> {
        let (commands, inbox) = mpsc::channel::<StoreRequest>();
        let thread = std::thread::Builder::new()
            .name("store".into())
            .spawn(move || {
                let result = open(&path);
                drop(opened);
                let mut store = match result {
                    Ok((store, stored)) => {
                        let _ = replies.send(Msg::StoreOpened(Box::new(stored)));
                        store
                    }
                    Err(e) => {
                        let _ = replies.send(Msg::StoreFailed(e.to_string()));
                        return;
                    }
                };
                for command in inbox {
                    let msg = match command {
                        StoreRequest::Save(fact) => {
                            Msg::FactSaved(store.save(&fact).map_err(|e| {
                                log::warn(&format!("saving {fact:?} failed: {e}"));
                                e.to_string()
                            }))
                        }
                        StoreRequest::ClearResults => {
                            Msg::ResultsCleared(store.clear().map_err(|e| e.to_string()))
                        }
                        StoreRequest::StartAttempt => {
                            // Question and option ids are the same in every language (content
                            // check), so the order from either course fits both.
                            let quiz = &content.course(Lang::default()).quiz;
                            let attempt = Attempt::new(quiz, rand::random());
                            Msg::AttemptStarted(
                                store.start_attempt(&attempt).map_err(|e| e.to_string()),
                            )
                        }
                        StoreRequest::SaveAnswer {
                            attempt_id,
                            question_id,
                            chosen,
                            correct,
                            finished,
                        } => Msg::FactSaved(
                            store
                                .save_answer(attempt_id, &question_id, &chosen, correct, finished)
                                .map_err(|e| e.to_string()),
                        ),
                    };
                    // The UI may already be gone at shutdown; the save itself has happened.
                    let _ = replies.send(msg);
                }
            })?;
        Ok(StoreWorker { commands, thread })
    }

    /// Queues a request.
    pub fn send(&self, command: StoreRequest) {
        if self.commands.send(command).is_err() {
            log::warn("the store thread has stopped; a save was not queued");
        }
    }

    /// Waits until every queued command is done (called before exit).
    pub fn finish(self) {
        drop(self.commands);
        if self.thread.join().is_err() {
            log::warn("the store thread panicked");
        }
    }
}
