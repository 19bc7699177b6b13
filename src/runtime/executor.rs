//! Carries out the core's effects: saves go to the store thread, mail work to the mail thread,
//! the LAN share to its slot. Answers come back as messages through `replies`.

use super::mail_worker::{MailCommand, MailWorker};
use super::share_slot::ShareSlot;
use super::sim_worker::SimWorker;
use super::store_worker::{StoreCommand, StoreWorker};
use crate::app::{App, Effect, Msg};
use crate::content::Lang;
use crate::domain::quiz::Attempt;
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
    /// Where immediate answers go.
    pub replies: UnboundedSender<Msg>,
}

impl Executor {
    /// Carries out effects in order.
    pub fn run(&mut self, app: &App, effects: Vec<Effect>) {
        for effect in effects {
            self.run_one(app, effect);
        }
    }

    fn run_one(&mut self, app: &App, effect: Effect) {
        match effect {
            Effect::Save(fact) => self.store.send(StoreCommand::Save(fact)),
            Effect::ClearResults => {
                self.store.send(StoreCommand::Clear);
                self.mail.send(MailCommand::ClearFiles);
            }
            Effect::Quit => {}
            Effect::Sim(command) => self.sim.send(command),
            Effect::StartShare { port } => {
                let answer = self.share.start(app, port);
                // The receiver lives as long as the loop that calls this.
                let _ = self.replies.send(answer);
            }
            Effect::StopShare => self.share.stop(),
            Effect::StartAttempt => {
                // Question and option ids are the same in every language (content check), so
                // the order from either course fits both.
                let quiz = &app.session.content.course(Lang::default()).quiz;
                let attempt = Attempt::new(quiz, rand::random());
                self.store.send(StoreCommand::StartAttempt(attempt));
            }
            Effect::SaveAnswer {
                attempt_id,
                question_id,
                chosen,
                correct,
                finished,
            } => {
                self.store.send(StoreCommand::SaveAnswer {
                    attempt_id,
                    question_id,
                    chosen,
                    correct,
                    finished,
                });
            }
            Effect::SaveReport { lang } => self.mail.send(MailCommand::SaveReport { lang }),
            Effect::RequestCode { address, lang } => {
                self.mail.send(MailCommand::RequestCode { address, lang });
            }
            Effect::ConfirmCode {
                address,
                code,
                consent,
                lang,
            } => {
                self.mail.send(MailCommand::ConfirmCode {
                    address,
                    code,
                    consent,
                    lang,
                });
            }
        }
    }

    /// Waits for the threads: every save the learner saw must be on disk before the process
    /// ends. Queued mails stay in the outbox; the next start (or `mail retry`) sends them.
    pub fn finish(mut self) {
        self.share.stop();
        self.store.finish();
        self.mail.finish();
        self.sim.finish();
    }
}
