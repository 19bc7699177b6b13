//! The JSON bodies trainee and host exchange.

use super::Event;
use serde::{Deserialize, Serialize};

/// Largest number of events in one delivery.
pub const MAX_BATCH: usize = 200;

/// `POST /api/events`: a trainee's batch.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EventBatch {
    /// The join code.
    pub code: String,
    /// The trainee's id.
    pub trainee: String,
    /// The trainee's secret (the host keeps only its hash; first use registers it).
    pub token: String,
    /// The display name.
    pub name: String,
    /// The events, oldest first.
    pub events: Vec<Event>,
}

/// `GET /api/hello` with the join code: the check a trainee makes before it records a
/// membership (a wrong code is a refusal at join time, not a silent outbox later).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hello {
    /// The session's name.
    pub session: String,
}

/// An event the host refused, with the reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rejected {
    /// The event id.
    pub id: String,
    /// Why.
    pub reason: String,
}

/// The host's answer to a batch.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct BatchReply {
    /// The session's name.
    pub session: String,
    /// Events stored now.
    pub stored: u32,
    /// Events the host already had (recognised by id, not counted again).
    pub duplicates: u32,
    /// Events refused (they are never retried).
    pub rejected: Vec<Rejected>,
    /// The name the room shows for this trainee: the one sent, or `Ada (2)` when another Ada
    /// was there first. An older host sends none.
    #[serde(default)]
    pub name: Option<String>,
}

/// Who is asking, for the mail relay: the join code and the trainee's own credentials.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Caller {
    /// The join code.
    pub code: String,
    /// The trainee's id.
    pub trainee: String,
    /// The trainee's secret.
    pub token: String,
}

/// `POST /api/report/code`: send a one-time code to this address.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CodeRequest {
    /// Who asks.
    pub caller: Caller,
    /// The address (validated again on the host).
    pub address: String,
    /// The language of the code mail.
    pub lang: content::Lang,
}

/// `POST /api/report/send`: the typed code and the report to send when it is right.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReportSubmit {
    /// Who asks.
    pub caller: Caller,
    /// The address the code went to.
    pub address: String,
    /// The code as typed.
    pub typed: String,
    /// The report as the trainee's screen shows it. The host reads only its language: the mail it
    /// relays is composed from the host's own stored events.
    pub report: crate::report::Report,
    /// Whether the trainee agreed to a copy for the instructor. The host alone knows the
    /// instructor's address; without this agreement no copy goes.
    #[serde(default)]
    pub instructor_copy: bool,
}

/// The host's answer to either mail request: a UI string key with its values, the same keys
/// the local flow shows, so the trainee prints them in its own language.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct MailReply {
    /// `report.code_sent`, `report.queued`, or an `otp.*` key.
    pub key: String,
    /// Tries left after a wrong code.
    pub remaining: Option<usize>,
    /// Seconds to wait (cooldown, hourly limit, lock).
    pub wait_secs: Option<i64>,
    /// Whether the mail went out (code or report).
    pub sent: bool,
    /// Whether the flow is over (report queued, or locked).
    pub done: bool,
    /// Whether the host offers a copy to its instructor (its config names one): the trainee is
    /// asked for consent. The address itself stays on the host.
    #[serde(default)]
    pub copy_offered: bool,
}
