//! Why the host did not do what the instructor asked from the dashboard, said in the
//! dashboard's language.

use content::{Strings, key};

/// Why the host refused or failed a dashboard request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DashFailure {
    /// No trainee in the session has this name or id (as the instructor typed it).
    UnknownTrainee { who: String },
    /// The trainee has no open stuck signal (their name).
    NotStuck { name: String },
    /// The pacing command names something the content lacks (the host's words, naming it).
    PaceRefused(String),
    /// The host database failed (SQLite's words).
    Database(String),
}

impl DashFailure {
    /// The failure as the dashboard's note says it.
    pub fn describe(&self, strings: &Strings) -> String {
        match self {
            DashFailure::UnknownTrainee { who } => {
                strings.fill(key::dash::KICK_UNKNOWN, &[("value", who)])
            }
            DashFailure::NotStuck { name } => strings.fill(key::dash::NOT_STUCK, &[("name", name)]),
            DashFailure::PaceRefused(reason) => reason.clone(),
            DashFailure::Database(detail) => {
                strings.fill(key::dash::HOST_DATABASE, &[("detail", detail)])
            }
        }
    }
}
