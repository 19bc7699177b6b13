//! Builds lettre messages from outbox rows. Every header goes through lettre's typed builders
//! (never a raw header), so a line break in a subject or name is encoded, not interpreted.

use super::MailError;
use crate::store::OutboxMail;
use domain::otp::OneTimeCode;
use lettre::Message;
use lettre::message::{Mailbox, MultiPart, SinglePart};
use rand::RngExt;
use std::time::{Duration, UNIX_EPOCH};

/// Sender used by the file transport when the config names none.
pub const DEFAULT_FROM: &str = "queuelab <queuelab@localhost>";
/// Placeholder in the stored code-mail body; replaced only in memory at send time.
pub const CODE_PLACEHOLDER: &str = "{code}";

/// The sender mailbox from the config's `mail.from` (or the default).
pub fn from_mailbox(from: Option<&str>) -> Result<Mailbox, MailError> {
    from.unwrap_or(DEFAULT_FROM)
        .parse::<Mailbox>()
        .map_err(|e| MailError::Config {
            key: "mail.from".into(),
            message: format!("{e}; use an address like \"Workshop <lab@example.org>\""),
        })
}

/// A new globally unique Message-ID (with angle brackets) in the sender's domain.
pub fn new_message_id(from: &Mailbox) -> String {
    let mut rng = rand::rng();
    let id: u128 = rng.random();
    format!("<{id:032x}.queuelab@{}>", from.email.domain())
}

/// The lettre message for an outbox row. For a code mail `code` fills the placeholder; a code
/// mail without its code is refused (it would mail the placeholder).
pub fn build_message(
    mail: &OutboxMail,
    from: &Mailbox,
    code: Option<&OneTimeCode>,
) -> Result<Message, String> {
    let to: Mailbox = mail
        .mail
        .recipient
        .parse()
        .map_err(|e| format!("recipient address rejected by the mail library: {e}"))?;
    let date = UNIX_EPOCH + Duration::from_secs(mail.created_at.max(0) as u64);
    let mut builder = Message::builder()
        .from(from.clone())
        .to(to)
        .subject(mail.mail.subject.clone())
        .message_id(Some(mail.mail.message_id.clone()))
        .date(date)
        .user_agent(format!("queuelab {}", env!("CARGO_PKG_VERSION")));
    if let Some(cc) = &mail.mail.cc {
        let cc: Mailbox = cc
            .parse()
            .map_err(|e| format!("copy address rejected by the mail library: {e}"))?;
        builder = builder.cc(cc);
    }
    let text = match (mail.otp_code_id, code) {
        (Some(_), Some(code)) => mail.mail.text.replace(CODE_PLACEHOLDER, code.reveal()),
        (Some(_), None) => return Err("the code of this mail is no longer known".into()),
        (None, _) => mail.mail.text.clone(),
    };
    let built = match &mail.mail.html {
        Some(html) => builder.multipart(
            MultiPart::alternative()
                .singlepart(SinglePart::plain(text))
                .singlepart(SinglePart::html(html.clone())),
        ),
        None => builder.singlepart(SinglePart::plain(text)),
    };
    built.map_err(|e| format!("cannot build the mail: {e}"))
}
