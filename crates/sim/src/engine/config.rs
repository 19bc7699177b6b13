//! What a run needs to start ([`RunConfig`]) and how the engine fails ([`SimError`]).

use std::path::PathBuf;

use crate::model::{Actor, BrokerKind, Mode};
use crate::scenario::{Scenario, ScenarioError};
use crate::store::StoreError;

/// Everything needed to start a run.
#[derive(Debug, Clone)]
pub struct RunConfig {
    /// The scenario (see [`super::scenario::find`]).
    pub scenario: Scenario,
    /// Safe, naive or the scenario's pitfall.
    pub mode: Mode,
    /// Broker profile.
    pub broker: BrokerKind,
    /// RNG seed: same seed, same trace.
    pub seed: u64,
    /// Orders to send; `None` takes the scenario's. Only `scalable` scenarios accept another number.
    pub messages: Option<u32>,
    /// The run directory (created; must not already hold a run).
    pub dir: PathBuf,
}

/// Errors of the engine.
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    /// The run directory or a database could not be set up.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A scenario problem.
    #[error(transparent)]
    Scenario(#[from] ScenarioError),
    /// A setting is not acceptable.
    #[error("{0}")]
    Config(String),
    /// SQL that must not fail did fail (a bug or a broken file).
    #[error("{actor}: {context}: {source}")]
    Sql {
        /// Who ran it.
        actor: String,
        /// What it was doing.
        context: &'static str,
        /// SQLite's error.
        source: rusqlite::Error,
    },
    /// A file-system error in the blob store.
    #[error("claim-check store: {0}")]
    Blob(String),
    /// The invariant check could not read the files.
    #[error("{0}")]
    Check(String),
    /// The learner's lab file cannot run (forbidden action, statement ran too long, a
    /// transaction left open): the file's fault, reported at its line and column.
    #[error("lab file {0}")]
    Lab(#[from] crate::lab::LabFileError),
}

/// Attaches actor and context to a SQLite error.
pub(crate) trait SqlContext<T> {
    /// Wraps the error.
    fn ctx(self, actor: Actor, context: &'static str) -> Result<T, SimError>;
}

impl<T> SqlContext<T> for Result<T, rusqlite::Error> {
    fn ctx(self, actor: Actor, context: &'static str) -> Result<T, SimError> {
        self.map_err(|source| SimError::Sql {
            actor: actor.to_string(),
            context,
            source,
        })
    }
}
