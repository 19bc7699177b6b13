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

/// `builder` with the subject as text. lettre writes an all-ASCII word as it stands, so a
/// subject with a trainee's name such as `=?utf-8?b?...?=` would be decoded by mail programs
/// into text the trainee chose to hide; such a subject is encoded whole (RFC 2047), and every
/// `=?` in it reaches the reader as typed.
fn with_subject(
    builder: lettre::message::MessageBuilder,
    subject: &str,
) -> lettre::message::MessageBuilder {
    use lettre::message::header::{HeaderName, HeaderValue};
    const NAME: &str = "Subject";
    if !subject.contains("=?") {
        return builder.subject(subject);
    }
    let mut encoded = String::new();
    let written = {
        let mut writer = email_encoding::headers::writer::EmailWriter::new(
            &mut encoded,
            NAME.len() + 2,
            0,
            false,
        );
        email_encoding::headers::rfc2047::encode(subject, &mut writer)
    };
    if written.is_err() {
        // Writing into a String cannot fail; were it to, a subject without `=?` is safe.
        return builder.subject(subject.replace("=?", "= ?"));
    }
    builder.raw_header(HeaderValue::dangerous_new_pre_encoded(
        HeaderName::new_from_ascii_str(NAME),
        subject.to_owned(),
        encoded,
    ))
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
    let builder = Message::builder().from(from.clone()).to(to);
    let mut builder = with_subject(builder, &mail.mail.subject)
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

#[cfg(test)]
mod subject_tests {
    use super::*;

    fn formatted(subject: &str) -> String {
        let message = with_subject(
            Message::builder()
                .from("lab@example.org".parse().expect("from"))
                .to("ada@example.org".parse().expect("to")),
            subject,
        )
        .body(String::from("x"))
        .expect("message");
        String::from_utf8(message.formatted()).expect("ascii")
    }

    #[test]
    fn an_encoded_word_typed_in_a_name_reaches_the_reader_as_typed() {
        let typed = "Report of =?utf-8?b?QWRtaW4gKHZlcmlmaWVkKQ==?= (queuelab)";
        let mail = formatted(typed);
        let header = mail
            .lines()
            .skip_while(|l| !l.starts_with("Subject:"))
            .take_while(|l| l.starts_with("Subject:") || l.starts_with(' '))
            .collect::<String>();
        assert!(!header.contains("QWRtaW4gKHZlcmlmaWVkKQ=="), "{header}");
        // Decoding what is sent gives back exactly what was typed.
        let decoded: String = header
            .trim_start_matches("Subject:")
            .split_whitespace()
            .map(|word| {
                let b64 = word
                    .strip_prefix("=?utf-8?b?")
                    .and_then(|w| w.strip_suffix("?="))
                    .expect("an encoded word");
                decode_base64(b64)
            })
            .collect();
        assert_eq!(decoded, typed);
        // A plain subject stays as lettre writes it.
        assert!(formatted("Report of Ada").contains("Subject: Report of Ada"));
    }

    fn decode_base64(text: &str) -> String {
        const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        let mut bits = 0u32;
        let mut n = 0;
        let mut out = Vec::new();
        for c in text.bytes().filter(|c| *c != b'=') {
            let v = ALPHABET.iter().position(|a| *a == c).expect("base64") as u32;
            bits = (bits << 6) | v;
            n += 6;
            if n >= 8 {
                n -= 8;
                out.push((bits >> n) as u8);
            }
        }
        String::from_utf8(out).expect("utf-8")
    }
}
