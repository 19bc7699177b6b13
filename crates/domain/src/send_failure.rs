//! Why a mail could not be sent, said in the learner's language. The SMTP transport and the
//! dispatcher (services/mail) keep the raw reason (English, the server's own words) in the
//! outbox row and the log; a screen turns it into a sentence with [`explain`], quoting the
//! server where it said something.

use content::Strings;
use content::key;

/// Start of the raw reason when the server answered 5xx.
pub const PERMANENT: &str = "permanent server error";
/// Start of the raw reason when the server answered 4xx.
pub const TEMPORARY: &str = "temporary server error";
/// Start of the raw reason when the server did not answer in time.
pub const TIMEOUT: &str = "timeout";
/// Start of the raw reason when the TLS handshake failed.
pub const TLS: &str = "TLS failure";
/// Start of the raw reason when no conversation came about.
pub const CONNECTION: &str = "connection failure";

/// What went wrong, as the learner can act on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cause {
    /// The server refused the recipient address (550/551/553 or an x.1.x status).
    AddressRefused,
    /// The server refused the login (530, 534, 535, 538, 454).
    Authentication,
    /// Nothing listens at the configured host and port.
    ConnectionRefused,
    /// The server did not answer in time.
    Timeout,
    /// The encrypted connection did not come about.
    Tls,
    /// The server refused the mail with another code.
    Rejected,
    /// The connection failed otherwise.
    Connection,
}

/// A raw reason taken apart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Classified {
    /// What went wrong.
    pub cause: Cause,
    /// The server's reply code, when it answered.
    pub code: String,
    /// The server's (or the system's) own words.
    pub words: String,
    /// The dispatcher gave up after this many attempts.
    pub gave_up_after: Option<String>,
}

/// Prefix the dispatcher puts before a reason when it stops retrying.
const GAVE_UP: &str = "gave up after ";

/// The raw reason of a mail the dispatcher stops retrying after `attempts` sends.
pub fn gave_up(attempts: impl std::fmt::Display, reason: &str) -> String {
    format!("{GAVE_UP}{attempts} attempts: {reason}")
}

/// Takes a raw reason apart; `None` when it is not one the SMTP transport wrote (a file
/// transport's I/O error, a workshop host's words).
pub fn classify(reason: &str) -> Option<Classified> {
    let (gave_up_after, rest) = match reason.strip_prefix(GAVE_UP) {
        Some(tail) => {
            let (n, rest) = tail.split_once(" attempts: ")?;
            (Some(n.to_owned()), rest)
        }
        None => (None, reason),
    };
    let (tag, detail) = rest.split_once(": ").unwrap_or((rest, ""));
    let (code, words) = server_reply(detail);
    let cause = match tag {
        PERMANENT | TEMPORARY => by_code(&code, &words),
        TIMEOUT => Cause::Timeout,
        TLS => Cause::Tls,
        CONNECTION if detail.to_ascii_lowercase().contains("refused") => Cause::ConnectionRefused,
        CONNECTION => Cause::Connection,
        _ => return None,
    };
    Some(Classified {
        cause,
        code,
        words,
        gave_up_after,
    })
}

/// The reply code and the server's words from lettre's "permanent error (550): words"; for a
/// connection error, the words after lettre's own label ("Connection error: …").
fn server_reply(detail: &str) -> (String, String) {
    if let Some(open) = detail.find('(')
        && let Some((code, words)) = detail[open + 1..].split_once("): ")
        && code.len() == 3
        && code.chars().all(|c| c.is_ascii_digit())
    {
        return (code.to_owned(), words.trim().to_owned());
    }
    let words = detail.split_once(": ").map_or(detail, |(_, w)| w);
    (String::new(), words.trim().to_owned())
}

/// A refusal by its reply code and enhanced status (RFC 3463: x.1.x is about addresses).
fn by_code(code: &str, words: &str) -> Cause {
    let enhanced_address = ["5.1.", "4.1."].iter().any(|s| words.starts_with(s));
    match code {
        "530" | "534" | "535" | "538" | "454" => Cause::Authentication,
        _ if enhanced_address => Cause::AddressRefused,
        "550" | "551" | "553" if !words.starts_with("5.7.") => Cause::AddressRefused,
        _ => Cause::Rejected,
    }
}

/// The raw reason as a sentence in the language of `strings`, quoting the server's words; a
/// reason it cannot take apart is quoted whole.
pub fn explain(reason: &str, strings: &Strings) -> String {
    if reason.trim().is_empty() {
        return String::new();
    }
    let Some(c) = classify(reason) else {
        return strings.fill(key::mail::WHY_OTHER, &[("words", reason.trim())]);
    };
    let key = match c.cause {
        Cause::AddressRefused => key::mail::WHY_ADDRESS_REFUSED,
        Cause::Authentication => key::mail::WHY_AUTHENTICATION,
        Cause::ConnectionRefused => key::mail::WHY_CONNECTION_REFUSED,
        Cause::Timeout => key::mail::WHY_TIMEOUT,
        Cause::Tls => key::mail::WHY_TLS,
        Cause::Rejected => key::mail::WHY_REJECTED,
        Cause::Connection => key::mail::WHY_CONNECTION,
    };
    let why = strings.fill(key, &[("code", &c.code), ("words", &c.words)]);
    match c.gave_up_after {
        Some(n) => strings.fill(key::mail::WHY_GAVE_UP, &[("n", &n), ("why", &why)]),
        None => why,
    }
}

#[cfg(test)]
mod tests;
