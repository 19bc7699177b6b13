//! Mail: transports (`file` and `smtp` via lettre with rustls), composing messages with typed
//! headers only, the dispatcher that drains the outbox with retries, the one-time-code key file,
//! and the report flow (request a code, confirm it, queue the report).

mod compose;
mod dispatcher;
mod flow;
mod keyfile;
mod report_file;
mod transport;

pub use compose::{build_message, from_mailbox, new_message_id};
pub use dispatcher::{CodeVault, Dispatcher, Outcome};
pub use flow::{ReportFlow, validate_address};
pub use keyfile::load_or_create_key;
pub use report_file::{clear_files, latest_report, save_report};
pub use transport::{FileTransport, SendError, SmtpTransport, Transport, from_config};

use super::StoreError;
use thiserror::Error;

/// What can go wrong around mail (a send that fails is not an error: it is retried).
#[derive(Debug, Error)]
pub enum MailError {
    /// The progress store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The `[mail]` config cannot be used.
    #[error("mail config: {key}: {message}")]
    Config { key: String, message: String },
    /// The one-time-code key file is unusable.
    #[error("{path}: {reason}")]
    Key { path: String, reason: String },
    /// A file (report, mail folder) could not be written.
    #[error("{path}: {reason}")]
    File { path: String, reason: String },
    /// The operating system's random source failed.
    #[error("the system random source failed: {0}")]
    Random(String),
}
