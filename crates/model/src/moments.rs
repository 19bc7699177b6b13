//! **Moments** a learner must see, as the engine's story finds them (in `queuelab-sim`) and the
//! screens show them — a duplicate effect, a prevented duplicate, a lost order, a dead-lettered
//! message, a lost lock, a redelivery, an outbox that waits, a DLQ replay. Each moment names the
//! order and message, the event where it became visible, the earlier event that caused it, and
//! a plain-language explanation (texts in `assets/sim/moments.toml`, both languages).
//!
//! The CLI prints moments in `--json` and `--transcript`, the TUI shows them in its story panel.

mod text;

pub use text::{builtin, caption, human_ms, humanize_ms, render};

/// The kinds of moments (their spelling is part of the `sim --json` contract).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MomentKind {
    /// An order got its business effect a second time (or was charged twice).
    DuplicateEffect,
    /// A duplicate was recognised and not applied.
    PreventedDuplicate,
    /// An accepted order will never get an effect and is not in the DLQ.
    LostOrder,
    /// A message moved to the dead-letter queue.
    DeadLettered,
    /// A settle was refused because the lock / visibility timeout had passed.
    LockLost,
    /// A message was delivered again (after a lock expiry, a retry, or as a duplicate copy).
    Redelivered,
    /// The oldest outbox row waited longer than [`OUTBOX_WAITING_MS`].
    OutboxWaiting,
    /// A message was replayed from the DLQ.
    Replayed,
    /// An order took effect before an earlier order of the same customer.
    OutOfOrder,
}

impl MomentKind {
    /// All kinds.
    pub const ALL: [MomentKind; 9] = [
        MomentKind::DuplicateEffect,
        MomentKind::PreventedDuplicate,
        MomentKind::LostOrder,
        MomentKind::DeadLettered,
        MomentKind::LockLost,
        MomentKind::Redelivered,
        MomentKind::OutboxWaiting,
        MomentKind::Replayed,
        MomentKind::OutOfOrder,
    ];

    /// The spelling in `sim --json`.
    pub fn as_str(self) -> &'static str {
        match self {
            MomentKind::DuplicateEffect => "duplicate-effect",
            MomentKind::PreventedDuplicate => "prevented-duplicate",
            MomentKind::LostOrder => "lost-order",
            MomentKind::DeadLettered => "dead-lettered",
            MomentKind::LockLost => "lock-lost",
            MomentKind::Redelivered => "redelivered",
            MomentKind::OutboxWaiting => "outbox-waiting",
            MomentKind::Replayed => "replayed",
            MomentKind::OutOfOrder => "out-of-order",
        }
    }

    /// True for the moments that change the outcome of an order (the ones worth a pause even
    /// in a long run); redeliveries and waiting outboxes are the normal weather of a queue.
    pub fn is_outcome(self) -> bool {
        matches!(
            self,
            MomentKind::DuplicateEffect
                | MomentKind::PreventedDuplicate
                | MomentKind::LostOrder
                | MomentKind::DeadLettered
                | MomentKind::OutOfOrder
        )
    }
}

/// The age of the oldest unpublished outbox row that makes an `outbox-waiting` moment, ms.
pub const OUTBOX_WAITING_MS: u64 = 2_000;

/// One argument of a moment's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Arg {
    /// Plain text (ids, error descriptions).
    Text(String),
    /// A virtual time or duration in ms, shown for people ("2.1 s", "7 days").
    Ms(u64),
    /// A term from the texts file, in the reader's language (e.g. the broker's word for lock).
    Term(&'static str),
}

/// Something the learner must see, with its cause.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Moment {
    /// What kind.
    pub kind: MomentKind,
    /// Virtual time of the event that made it visible, ms.
    pub at_ms: u64,
    /// Index of the event that made it visible.
    pub event: u64,
    /// Index of the earlier event that caused it (always smaller than `event`).
    pub cause_event: u64,
    /// Virtual time of the cause event, ms.
    pub cause_ms: u64,
    /// The order (id in `service.db`).
    pub order: i64,
    /// The message id.
    pub message_id: String,
    /// Text key in `assets/sim/moments.toml`.
    pub text: &'static str,
    /// Arguments of the text (`{0}`, `{1}`, ...).
    pub args: Vec<Arg>,
}

/// The number the learner reads for the event at `index`: the simulator's event log counts
/// from 1. Every text that names an event for the learner (the lab check's cause, the
/// simulator's "why" key, its event log) takes the number from here, so they agree.
pub fn event_number(index: u64) -> u64 {
    index + 1
}

impl Moment {
    /// The number the learner reads for this moment's cause event (see [`event_number`]).
    pub fn cause_number(&self) -> u64 {
        event_number(self.cause_event)
    }

    /// The object of `sim --json`'s `moments` array (text in English, times in ms).
    pub fn to_json(&self, texts: &content::Captions) -> serde_json::Value {
        serde_json::json!({
            "kind": self.kind.as_str(),
            "at_ms": self.at_ms,
            "event": self.event,
            "cause_event": self.cause_event,
            "order": self.order,
            "message_id": self.message_id,
            "text": render(texts, content::Lang::En, self),
        })
    }
}
