//! What the lab screens ask of the lab thread and what comes back: plain data.

/// Work for the lab thread (and, for `Edit`, the terminal hand-over).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LabRequest {
    /// Make the learner's copy from the starting file if it does not exist yet.
    Open {
        /// The lab's id.
        lab_id: String,
    },
    /// Hand the terminal to the learner's editor on the copy (answered with `Msg::LabEdited`).
    Edit {
        /// The lab's id.
        lab_id: String,
    },
    /// Check the copy over the lab's default seeds (answered with progress and a verdict).
    Check {
        /// The lab's id.
        lab_id: String,
        /// The language the verdict is worded in.
        lang: content::Lang,
    },
    /// Restore the starting file in the copy (answered with `Msg::LabReset`).
    Reset {
        /// The lab's id.
        lab_id: String,
    },
}

/// Where a running check stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LabProgress {
    /// The seed running now.
    pub seed: u64,
    /// The check's last seed.
    pub last_seed: u64,
    /// Runs finished.
    pub runs_done: u64,
    /// Runs of a full check.
    pub runs_total: u64,
}

/// How a check ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LabReportKind {
    /// Every seed kept the invariants.
    Passed,
    /// A seed broke one.
    Broken,
    /// The file cannot run (`file:line:col: message`).
    CannotRun,
    /// queuelab itself could not check (a file that cannot be read, a folder that cannot be made).
    Failed,
}

/// A finished check as the lab screen shows it: its kind and its lines, worded by the lab
/// thread exactly as `queuelab lab check` prints them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LabReport {
    /// How it ended.
    pub kind: LabReportKind,
    /// The lines (headline first).
    pub lines: Vec<String>,
    /// The run that broke, to step through in the simulator (`s`).
    pub failed_run: Option<FailedRun>,
}

/// The first broken run of a check, with the file as it was checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FailedRun {
    /// Scenario id.
    pub scenario: String,
    /// Broker profile.
    pub broker: model::BrokerKind,
    /// Seed.
    pub seed: u64,
    /// The learner's file at the check.
    pub text: String,
    /// Where the run broke: the virtual time and section of the learner's statement the
    /// report names (the simulator opens there); none when the report names none.
    pub statement: Option<(u64, content::LabSection)>,
    /// The statement-level fault a targeted run was aimed at, when one broke the file.
    pub probe: Option<model::probe::Probe>,
}
