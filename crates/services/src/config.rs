//! The workshop config (TOML). Unknown keys and bad values are errors that name the key and the
//! file.

use content::Lang;
use serde::Deserialize;
use std::io::Read;
use std::path::Path;
use thiserror::Error;

/// A config that could not be used.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum ConfigError {
    /// The file could not be read.
    #[error("{file}: cannot read the config: {reason}")]
    Read { file: String, reason: String },
    /// TOML syntax, unknown key or wrong type.
    #[error("{file}:{line}:{column}: {message}")]
    Invalid {
        file: String,
        line: usize,
        column: usize,
        message: String,
    },
    /// A value that parses but makes no sense.
    #[error("{file}: {key}: {message}")]
    Value {
        file: String,
        key: String,
        message: String,
    },
}

/// The whole workshop config; every section is optional.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    /// `[workshop]`.
    pub workshop: Workshop,
    /// `[mail]`.
    pub mail: Mail,
    /// `[share]`.
    pub share: Share,
}

/// `[workshop]`: name, language, map URL, instructor copy.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Workshop {
    /// Name shown in the header and the report.
    pub name: Option<String>,
    /// Default language of this workshop (`de` or `en`).
    pub language: Option<Lang>,
    /// URL the QR code opens.
    pub map_url: Option<String>,
    /// Instructor address for the report copy (sent only with the learner's consent).
    pub instructor_cc: Option<String>,
    /// The outage-cost calculator's starting currency (ISO 4217 code such as `CHF`); without
    /// it the calculator starts in the language's currency (EUR).
    pub currency: Option<String>,
}

/// How mail leaves the machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Transport {
    /// Write `.eml` files into the data directory's `mail/` folder.
    #[default]
    File,
    /// Send through an SMTP server.
    Smtp,
}

/// SMTP connection security.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Security {
    /// Implicit TLS (port 465).
    #[default]
    Tls,
    /// STARTTLS upgrade (port 587).
    Starttls,
    /// Plain text; allowed for loopback hosts only (tests).
    None,
}

/// `[mail]`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Mail {
    /// `file` (default) or `smtp`.
    pub transport: Transport,
    /// SMTP host.
    pub host: Option<String>,
    /// SMTP port (default by security: 465 / 587 / 25).
    pub port: Option<u16>,
    /// `tls`, `starttls` or `none`.
    pub security: Security,
    /// SMTP user name.
    pub user: Option<String>,
    /// Name of the environment variable holding the SMTP password (never the password itself).
    pub password_env: Option<String>,
    /// Sender address.
    pub from: Option<String>,
    /// Codes the workshop host relays per hour for the whole room (default
    /// [`DEFAULT_RELAY_CODES_PER_HOUR`]: two or three for each of 40 trainees).
    pub relay_codes_per_hour: Option<u32>,
}

/// Default room limit of the workshop host's mail relay, codes per hour.
pub const DEFAULT_RELAY_CODES_PER_HOUR: u32 = 120;
/// Largest room limit the config accepts.
pub const MAX_RELAY_CODES_PER_HOUR: u32 = 10_000;

/// `[share]`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Share {
    /// LAN port of the map server.
    pub port: u16,
}

impl Default for Share {
    fn default() -> Self {
        Share {
            port: DEFAULT_SHARE_PORT,
        }
    }
}

/// Default port of `queuelab share`.
pub const DEFAULT_SHARE_PORT: u16 = 8737;

/// The largest config file read.
pub const MAX_CONFIG_BYTES: u64 = 1024 * 1024;

impl Config {
    /// Reads and checks a config file.
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let file = path.display().to_string();
        let read_error = |reason: String| ConfigError::Read {
            file: file.clone(),
            reason,
        };
        let handle = std::fs::File::open(path).map_err(|e| read_error(e.to_string()))?;
        let mut text = String::new();
        // Bounded: `--config /dev/zero` or a huge file must not exhaust memory.
        handle
            .take(MAX_CONFIG_BYTES + 1)
            .read_to_string(&mut text)
            .map_err(|e| read_error(e.to_string()))?;
        if text.len() as u64 > MAX_CONFIG_BYTES {
            return Err(read_error(format!(
                "larger than {} MB; a workshop config is a few lines",
                MAX_CONFIG_BYTES / (1024 * 1024)
            )));
        }
        Config::parse(&file, &text)
    }

    /// Parses and checks config text; `file` names it in messages.
    pub fn parse(file: &str, text: &str) -> Result<Config, ConfigError> {
        let config: Config = toml::from_str(text).map_err(|e| {
            let (line, column) = content::problem_position(text, e.span().map_or(0, |s| s.start));
            ConfigError::Invalid {
                file: file.to_owned(),
                line,
                column,
                message: e.message().trim().to_owned(),
            }
        })?;
        config.check(file)?;
        Ok(config)
    }

    fn check(&self, file: &str) -> Result<(), ConfigError> {
        let bad = |key: &str, message: &str| ConfigError::Value {
            file: file.to_owned(),
            key: key.to_owned(),
            message: message.to_owned(),
        };
        if let Some(url) = &self.workshop.map_url
            && !is_map_url(url)
        {
            return Err(bad("workshop.map_url", MAP_URL_RULE));
        }
        if let Some(name) = &self.workshop.name
            && (name.trim().is_empty() || name.chars().any(char::is_control))
        {
            return Err(bad("workshop.name", "must be a non-empty single line"));
        }
        if let Some(code) = &self.workshop.currency
            && !(code.len() == 3 && code.bytes().all(|b| b.is_ascii_uppercase()))
        {
            return Err(bad(
                "workshop.currency",
                "must be a three-letter currency code in capitals, such as EUR, CHF or USD",
            ));
        }
        // The same checks the learner's own address gets, so a consenting learner's report
        // can never fail for good on the instructor's address.
        if let Some(cc) = &self.workshop.instructor_cc
            && crate::mail::validate_address(cc).is_err()
        {
            return Err(bad(
                "workshop.instructor_cc",
                "must be one e-mail address (name@example.org)",
            ));
        }
        if let Some(from) = &self.mail.from
            && crate::mail::from_mailbox(Some(from)).is_err()
        {
            return Err(bad(
                "mail.from",
                "must be an e-mail address, optionally with a name: Queue Lab <lab@example.org>",
            ));
        }
        if let Some(n) = self.mail.relay_codes_per_hour
            && !(1..=MAX_RELAY_CODES_PER_HOUR).contains(&n)
        {
            return Err(bad(
                "mail.relay_codes_per_hour",
                "must be a number of codes per hour from 1 to 10000",
            ));
        }
        if self.mail.transport == Transport::Smtp {
            let Some(host) = self.mail.host.as_deref().filter(|h| !h.trim().is_empty()) else {
                return Err(bad(
                    "mail.host",
                    "is required when mail.transport = \"smtp\"",
                ));
            };
            if self.mail.security == Security::None && !is_loopback(host) {
                return Err(bad(
                    "mail.security",
                    "\"none\" is only allowed for a loopback host (127.0.0.1, ::1, localhost)",
                ));
            }
            if self.mail.from.is_none() {
                return Err(bad(
                    "mail.from",
                    "is required when mail.transport = \"smtp\"",
                ));
            }
        }
        if let Some(var) = &self.mail.password_env
            && (var.is_empty() || !var.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        {
            return Err(bad(
                "mail.password_env",
                "must name an environment variable (letters, digits, _), not hold a password",
            ));
        }
        if self.share.port == 0 {
            return Err(bad("share.port", "must be between 1 and 65535"));
        }
        Ok(())
    }
}

/// What a map URL must look like (config check and `export map --url`).
pub const MAP_URL_RULE: &str = "must be an http:// or https:// URL without spaces";

/// True for a URL the QR code may carry: http(s), a host part, no whitespace or control chars.
pub fn is_map_url(url: &str) -> bool {
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"));
    rest.is_some_and(|r| !r.is_empty() && !r.starts_with('/'))
        && !url.chars().any(|c| c.is_whitespace() || c.is_control())
}

/// True for hosts that never leave the machine.
pub fn is_loopback(host: &str) -> bool {
    host == "localhost"
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_config_over_1_mb_or_endless_is_refused() {
        let dir = tempfile::tempdir().expect("tempdir");
        let big = dir.path().join("big.toml");
        let comment = format!("# {}\n", "x".repeat(1000));
        std::fs::write(&big, comment.repeat(1100)).expect("write");
        let err = Config::load(&big).expect_err("too large");
        assert!(err.to_string().contains("larger than 1 MB"), "{err}");
        #[cfg(unix)]
        {
            let err = Config::load(Path::new("/dev/zero")).expect_err("endless");
            assert!(err.to_string().contains("larger than 1 MB"), "{err}");
        }
    }

    #[test]
    fn empty_config_is_all_defaults() {
        assert_eq!(Config::parse("c.toml", ""), Ok(Config::default()));
    }

    #[test]
    fn full_config_parses() {
        let text = "[workshop]\nname = \"Lab\"\nlanguage = \"de\"\nmap_url = \"https://example.org/lab\"\n\n[mail]\ntransport = \"smtp\"\nhost = \"127.0.0.1\"\nport = 2525\nsecurity = \"none\"\nfrom = \"lab@example.org\"\npassword_env = \"SMTP_PASS\"\n\n[share]\nport = 9000\n";
        let c = Config::parse("c.toml", text).expect("valid");
        assert_eq!(c.workshop.language, Some(Lang::De));
        assert_eq!(c.mail.port, Some(2525));
        assert_eq!(c.share.port, 9000);
    }

    #[test]
    fn unknown_keys_and_bad_values_name_key_and_file() {
        let err = Config::parse("w.toml", "[workshop]\nnmae = \"x\"\n").expect_err("unknown key");
        let text = err.to_string();
        assert!(
            text.starts_with("w.toml:2:1:") && text.contains("nmae"),
            "{text}"
        );
        let err = Config::parse("w.toml", "[workshop]\nlanguage = \"fr\"\n").expect_err("bad lang");
        assert!(err.to_string().contains("w.toml:2"), "{err}");
        let err =
            Config::parse("w.toml", "[workshop]\nmap_url = \"ftp://x\"\n").expect_err("bad url");
        assert_eq!(
            err.to_string(),
            "w.toml: workshop.map_url: must be an http:// or https:// URL without spaces"
        );
        let err = Config::parse("w.toml", "[mail]\ntransport = \"smtp\"\nhost = \"mail.example.org\"\nsecurity = \"none\"\nfrom = \"a@b.c\"\n").expect_err("plain remote");
        assert!(err.to_string().contains("mail.security"), "{err}");
        let err = Config::parse("w.toml", "[share]\nport = 70000\n").expect_err("port");
        assert!(err.to_string().contains("w.toml:2"), "{err}");
        let err = Config::parse(
            "w.toml",
            "[workshop]\ninstructor_cc = \"trainer@example.org,evil\"\n",
        )
        .expect_err("two addresses");
        assert!(
            err.to_string()
                .starts_with("w.toml: workshop.instructor_cc: "),
            "{err}"
        );
        let err =
            Config::parse("w.toml", "[workshop]\ncurrency = \"euro\"\n").expect_err("currency");
        assert_eq!(
            err.to_string(),
            "w.toml: workshop.currency: must be a three-letter currency code in capitals, such as EUR, CHF or USD"
        );
        let err = Config::parse("w.toml", "[mail]\nrelay_codes_per_hour = 0\n").expect_err("zero");
        assert!(
            err.to_string()
                .starts_with("w.toml: mail.relay_codes_per_hour: "),
            "{err}"
        );
        let ok = Config::parse("w.toml", "[mail]\nrelay_codes_per_hour = 200\n").expect("a room");
        assert_eq!(ok.mail.relay_codes_per_hour, Some(200));
        let ok = Config::parse("w.toml", "[workshop]\ncurrency = \"SEK\"\n").expect("a code");
        assert_eq!(ok.workshop.currency.as_deref(), Some("SEK"));
        let err = Config::parse("w.toml", "[mail]\nfrom = \"Queue Lab <lab at example>\"\n")
            .expect_err("bad from");
        assert!(err.to_string().starts_with("w.toml: mail.from: "), "{err}");
        let err =
            Config::parse("w.toml", "[mail]\npassword_env = \"hunter2!\"\n").expect_err("password");
        assert!(err.to_string().contains("mail.password_env"), "{err}");
    }
}
