//! The portable progress file (`queuelab progress export/import`): versioned JSON.
//!
//! ```json
//! {"format": "queuelab-progress", "version": 1, "progress": { ... }}
//! ```

use super::{Store, StoreError};
use crate::domain::Progress;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The `format` marker of a progress file.
pub const PORTABLE_FORMAT: &str = "queuelab-progress";
/// The version this build writes and reads.
pub const PORTABLE_VERSION: u32 = 1;

/// The file's shape.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PortableProgress {
    /// Always [`PORTABLE_FORMAT`].
    pub format: String,
    /// Always [`PORTABLE_VERSION`] for files this build writes.
    pub version: u32,
    /// The progress itself.
    pub progress: Progress,
}

impl Store {
    /// Writes the progress as a portable JSON file.
    pub fn export(&self, file: &Path) -> Result<(), StoreError> {
        let doc = PortableProgress {
            format: PORTABLE_FORMAT.to_owned(),
            version: PORTABLE_VERSION,
            progress: self.load()?,
        };
        let json = serde_json::to_string_pretty(&doc).map_err(|e| StoreError::File {
            path: file.display().to_string(),
            reason: e.to_string(),
        })?;
        std::fs::write(file, json + "\n").map_err(|e| StoreError::File {
            path: file.display().to_string(),
            reason: format!("cannot write: {e}"),
        })
    }

    /// Reads a portable file, checks format and version, and replaces the progress.
    pub fn import(&mut self, file: &Path) -> Result<Progress, StoreError> {
        let progress = read_portable(file)?;
        self.replace(&progress)?;
        Ok(progress)
    }
}

/// Reads and validates a portable progress file without touching any store.
pub fn read_portable(file: &Path) -> Result<Progress, StoreError> {
    let path = file.display().to_string();
    let text = std::fs::read_to_string(file).map_err(|e| StoreError::Import {
        path: path.clone(),
        reason: format!("cannot read: {e}"),
    })?;
    parse_portable(&text).map_err(|reason| StoreError::Import { path, reason })
}

/// Validates the text of a portable progress file: the format marker, the version, the shape.
pub fn parse_portable(text: &str) -> Result<Progress, String> {
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    if value.get("format").and_then(serde_json::Value::as_str) != Some(PORTABLE_FORMAT) {
        return Err(format!(
            "not a queuelab progress file (expected \"format\": \"{PORTABLE_FORMAT}\")"
        ));
    }
    match value.get("version").and_then(serde_json::Value::as_u64) {
        Some(v) if v == u64::from(PORTABLE_VERSION) => {}
        Some(v) => {
            return Err(format!(
                "progress file version {v} is not supported; this queuelab reads version {PORTABLE_VERSION}"
            ));
        }
        None => return Err("the file has no \"version\"".to_owned()),
    }
    let doc: PortableProgress =
        serde_json::from_value(value).map_err(|e| format!("invalid progress: {e}"))?;
    Ok(doc.progress)
}
