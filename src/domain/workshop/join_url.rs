//! The join URL: where the host listens, the join code and the SHA-256 fingerprint of the host's
//! certificate, which the trainee pins (no certificate authority on a workshop network).
//! Form: `https://HOST:PORT/join?code=CODE&fp=HEX64`.

use std::fmt;
use thiserror::Error;

/// Shortest join code the host issues and a trainee accepts.
pub const MIN_CODE_CHARS: usize = 8;
/// Longest join code accepted (a bound for hostile input).
const MAX_CODE_CHARS: usize = 64;
/// Hex digits of a SHA-256 fingerprint.
const FINGERPRINT_HEX: usize = 64;

/// A parsed join URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JoinUrl {
    /// Host name or IP (IPv6 without brackets).
    pub host: String,
    /// TCP port.
    pub port: u16,
    /// The join code.
    pub code: String,
    /// Lower-case hex SHA-256 of the host certificate (DER).
    pub fingerprint: String,
}

/// Why a join URL is refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum JoinUrlError {
    /// Not `https://`.
    #[error("join URL {0:?} must start with https:// (copy it as the host printed it)")]
    Scheme(String),
    /// Host or port missing or malformed.
    #[error("join URL {0:?} needs HOST:PORT after https://")]
    Address(String),
    /// The path is not `/join`.
    #[error("join URL {0:?} must have the path /join")]
    Path(String),
    /// The code is missing, too short or has bad characters.
    #[error(
        "join URL {0:?} needs code= with {MIN_CODE_CHARS} to {MAX_CODE_CHARS} letters or digits"
    )]
    Code(String),
    /// The fingerprint is missing or not 64 hex digits.
    #[error("join URL {0:?} needs fp= with the certificate's 64-digit SHA-256 fingerprint")]
    Fingerprint(String),
}

impl JoinUrl {
    /// Parses a join URL as the host prints it.
    pub fn parse(text: &str) -> Result<JoinUrl, JoinUrlError> {
        let text = text.trim();
        let err = |f: fn(String) -> JoinUrlError| f(text.to_owned());
        let rest = text
            .strip_prefix("https://")
            .ok_or_else(|| err(JoinUrlError::Scheme))?;
        let (authority, rest) =
            rest.split_at(rest.find('/').ok_or_else(|| err(JoinUrlError::Path))?);
        let (host, port) = split_authority(authority).ok_or_else(|| err(JoinUrlError::Address))?;
        let (path, query) = rest.split_once('?').unwrap_or((rest, ""));
        if path != "/join" {
            return Err(err(JoinUrlError::Path));
        }
        let param = |name: &str| {
            query
                .split('&')
                .find_map(|pair| pair.strip_prefix(name)?.strip_prefix('='))
                .map(str::to_owned)
        };
        let code = param("code")
            .filter(|c| valid_code(c))
            .ok_or_else(|| err(JoinUrlError::Code))?;
        let fingerprint = param("fp")
            .map(|f| f.to_ascii_lowercase())
            .filter(|f| f.len() == FINGERPRINT_HEX && f.bytes().all(|b| b.is_ascii_hexdigit()))
            .ok_or_else(|| err(JoinUrlError::Fingerprint))?;
        Ok(JoinUrl {
            host,
            port,
            code,
            fingerprint,
        })
    }

    /// `host:port` for connecting (IPv6 in brackets).
    pub fn authority(&self) -> String {
        if self.host.contains(':') {
            format!("[{}]:{}", self.host, self.port)
        } else {
            format!("{}:{}", self.host, self.port)
        }
    }
}

impl fmt::Display for JoinUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "https://{}/join?code={}&fp={}",
            self.authority(),
            self.code,
            self.fingerprint
        )
    }
}

/// Whether a join code has the right length and only ASCII letters and digits.
pub fn valid_code(code: &str) -> bool {
    (MIN_CODE_CHARS..=MAX_CODE_CHARS).contains(&code.len())
        && code.bytes().all(|b| b.is_ascii_alphanumeric())
}

fn split_authority(authority: &str) -> Option<(String, u16)> {
    let (host, port) = if let Some(rest) = authority.strip_prefix('[') {
        let (host, port) = rest.split_once("]:")?;
        (host, port)
    } else {
        authority.rsplit_once(':')?
    };
    let valid_host = !host.is_empty()
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-.:".contains(&b));
    let port: u16 = port.parse().ok().filter(|p| *p != 0)?;
    valid_host.then(|| (host.to_owned(), port))
}

#[cfg(test)]
mod tests {
    use super::*;

    const FP: &str = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

    #[test]
    fn round_trips_ipv4_and_ipv6() {
        for host in ["192.168.1.5", "::1", "host.local"] {
            let url = JoinUrl {
                host: host.into(),
                port: 8740,
                code: "K7Q2M9XPAB".into(),
                fingerprint: FP.into(),
            };
            assert_eq!(JoinUrl::parse(&url.to_string()), Ok(url));
        }
    }

    #[test]
    fn refuses_each_broken_part() {
        let ok = format!("https://10.0.0.1:9/join?code=ABCDEFGH&fp={FP}");
        assert!(JoinUrl::parse(&ok).is_ok());
        let cases = [
            (ok.replace("https", "http"), "https://"),
            (ok.replace(":9/", "/"), "HOST:PORT"),
            (ok.replace(":9/", ":0/"), "HOST:PORT"),
            (ok.replace("/join", "/x"), "/join"),
            (ok.replace("ABCDEFGH", "ABC"), "code="),
            (ok.replace("ABCDEFGH", "ABCD EFGH"), "code="),
            (ok.replace(FP, "abc"), "fp="),
            (ok.replace(FP, &"g".repeat(64)), "fp="),
        ];
        for (text, needle) in cases {
            let msg = JoinUrl::parse(&text).expect_err(&text).to_string();
            assert!(msg.contains(needle), "{text}: {msg}");
        }
    }
}
