//! The two transports: `file` writes `.eml` files, `smtp` talks to a server through lettre
//! with rustls (implicit TLS, STARTTLS, or plain text for loopback only).

use super::MailError;
use crate::config::{self, Security};
use crate::store::{MAIL_LEASE_SECS, OutboxMail};
use domain::send_failure as failure;
use lettre::transport::smtp::authentication::Credentials;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How long one read or write on the SMTP connection may wait for the server.
const SMTP_TIMEOUT: Duration = Duration::from_secs(20);
/// How long a whole send (connect, TLS, every command, the message) may take. A server that
/// answers one byte at a time defeats the per-read timeout; this bound does not, and it is
/// shorter than the outbox lease, so a mail is never in two sends at once.
pub const SEND_DEADLINE: Duration = Duration::from_mins(1);
const _: () = assert!(SEND_DEADLINE.as_secs() < MAIL_LEASE_SECS as u64);

/// A failed send: retried until the ceiling, unless the server refused it for good.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SendError {
    /// What happened, for the status line and `mail status`.
    pub reason: String,
    /// The server answered 5xx: repeating the same mail cannot help until the cause is fixed
    /// (then `mail retry` sends it again).
    pub permanent: bool,
}

impl SendError {
    /// A failure worth retrying later.
    pub fn transient(reason: String) -> SendError {
        SendError {
            reason,
            permanent: false,
        }
    }
}

/// Something that can deliver a message.
pub trait Transport: Send + Sync {
    /// Sends `message` (the row it came from names it); returns where it went.
    fn send(&self, message: &Message, row: &OutboxMail) -> Result<String, SendError>;
    /// A short description for status lines.
    fn describe(&self) -> String;
}

/// Writes each mail to `<dir>/<id>-<kind>.eml`. The name is stable per outbox row, so a repeat
/// after a crash overwrites the same file instead of leaving a second copy (lettre's own file
/// transport names files by a fresh UUID per send, which would duplicate).
pub struct FileTransport {
    dir: PathBuf,
}

impl FileTransport {
    /// A transport writing into `dir` (created on first use).
    pub fn new(dir: &Path) -> FileTransport {
        FileTransport {
            dir: dir.to_path_buf(),
        }
    }

    /// The file a row is written to.
    pub fn file_for(&self, row: &OutboxMail) -> PathBuf {
        self.dir
            .join(format!("{:06}-{}.eml", row.id, row.mail.kind.as_str()))
    }
}

impl Transport for FileTransport {
    fn send(&self, message: &Message, row: &OutboxMail) -> Result<String, SendError> {
        let fail = |what: &str, e: std::io::Error| {
            SendError::transient(format!("{what} {}: {e}", self.dir.display()))
        };
        std::fs::create_dir_all(&self.dir).map_err(|e| fail("cannot create", e))?;
        let path = self.file_for(row);
        let tmp = path.with_extension("eml.tmp");
        write_private(&tmp, &message.formatted()).map_err(|e| fail("cannot write into", e))?;
        std::fs::rename(&tmp, &path).map_err(|e| fail("cannot write into", e))?;
        Ok(path.display().to_string())
    }

    fn describe(&self) -> String {
        format!("file {}", self.dir.display())
    }
}

/// Writes a file readable by the owner only (it may hold a code or an address).
fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    crate::platform::private_file(&mut options);
    let mut file = options.open(path)?;
    file.write_all(bytes)?;
    file.sync_all()
}

/// lettre's async client on tokio: a send is a future, so dropping it ends the conversation.
type Smtp = AsyncSmtpTransport<Tokio1Executor>;

/// Sends through an SMTP server.
pub struct SmtpTransport {
    inner: Smtp,
    /// Drives one send at a time; dropping the send at its deadline closes the connection.
    runtime: tokio::runtime::Runtime,
    deadline: Duration,
    label: String,
}

impl SmtpTransport {
    /// Builds the transport from the `[mail]` config; the password comes from the environment
    /// variable the config names.
    pub fn from_config(mail: &config::Mail) -> Result<SmtpTransport, MailError> {
        let bad = |key: &str, message: String| MailError::Config {
            key: key.into(),
            message,
        };
        let host = mail
            .host
            .as_deref()
            .ok_or_else(|| bad("mail.host", "is required for the smtp transport".into()))?;
        let (builder, default_port) = match mail.security {
            Security::Tls => (Smtp::relay(host), 465),
            Security::Starttls => (Smtp::starttls_relay(host), 587),
            Security::None => {
                if !config::is_loopback(host) {
                    return Err(bad(
                        "mail.security",
                        "\"none\" is only allowed for a loopback host".into(),
                    ));
                }
                (Ok(Smtp::builder_dangerous(host)), 25)
            }
        };
        let port = mail.port.unwrap_or(default_port);
        let mut builder = builder
            .map_err(|e| bad("mail.host", format!("cannot set up TLS for {host:?}: {e}")))?
            .port(port)
            .timeout(Some(SMTP_TIMEOUT));
        if let Some(user) = &mail.user {
            let var = mail.password_env.as_deref().ok_or_else(|| {
                bad(
                    "mail.password_env",
                    "is required with mail.user: name the environment variable that holds the password".into(),
                )
            })?;
            let password = std::env::var(var).map_err(|_| {
                bad(
                    "mail.password_env",
                    format!("the environment variable {var} is not set; export it before starting queuelab"),
                )
            })?;
            builder = builder.credentials(Credentials::new(user.clone(), password));
        }
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| {
                bad(
                    "mail.transport",
                    format!("cannot start the SMTP client: {e}"),
                )
            })?;
        Ok(SmtpTransport {
            inner: builder.build(),
            runtime,
            deadline: SEND_DEADLINE,
            label: format!("smtp {host}:{port}"),
        })
    }

    /// The same transport with another overall send deadline (tests use seconds).
    #[must_use]
    pub fn with_deadline(mut self, deadline: Duration) -> SmtpTransport {
        self.deadline = deadline.min(SEND_DEADLINE);
        self
    }
}

impl Transport for SmtpTransport {
    fn send(&self, message: &Message, _row: &OutboxMail) -> Result<String, SendError> {
        // The timer must be made inside the runtime (it registers with the runtime's clock).
        let send =
            async { tokio::time::timeout(self.deadline, self.inner.send(message.clone())).await };
        match self.runtime.block_on(send) {
            Ok(Ok(_)) => Ok(self.label.clone()),
            Ok(Err(e)) => Err(SendError {
                reason: describe_smtp_error(&e),
                permanent: e.is_permanent(),
            }),
            // The send future is dropped here, and with it the connection: nothing of this
            // attempt can reach the server after this point.
            Err(_) => Err(SendError::transient(format!(
                "{}: the whole SMTP conversation took longer than {} s",
                failure::TIMEOUT,
                self.deadline.as_secs()
            ))),
        }
    }

    fn describe(&self) -> String {
        self.label.clone()
    }
}

/// Names the failure by its cause: the server's verdict first, then timeout and TLS (found
/// anywhere in the error's source chain, where lettre leaves them inside connection errors).
fn describe_smtp_error(e: &lettre::transport::smtp::Error) -> String {
    let kind = if e.is_permanent() {
        failure::PERMANENT
    } else if e.is_transient() {
        failure::TEMPORARY
    } else if e.is_timeout() || in_chain(e, is_timeout_io) {
        failure::TIMEOUT
    } else if e.is_tls() || in_chain(e, is_tls_io) {
        failure::TLS
    } else {
        failure::CONNECTION
    };
    format!("{kind}: {e}")
}

fn in_chain(e: &lettre::transport::smtp::Error, test: fn(&std::io::Error) -> bool) -> bool {
    let mut source = std::error::Error::source(e);
    while let Some(cause) = source {
        if cause.downcast_ref::<std::io::Error>().is_some_and(test) {
            return true;
        }
        source = cause.source();
    }
    false
}

fn is_timeout_io(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        std::io::ErrorKind::TimedOut | std::io::ErrorKind::WouldBlock
    )
}

/// rustls reports a failed handshake as an I/O error that wraps a `rustls::Error`.
fn is_tls_io(e: &std::io::Error) -> bool {
    e.get_ref()
        .is_some_and(|inner| inner.downcast_ref::<rustls::Error>().is_some())
}

/// The transport the config selects.
pub fn from_config(mail: &config::Mail, mail_dir: &Path) -> Result<Box<dyn Transport>, MailError> {
    match mail.transport {
        config::Transport::File => Ok(Box::new(FileTransport::new(mail_dir))),
        config::Transport::Smtp => Ok(Box::new(SmtpTransport::from_config(mail)?)),
    }
}
