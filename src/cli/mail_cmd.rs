//! `queuelab mail status` and `queuelab mail retry`: the outbox for operators and scripts. In
//! a workshop host's data folder they work on the relay's outbox (`host-mail.db`), which the
//! running host's dispatcher shares: leases keep the two from sending one mail twice.

use super::lines::Session;
use super::{Cli, Failure, MailAction};
use domain::outbox::{DEFAULT_RETRY, MailStatus};
use services::host::mail_relay::RELAY_DB;
use services::mail::{self, CodeVault, Dispatcher, Outcome};
use services::store::{OutboxMail, now_secs};
use services::{Config, Store};
use std::path::Path;

/// Runs `mail status` or `mail retry`.
pub fn run(cli: &Cli, action: MailAction) -> Result<(), Failure> {
    let paths = super::paths(cli)?;
    let relay_db = paths.data_dir.join(RELAY_DB);
    if relay_db.exists() {
        let config = super::config(&paths)?;
        let (mut store, _) = Store::open(&relay_db).map_err(|e| Failure::new(e.to_string()))?;
        super::out::line(format!(
            "The workshop host's relay outbox ({}):",
            relay_db.display()
        ))?;
        return run_on(&mut store, &config, &paths.data_dir.join("mail"), action);
    }
    let mut session = Session::open(cli)?;
    let mail_dir = session.paths.mail_dir();
    run_on(&mut session.store, &session.config, &mail_dir, action)
}

fn run_on(
    store: &mut Store,
    config: &Config,
    mail_dir: &Path,
    action: MailAction,
) -> Result<(), Failure> {
    let fail = |e: &dyn std::fmt::Display| Failure::new(e.to_string());
    match action {
        MailAction::Status => {
            let mails = store.mails().map_err(|e| fail(&e))?;
            if mails.is_empty() {
                super::out::line("The mail outbox is empty.")?;
            }
            for m in &mails {
                super::out::line(status_line(m, now_secs()))?;
            }
            Ok(())
        }
        MailAction::Retry => {
            let now = now_secs();
            let changed = store.requeue_mails(now).map_err(|e| fail(&e))?;
            let from = mail::from_mailbox(config.mail.from.as_deref()).map_err(|e| fail(&e))?;
            let transport = mail::from_config(&config.mail, mail_dir).map_err(|e| fail(&e))?;
            let dispatcher = Dispatcher::new(transport, from, CodeVault::shared(), DEFAULT_RETRY);
            let outcomes = dispatcher.run_due(store, now).map_err(|e| fail(&e))?;
            if outcomes.is_empty() {
                super::out::line(format!(
                    "Nothing due ({changed} mail(s) put back in the queue)."
                ))?;
            }
            let mut unsent = 0;
            for o in &outcomes {
                match o {
                    Outcome::Sent { id, kind, to } => {
                        super::out::line(format!("#{id} {} sent via {to}", kind.as_str()))?;
                    }
                    Outcome::Retry {
                        id,
                        kind,
                        reason,
                        next_at,
                    } => {
                        unsent += 1;
                        super::out::line(format!(
                            "#{id} {} still queued, next attempt in {} s: {reason}",
                            kind.as_str(),
                            next_at - now
                        ))?;
                    }
                    Outcome::Failed { id, kind, reason } => {
                        unsent += 1;
                        super::out::line(format!("#{id} {} failed: {reason}", kind.as_str()))?;
                    }
                }
            }
            if unsent > 0 {
                return Err(Failure::new(format!(
                    "{unsent} mail(s) could not be sent via {}; see queuelab mail status",
                    dispatcher.describe()
                )));
            }
            Ok(())
        }
    }
}

/// One line per mail: id, kind, status, attempts, Message-ID and details.
fn status_line(m: &OutboxMail, now: i64) -> String {
    let status = match &m.status {
        MailStatus::Queued => format!(
            "queued (next attempt in {} s{})",
            (m.next_attempt_at - now).max(0),
            m.last_error
                .as_ref()
                .map(|e| format!("; last error: {e}"))
                .unwrap_or_default()
        ),
        MailStatus::Sent => format!("sent via {}", m.delivered_to.as_deref().unwrap_or("?")),
        MailStatus::Failed(reason) => format!("failed: {reason}"),
    };
    format!(
        "#{} {} {} attempts={} {} to {}",
        m.id,
        m.mail.kind.as_str(),
        status,
        m.attempts,
        m.mail.message_id,
        m.mail.recipient
    )
}
