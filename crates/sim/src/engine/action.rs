//! What can be scheduled ([`Action`]) and the per-instance state of dispatchers and
//! consumers. Plain data: the broker, the consumer and the upkeep schedule actions without
//! depending on the code that executes them ([`super::run_action`]).

use crate::fault::Fault;

/// A scheduled step. Instances are indexes into the dispatcher/consumer vectors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Action {
    /// The client sends order `order` (again, when `retry`).
    ApiRequest { order: u32, retry: bool },
    /// Dispatcher claims a batch.
    DispatcherPoll(u8),
    /// Dispatcher publishes its claimed batch.
    DispatcherPublish(u8),
    /// Dispatcher marks its batch as published.
    DispatcherMark(u8),
    /// Dispatcher comes back after a crash.
    DispatcherRestart(u8),
    /// A dispatcher lease may have run out: wake an idle dispatcher.
    LeaseExpiry,
    /// Consumer receives.
    ConsumerPoll(u8),
    /// Consumer's existence check (SELECT on the inbox).
    ConsumerCheck(u8),
    /// Consumer applies the effect (mode-specific).
    ConsumerApply(u8),
    /// Two-phase claim: the provider call.
    ConsumerProvider(u8),
    /// Two-phase claim: the provider call times out after the provider charged.
    ConsumerProviderTimedOut(u8),
    /// Two-phase claim: record the effect and mark the claim processed.
    ConsumerFinish(u8),
    /// Consumer completes / deletes the message.
    ConsumerSettle(u8),
    /// Consumer abandons (delayed retry) or dead-letters after a failure.
    ConsumerAbandon(u8),
    /// Consumer dead-letters a message with a permanent error itself (Service Bus
    /// `DeadLetterMessageAsync`; on SQS: send to the DLQ queue, then delete).
    ConsumerDeadLetter(u8),
    /// Consumer reconnects after a lost connection.
    ConsumerReconnect(u8),
    /// The consumer renews its lock / extends the visibility timeout of message `token`.
    ConsumerRenew { c: u8, token: u64 },
    /// A lock / visibility timeout runs out.
    LockExpiry { seq: i64, token: u64 },
    /// A delayed message becomes visible: wake a consumer.
    BrokerWake,
    /// The broker outage ends.
    BrokerUp,
    /// The sweeper's periodic pass.
    Sweep,
    /// The next step of the scenario script.
    Script,
    /// A fault injected through the API.
    Inject(Fault),
    /// The operator fixes the poison cause.
    FixCause,
    /// The operator replays up to n DLQ entries.
    ReplayDlq(u32),
    /// The operator replays up to n DLQ entries under new message ids.
    ReplayDlqNewIds(u32),
    /// The operator replays the entries queued by `Simulation::replay_dlq_entries`.
    ReplayChosen,
}

/// An outbox row a dispatcher claimed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Claimed {
    pub id: i64,
    pub message_id: String,
    pub order_id: i64,
    pub body: String,
    pub group_id: Option<String>,
}

/// Per-dispatcher state.
#[derive(Debug, Clone, Default)]
pub(crate) struct DispatcherState {
    /// A poll/publish/mark is scheduled.
    pub busy: bool,
    /// Crashed until this time.
    pub down_until: u64,
    /// The claimed batch between claim and mark.
    pub batch: Vec<Claimed>,
    /// Consecutive publish failures (for backoff).
    pub failures: u32,
    /// Previous backoff (decorrelated jitter).
    pub last_delay: u64,
}

/// A message a consumer holds.
#[allow(clippy::struct_field_names)] // `delivery_count` is the broker's own term.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Delivery {
    pub seq: i64,
    pub message_id: String,
    pub order_id: i64,
    pub body: String,
    pub token: u64,
    pub delivery_count: u32,
    /// The consumer's own attempt counter (see `retry_copy`).
    pub attempt: u32,
    /// When it was received (lock renewal stops at the renewal limit after it).
    pub received_ms: u64,
    pub immediate_left: u32,
    pub handling_ms: u64,
    /// Charge id from the provider (two-phase claim).
    pub charge_id: Option<i64>,
    /// Set when processing failed: the error for abandon / DLQ.
    pub error: Option<String>,
    /// Set when the error is permanent: the reason the consumer dead-letters it with.
    pub dead_letter_reason: Option<&'static str>,
    /// Set when a lab handler called `dead_letter(:reason)`: its own reason (wins over the
    /// engine's).
    pub lab_reason: Option<String>,
    /// Settled already (settle-before-commit pitfall).
    pub settled: bool,
}

/// Per-consumer state.
#[derive(Debug, Clone, Default)]
pub(crate) struct ConsumerState {
    /// The message in hand.
    pub busy: Option<Delivery>,
    /// A poll is scheduled.
    pub poll_scheduled: bool,
    /// Disconnected until this time.
    pub down_until: u64,
    /// Waiting for the broker to come back.
    pub waiting_for_broker: bool,
    /// Poll again right after the current receive (it dead-lettered instead of delivering).
    pub repoll: bool,
}
