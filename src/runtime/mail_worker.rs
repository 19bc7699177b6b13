//! The mail thread: its own connection to the progress store, the confirmation flow and the
//! dispatcher. It sleeps until a command arrives or the next queued mail is due, so nothing
//! wakes up while the outbox is empty; SMTP never runs on the UI loop.

mod host_relay;

use super::faults::{save_error, store_fault};
use app::{CodeRequestOutcome, Delivery, MailFlowError, MailRequest, Msg, SaveError};
use content::{Content, Lang};
use domain::otp::OneTimeCode;
use domain::outbox::{DEFAULT_RETRY, MailKind};
use services::mail::{self, CodeVault, Dispatcher, MailError, Outcome, ReportFlow};
use services::store::now_secs;
use services::{Config, Paths, Store, log};
use std::sync::Arc;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::thread::JoinHandle;
use std::time::Duration;
use tokio::sync::mpsc::UnboundedSender;

/// Shortest sleep between two dispatcher runs while mails wait. A code mail that belongs to
/// another process stays due without being sent here; this keeps such a row from spinning.
const MIN_WAIT: Duration = Duration::from_secs(15);

/// Handle to the mail thread.
pub struct MailWorker {
    commands: mpsc::Sender<MailRequest>,
    thread: JoinHandle<()>,
}

struct Ctx {
    store: Store,
    content: Arc<Content>,
    config: Config,
    paths: Paths,
    flow: ReportFlow,
    dispatcher: Dispatcher,
    file_transport: bool,
    replies: UnboundedSender<Msg>,
    /// The report's status after the workshop host accepted a code (joined trainees only).
    host_status: Option<Msg>,
}

impl MailWorker {
    /// Starts the thread. Setup problems (bad mail config, unreadable key) are logged and
    /// reported when the learner first uses mail; the workshop itself keeps running.
    /// `store_ready` ends (a message or a hang-up) once the store thread has opened and
    /// migrated the shared database: two first opens at once would race on creating it.
    pub fn spawn(
        paths: Paths,
        config: Config,
        content: Arc<Content>,
        replies: UnboundedSender<Msg>,
        store_ready: mpsc::Receiver<()>,
    ) -> std::io::Result<MailWorker> {
        let (commands, inbox) = mpsc::channel::<MailRequest>();
        let thread = std::thread::Builder::new()
            .name("mail".into())
            .spawn(move || {
                let _ = store_ready.recv();
                match setup(paths, config, content, replies.clone()) {
                    Ok(mut ctx) => ctx.run(&inbox),
                    Err(e) => {
                        log::warn(&format!("mail is not available: {e}"));
                        for command in inbox {
                            let _ = replies.send(failure(&command, &e));
                        }
                    }
                }
            })?;
        Ok(MailWorker { commands, thread })
    }

    /// Queues a command.
    pub fn send(&self, command: MailRequest) {
        if self.commands.send(command).is_err() {
            log::warn("the mail thread has stopped; a mail command was not queued");
        }
    }

    /// Stops the thread after the current command (queued mails stay in the outbox).
    pub fn finish(self) {
        drop(self.commands);
        if self.thread.join().is_err() {
            log::warn("the mail thread panicked");
        }
    }
}

/// The answer to `command` when mail could not start on this machine.
fn failure(command: &MailRequest, e: &MailError) -> Msg {
    let flow = || MailFlowError::Failed(e.to_string());
    match command {
        MailRequest::SaveReport { .. } => Msg::ReportSaved(Err(save_error(e))),
        MailRequest::ClearFiles => Msg::ResultsCleared(Err(save_error(e))),
        MailRequest::RequestCode { .. } => Msg::CodeRequested(Err(flow())),
        MailRequest::ConfirmCode { .. } => Msg::CodeChecked(Err(flow())),
    }
}

fn setup(
    paths: Paths,
    config: Config,
    content: Arc<Content>,
    replies: UnboundedSender<Msg>,
) -> Result<Ctx, MailError> {
    let (store, _) = Store::open(&paths.progress_db())?;
    let from = mail::from_mailbox(config.mail.from.as_deref())?;
    let vault = CodeVault::shared();
    let flow = ReportFlow {
        key: mail::load_or_create_key(&paths.otp_key_file())?,
        vault: vault.clone(),
        from: from.clone(),
        instructor_cc: config.workshop.instructor_cc.clone(),
    };
    let transport = mail::from_config(&config.mail, &paths.mail_dir())?;
    let file_transport = config.mail.transport == services::config::Transport::File;
    Ok(Ctx {
        store,
        content,
        config,
        paths,
        flow,
        dispatcher: Dispatcher::new(transport, from, vault, DEFAULT_RETRY),
        file_transport,
        replies,
        host_status: None,
    })
}

impl Ctx {
    fn run(&mut self, inbox: &mpsc::Receiver<MailRequest>) {
        // Mails left from an earlier session go out now.
        self.dispatch(None);
        loop {
            let command = match self.next_wait() {
                Some(wait) => match inbox.recv_timeout(wait) {
                    Ok(command) => command,
                    Err(RecvTimeoutError::Timeout) => {
                        self.dispatch(None);
                        continue;
                    }
                    Err(RecvTimeoutError::Disconnected) => return,
                },
                None => match inbox.recv() {
                    Ok(command) => command,
                    Err(_) => return,
                },
            };
            let reply = self.handle(command);
            let _ = self.replies.send(reply);
        }
    }

    fn next_wait(&self) -> Option<Duration> {
        let due = self.store.next_mail_due().ok().flatten()?;
        let secs = u64::try_from(due - now_secs()).unwrap_or(0);
        Some(Duration::from_secs(secs).max(MIN_WAIT))
    }

    fn handle(&mut self, command: MailRequest) -> Msg {
        match command {
            MailRequest::ClearFiles => {
                if let Err(e) = mail::clear_files(&self.paths.mail_dir(), &self.paths.reports_dir())
                {
                    log::warn(&e.to_string());
                    return Msg::ResultsCleared(Err(save_error(&e)));
                }
                self.status_msg(None)
            }
            MailRequest::SaveReport { lang, name } => {
                Msg::ReportSaved(self.save_report(lang, name.as_deref()))
            }
            MailRequest::RequestCode { address, lang } => {
                Msg::CodeRequested(self.request_code(&address, lang))
            }
            MailRequest::ConfirmCode {
                address,
                code,
                consent,
                lang,
                name,
            } => {
                let verdict = self.confirm(&address, &code, consent, lang, name.as_deref());
                let accepted = matches!(verdict, Ok(domain::otp::Verdict::Accepted { .. }));
                let _ = self.replies.send(Msg::CodeChecked(verdict));
                if let Some(status) = self.host_status.take() {
                    return status;
                }
                if accepted {
                    self.dispatch(Some(MailKind::Report));
                }
                self.status_msg(None)
            }
        }
    }

    fn report(
        &self,
        lang: Lang,
        name: Option<&str>,
    ) -> Result<(i64, domain::report::Report), SaveError> {
        mail::latest_report(
            &self.store,
            &self.content,
            lang,
            self.config.workshop.name.as_deref(),
            name,
            now_secs(),
        )
        .map_err(|e| SaveError::Store(store_fault(&e)))?
        .ok_or(SaveError::NoAttempt)
    }

    /// The report for the code flow, or why there is none in words for the report screen.
    fn flow_report(
        &self,
        lang: Lang,
        name: Option<&str>,
    ) -> Result<(i64, domain::report::Report), MailFlowError> {
        self.report(lang, name)
            .map_err(|e| MailFlowError::Failed(e.describe(&self.content.course(lang).strings)))
    }

    fn save_report(&self, lang: Lang, name: Option<&str>) -> Result<String, SaveError> {
        let (attempt_id, report) = self.report(lang, name)?;
        mail::save_report(&self.paths.reports_dir(), attempt_id, &report)
            .map(|p| p.display().to_string())
            .map_err(|e| save_error(&e))
    }

    fn request_code(
        &mut self,
        address: &str,
        lang: Lang,
    ) -> Result<CodeRequestOutcome, MailFlowError> {
        let address = match mail::validate_address(address) {
            Ok(a) => a,
            Err(e) => return Ok(CodeRequestOutcome::Invalid { key: e.key() }),
        };
        let (attempt_id, _) = self.flow_report(lang, None)?;
        // Joined: the host issues the code, under limits this machine cannot reset.
        if let Some(member) = self.store.membership().map_err(|e| e.to_string())? {
            return host_relay::request_code(&member, &address, lang)
                .map_err(host_relay::flow_error);
        }
        let strings = &self.content.course(lang).strings;
        let issued = self
            .flow
            .request_code(&mut self.store, strings, &address, attempt_id, now_secs())
            .map_err(|e| e.to_string())?;
        if let Err(denied) = issued {
            return Ok(CodeRequestOutcome::Denied {
                key: denied.key(),
                secs: denied.wait_secs(),
            });
        }
        let delivery = self.dispatch(Some(MailKind::Code));
        Ok(CodeRequestOutcome::Sent(delivery.unwrap_or(Delivery::Smtp)))
    }

    fn confirm(
        &mut self,
        address: &str,
        code: &OneTimeCode,
        consent: bool,
        lang: Lang,
        name: Option<&str>,
    ) -> Result<domain::otp::Verdict, MailFlowError> {
        let (_, report) = self.flow_report(lang, name)?;
        if let Some(member) = self.store.membership().map_err(|e| e.to_string())? {
            let (verdict, status) =
                host_relay::submit(&member, address, code.reveal(), consent, &report)
                    .map_err(host_relay::flow_error)?;
            // Sent after the verdict, as the local flow's dispatch reports it.
            self.host_status = status;
            return Ok(verdict);
        }
        self.flow
            .confirm_code(
                &mut self.store,
                address,
                code.reveal(),
                now_secs(),
                consent,
                &report,
            )
            .map_err(|e| MailFlowError::Failed(e.to_string()))
    }

    /// Sends what is due; returns what happened to the newest mail of `kind`, and tells the
    /// UI about the report's status.
    fn dispatch(&mut self, kind: Option<MailKind>) -> Option<Delivery> {
        let outcomes = match self.dispatcher.run_due(&mut self.store, now_secs()) {
            Ok(o) => o,
            Err(e) => {
                log::warn(&format!("mail dispatch failed: {e}"));
                return Some(Delivery::Retry(e.to_string()));
            }
        };
        let mut wanted = None;
        let mut report_delivery = None;
        for outcome in &outcomes {
            let (k, delivery) = match outcome {
                Outcome::Sent { kind, to, .. } => (
                    *kind,
                    if self.file_transport {
                        Delivery::File(to.clone())
                    } else {
                        Delivery::Smtp
                    },
                ),
                Outcome::Retry { kind, reason, .. } => (*kind, Delivery::Retry(reason.clone())),
                Outcome::Failed { kind, reason, .. } => (*kind, Delivery::Failed(reason.clone())),
            };
            if k == MailKind::Report {
                report_delivery = Some(delivery.clone());
            }
            if Some(k) == kind {
                wanted = Some(delivery);
            }
        }
        // Only a change is worth a message (and a redraw): an idle start stays silent.
        if report_delivery.is_some() || (kind.is_none() && !outcomes.is_empty()) {
            let _ = self.replies.send(self.status_msg(report_delivery));
        }
        wanted
    }

    fn status_msg(&self, delivery: Option<Delivery>) -> Msg {
        Msg::MailUpdated {
            report: self.store.report_mail_status().ok().flatten(),
            delivery,
        }
    }
}
