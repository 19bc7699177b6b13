//! Messages into the pure core, and the effects it asks the runtime to carry out.

use super::input::{Key, Mouse};
use super::simulator::{SimCommand, SimReply};
use crate::content::Lang;
use crate::domain::Fact;
use crate::domain::otp::{OneTimeCode, Verdict};
use crate::domain::outbox::MailStatus;
use crate::domain::quiz::Attempt;
use std::collections::BTreeSet;

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

/// The answer to a code request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CodeRequestOutcome {
    /// A code was issued and its mail handled as described.
    Sent(Delivery),
    /// No code now (cooldown, hourly limit, lock): string key and seconds to wait.
    Denied { key: &'static str, secs: i64 },
    /// The mail library refused the address (string key).
    Invalid { key: &'static str },
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
    /// A fact was saved (or not).
    FactSaved(Result<(), String>),
    /// Results were cleared (or not).
    ResultsCleared(Result<(), String>),
    /// A frame tick while the simulator plays, with the real time since the last one.
    Tick {
        /// Milliseconds since the previous tick.
        elapsed_ms: u32,
    },
    /// The simulator thread answered.
    Sim(SimReply),
    /// The LAN share started at this URL, or could not (the reason).
    ShareStarted(Result<String, String>),
    /// A new quiz attempt was saved (with its id).
    AttemptStarted(Result<Attempt, String>),
    /// The local copy of the report was saved at this path.
    ReportSaved(Result<String, String>),
    /// A code was requested.
    CodeRequested(Result<CodeRequestOutcome, String>),
    /// A typed code was checked.
    CodeChecked(Result<Verdict, String>),
    /// The outbox changed: the newest report mail's status and what happened to a mail.
    MailUpdated {
        /// Status of the newest report mail.
        report: Option<MailStatus>,
        /// What happened to the report mail just now, if it was attempted.
        delivery: Option<Delivery>,
    },
}

/// Something the runtime must do for the core.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// Save a fact in its own transaction.
    Save(Fact),
    /// Delete every result about the learner.
    ClearResults,
    /// Serve the phone map on the LAN on this port (0.0.0.0), off the UI loop.
    StartShare {
        /// The TCP port.
        port: u16,
    },
    /// Stop serving the map.
    StopShare,
    /// Leave the program (the runtime restores the terminal).
    Quit,
    /// Tell the simulator thread what to do.
    Sim(SimCommand),
    /// Start and save a new quiz attempt (the runtime picks the seed).
    StartAttempt,
    /// Save one quiz answer in its own transaction.
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
    /// Save the report of the last finished attempt as local files.
    SaveReport { lang: Lang },
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
    },
}
