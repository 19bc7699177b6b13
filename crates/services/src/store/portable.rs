//! The portable progress file (`queuelab progress export/import`): versioned JSON.
//!
//! ```json
//! {"format": "queuelab-progress", "version": 3, "progress": { ... }, "quiz": [ ... ], "labs": [ ... ]}
//! ```
//!
//! Version 3 carries everything the learner sees as progress, quiz attempts and lab results
//! included. Versions 1 (no `quiz`) and 2 (no `labs`) are still read. An import replaces exactly what the file carries: the one-time-code
//! lock, the rate limits and the mail outbox are never part of a file and never touched.

mod ids;
mod rows;

use super::{Store, StoreError};
use content::Content;
use domain::Progress;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::Read;
use std::path::Path;

pub use ids::check_ids;

/// The `format` marker of a progress file.
pub const PORTABLE_FORMAT: &str = "queuelab-progress";
/// The version this build writes.
pub const PORTABLE_VERSION: u32 = 3;
/// Versions this build reads.
pub const READABLE_VERSIONS: [u32; 3] = [1, 2, 3];
/// The largest progress file read (a real one is a few kilobytes).
pub const MAX_IMPORT_BYTES: u64 = 10 * 1024 * 1024;

/// The file's shape.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PortableProgress {
    /// Always [`PORTABLE_FORMAT`].
    pub format: String,
    /// [`PORTABLE_VERSION`] for files this build writes.
    pub version: u32,
    /// Chapters, decisions, checklist, positions, ordering game, scenarios, language.
    pub progress: Progress,
    /// Quiz attempts with their option order and answers; absent in version 1 files, and then
    /// the quiz results in the store stay as they are.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quiz: Option<Vec<QuizAttemptRecord>>,
    /// Lab results; absent before version 3, and then the lab results in the store stay as
    /// they are.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub labs: Option<Vec<LabRecord>>,
}

/// One lab's result as the file carries it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LabRecord {
    /// The lab's id.
    pub id: String,
    /// Checks run.
    pub attempts: u32,
    /// When it first passed (Unix seconds).
    pub solved_at: Option<i64>,
    /// Hints revealed.
    pub hints: u32,
}

/// One quiz attempt as the file carries it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QuizAttemptRecord {
    /// The attempt's id (the report request refers to it).
    pub id: i64,
    /// The shuffle seed (its bits as a signed integer, as stored).
    pub seed: i64,
    /// Unix seconds.
    pub started_at: i64,
    /// Unix seconds, when finished.
    pub finished_at: Option<i64>,
    /// The score, when finished.
    pub score: Option<i64>,
    /// Question id -> option ids in the order shown.
    pub order: BTreeMap<String, Vec<String>>,
    /// The answers given.
    pub answers: Vec<QuizAnswerRecord>,
}

/// One answer of an attempt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QuizAnswerRecord {
    /// The question id.
    pub question: String,
    /// The chosen option ids.
    pub options: Vec<String>,
    /// Whether the answer was right.
    pub correct: bool,
    /// Unix seconds.
    pub answered_at: i64,
}

impl Store {
    /// Writes the progress and the quiz attempts as a portable JSON file.
    pub fn export(&self, file: &Path) -> Result<(), StoreError> {
        let doc = PortableProgress {
            format: PORTABLE_FORMAT.to_owned(),
            version: PORTABLE_VERSION,
            progress: self.load()?,
            quiz: Some(self.quiz_records()?),
            labs: Some(
                self.lab_results()?
                    .into_iter()
                    .map(|(id, r)| LabRecord {
                        id,
                        attempts: r.attempts,
                        solved_at: r.solved_at,
                        hints: r.hints,
                    })
                    .collect(),
            ),
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

    /// Reads a portable file, checks format, version, size and every id against `content`, and
    /// replaces what the file carries in one transaction.
    pub fn import(
        &mut self,
        file: &Path,
        content: &Content,
    ) -> Result<PortableProgress, StoreError> {
        let mut doc = read_portable(file)?;
        // A file written before an option was retired still names it: forget that answer
        // rather than refuse the whole file as unknown.
        doc.progress
            .decisions
            .retain(|decision, option| !super::retired::is_retired(decision, option));
        check_ids(&doc, content).map_err(|reason| StoreError::Import {
            path: file.display().to_string(),
            reason,
        })?;
        self.replace(&doc)?;
        Ok(doc)
    }
}

/// Reads and validates a portable progress file (at most [`MAX_IMPORT_BYTES`]) without
/// touching any store.
pub fn read_portable(file: &Path) -> Result<PortableProgress, StoreError> {
    let path = file.display().to_string();
    let fail = |reason: String| StoreError::Import {
        path: path.clone(),
        reason,
    };
    let handle = std::fs::File::open(file).map_err(|e| fail(format!("cannot read: {e}")))?;
    let mut text = String::new();
    // One byte over the limit tells "too large" from "exactly at the limit" without trusting
    // the file's size (a pipe or /dev/zero has none).
    handle
        .take(MAX_IMPORT_BYTES + 1)
        .read_to_string(&mut text)
        .map_err(|e| fail(format!("cannot read: {e}")))?;
    if text.len() as u64 > MAX_IMPORT_BYTES {
        return Err(fail(format!(
            "larger than {} MB; a progress file is a few kilobytes",
            MAX_IMPORT_BYTES / (1024 * 1024)
        )));
    }
    parse_portable(&text).map_err(fail)
}

/// Validates the text of a portable progress file: the format marker, the version, the shape.
pub fn parse_portable(text: &str) -> Result<PortableProgress, String> {
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    if value.get("format").and_then(serde_json::Value::as_str) != Some(PORTABLE_FORMAT) {
        return Err(format!(
            "not a queuelab progress file (expected \"format\": \"{PORTABLE_FORMAT}\")"
        ));
    }
    match value.get("version").and_then(serde_json::Value::as_u64) {
        Some(v) if READABLE_VERSIONS.iter().any(|r| u64::from(*r) == v) => {}
        Some(v) => {
            return Err(format!(
                "progress file version {v} is not supported; this queuelab reads versions 1 to {PORTABLE_VERSION}"
            ));
        }
        None => return Err("the file has no \"version\"".to_owned()),
    }
    let doc: PortableProgress =
        serde_json::from_value(value).map_err(|e| format!("invalid progress: {e}"))?;
    if doc.version == 1 && doc.quiz.is_some() {
        return Err("a version 1 file has no \"quiz\"; use version 2".to_owned());
    }
    if doc.version < 3 && doc.labs.is_some() {
        return Err(format!(
            "a version {} file has no \"labs\"; use version 3",
            doc.version
        ));
    }
    Ok(doc)
}

#[cfg(test)]
mod tests;
