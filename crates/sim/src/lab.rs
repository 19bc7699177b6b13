//! Labs: the learner's SQL at the engine's hook points. A lab file is plain SQL split into
//! `-- @name` sections ([`file`]); each section has a documented list of named parameters
//! ([`Section`], defined with the lab format in `content`); the statements run under an authorizer and a statement budget ([`guard`]);
//! [`LabSql`] is what the engine runs ([`hooks`]) and [`runner`] checks a file over seeds,
//! scenarios and brokers.

mod breach;
pub mod guard;
pub mod hooks;
pub mod lab_check;
pub mod ledger;
pub mod mutants;
mod rerun;
pub mod runner;
pub mod runs_lock;
pub mod side_effects;
mod trail;
mod vary;

pub use breach::Breach;
pub use content::LabSection as Section;
pub use file::{LabFile, LabFileError, LabFileErrorKind, SectionText, Statement};
pub use hooks::LabSql;
pub use lab_check::{LabVerdict, check_lab, coverage_line};
pub use rerun::{lab_simulation, rerun};
pub use runner::{
    CheckOutcome, CheckProgress, CheckRequest, Failure as CheckFailure, Struck, run_check,
    run_check_observed,
};
pub use side_effects::{SideEffect, SideEffects};
pub use trail::{Trail, TrailEntry};

// The lab file's format, its learner copy, the probes and the violations' words are plain data
// the screens use too: they live in `queuelab-model` and keep their paths here.
pub use model::lab_file as file;
pub use model::{learner_copy, probe, violation_words};
