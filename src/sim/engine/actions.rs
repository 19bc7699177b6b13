//! What can be scheduled, the per-instance state of dispatchers and consumers, and the
//! dispatch from a scheduled action to the actor that executes it.

use rand::RngExt;
use rand::rngs::StdRng;

use super::replay::ReplayIds;
use super::{SimError, Simulation};
use crate::sim::fault::{DEFAULT_OUTAGE_MS, Fault};
use crate::sim::model::Event;
use crate::sim::scenario::{Scenario, ScriptAction, ScriptStep};

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
    /// When it was received (lock renewal stops at the renewal limit after it).
    pub received_ms: u64,
    pub immediate_left: u32,
    pub handling_ms: u64,
    /// Charge id from the provider (two-phase claim).
    pub charge_id: Option<i64>,
    /// Set when processing failed: the error for abandon / DLQ.
    pub error: Option<String>,
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

/// Faults chaos may pick, with weights.
const CHAOS_FAULTS: [Fault; 7] = [
    Fault::ApiTimeoutAfterCommit,
    Fault::DispatcherCrashAfterPublish,
    Fault::ConsumerLostConnectionAfterEffect,
    Fault::ConsumerSlowerThanLock,
    Fault::DuplicateDelivery,
    Fault::PoisonMessage,
    Fault::BrokerDown {
        duration_ms: DEFAULT_OUTAGE_MS,
    },
];

/// The scenario script plus, for chaos, random faults spread over the arrival period.
pub(crate) fn build_script(
    scenario: &Scenario,
    messages: u32,
    rng: &mut StdRng,
) -> Vec<ScriptStep> {
    let mut script = scenario.script.clone();
    let s = &scenario.setup;
    if s.chaos_per_100 > 0 {
        let span = u64::from(messages) * s.arrival_ms.max(1);
        let n = (u64::from(messages) * u64::from(s.chaos_per_100)).div_ceil(100);
        for _ in 0..n {
            let at_ms = rng.random_range(0..span.max(1));
            let mut fault = CHAOS_FAULTS[rng.random_range(0..CHAOS_FAULTS.len())];
            if let Fault::BrokerDown { .. } = fault {
                fault = Fault::BrokerDown {
                    duration_ms: rng.random_range(1_000..=15_000),
                };
            }
            script.push(ScriptStep {
                at_ms,
                action: ScriptAction::Fault(fault),
                count: 1,
                duration_ms: None,
            });
        }
        script.sort_by_key(|st| st.at_ms);
    }
    script
}

impl Simulation {
    /// Runs one scheduled action; `None` when it turned out to have nothing to do.
    pub(crate) fn execute(&mut self, action: Action) -> Result<Option<Event>, SimError> {
        match action {
            Action::ApiRequest { order, retry } => self.api_request(order, retry).map(Some),
            Action::DispatcherPoll(d) => self.dispatcher_poll(d),
            Action::DispatcherPublish(d) => self.dispatcher_publish(d).map(Some),
            Action::DispatcherMark(d) => self.dispatcher_mark(d).map(Some),
            Action::DispatcherRestart(d) => Ok(Some(self.dispatcher_restart(d))),
            Action::LeaseExpiry => {
                self.wake_dispatcher(self.clock.now);
                Ok(None)
            }
            Action::ConsumerPoll(c) => self.consumer_poll(c),
            Action::ConsumerCheck(c) => self.consumer_check(c),
            Action::ConsumerApply(c) => self.consumer_apply(c),
            Action::ConsumerProvider(c) => self.consumer_provider(c),
            Action::ConsumerProviderTimedOut(c) => Ok(self.consumer_provider_timed_out(c)),
            Action::ConsumerFinish(c) => self.consumer_finish(c),
            Action::ConsumerSettle(c) => self.consumer_settle(c),
            Action::ConsumerAbandon(c) => self.consumer_abandon(c),
            Action::ConsumerReconnect(c) => Ok(Some(self.consumer_reconnect(c))),
            Action::LockExpiry { seq, token } => Ok(self.lock_expiry(seq, token)),
            Action::ConsumerRenew { c, token } => self.consumer_renew(c, token),
            Action::BrokerWake => {
                self.wake_consumers(self.clock.now, 1);
                Ok(None)
            }
            Action::BrokerUp => Ok(Some(self.broker_up())),
            Action::Sweep => self.sweep(),
            Action::Script => self.run_script_step(),
            Action::Inject(f) => Ok(Some(self.arm(f, 1, true))),
            Action::FixCause => Ok(Some(self.fix_cause_now())),
            Action::ReplayDlq(n) => self.replay_dlq_now(n, None, ReplayIds::Same).map(Some),
            Action::ReplayDlqNewIds(n) => self.replay_dlq_now(n, None, ReplayIds::New).map(Some),
            Action::ReplayChosen => {
                let chosen = self.script.chosen_replays.pop_front().unwrap_or_default();
                self.replay_dlq_now(0, Some(&chosen), ReplayIds::Same)
                    .map(Some)
            }
        }
    }
}
