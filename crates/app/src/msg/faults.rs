//! Why a worker thread could not do what the app asked: what failed, with the underlying
//! detail where the screen shows it, said in the learner's language by the screen.

use content::{Strings, key};

/// Why the progress store refused a read or a save.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoreFault {
    /// Another queuelab holds the store's lock (the store's file).
    Busy { path: String },
    /// The store's file is damaged: the file and what the check or SQLite said.
    Damaged { path: String, reason: String },
    /// The file was written by a newer queuelab: its schema version and the newest known here.
    TooNew {
        path: String,
        found: i64,
        known: i64,
    },
    /// A file could not be read or written (the disk refused the write, a folder is missing,
    /// an import is not a progress file): the file and the system's words.
    File { path: String, reason: String },
    /// SQLite failed otherwise: the store's file and SQLite's words.
    Database { path: String, detail: String },
}

impl StoreFault {
    /// The fault as the status line says it.
    pub fn describe(&self, strings: &Strings) -> String {
        match self {
            StoreFault::Busy { path } => strings.fill(key::store::FAULT_BUSY, &[("path", path)]),
            StoreFault::Damaged { path, reason } => strings.fill(
                key::store::FAULT_DAMAGED,
                &[("path", path), ("reason", reason)],
            ),
            StoreFault::TooNew { path, found, known } => strings.fill(
                key::store::FAULT_TOO_NEW,
                &[
                    ("path", path),
                    ("found", &found.to_string()),
                    ("known", &known.to_string()),
                ],
            ),
            StoreFault::File { path, reason } => format!("{path}: {reason}"),
            StoreFault::Database { path, detail } => strings.fill(
                key::store::FAULT_DATABASE,
                &[("path", path), ("detail", detail)],
            ),
        }
    }
}

/// Why the results could not be cleared or the report could not be saved: the store, the
/// mail library or one of its files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SaveError {
    /// The progress store failed.
    Store(StoreFault),
    /// No quiz attempt is finished: the report has nothing to tell yet.
    NoAttempt,
    /// A file or folder of the mail thread (a report, the mail folder) could not be written
    /// or deleted: the file and the system's words.
    File { path: String, reason: String },
    /// Mail could not start on this machine or its library failed otherwise (its config, the
    /// code key, the random source): the library's words.
    Mail(String),
}

impl SaveError {
    /// The failure as the status line says it (after "Could not save: ").
    pub fn describe(&self, strings: &Strings) -> String {
        match self {
            SaveError::Store(fault) => fault.describe(strings),
            SaveError::NoAttempt => strings.get(key::report::NEED_QUIZ).to_owned(),
            SaveError::File { path, reason } => format!("{path}: {reason}"),
            SaveError::Mail(reason) => reason.clone(),
        }
    }
}

/// Why the learner's copy of a lab file could not be made, reset or handed to the editor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LabFileError {
    /// No lab has this id (the content folder changed under a running queuelab).
    UnknownLab { lab_id: String },
    /// The copy could not be written: the file library's words (they name the file).
    Write(String),
}

impl LabFileError {
    /// The failure as the status line says it (after "Lab file: ").
    pub fn describe(&self, strings: &Strings) -> String {
        match self {
            LabFileError::UnknownLab { lab_id } => {
                strings.fill(key::labs::UNKNOWN_LAB, &[("lab_id", lab_id)])
            }
            LabFileError::Write(reason) => reason.clone(),
        }
    }
}

/// Why the learner's editor did not run to a good end on a lab file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EditError {
    /// Neither `$VISUAL` nor `$EDITOR` is set and no `vi` is on the `PATH`.
    NoEditor,
    /// The editor could not be started: its command and the system's words.
    Start { editor: String, reason: String },
    /// The editor ended with a failure: its command and its exit status.
    Exited { editor: String, status: String },
    /// queuelab could not take the terminal back after the editor: the system's words.
    Terminal(String),
    /// The copy to edit could not be made.
    File(LabFileError),
}

impl EditError {
    /// The failure as the status line says it.
    pub fn describe(&self, strings: &Strings) -> String {
        match self {
            EditError::NoEditor => strings.get(key::labs::NO_EDITOR).to_owned(),
            EditError::Start { editor, reason } => format!("{editor}: {reason}"),
            EditError::Exited { editor, status } => format!("{editor}: {status}"),
            EditError::Terminal(reason) => {
                strings.fill(key::labs::TERMINAL_LOST, &[("reason", reason)])
            }
            EditError::File(e) => e.describe(strings),
        }
    }
}
