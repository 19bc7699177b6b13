//! The chaos script and the dispatch from a scheduled [`Action`] to the actor that executes
//! it.

use rand::RngExt;
use rand::rngs::StdRng;

use super::action::Action;
use super::replay::ReplayIds;
use super::{SimError, Simulation};
use crate::fault::{DEFAULT_OUTAGE_MS, Fault};
use crate::model::Event;
use crate::scenario::{Scenario, ScriptAction, ScriptStep};

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
            Action::ConsumerDeadLetter(c) => self.consumer_dead_letter(c),
            Action::ConsumerReconnect(c) => Ok(Some(self.consumer_reconnect(c))),
            Action::LockExpiry { seq, token } => Ok(self.lock_expiry(seq, token)),
            Action::ConsumerRenew { c, token } => self.consumer_renew(c, token),
            Action::BrokerWake => {
                self.wake_consumers(self.clock.now, 1);
                Ok(None)
            }
            Action::BrokerUp => Ok(self.broker_up()),
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
