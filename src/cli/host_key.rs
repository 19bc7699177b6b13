//! The instructor key for `host status` and `host pace`: from a file, the option or the
//! environment, so it need not stand on a command line where `ps` shows it to everyone.

use super::Failure;
use clap::Args;
use std::path::PathBuf;

/// The environment variable that may hold the instructor key.
pub const KEY_ENV: &str = "QUEUELAB_INSTRUCTOR_KEY";

/// Where the instructor key comes from.
#[derive(Debug, Args)]
pub struct KeyArgs {
    /// A file holding the instructor key (one line).
    #[arg(long, value_name = "FILE", conflicts_with = "key")]
    pub key_file: Option<PathBuf>,
    /// The instructor key itself (visible to other users in `ps`; prefer --key-file or
    /// `QUEUELAB_INSTRUCTOR_KEY`).
    #[arg(long)]
    pub key: Option<String>,
}

impl KeyArgs {
    /// The key from the file, the option or the environment, in that order.
    pub fn resolve(&self) -> Result<String, Failure> {
        let key = if let Some(file) = &self.key_file {
            let text = std::fs::read_to_string(file)
                .map_err(|e| Failure::usage(format!("--key-file {}: {e}", file.display())))?;
            text.trim().to_owned()
        } else if let Some(key) = &self.key {
            key.trim().to_owned()
        } else {
            std::env::var(KEY_ENV).unwrap_or_default().trim().to_owned()
        };
        if key.is_empty() {
            return Err(Failure::usage(format!(
                "the instructor key is missing: pass --key-file FILE, set {KEY_ENV}, or pass --key KEY"
            )));
        }
        Ok(key)
    }
}
