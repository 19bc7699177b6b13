//! The progress store on its own thread: SQLite never blocks the UI loop. Commands go in over a
//! channel; results come back as messages.

use crate::app::Msg;
use crate::domain::Fact;
use crate::domain::quiz::Attempt;
use crate::services::Store;
use crate::services::log;
use std::collections::BTreeSet;
use std::sync::mpsc;
use std::thread::JoinHandle;
use tokio::sync::mpsc::UnboundedSender;

/// What the store thread does.
pub enum StoreCommand {
    /// Save one fact in its own transaction.
    Save(Fact),
    /// Delete all results.
    Clear,
    /// Save a new quiz attempt.
    StartAttempt(Attempt),
    /// Save one quiz answer.
    SaveAnswer {
        /// The attempt.
        attempt_id: i64,
        /// The question.
        question_id: String,
        /// Chosen option ids.
        chosen: BTreeSet<String>,
        /// Right or wrong.
        correct: bool,
        /// Score when it was the last question.
        finished: Option<u32>,
    },
}

/// Handle to the store thread.
pub struct StoreWorker {
    commands: mpsc::Sender<StoreCommand>,
    thread: JoinHandle<()>,
}

impl StoreWorker {
    /// Moves the store onto a new thread.
    pub fn spawn(mut store: Store, replies: UnboundedSender<Msg>) -> std::io::Result<StoreWorker> {
        let (commands, inbox) = mpsc::channel::<StoreCommand>();
        let thread = std::thread::Builder::new()
            .name("store".into())
            .spawn(move || {
                for command in inbox {
                    let msg = match command {
                        StoreCommand::Save(fact) => {
                            Msg::FactSaved(store.save(&fact).map_err(|e| {
                                log::warn(&format!("saving {fact:?} failed: {e}"));
                                e.to_string()
                            }))
                        }
                        StoreCommand::Clear => {
                            Msg::ResultsCleared(store.clear().map_err(|e| e.to_string()))
                        }
                        StoreCommand::StartAttempt(attempt) => Msg::AttemptStarted(
                            store.start_attempt(&attempt).map_err(|e| e.to_string()),
                        ),
                        StoreCommand::SaveAnswer {
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

    /// Queues a command.
    pub fn send(&self, command: StoreCommand) {
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
