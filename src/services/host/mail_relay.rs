//! Mail through the host: the host holds the mail configuration, issues and checks the one-time
//! codes (tries, expiry, cooldown and hourly limits live in the host's own store, where no
//! trainee can reset them) and sends the report. It reuses the local flow unchanged: the same
//! `ReportFlow`, outbox and dispatcher, on a store in the host's data folder.

use super::lock;
use crate::content::{Content, Lang};
use crate::domain::otp::Verdict;
use crate::domain::outbox::DEFAULT_RETRY;
use crate::domain::workshop::wire::{CodeRequest, MailReply, ReportSubmit};
use crate::services::mail::{self, CodeVault, Dispatcher, Outcome, ReportFlow, validate_address};
use crate::services::store::now_secs;
use crate::services::{Config, Store};
use std::path::Path;
use std::sync::Mutex;

/// The host's mail relay.
pub struct MailRelay {
    store: Mutex<Store>,
    flow: ReportFlow,
    dispatcher: Dispatcher,
    content: Content,
}

impl MailRelay {
    /// Opens the relay's store and transport in `data_dir` with the host's mail config.
    pub fn open(data_dir: &Path, config: &Config, content: &Content) -> Result<MailRelay, String> {
        let (store, _) = Store::open(&data_dir.join("host-mail.db")).map_err(|e| e.to_string())?;
        let from = mail::from_mailbox(config.mail.from.as_deref()).map_err(|e| e.to_string())?;
        let vault = CodeVault::shared();
        let flow = ReportFlow {
            key: mail::load_or_create_key(&data_dir.join("host-otp.key"))
                .map_err(|e| e.to_string())?,
            vault: vault.clone(),
            from: from.clone(),
            // A copy to the instructor needs the trainee's consent on screen; the relay does
            // not ask for it, so it sends none.
            instructor_cc: None,
        };
        let transport =
            mail::from_config(&config.mail, &data_dir.join("mail")).map_err(|e| e.to_string())?;
        Ok(MailRelay {
            store: Mutex::new(store),
            flow,
            dispatcher: Dispatcher::new(transport, from, vault, DEFAULT_RETRY),
            content: content.clone(),
        })
    }

    /// Sends what is due; true when a mail went out now.
    fn dispatch(&self, store: &mut Store) -> bool {
        match self.dispatcher.run_due(store, now_secs()) {
            Ok(outcomes) => outcomes.iter().any(|o| matches!(o, Outcome::Sent { .. })),
            Err(e) => {
                crate::services::log::warn(&format!("host mail relay: {e}"));
                false
            }
        }
    }

    /// Issues a code for the address and sends its mail.
    pub fn request_code(&self, req: &CodeRequest) -> Result<MailReply, (u16, String)> {
        let address = validate_address(&req.address).map_err(|e| {
            (
                422,
                format!("address refused: {}", self.strings(req.lang).get(e.key())),
            )
        })?;
        let mut store = lock(&self.store);
        let issued = self
            .flow
            .request_code(&mut store, self.strings(req.lang), &address, 0, now_secs())
            .map_err(|e| (500, e.to_string()))?;
        Ok(match issued {
            Ok(_) => MailReply {
                key: "report.code_sent".into(),
                sent: self.dispatch(&mut store),
                ..MailReply::default()
            },
            Err(denied) => MailReply {
                key: denied.key().into(),
                wait_secs: Some(denied.wait_secs()),
                done: matches!(denied, crate::domain::otp::IssueDenied::Locked { .. }),
                ..MailReply::default()
            },
        })
    }

    /// Checks the typed code; when right, queues and sends the report.
    pub fn submit(&self, req: &ReportSubmit) -> Result<MailReply, (u16, String)> {
        let address = validate_address(&req.address).map_err(|e| {
            (
                422,
                format!("address refused: {}", self.strings(Lang::En).get(e.key())),
            )
        })?;
        // One lock around check and record: concurrent guesses are counted one after another,
        // so twenty at once still stop at the try limit.
        let mut store = lock(&self.store);
        let verdict = self
            .flow
            .confirm_code(
                &mut store,
                &address,
                &req.typed,
                now_secs(),
                false,
                &req.report,
            )
            .map_err(|e| (500, e.to_string()))?;
        let mut reply = MailReply {
            key: verdict.key().into(),
            ..MailReply::default()
        };
        match verdict {
            Verdict::Accepted { .. } => {
                reply.sent = self.dispatch(&mut store);
                reply.done = true;
            }
            Verdict::Wrong { remaining } => reply.remaining = Some(remaining),
            Verdict::Locked { wait_secs } => {
                reply.wait_secs = Some(wait_secs);
                reply.done = true;
            }
            _ => {}
        }
        Ok(reply)
    }

    fn strings(&self, lang: Lang) -> &crate::content::Strings {
        &self.content.course(lang).strings
    }
}
