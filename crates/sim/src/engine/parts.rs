//! The parts of a [`super::Simulation`] a reader can name: what is run ([`RunSpec`]), the
//! actors' own state ([`Actors`], [`BrokerState`]), what the script and the operator do to the
//! run ([`Script`]) and the run's accounting ([`Ledger`]). The clock and event queue live in
//! [`super::scheduler`], the event log and the picture in [`super::recorder`].

use std::collections::{HashMap, HashSet, VecDeque};

use super::Settings;
use super::action::{ConsumerState, DispatcherState};
use crate::fault::Armed;
use crate::model::{BrokerKind, Mode};
use crate::profile::BrokerProfile;
use crate::scenario::{Scenario, ScriptStep};
use crate::store::RunPaths;

mod ledger;

pub(crate) use ledger::Ledger;

/// What is run: fixed when the run is created.
pub(crate) struct RunSpec {
    pub scenario: Scenario,
    pub mode: Mode,
    pub broker: BrokerKind,
    pub seed: u64,
    /// Orders the client sends.
    pub messages: u32,
    pub profile: &'static BrokerProfile,
    /// The scenario setup resolved against the profile and the mode.
    pub settings: Settings,
    pub paths: RunPaths,
}

/// Per-instance state of the actors that have instances, and the broker's own state.
#[derive(Default)]
pub(crate) struct Actors {
    pub dispatchers: Vec<DispatcherState>,
    pub consumers: Vec<ConsumerState>,
    /// The previous backoff per order (decorrelated jitter grows from it).
    pub retry_delays: HashMap<i64, u64>,
    pub broker: BrokerState,
}

/// What the broker keeps beside its queue table.
#[derive(Default)]
pub(crate) struct BrokerState {
    /// Unreachable until this time, ms (the end of the latest of overlapping outages).
    pub down_until: u64,
    /// When "reachable again" was last announced (two outages may end at the same moment).
    pub up_announced: Option<u64>,
    /// Current lock token and lock end per locked queue row.
    pub locks: HashMap<i64, (u64, u64)>,
    /// The next lock token / receipt handle.
    pub next_token: u64,
    /// Orders whose message was already duplicated once by the broker.
    pub duplicated: HashSet<i64>,
}

/// What the scenario script and the operator (or trainee) do to the run.
#[derive(Default)]
pub(crate) struct Script {
    /// The scenario's script, in time order.
    pub steps: Vec<ScriptStep>,
    /// The next script step to schedule.
    pub next: usize,
    /// Faults armed and waiting for their step.
    pub armed: Armed,
    /// The operator fixed the cause of poison messages.
    pub cause_fixed: bool,
    /// DLQ selections waiting for their `ReplayChosen` step, in order.
    pub chosen_replays: VecDeque<Vec<i64>>,
}
