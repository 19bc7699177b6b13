//! The join URL: where the host listens, the join code and the SHA-256 fingerprint of the host's
//! certificate, which the trainee pins (no certificate authority on a workshop network).
//! Form: `https://HOST:PORT/join?code=CODE&fp=HEX64`. The short form a trainee types from the
//! projector, `HOST:PORT CODE`, has no fingerprint: it is learnt from the connection and
//! confirmed by the check digits (see `check_digits`).

use content::key;
use std::fmt;
use thiserror::Error;

/// Characters of a join code the host issues: no 0/O or 1/I/L, which are easy to mistype from
/// a projector.
pub const CODE_ALPHABET: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";
/// Length of a fresh join code: short enough to type from the projector, 31^7 (about 2.7e10)
/// values against guessing behind the per-address request limit.
pub const CODE_LEN: usize = 7;
/// Shortest join code the host issues and a trainee accepts.
pub const MIN_CODE_CHARS: usize = 6;
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
    /// The short form is malformed.
    #[error(
        "{0:?} is neither a join code, nor HOST:PORT CODE (for example 192.168.1.5:8740 K7Q2M9X), nor a join URL"
    )]
    Short(String),
}

impl JoinUrlError {
    /// The UI string key that says what is wrong in the learner's language (`{typed}` is
    /// what was typed).
    pub fn key(&self) -> content::Key {
        match self {
            JoinUrlError::Scheme(_) => key::join::ERR_SCHEME,
            JoinUrlError::Address(_) => key::join::ERR_ADDRESS,
            JoinUrlError::Path(_) => key::join::ERR_PATH,
            JoinUrlError::Code(_) => key::join::ERR_CODE,
            JoinUrlError::Fingerprint(_) => key::join::ERR_FINGERPRINT,
            JoinUrlError::Short(_) => key::join::ERR_SHORT,
        }
    }
}

/// What a trainee typed to join: the whole URL, `HOST:PORT CODE` from the projector, or the code
/// alone (the host is then found on the LAN, see `services::discovery`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JoinTarget {
    /// The whole URL, fingerprint included (nothing to confirm).
    Url(JoinUrl),
    /// Address and code; the fingerprint is learnt from the connection and confirmed.
    Short {
        /// Host name or IP (IPv6 without brackets).
        host: String,
        /// TCP port.
        port: u16,
        /// The join code, upper case, without separators.
        code: String,
    },
    /// The code alone; the host is looked for on the LAN, its fingerprint learnt and confirmed.
    Code {
        /// The join code, upper case, without separators.
        code: String,
    },
}

impl JoinTarget {
    /// Parses a join URL, `HOST:PORT` and a code (in one text separated by spaces, as the
    /// join dialog takes it, or as two command-line arguments joined by a space), or a code.
    pub fn parse(text: &str) -> Result<JoinTarget, JoinUrlError> {
        let text = text.trim();
        if text.starts_with("https://") || text.starts_with("http") {
            return JoinUrl::parse(text).map(JoinTarget::Url);
        }
        let short = || JoinUrlError::Short(text.to_owned());
        // No address in it (no `:`, `.` or `/`) and about as long as a code: the code alone,
        // read aloud with spaces or dashes perhaps (a near miss in length is named by the
        // dialog; a word is no code).
        if !text.contains([':', '.', '/'])
            && let Some(code) = normal_code(text).filter(|c| c.len() <= CODE_LEN + 2)
        {
            return Ok(JoinTarget::Code { code });
        }
        let (address, code) = text.split_once(char::is_whitespace).ok_or_else(short)?;
        let (host, port) = split_authority(address.trim()).ok_or_else(short)?;
        let code = normal_code(code).ok_or_else(short)?;
        Ok(JoinTarget::Short { host, port, code })
    }
}

/// A typed join code as the host keeps it: upper case, without the spaces or dashes people put
/// in when they read it aloud; `None` when it is no valid code.
pub fn normal_code(typed: &str) -> Option<String> {
    let code: String = typed
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .collect::<String>()
        .to_ascii_uppercase();
    valid_code(&code).then_some(code)
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
        authority(&self.host, self.port)
    }

    /// The short line to type from the projector: `HOST:PORT CODE`.
    pub fn short_line(&self) -> String {
        format!("{} {}", self.authority(), self.code)
    }

    /// What a trainee types to join: the code alone where the session is advertised on the
    /// LAN (`queuelab join CODE` finds it), else the short line.
    pub fn join_command(&self, advertised: bool) -> String {
        if advertised {
            format!("queuelab join {}", self.code)
        } else {
            format!("queuelab join {}", self.short_line())
        }
    }
}

/// `host:port` (IPv6 in brackets).
pub fn authority(host: &str, port: u16) -> String {
    if host.contains(':') {
        format!("[{host}]:{port}")
    } else {
        format!("{host}:{port}")
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

/// The characters of a code (as [`normal_code`] gives it) that no host issues, each once in
/// the order typed: a 0 read for an O, a 1 for an I or L.
pub fn foreign_code_chars(code: &str) -> String {
    let mut foreign = String::new();
    for c in code.chars() {
        let issued = u8::try_from(c).is_ok_and(|b| CODE_ALPHABET.contains(&b));
        if !issued && !foreign.contains(c) {
            foreign.push(c);
        }
    }
    foreign
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
        for host in ["192.168.1.5", "::1", "lab-pc.local"] {
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
            (ok.replace("ABCDEFGH", "ABCDE"), "code="),
            (ok.replace("ABCDEFGH", "ABCD EFGH"), "code="),
            (ok.replace(FP, "abc"), "fp="),
            (ok.replace(FP, &"g".repeat(64)), "fp="),
        ];
        for (text, needle) in cases {
            let msg = JoinUrl::parse(&text).expect_err(&text).to_string();
            assert!(msg.contains(needle), "{text}: {msg}");
        }
    }

    #[test]
    fn the_short_form_is_address_and_code_in_about_twenty_characters() {
        let typed = "10.0.0.7:8740 k7q-2m9x";
        assert!(typed.len() <= 22);
        assert_eq!(
            JoinTarget::parse(typed),
            Ok(JoinTarget::Short {
                host: "10.0.0.7".into(),
                port: 8740,
                code: "K7Q2M9X".into()
            })
        );
        assert_eq!(
            JoinTarget::parse("[::1]:9 ABCDEF"),
            Ok(JoinTarget::Short {
                host: "::1".into(),
                port: 9,
                code: "ABCDEF".into()
            })
        );
        let url = format!("https://10.0.0.1:9/join?code=ABCDEFGH&fp={FP}");
        assert!(matches!(JoinTarget::parse(&url), Ok(JoinTarget::Url(_))));
        for bad in [
            "10.0.0.7:8740",
            "10.0.0.7 K7Q2M9X",
            "10.0.0.7:0 K7Q2M9X",
            "10.0.0.7:8740 K7Q",
            "10.0.0.7:8740 K7Q2M9X!",
        ] {
            let msg = JoinTarget::parse(bad).expect_err(bad).to_string();
            assert!(msg.contains("HOST:PORT CODE"), "{bad}: {msg}");
        }
    }

    #[test]
    fn a_code_alone_is_a_target_found_on_the_lan() {
        for typed in ["k7q2m9x", " K7Q-2M9X ", "k7q 2m9x"] {
            assert_eq!(
                JoinTarget::parse(typed),
                Ok(JoinTarget::Code {
                    code: "K7Q2M9X".into()
                }),
                "{typed}"
            );
        }
        // An address without its port, or a code too short, is no code alone.
        for bad in ["host.lan K7Q2M9X", "K7Q", "K7Q2M9X!", "no-such-thing"] {
            assert!(JoinTarget::parse(bad).is_err(), "{bad}");
        }
    }
}
