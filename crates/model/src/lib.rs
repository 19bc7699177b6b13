//! Plain value types shared by the engine, its snapshots and its callers: what a run is made of
//! (modes, brokers, actors, stages, events), what the engine shows of it (snapshots, reports,
//! moments, DLQ entries), the lab file a learner writes and the engine's words for all of them.
//!
//! No SQLite here: the screens (`queuelab-app`) build on these types alone, so a change to a
//! view never waits for the engine or its bundled C library. The simulator (`queuelab-sim`)
//! re-exports these types and modules under its own paths (`sim::state`, `sim::lab::file`, ...).

pub mod dlq;
pub mod engine_words;
pub mod event_kind;
pub mod lab_file;
pub mod learner_copy;
pub mod moments;
pub mod probe;
pub mod report;
pub mod run_paths;
pub mod state;
pub mod violation_words;

use std::fmt;

pub use content::scenario::{DEFAULT_OUTAGE_MS, FAULT_KINDS, Fault};
pub use dlq::DlqEntry;
pub use event_kind::EventKind;
pub use moments::{Moment, MomentKind};
pub use report::{InvariantCheck, Metrics, RunReport};
pub use run_paths::RunPaths;
pub use state::{Snapshot, Table, Tables, Token};

/// The message id the API gives order number `order`'s outbox row; the story reads an order's
/// message from it rather than storing it.
pub fn order_message_id(order: u32) -> String {
    format!("msg-{order:06}")
}

/// How the consumer (and the API) protect themselves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Unique inbox index, marker and effect in one transaction, duplicate recognised by 2067 + columns.
    Safe,
    /// Check-then-insert without a unique index.
    Naive,
    /// The scenario's named pitfall (see [`Pitfall`]) on top of the safe schema.
    Pitfall,
}

impl Mode {
    /// All modes, in the order the UI offers them.
    pub const ALL: [Mode; 3] = [Mode::Safe, Mode::Naive, Mode::Pitfall];

    /// The CLI spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Safe => "safe",
            Mode::Naive => "naive",
            Mode::Pitfall => "pitfall",
        }
    }

    /// Parses the CLI spelling.
    pub fn parse(s: &str) -> Option<Mode> {
        Mode::ALL.into_iter().find(|m| m.as_str() == s)
    }
}

/// Which broker profile the run uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BrokerKind {
    /// Azure Service Bus (peek-lock, MaxDeliveryCount, duplicate detection, sessions).
    Asb,
    /// Amazon SQS (visibility timeout, redrive policy, standard or FIFO).
    Sqs,
}

impl BrokerKind {
    /// Both profiles.
    pub const ALL: [BrokerKind; 2] = [BrokerKind::Asb, BrokerKind::Sqs];

    /// The CLI spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            BrokerKind::Asb => "asb",
            BrokerKind::Sqs => "sqs",
        }
    }

    /// Parses the CLI spelling.
    pub fn parse(s: &str) -> Option<BrokerKind> {
        BrokerKind::ALL.into_iter().find(|b| b.as_str() == s)
    }
}

pub use content::scenario::Pitfall;

/// Who acted in an event. Instances are numbered from 0 (shown as A, B, ...).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Actor {
    /// The HTTP API (and its client, for retries).
    Api,
    /// An outbox dispatcher instance.
    Dispatcher(u8),
    /// The broker itself (lock expiry, dead-lettering, duplicate detection).
    Broker,
    /// A consumer instance with its own SQLite connection.
    Consumer(u8),
    /// The external provider (payment/pricing API).
    Provider,
    /// The sweeper (inbox retention, stale claims and leases).
    Sweeper,
    /// The scenario script or the trainee injecting a fault.
    Script,
    /// The operator doing DLQ triage.
    Operator,
}

impl Actor {
    /// The instance letter for numbered actors (`A`, `B`, ...).
    fn letter(i: u8) -> char {
        char::from(b'A' + (i % 26))
    }
}

impl Actor {
    /// The trace name of an actor without an instance number.
    fn fixed_name(self) -> &'static str {
        match self {
            Actor::Api => "api",
            Actor::Dispatcher(_) => "dispatcher",
            Actor::Broker => "broker",
            Actor::Consumer(_) => "consumer",
            Actor::Provider => "provider",
            Actor::Sweeper => "sweeper",
            Actor::Script => "script",
            Actor::Operator => "operator",
        }
    }
}

impl fmt::Display for Actor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Actor::Api => f.write_str("api"),
            Actor::Dispatcher(i) => write!(f, "dispatcher-{}", Actor::letter(*i)),
            Actor::Broker => f.write_str("broker"),
            Actor::Consumer(i) => write!(f, "consumer-{}", Actor::letter(*i)),
            Actor::Provider => f.write_str("provider"),
            Actor::Sweeper => f.write_str("sweeper"),
            Actor::Script => f.write_str("script"),
            Actor::Operator => f.write_str("operator"),
        }
    }
}

/// A stage of the flow map; tokens and events are placed on one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Stage {
    /// API and the client.
    Api,
    /// The outbox table.
    Outbox,
    /// The dispatcher.
    Dispatcher,
    /// The broker queue.
    Broker,
    /// Waiting for a delayed retry.
    Retry,
    /// The dead-letter queue.
    Dlq,
    /// Consumers and their inbox.
    Consumer,
    /// The business effect (and the external provider).
    Effect,
}

impl Stage {
    /// All stages in flow-map order.
    pub const ALL: [Stage; 8] = [
        Stage::Api,
        Stage::Outbox,
        Stage::Dispatcher,
        Stage::Broker,
        Stage::Retry,
        Stage::Dlq,
        Stage::Consumer,
        Stage::Effect,
    ];

    /// Lower-case name used in traces.
    pub fn as_str(self) -> &'static str {
        match self {
            Stage::Api => "api",
            Stage::Outbox => "outbox",
            Stage::Dispatcher => "dispatcher",
            Stage::Broker => "broker",
            Stage::Retry => "retry",
            Stage::Dlq => "dlq",
            Stage::Consumer => "consumer",
            Stage::Effect => "effect",
        }
    }
}

/// What the actor knows about the result of its step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// It worked and the actor knows it.
    Ok,
    /// It failed and the actor knows it.
    Failed,
    /// The actor cannot know (timeout after the other side acted).
    Unknown,
}

impl Outcome {
    /// Lower-case name used in traces.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Ok => "ok",
            Outcome::Failed => "failed",
            Outcome::Unknown => "unknown",
        }
    }
}

/// The broker call a `lock-lost` event was refused, kept as its second argument: which call
/// it was decides the operation the history records and the words the moment uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RefusedCall {
    /// Service Bus `Complete` (a settle).
    Complete,
    /// Service Bus `Abandon`.
    Abandon,
    /// Service Bus `DeadLetter`.
    DeadLetter,
    /// SQS `ChangeMessageVisibility` (the consumer's release for a retry).
    ChangeMessageVisibility,
}

impl RefusedCall {
    /// Index of the argument of a `lock-lost` event that names the refused call.
    pub const ARG: usize = 1;

    /// The call as the broker's SDK names it.
    pub fn name(self) -> &'static str {
        match self {
            RefusedCall::Complete => "Complete",
            RefusedCall::Abandon => "Abandon",
            RefusedCall::DeadLetter => "DeadLetter",
            RefusedCall::ChangeMessageVisibility => "ChangeMessageVisibility",
        }
    }

    /// The operation a history records for it.
    pub fn operation(self) -> &'static str {
        match self {
            RefusedCall::Complete => "complete",
            RefusedCall::Abandon | RefusedCall::ChangeMessageVisibility => "abandon",
            RefusedCall::DeadLetter => "dead-letter",
        }
    }

    /// The call a `lock-lost` event names (a settle when it names none).
    pub fn of(event: &Event) -> RefusedCall {
        let named = event.args.get(Self::ARG).map(String::as_str);
        [
            RefusedCall::Abandon,
            RefusedCall::DeadLetter,
            RefusedCall::ChangeMessageVisibility,
        ]
        .into_iter()
        .find(|c| Some(c.name()) == named)
        .unwrap_or(RefusedCall::Complete)
    }
}

/// One step of the simulation, as recorded in the trace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    /// Position in the run, from 0.
    pub index: u64,
    /// Virtual time in milliseconds.
    pub at_ms: u64,
    /// Who acted.
    pub actor: Actor,
    /// Where on the flow map.
    pub stage: Stage,
    /// The message concerned, when there is one.
    pub message_id: Option<String>,
    /// What happened.
    pub kind: EventKind,
    /// The SQL statements executed, in order (empty when none ran).
    pub sql: &'static [&'static str],
    /// The result as the actor sees it.
    pub outcome: Outcome,
    /// Caption key (`kind.caption_key()`), present in every language of the captions file.
    pub caption: &'static str,
    /// Positional arguments for the caption (`{0}`, `{1}`, ...).
    pub args: Vec<String>,
}

impl Event {
    /// A new event of `kind` by `actor` at `stage`: about no message, no SQL, outcome
    /// [`Outcome::Ok`], no caption arguments. Index and time are filled in by the engine's
    /// `step`; the other parts are added with the builder methods below.
    pub fn new(actor: Actor, stage: Stage, kind: EventKind) -> Event {
        Event {
            index: 0,
            at_ms: 0,
            actor,
            stage,
            message_id: None,
            kind,
            sql: &[],
            outcome: Outcome::Ok,
            caption: kind.caption_key(),
            args: Vec::new(),
        }
    }

    /// The message the event concerns.
    #[must_use]
    pub fn message(self, message_id: &str) -> Event {
        self.maybe_message(Some(message_id))
    }

    /// The message the event concerns, when there is one (a batch names its first message).
    #[must_use]
    pub fn maybe_message(mut self, message_id: Option<&str>) -> Event {
        self.message_id = message_id.map(str::to_string);
        self
    }

    /// The SQL statements the event ran, in order.
    #[must_use]
    pub fn sql(mut self, statements: &'static [&'static str]) -> Event {
        self.sql = statements;
        self
    }

    /// The result as the actor sees it (default [`Outcome::Ok`]).
    #[must_use]
    pub fn outcome(mut self, outcome: Outcome) -> Event {
        self.outcome = outcome;
        self
    }

    /// The caption's positional arguments (`{0}`, `{1}`, ...).
    #[must_use]
    pub fn args(mut self, args: Vec<String>) -> Event {
        self.args = args;
        self
    }
    /// Feeds [`Event::trace_line`] plus a newline into `update`, piece by piece, without
    /// building the string (the engine hashes every event; this keeps the hot path
    /// allocation-free). `update` is the hasher's own, so this crate needs no hash library.
    pub fn hash_into(&self, update: &mut impl FnMut(&[u8])) {
        let mut num = [0_u8; 20];
        update(fmt_u64(&mut num, self.index).as_bytes());
        update(b" ");
        update(fmt_u64(&mut num, self.at_ms).as_bytes());
        update(b" ");
        // The actor's trace name without allocating (this runs once per event).
        match self.actor {
            Actor::Dispatcher(i) => {
                update(b"dispatcher-");
                update(&[b'A' + (i % 26)]);
            }
            Actor::Consumer(i) => {
                update(b"consumer-");
                update(&[b'A' + (i % 26)]);
            }
            other => update(other.fixed_name().as_bytes()),
        }
        for part in [
            self.stage.as_str(),
            self.message_id.as_deref().unwrap_or("-"),
            self.kind.as_str(),
            self.outcome.as_str(),
            self.caption,
        ] {
            update(b" ");
            update(part.as_bytes());
        }
        for a in &self.args {
            update(b" |");
            update(a.as_bytes());
        }
        for s in self.sql {
            update(b" ;");
            update(s.as_bytes());
        }
        update(b"\n");
    }

    /// The canonical trace line (what the trace hash is computed over).
    pub fn trace_line(&self) -> String {
        let mut line = format!(
            "{} {} {} {} {} {} {} {}",
            self.index,
            self.at_ms,
            self.actor,
            self.stage.as_str(),
            self.message_id.as_deref().unwrap_or("-"),
            self.kind,
            self.outcome.as_str(),
            self.caption
        );
        for a in &self.args {
            line.push_str(" |");
            line.push_str(a);
        }
        for s in self.sql {
            line.push_str(" ;");
            line.push_str(s);
        }
        line
    }
}

/// Formats `n` in decimal into `buf` and returns the digits.
fn fmt_u64(buf: &mut [u8; 20], mut n: u64) -> &str {
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    std::str::from_utf8(&buf[i..]).unwrap_or("0")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_streamed_bytes_are_the_trace_line() {
        let e = Event {
            index: 1234,
            at_ms: 0,
            actor: Actor::Consumer(1),
            stage: Stage::Effect,
            message_id: Some("msg-000001".into()),
            kind: EventKind::Applied,
            sql: &["BEGIN IMMEDIATE", "COMMIT"],
            outcome: Outcome::Ok,
            caption: "sim.applied",
            args: vec!["CR-1".into(), String::new()],
        };
        let mut streamed = Vec::new();
        e.hash_into(&mut |bytes: &[u8]| streamed.extend_from_slice(bytes));
        let mut line = e.trace_line();
        line.push('\n');
        assert_eq!(String::from_utf8(streamed).as_deref(), Ok(line.as_str()));
    }
}
