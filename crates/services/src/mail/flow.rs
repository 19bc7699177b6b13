//! The report's confirmation flow as services: validate the address, issue a code and queue its
//! mail, check a typed code and queue the report. Both the plain CLI and the TUI use it.

use super::MailError;
use super::compose::{CODE_PLACEHOLDER, new_message_id};
use super::dispatcher::CodeVault;
use crate::store::{NewCode, NewMail, Store};
use content::Strings;
use content::key;
use domain::address::{self, AddressError};
use domain::otp::{self, IssueDenied, NONCE_LEN, OneTimeCode, OtpHistory, Verdict};
use domain::outbox::MailKind;
use domain::report::Report;
use lettre::message::Mailbox;
use rand::rngs::{StdRng, SysRng};
use rand::{SeedableRng, TryRng};
use std::sync::Arc;

/// Everything the flow needs besides the store.
pub struct ReportFlow {
    /// The HMAC key from the key file.
    pub key: Vec<u8>,
    /// Where fresh codes wait for the dispatcher.
    pub vault: Arc<CodeVault>,
    /// The sender (its domain names the Message-IDs).
    pub from: Mailbox,
    /// The instructor address from the config, if any.
    pub instructor_cc: Option<String>,
}

/// Address validation: the specific checks, each with its own message, then lettre's parser.
pub fn validate_address(input: &str) -> Result<String, AddressError> {
    let checked = address::validate(input)?;
    checked
        .parse::<lettre::Address>()
        .map_err(|_| AddressError::Syntax)?;
    Ok(checked)
}

impl ReportFlow {
    /// Issues a code for `address` and queues its mail (one transaction). Returns the mail's
    /// outbox id, or why no code may be sent now.
    pub fn request_code(
        &self,
        store: &mut Store,
        strings: &Strings,
        address: &str,
        attempt_id: i64,
        now: i64,
    ) -> Result<Result<i64, IssueDenied>, MailError> {
        let issue = |store: &mut Store, make: &mut dyn FnMut(&OtpHistory) -> _| {
            store.issue_code(address, attempt_id, now, |history| make(history))
        };
        self.issue(store, strings, address, address, now, issue)
    }

    /// [`ReportFlow::request_code`] for the workshop host: the code is kept under `key` (the
    /// trainee and the address, so only that trainee's tries count against it) and `limit`
    /// sees every code of the last hour (per trainee, per address, per room).
    pub fn request_code_keyed(
        &self,
        store: &mut Store,
        strings: &Strings,
        recipient: &str,
        key: &str,
        now: i64,
        limit: impl FnOnce(&[(String, i64)]) -> Result<(), IssueDenied>,
    ) -> Result<Result<i64, IssueDenied>, MailError> {
        let issue = |store: &mut Store, make: &mut dyn FnMut(&OtpHistory) -> _| {
            store.issue_code_limited(key, 0, now, limit, |history| make(history))
        };
        self.issue(store, strings, recipient, key, now, issue)
    }

    fn issue(
        &self,
        store: &mut Store,
        strings: &Strings,
        recipient: &str,
        key: &str,
        now: i64,
        issue: impl FnOnce(
            &mut Store,
            &mut dyn FnMut(&OtpHistory) -> Result<NewCode, IssueDenied>,
        ) -> Result<Result<(i64, i64), IssueDenied>, crate::StoreError>,
    ) -> Result<Result<i64, IssueDenied>, MailError> {
        // A CSPRNG seeded from the operating system; seeding is the only fallible step.
        let mut rng =
            StdRng::try_from_rng(&mut SysRng).map_err(|e| MailError::Random(e.to_string()))?;
        let mut nonce = vec![0u8; NONCE_LEN];
        SysRng
            .try_fill_bytes(&mut nonce)
            .map_err(|e| MailError::Random(e.to_string()))?;
        let code = OneTimeCode::generate(&mut rng);
        let mail = NewMail {
            kind: MailKind::Code,
            message_id: new_message_id(&self.from),
            recipient: recipient.to_owned(),
            cc: None,
            subject: strings.get(key::mail::CODE_SUBJECT).to_owned(),
            // The placeholder stays in the stored body; the digits exist only in memory.
            text: strings.fill(key::mail::CODE_BODY, &[("code", CODE_PLACEHOLDER)]),
            html: None,
        };
        let tag = otp::tag(&self.key, &nonce, key, code.reveal());
        let mut fresh = Some(NewCode { nonce, tag, mail });
        let issued = issue(store, &mut |history: &OtpHistory| {
            history.may_issue(now)?;
            fresh.take().ok_or(IssueDenied::Cooldown { wait_secs: 0 })
        })?;
        Ok(issued.map(|(code_id, mail_id)| {
            self.vault.put(code_id, code, now);
            mail_id
        }))
    }

    /// Checks a typed code. Reading the tries so far, the verdict and recording it happen in one
    /// write transaction: on success the code is used up and the report queued, a wrong code is
    /// recorded as a failure, and no other process checks a code in between.
    pub fn confirm_code(
        &self,
        store: &mut Store,
        address: &str,
        typed: &str,
        now: i64,
        cc_consent: bool,
        report: &Report,
    ) -> Result<Verdict, MailError> {
        self.confirm_code_keyed(store, address, address, typed, now, cc_consent, report)
    }

    /// [`ReportFlow::confirm_code`] for a code kept under `key` (see
    /// [`ReportFlow::request_code_keyed`]); the report goes to `recipient`.
    #[allow(clippy::too_many_arguments)]
    pub fn confirm_code_keyed(
        &self,
        store: &mut Store,
        recipient: &str,
        key: &str,
        typed: &str,
        now: i64,
        cc_consent: bool,
        report: &Report,
    ) -> Result<Verdict, MailError> {
        let mail = NewMail {
            kind: MailKind::Report,
            message_id: new_message_id(&self.from),
            recipient: recipient.to_owned(),
            cc: self.instructor_cc.clone().filter(|_| cc_consent),
            subject: report.subject.clone(),
            text: report.text(),
            html: Some(report.html()),
        };
        let verdict = store.decide_code(key, now, cc_consent, &mail, |history| {
            history.check(&self.key, key, typed, now)
        })?;
        Ok(verdict)
    }
}
