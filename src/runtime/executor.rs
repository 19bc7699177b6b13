//! Carries out the core's effects: store requests go to the store thread, mail requests to the
//! mail thread, simulator commands to the engine thread, the LAN share to its slot. It never
//! reads the app; answers come back as messages through `replies`.

use super::lab_worker::LabWorker;
use super::mail_worker::MailWorker;
use super::share_slot::ShareSlot;
use super::sim_worker::SimWorker;
use super::store_worker::StoreWorker;
use super::workshop_worker::WorkshopWorker;
use app::{EditError, Effect, LabRequest, Msg, ShareRequest};
use content::Content;
use std::path::PathBuf;
use std::sync::Arc;
use tokio::sync::mpsc::UnboundedSender;

/// The threads and slots effects go to.
pub struct Executor {
    /// The progress store thread.
    pub store: StoreWorker,
    /// The mail thread.
    pub mail: MailWorker,
    /// The LAN share of the map.
    pub share: ShareSlot,
    /// The simulator engine's thread.
    pub sim: SimWorker,
    /// The loaded content (the one copy), for the page the share serves.
    pub content: Arc<Content>,
    /// Where immediate answers go.
    pub replies: UnboundedSender<Msg>,
    /// The workshop dispatcher (join, leave).
    pub workshop: WorkshopWorker,
    /// The lab thread (files and checks).
    pub lab: LabWorker,
    /// A lab file waiting for the editor (lab id, file): the event loop hands the terminal
    /// over, since only it can stop reading the terminal meanwhile.
    pub pending_edit: Option<(String, PathBuf)>,
}

impl Executor {
    /// Carries out effects in order, each handed to its worker as it is.
    pub fn run(&mut self, effects: Vec<Effect>) {
        for effect in effects {
            match effect {
                Effect::Store(request) => self.store.send(request),
                Effect::Mail(request) => self.mail.send(request),
                Effect::Sim(command) => self.sim.send(command),
                Effect::Share(ShareRequest::Start { port, lang }) => {
                    let answer = self.share.start(&self.content, lang, port);
                    // The receiver lives as long as the loop that calls this.
                    let _ = self.replies.send(answer);
                }
                Effect::Share(ShareRequest::Stop) => self.share.stop(),
                Effect::Workshop(request) => self.workshop.send(request),
                Effect::Lab(LabRequest::Edit { lab_id }) => match self.lab.file_to_edit(&lab_id) {
                    Ok(file) => self.pending_edit = Some((lab_id, file)),
                    Err(e) => {
                        let _ = self.replies.send(Msg::LabEdited {
                            lab_id,
                            result: Err(EditError::File(e)),
                        });
                    }
                },
                Effect::Lab(request) => self.lab.send(request),
            }
        }
    }

    /// Waits for the threads: every save the learner saw must be on disk before the process
    /// ends. Queued mails stay in the outbox; the next start (or `mail retry`) sends them.
    /// Returns why the store could not be opened or what could not be saved, if anything.
    pub fn finish(mut self) -> Option<String> {
        self.share.stop();
        let unsaved = self.store.finish();
        self.mail.finish();
        self.sim.finish();
        self.workshop.finish();
        self.lab.finish();
        unsaved
    }
}
