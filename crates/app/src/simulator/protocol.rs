//! What the simulator screen asks of the engine thread, and what comes back. Plain data: the
//! pure core never holds a `Simulation` (it owns SQLite connections).

use model::lab_file::LabFile;
use model::{BrokerKind, DlqEntry, Event, Fault, Mode, Moment, RunReport, Snapshot};

/// The settings that pick a run.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RunSpec {
    /// Scenario id.
    pub scenario: String,
    /// Safe, naive or pitfall.
    pub mode: Mode,
    /// Broker profile.
    pub broker: BrokerKind,
    /// Seed.
    pub seed: u64,
    /// A lab's failing run opened from the lab screen: the learner's file plays at the hook
    /// points (the mode is then always safe).
    pub lab: Option<LabRun>,
}

/// The learner's lab file a run plays, exactly as it was checked.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct LabRun {
    /// The lab's id.
    pub lab_id: String,
    /// The lab's number (shown in the header).
    pub number: u32,
    /// The file's text at the check.
    pub text: String,
    /// That text parsed, once, for the views (empty when it does not parse: such a file fails
    /// to start and runs no statement).
    pub file: LabFile,
    /// The statement-level fault the failing run was aimed at (a crash after a durable point,
    /// a twin in a gap): the run plays it again, else it would not break.
    pub probe: Option<model::probe::Probe>,
}

impl LabRun {
    /// The run of `text` for lab `lab_id` (number `number`).
    pub fn new(lab_id: String, number: u32, text: String) -> LabRun {
        let file = LabFile::parse(&text).unwrap_or_default();
        LabRun {
            lab_id,
            number,
            text,
            file,
            probe: None,
        }
    }

    /// The same run with the failing run's fault aimed again.
    #[must_use]
    pub fn with_probe(mut self, probe: Option<model::probe::Probe>) -> LabRun {
        self.probe = probe;
        self
    }
}

/// A command to the simulator thread. `run` tags every command and reply so that replies to
/// an abandoned run are recognised and dropped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SimCommand {
    /// Create a run (its directory and databases); nothing is executed yet.
    Start {
        /// Run tag.
        run: u64,
        /// What to run.
        spec: RunSpec,
    },
    /// Execute up to `count` events at the head of the run.
    Step {
        /// Run tag.
        run: u64,
        /// Events to execute.
        count: u32,
    },
    /// Execute events until one makes a moment visible (that one included) or `max` ran:
    /// "pause at moments" and "next moment".
    StepToMoment {
        /// Run tag.
        run: u64,
        /// Most events to execute.
        max: u32,
    },
    /// Execute events up to the first that runs the learner's `section` at `at_ms` or later
    /// (that one included): a lab check's broken run opens at the statement its report names.
    StepToStatement {
        /// Run tag.
        run: u64,
        /// Virtual time of the statement, ms.
        at_ms: u64,
        /// Its section.
        section: content::LabSection,
    },
    /// The picture right after event `index` (step back / forward in history).
    View {
        /// Run tag.
        run: u64,
        /// Event index.
        index: u64,
    },
    /// Execute everything that is left.
    ToEnd {
        /// Run tag.
        run: u64,
    },
    /// Inject a named fault at the head (it fires at the next matching step).
    Inject {
        /// Run tag.
        run: u64,
        /// The fault.
        fault: Fault,
    },
    /// DLQ triage: optionally fix the cause, then replay up to `count` messages at once (the
    /// reply carries the replay's event, so a paused screen shows it without playing on).
    Replay {
        /// Run tag.
        run: u64,
        /// Batch size.
        count: u32,
        /// Fix the cause first (the consumer learns the new schema).
        fix_cause: bool,
        /// Send the copies under new message ids (duplicate detection lets them through; the
        /// inbox no longer recognises them).
        new_ids: bool,
    },
    /// Run the same scenario and seed in safe and naive mode to the end, side by side.
    Compare {
        /// Run tag.
        run: u64,
        /// Scenario, broker and seed (the mode is ignored).
        spec: RunSpec,
        /// The unsafe mode shown beside safe mode (naive, or the scenario's pitfall).
        against: Mode,
    },
    /// Drop the current run (the screen was left).
    Stop,
}

/// A reply from the simulator thread.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SimReply {
    /// The run exists; its files are in `dir`.
    Started {
        /// Run tag.
        run: u64,
        /// The run directory (for `sqlite3`).
        dir: String,
        /// Consumer instances in this scenario.
        consumers: u8,
        /// The picture before the first event.
        head: Box<Snapshot>,
        /// Events the same run has when played to the end without injected faults (paces
        /// playback so that every scenario takes about the same wall time).
        expected_events: u64,
    },
    /// The head moved on.
    Advanced {
        /// Run tag.
        run: u64,
        /// The picture at the head.
        head: Box<Snapshot>,
        /// The events executed by this command (the newest few hundred at most).
        events: Vec<Event>,
        /// Events executed in the run so far.
        total: u64,
        /// Nothing is left to do.
        finished: bool,
        /// DLQ entries not yet replayed.
        dlq: Vec<DlqEntry>,
        /// The final report, once finished.
        report: Option<Box<RunReport>>,
        /// The moments the executed events made visible (and, once finished, the losses only
        /// the end of the run reveals).
        moments: Vec<Moment>,
    },
    /// The picture after an earlier event.
    Viewed {
        /// Run tag.
        run: u64,
        /// Event index.
        index: u64,
        /// The picture.
        snapshot: Box<Snapshot>,
    },
    /// Both reports of a compare.
    Compared {
        /// Run tag.
        run: u64,
        /// Safe mode.
        safe: Box<RunReport>,
        /// Naive mode.
        naive: Box<RunReport>,
    },
    /// A command failed; the text says why.
    Failed {
        /// Run tag.
        run: u64,
        /// What went wrong.
        reason: String,
    },
}

impl SimReply {
    /// The run tag of the reply.
    pub fn run(&self) -> u64 {
        match self {
            SimReply::Started { run, .. }
            | SimReply::Advanced { run, .. }
            | SimReply::Viewed { run, .. }
            | SimReply::Compared { run, .. }
            | SimReply::Failed { run, .. } => *run,
        }
    }
}
