//! Drains the mail outbox: sends every due mail once per run, records each attempt before it
//! goes on the wire, and marks the result right after.
//!
//! Exactly once, as far as we can: a mail is marked sent only after the transport accepted it,
//! and never sent again once marked; a lease on the row keeps a second dispatcher (the TUI and
//! `mail retry` at the same time) from sending it in parallel. What remains possible is a crash (or a lost connection)
//! after the server accepted the message but before the row says "sent": the next run sends it
//! again. The repeat carries the same Message-ID, so the receiving side can recognise it (many
//! mail stores do), and the `file` transport overwrites the same file. Code mails are never
//! repeated by another process: their code lives only in the memory of the process that made
//! it, so other processes skip such a row while the code could still be valid and mark it
//! failed once it has expired; the learner then asks for a new code.

use super::compose::build_message;
use super::transport::Transport;
use crate::log;
use crate::store::{OutboxMail, Store, StoreError};
use domain::otp::{OneTimeCode, VALIDITY_SECS};
use domain::outbox::{MailKind, RetryPolicy};
use lettre::message::Mailbox;
use rand::RngExt;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Codes in clear between issuing and sending, keyed by code id. Memory only, by design.
#[derive(Debug, Default)]
pub struct CodeVault {
    codes: Mutex<HashMap<i64, (OneTimeCode, i64)>>,
}

impl CodeVault {
    /// A shared empty vault.
    pub fn shared() -> Arc<CodeVault> {
        Arc::new(CodeVault::default())
    }

    /// Keeps `code` (issued at `issued_at`) until its mail is sent or it expires.
    pub fn put(&self, code_id: i64, code: OneTimeCode, issued_at: i64) {
        if let Ok(mut map) = self.codes.lock() {
            map.insert(code_id, (code, issued_at));
        }
    }

    /// The code for `code_id` if it is still valid at `now`.
    fn get(&self, code_id: i64, now: i64) -> Option<OneTimeCode> {
        let map = self.codes.lock().ok()?;
        map.get(&code_id)
            .filter(|(_, issued)| now - issued < VALIDITY_SECS)
            .map(|(code, _)| code.clone())
    }

    fn forget(&self, code_id: i64) {
        if let Ok(mut map) = self.codes.lock() {
            map.remove(&code_id);
        }
    }
}

/// What happened to one mail in a run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Delivered; `to` is the server or the file.
    Sent { id: i64, kind: MailKind, to: String },
    /// Failed this time; stays queued until `next_at`.
    Retry {
        id: i64,
        kind: MailKind,
        reason: String,
        next_at: i64,
    },
    /// Given up.
    Failed {
        id: i64,
        kind: MailKind,
        reason: String,
    },
}

/// Sends due mails through one transport.
pub struct Dispatcher {
    transport: Box<dyn Transport>,
    from: Mailbox,
    vault: Arc<CodeVault>,
    policy: RetryPolicy,
}

impl Dispatcher {
    /// A dispatcher for `transport` sending as `from`.
    pub fn new(
        transport: Box<dyn Transport>,
        from: Mailbox,
        vault: Arc<CodeVault>,
        policy: RetryPolicy,
    ) -> Dispatcher {
        Dispatcher {
            transport,
            from,
            vault,
            policy,
        }
    }

    /// The transport's description ("file DIR" or "smtp host:port").
    pub fn describe(&self) -> String {
        self.transport.describe()
    }

    /// Sends every mail due at `now`, one attempt each.
    pub fn run_due(&self, store: &mut Store, now: i64) -> Result<Vec<Outcome>, StoreError> {
        let mut outcomes = Vec::new();
        for row in store.due_mails(now)? {
            if let Some(outcome) = self.send_one(store, &row, now)? {
                outcomes.push(outcome);
            }
        }
        Ok(outcomes)
    }

    fn send_one(
        &self,
        store: &mut Store,
        row: &OutboxMail,
        now: i64,
    ) -> Result<Option<Outcome>, StoreError> {
        let kind = row.mail.kind;
        let code = row.otp_code_id.and_then(|id| self.vault.get(id, now));
        if row.otp_code_id.is_some() && code.is_none() {
            if now - row.created_at < VALIDITY_SECS {
                // Another process (the TUI, a running `report --plain`) may hold this code;
                // leave the row to it.
                return Ok(None);
            }
            let reason = "the code expired before it could be sent; ask for a new code".to_owned();
            return failed(store, row, reason).map(Some);
        }
        let message = match build_message(row, &self.from, code.as_ref()) {
            Ok(message) => message,
            // Nothing went on the wire; retrying cannot help (bad address).
            Err(reason) => return failed(store, row, reason).map(Some),
        };
        if !store.begin_mail_attempt(row.id, now)? {
            return Ok(None);
        }
        let attempts = row.attempts + 1;
        match self.transport.send(&message, row) {
            Ok(to) => {
                store.mark_mail_sent(row.id, now, &to)?;
                if let Some(id) = row.otp_code_id {
                    self.vault.forget(id);
                }
                log::info(&format!(
                    "mail {} ({}) sent via {to}",
                    row.id,
                    kind.as_str()
                ));
                Ok(Some(Outcome::Sent {
                    id: row.id,
                    kind,
                    to,
                }))
            }
            Err(err) if err.permanent || self.policy.exhausted(attempts) => {
                let reason = if err.permanent {
                    // The server said no for good: say why at once; `mail retry` resends after
                    // the cause is fixed.
                    err.reason
                } else {
                    domain::send_failure::gave_up(attempts, &err.reason)
                };
                failed(store, row, reason).map(Some)
            }
            Err(err) => {
                let jitter: f64 = rand::rng().random();
                let next_at = now + self.policy.delay_secs(attempts, jitter);
                store.mark_mail_retry(row.id, next_at, &err.reason)?;
                log::warn(&format!(
                    "mail {} ({}) attempt {attempts} failed, next at {next_at}: {}",
                    row.id,
                    kind.as_str(),
                    err.reason
                ));
                Ok(Some(Outcome::Retry {
                    id: row.id,
                    kind,
                    reason: err.reason,
                    next_at,
                }))
            }
        }
    }
}

/// Marks `row` failed for good with `reason`, and logs it.
fn failed(store: &mut Store, row: &OutboxMail, reason: String) -> Result<Outcome, StoreError> {
    store.mark_mail_failed(row.id, &reason)?;
    log::warn(&format!(
        "mail {} ({}) failed: {reason}",
        row.id,
        row.mail.kind.as_str()
    ));
    Ok(Outcome::Failed {
        id: row.id,
        kind: row.mail.kind,
        reason,
    })
}
