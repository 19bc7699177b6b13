//! Reading what the loopback SMTP server received: waiting for mails, headers, the code, and
//! the report's plain-text part (quoted-printable, as lettre encodes it).

use super::pty::{Session, WAIT};
use super::server::{Received, Smtp};
use std::time::{Duration, Instant};

/// Waits until the server holds at least `n` mails and returns them.
pub fn wait_for_mails(smtp: &Smtp, n: usize, s: &Session) -> Vec<Received> {
    let start = Instant::now();
    while start.elapsed() < WAIT {
        let mails = smtp.received();
        if mails.len() >= n {
            return mails;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!(
        "the SMTP server got {} of {n} mails; screen:\n{}",
        smtp.received().len(),
        s.screen()
    );
}

/// A top-level header's value.
pub fn header<'a>(raw: &'a str, name: &str) -> Option<&'a str> {
    raw.lines()
        .take_while(|l| !l.is_empty())
        .find_map(|l| l.strip_prefix(&format!("{name}: ")))
}

/// The six digits after "report: " in a code mail.
pub fn code_in(raw: &str) -> String {
    let start = raw.find("report: ").expect("code line") + "report: ".len();
    let code: String = raw[start..].chars().take(6).collect();
    assert!(code.bytes().all(|b| b.is_ascii_digit()), "{code:?}");
    code
}

/// The decoded text/plain part of a multipart mail.
pub fn plain_text(raw: &str) -> String {
    let start = raw
        .find("Content-Type: text/plain")
        .unwrap_or_else(|| panic!("a text/plain part: {raw}"));
    let part = &raw[start..];
    let end = part.find("Content-Type: text/html").unwrap_or(part.len());
    let body_start = part.find("\r\n\r\n").map_or(0, |i| i + 4);
    quoted_printable(&part[body_start.min(end)..end])
}

/// Decodes quoted-printable: soft line breaks go, `=XX` becomes the byte.
fn quoted_printable(text: &str) -> String {
    let joined = text.replace("=\r\n", "").replace("=\n", "");
    let bytes = joined.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let escaped = (bytes[i] == b'=')
            .then(|| bytes.get(i + 1..i + 3))
            .flatten()
            .and_then(|hex| std::str::from_utf8(hex).ok())
            .and_then(|hex| u8::from_str_radix(hex, 16).ok());
        if let Some(byte) = escaped {
            out.push(byte);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).replace("\r\n", "\n")
}
