//! Messages into the pure core, and the effects it asks the runtime to carry out.

use super::input::{Key, Mouse};
use super::simulator::{SimCommand, SimReply};
use content::Lang;
use domain::Fact;
use domain::otp::{OneTimeCode, Verdict};
use domain::outbox::MailStatus;
use domain::quiz::Attempt;
use std::collections::BTreeSet;

mod faults;

pub use faults::{EditError, LabFileError, SaveError, StoreFault};

/// Where a mail went after an attempt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Delivery {
    /// Written to this `.eml` file (the `file` transport).
    File(String),
    /// Accepted by the SMTP server.
    Smtp,
    /// Not sent yet; retried later.
    Retry(String),
    /// Given up.
    Failed(String),
}

/// Why the report's code request or code check got no answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MailFlowError {
    /// This machine's store, the report, the mail library or the workshop host failed (the
    /// reason, in a sentence).
    Failed(String),
    /// The workshop host speaks another protocol: the learner must update queuelab to its
    /// version.
    HostVersion(domain::workshop::wire::VersionRefusal),
}

impl std::fmt::Display for MailFlowError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MailFlowError::Failed(reason) => f.write_str(reason),
            MailFlowError::HostVersion(refusal) => refusal.fmt(f),
        }
    }
}

impl From<String> for MailFlowError {
    fn from(reason: String) -> MailFlowError {
        MailFlowError::Failed(reason)
    }
}

/// The answer to a code request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CodeRequestOutcome {
    /// A code was issued and its mail handled as described.
    Sent(Delivery),
    /// As `Sent`, through a workshop host that offers a copy for its instructor (its config
    /// names one; the address stays on the host): the screen asks for consent.
    SentCopyOffered(Delivery),
    /// No code now (cooldown, hourly limit, lock): string key and seconds to wait.
    Denied { key: content::Key, secs: i64 },
    /// The mail library refused the address (string key).
    Invalid { key: content::Key },
}

/// The workshop session as Home shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkshopLine {
    /// The session's name (or the host's address until the host told it).
    pub session: String,
    /// Whether the last delivery reached the host.
    pub reachable: bool,
    /// Facts still waiting for the host.
    pub pending: u32,
}

/// A copy the store kept of a damaged `progress.db`, as Settings lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DamagedCopy {
    /// The file name (no folder).
    pub name: String,
    /// Its size in bytes (with its WAL files).
    pub bytes: u64,
    /// When it was last written (Unix seconds).
    pub modified_secs: i64,
}

/// Something that happened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Msg {
    /// A key was pressed.
    Key(Key),
    /// The mouse was used.
    Mouse(Mouse),
    /// The terminal was resized.
    Resized { width: u16, height: u16 },
    /// The progress store opened (after the first frame) with what it held.
    StoreOpened(Box<super::StoredSession>),
    /// What the store holds now, read again on request (another process, such as
    /// `queuelab quiz --plain`, may have changed it).
    StoreReread(Box<super::StoredSession>),
    /// The progress store could not be opened: the workshop ends (the runtime says why after
    /// giving the terminal back).
    StoreFailed(StoreFault),
    /// Another queuelab holds the progress store; the store thread waits for it.
    StoreBusy,
    /// A fact was saved (or not).
    FactSaved(Result<(), StoreFault>),
    /// Results were cleared (or not).
    ResultsCleared(Result<(), SaveError>),
    /// A frame tick while the simulator plays, with the real time since the last one.
    Tick {
        /// Milliseconds since the previous tick.
        elapsed_ms: u32,
    },
    /// The simulator thread answered.
    Sim(SimReply),
    /// The LAN share started at this URL, or could not.
    ShareStarted(Result<String, ShareFailure>),
    /// A new quiz attempt was saved (with its id).
    AttemptStarted(Result<Attempt, StoreFault>),
    /// The local copy of the report was saved at this path.
    ReportSaved(Result<String, SaveError>),
    /// A code was requested.
    CodeRequested(Result<CodeRequestOutcome, MailFlowError>),
    /// A typed code was checked.
    CodeChecked(Result<Verdict, MailFlowError>),
    /// The damaged copies next to the progress store (sent when Settings opens).
    DamagedCopies(Vec<DamagedCopy>),
    /// The damaged copies were deleted (how many), or not.
    DamagedDeleted(Result<usize, StoreFault>),
    /// The workshop dispatcher delivered (or tried to).
    WorkshopUpdated(WorkshopLine),
    /// A join (Ok(true)) or leave (Ok(false)) finished, or why it did not.
    WorkshopJoined(Result<bool, domain::workshop::JoinRefusal>),
    /// The host of a short join line answered: (pinned join URL, check digits), or why it
    /// could not be reached.
    WorkshopObserved(Result<(String, String), domain::workshop::JoinRefusal>),
    /// The host took the join code: (pinned join URL, the session's name), or why not.
    WorkshopGreeted(Result<(String, String), domain::workshop::JoinRefusal>),
    /// The instructor sent a pacing command.
    PaceReceived(super::pace::PaceNotice),
    /// The store's lab results (after a list opened, a check or a hint was saved), by lab id.
    LabResults(std::collections::BTreeMap<String, domain::LabResult>),
    /// The learner's copy of a lab file exists now (or could not be made).
    LabOpened(Result<(), LabFileError>),
    /// The learner's editor returned (or could not be started: why).
    LabEdited {
        /// The lab's id.
        lab_id: String,
        /// Ok once the editor ended.
        result: Result<(), EditError>,
    },
    /// The learner's copy of a lab file was saved outside queuelab (the lab thread watches it
    /// while its screen is open): the lab screen checks it again.
    LabFileSaved {
        /// The lab's id.
        lab_id: String,
    },
    /// The learner's copy of a lab file was deleted (or moved away) while its screen is open.
    LabFileGone {
        /// The lab's id.
        lab_id: String,
    },
    /// A lab check waits for another check of the same lab on the same data folder (a
    /// `queuelab lab check` in another terminal).
    LabWaiting {
        /// The lab's id.
        lab_id: String,
    },
    /// A lab check moved on.
    LabProgress {
        /// The lab's id.
        lab_id: String,
        /// Where it stands.
        progress: super::labs::LabProgress,
    },
    /// A lab check ended.
    LabChecked {
        /// The lab's id.
        lab_id: String,
        /// Whether it passed (the store records it).
        passed: bool,
        /// Why it failed (the verdict's reason, `LabVerdict::reason` in `queuelab-sim`); empty when it passed.
        reason: String,
        /// What the lab screen shows.
        report: super::labs::LabReport,
    },
    /// A lab file was reset to its starting file (or not).
    LabReset {
        /// The lab's id.
        lab_id: String,
        /// Ok once the starting file is back.
        result: Result<(), LabFileError>,
    },
    /// The host said whether right/wrong waits for the reveal, and what was revealed.
    VotesUpdated(super::pace::RoomVotes),
    /// The host's word on the trainee's stuck signal: None not stuck, Some(acknowledged).
    StuckUpdated(Option<bool>),
    /// The outbox changed: the newest report mail's status and what happened to a mail.
    MailUpdated {
        /// Status of the newest report mail.
        report: Option<MailStatus>,
        /// What happened to the report mail just now, if it was attempted.
        delivery: Option<Delivery>,
    },
}

/// Something the runtime must do for the core, grouped by the worker that does it. Each
/// request carries what its worker needs, so the executor routes without reading the app.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// For the progress store thread.
    Store(StoreRequest),
    /// For the mail thread.
    Mail(MailRequest),
    /// For the simulator thread.
    Sim(SimCommand),
    /// For the LAN share of the map.
    Share(ShareRequest),
    /// For the workshop dispatcher.
    Workshop(WorkshopRequest),
    /// For the lab thread (and the editor hand-over).
    Lab(super::labs::LabRequest),
}

/// Work for the workshop dispatcher.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WorkshopRequest {
    /// Record the membership and say hello to the host (answered with `Msg::WorkshopJoined`).
    Join {
        /// The join URL (already checked).
        url: String,
        /// The display name (already checked).
        name: String,
    },
    /// Learn the certificate of `host:port` for a short join line (answered with
    /// `Msg::WorkshopObserved`; nothing is sent to the host).
    Observe {
        /// Host name or IP.
        host: String,
        /// TCP port.
        port: u16,
        /// The join code.
        code: String,
    },
    /// Look for the session on the LAN whose host takes `code` and learn its certificate
    /// (answered with `Msg::WorkshopObserved`, as `Observe`).
    Find {
        /// The join code.
        code: String,
        /// Fingerprints of sessions whose digits the learner declined in this join.
        declined: Vec<String>,
    },
    /// Ask the host of a pinned join URL whether it takes the code; nothing is recorded
    /// (answered with `Msg::WorkshopGreeted`).
    Hello {
        /// The join URL (already checked, pinned).
        url: String,
    },
    /// Hand over what waits, then end the membership (answered with `Msg::WorkshopJoined`).
    Leave,
}

/// Work for the progress store thread; each write is its own transaction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoreRequest {
    /// Save a fact.
    Save(Fact),
    /// Delete every result about the learner.
    ClearResults,
    /// Read progress, quiz and report status again (answered with `Msg::StoreReread`).
    Reread,
    /// Start and save a new quiz attempt (the store thread picks the seed).
    StartAttempt,
    /// List the copies of damaged stores (answered with `Msg::DamagedCopies`).
    ListDamaged,
    /// Delete the copies of damaged stores (answered with `Msg::DamagedDeleted`).
    DeleteDamaged,
    /// Read the lab results (answered with `Msg::LabResults`).
    ReadLabs,
    /// Record one lab check, as `queuelab lab check` does (answered with `Msg::LabResults`).
    LabChecked {
        /// The lab's id.
        lab_id: String,
        /// Whether it passed.
        passed: bool,
        /// Why it failed; empty when it passed.
        reason: String,
    },
    /// Record that a lab's hint was revealed (answered with `Msg::LabResults`).
    LabHint {
        /// The lab's id.
        lab_id: String,
        /// The hint level (1-3).
        level: u32,
    },
    /// Queue the stuck signal for the workshop host (screen name).
    Stuck(String),
    /// Queue "solved" for the workshop host: the stuck signal clears.
    Solved,
    /// Save one quiz answer.
    SaveAnswer {
        /// The attempt.
        attempt_id: i64,
        /// The question.
        question_id: String,
        /// The chosen option ids.
        chosen: BTreeSet<String>,
        /// Whether it was right.
        correct: bool,
        /// The score, when this was the last question.
        finished: Option<u32>,
    },
}

/// Work for the mail thread.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MailRequest {
    /// Delete the mail and report files (results were cleared).
    ClearFiles,
    /// Save the report of the last finished attempt as local files.
    SaveReport {
        /// The report's language.
        lang: Lang,
        /// The learner's display name (checked), if given.
        name: Option<String>,
    },
    /// Issue a one-time code for the address and send its mail.
    RequestCode { address: String, lang: Lang },
    /// Check a typed code; on success queue and send the report.
    ConfirmCode {
        /// The address the code went to.
        address: String,
        /// What the learner typed.
        code: OneTimeCode,
        /// Whether the instructor copy was agreed to.
        consent: bool,
        /// The report's language.
        lang: Lang,
        /// The learner's display name (checked), if given.
        name: Option<String>,
    },
}

/// Work for the LAN share of the phone map.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShareRequest {
    /// Serve the map in `lang` on this port (0.0.0.0), off the UI loop.
    Start {
        /// The TCP port.
        port: u16,
        /// The map's language.
        lang: Lang,
    },
    /// Stop serving the map.
    Stop,
}

/// Why the LAN share did not start; the app words it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShareFailure {
    /// No network interface with a LAN address.
    NoLan,
    /// The port could not be bound: address and the system's reason.
    Bind(String),
}
