//! The discrete-event engine: virtual clock, seeded RNG, event queue ordered by (time, sequence),
//! the actors' connections, and the public API the UI and the CLI drive.

use std::cmp::Reverse;
use std::collections::{BTreeSet, BinaryHeap, HashMap};

use rand::SeedableRng;
use rand::rngs::StdRng;
use rusqlite::Connection;
use sha2::{Digest, Sha256};

use super::blobs::BlobStore;
use super::fault::{Armed, Fault};
use super::model::{BrokerKind, Event, Mode, Pitfall};
use super::moments::Fact;
use super::profile::{BrokerProfile, profile};
use super::report::{Metrics, RunReport};
use super::retry::RetryPolicy;
use super::scenario::{MAX_MESSAGES, Scenario, ScriptStep};
use super::state::{RowChange, State};
use super::store::{self, RunPaths};
use super::timeline::{Delta, Timeline};

mod actions;
mod api;
mod applied;
mod apply;
mod broker;
mod config;
mod consume;
mod dispatch;
pub mod inbox;
mod outbox;
mod payload;
mod queue;
mod scheduled;
mod settle;
#[cfg(test)]
mod sql_tests;
mod two_phase;
mod upkeep;
mod view;

pub(crate) use config::SqlContext;
pub use config::{RunConfig, SimError};
pub use view::DlqEntry;

pub(crate) use actions::{Action, ConsumerState, DispatcherState};
use scheduled::Scheduled;

/// `BEGIN IMMEDIATE`: take the write lock up front, so a read-modify-write never upgrades late.
pub(crate) fn begin_immediate(conn: &Connection) -> rusqlite::Result<rusqlite::Transaction<'_>> {
    rusqlite::Transaction::new_unchecked(conn, rusqlite::TransactionBehavior::Immediate)
}

/// Connections, one per actor that has its own in reality.
pub(crate) struct Conns {
    pub api: Connection,
    pub dispatchers: Vec<Connection>,
    pub consumers: Vec<Connection>,
    pub broker: Connection,
    pub provider: Connection,
    pub sweeper: Connection,
}

/// Resolved run settings (scenario setup + profile + mode).
#[derive(Debug, Clone)]
pub(crate) struct Settings {
    pub lock_ms: u64,
    pub max_deliveries: u32,
    pub dedup_window_ms: Option<u64>,
    pub ordered: bool,
    pub retention_ms: u64,
    /// How long a consumer may keep renewing a lock after the receive, ms.
    pub renew_limit_ms: u64,
    pub retry: RetryPolicy,
    pub pitfall: Option<Pitfall>,
}

/// A running simulation. Create with [`Simulation::new`], advance with [`Simulation::step`] or
/// [`Simulation::run_to_end`], read with [`Simulation::snapshot`] and [`Simulation::state_at`].
pub struct Simulation {
    pub(crate) scenario: Scenario,
    pub(crate) mode: Mode,
    pub(crate) broker: BrokerKind,
    pub(crate) seed: u64,
    pub(crate) messages: u32,
    pub(crate) profile: &'static BrokerProfile,
    pub(crate) settings: Settings,
    pub(crate) paths: RunPaths,
    pub(crate) blobs: BlobStore,
    pub(crate) conns: Conns,
    pub(crate) rng: StdRng,
    heap: BinaryHeap<Reverse<Scheduled>>,
    next_seq: u64,
    pub(crate) now: u64,
    pub(crate) armed: Armed,
    pub(crate) dispatchers: Vec<DispatcherState>,
    pub(crate) consumers: Vec<ConsumerState>,
    pub(crate) broker_down_until: u64,
    pub(crate) cause_fixed: bool,
    pub(crate) script: Vec<ScriptStep>,
    pub(crate) next_script: usize,
    pub(crate) live: State,
    pending: Vec<RowChange>,
    timeline: Timeline,
    pub(crate) ages: Vec<u32>,
    pub(crate) effects_per_order: Vec<u8>,
    pub(crate) charges_per_order: Vec<u8>,
    /// Unpublished outbox rows by (created, id): the oldest gives the outbox lag.
    pub(crate) unpublished: BTreeSet<(u64, i64)>,
    /// Current lock token and lock end per locked queue row.
    pub(crate) locks: HashMap<i64, (u64, u64)>,
    /// Last processing error per queue row (goes into the DLQ description).
    pub(crate) last_error: HashMap<i64, String>,
    /// The previous backoff per order (decorrelated jitter grows from it).
    pub(crate) retry_delays: HashMap<i64, u64>,
    pub(crate) next_token: u64,
    /// DLQ selections waiting for their `ReplayChosen` step, in order.
    pub(crate) chosen_replays: std::collections::VecDeque<Vec<i64>>,
    /// Orders whose message was already duplicated once by the broker.
    pub(crate) duplicated: std::collections::HashSet<i64>,
    pub(crate) next_effect: u64,
    /// What the event being executed did, for the story layer ([`Simulation::facts`]).
    facts: Vec<Fact>,
    hasher: Sha256,
    events: u64,
    finished: bool,
}

/// Delay between a receive and the consumer's existence check, ms.
pub(crate) const CHECK_MS: u64 = 2;
/// Delay between a dispatcher's claim and its publish, ms.
pub(crate) const PUBLISH_MS: u64 = 3;
/// How long a consumer is gone after losing its connection, ms.
pub(crate) const RECONNECT_MS: u64 = 1_000;
/// The logical consumer name written to the inbox (instances share it).
pub(crate) const CONSUMER_NAME: &str = "billing";

impl Simulation {
    /// Creates the run directory and schemas and schedules the scenario.
    #[allow(clippy::too_many_lines)] // plain field initialisation
    pub fn new(config: RunConfig) -> Result<Simulation, SimError> {
        let RunConfig {
            scenario,
            mode,
            broker,
            seed,
            messages,
            dir,
        } = config;
        let messages = match messages {
            None => scenario.setup.messages,
            Some(0) => return Err(SimError::Config("--messages must be at least 1".into())),
            Some(n) if n > MAX_MESSAGES => {
                return Err(SimError::Config(format!(
                    "--messages {n} is too many (at most {MAX_MESSAGES})"
                )));
            }
            Some(n) if n != scenario.setup.messages && !scenario.setup.scalable => {
                return Err(SimError::Config(format!(
                    "scenario '{}' has a fixed size of {} messages; --messages scales only backlog and chaos",
                    scenario.id, scenario.setup.messages
                )));
            }
            Some(n) => n,
        };
        let profile = profile(broker);
        let s = &scenario.setup;
        let dedup_window_ms = match (s.dedup, broker) {
            (false, _) => None,
            (true, BrokerKind::Asb) => {
                Some(s.dedup_window_ms.unwrap_or(profile.dedup_window_ms.value))
            }
            (true, BrokerKind::Sqs) => Some(profile.dedup_window_ms.value),
        };
        let pitfall = (mode == Mode::Pitfall).then_some(scenario.pitfall);
        let settings = Settings {
            lock_ms: s.lock_ms.unwrap_or(profile.lock_ms.value),
            max_deliveries: s
                .max_deliveries
                .unwrap_or(profile.max_deliveries.value as u32),
            dedup_window_ms,
            // Sessions / FIFO message groups, unless the pitfall leaves the ordering key out.
            ordered: s.groups > 0 && pitfall != Some(Pitfall::NoOrderingKey),
            retention_ms: if pitfall == Some(Pitfall::ShortRetention) {
                s.short_retention_ms
            } else {
                s.retention_ms
            },
            renew_limit_ms: s.renew_limit_ms.unwrap_or(profile.renew_limit_ms.value),
            retry: scenario.retry_policy(),
            pitfall,
        };
        let paths = store::create(&dir, mode)?;
        let open = |file: &'static str| store::open(&paths.dir.join(file), file);
        let conns = Conns {
            api: open("service.db")?,
            dispatchers: (0..s.dispatchers)
                .map(|_| open("service.db"))
                .collect::<Result<_, _>>()?,
            consumers: (0..s.consumers)
                .map(|_| open("service.db"))
                .collect::<Result<_, _>>()?,
            broker: open("broker.db")?,
            provider: open("provider.db")?,
            sweeper: open("service.db")?,
        };
        let mut rng = StdRng::seed_from_u64(seed);
        let script = actions::build_script(&scenario, messages, &mut rng);
        let mut sim = Simulation {
            blobs: BlobStore::new(&paths.blobs),
            dispatchers: vec![DispatcherState::default(); usize::from(s.dispatchers)],
            consumers: vec![ConsumerState::default(); usize::from(s.consumers)],
            effects_per_order: vec![0; messages as usize + 1],
            charges_per_order: vec![0; messages as usize + 1],
            scenario,
            mode,
            broker,
            seed,
            messages,
            profile,
            settings,
            paths,
            conns,
            rng,
            heap: BinaryHeap::new(),
            next_seq: 0,
            now: 0,
            armed: Armed::default(),
            broker_down_until: 0,
            cause_fixed: false,
            script,
            next_script: 0,
            live: State::default(),
            pending: Vec::new(),
            timeline: Timeline::new(State::default()),
            ages: Vec::new(),
            unpublished: BTreeSet::new(),
            locks: HashMap::new(),
            last_error: HashMap::new(),
            retry_delays: HashMap::new(),
            next_token: 1,
            chosen_replays: std::collections::VecDeque::new(),
            duplicated: std::collections::HashSet::new(),
            next_effect: 1,
            facts: Vec::new(),
            hasher: Sha256::new(),
            events: 0,
            finished: false,
        };
        sim.schedule(
            0,
            Action::ApiRequest {
                order: 1,
                retry: false,
            },
        );
        let sweep = sim.scenario.setup.sweep_ms;
        sim.schedule(sweep, Action::Sweep);
        sim.schedule_next_script();
        Ok(sim)
    }

    /// Schedules `action` at virtual time `at` (never before now).
    pub(crate) fn schedule(&mut self, at: u64, action: Action) {
        let seq = self.next_seq;
        self.next_seq += 1;
        self.heap.push(Reverse(Scheduled {
            at: at.max(self.now),
            seq,
            action,
        }));
    }

    /// True when nothing but the sweeper is left to do.
    pub(crate) fn only_sweeper_left(&self) -> bool {
        self.heap.is_empty()
    }

    /// Applies a picture change and records it for step back.
    pub(crate) fn change(&mut self, c: RowChange) {
        self.live.tables.apply(&c);
        self.pending.push(c);
    }

    /// Mutable access to the live metrics.
    pub(crate) fn metrics_mut(&mut self) -> &mut Metrics {
        &mut self.live.scalars.metrics
    }

    /// Notes a fact of the event being executed.
    pub(crate) fn note(&mut self, fact: Fact) {
        self.facts.push(fact);
    }

    /// The facts of the event the last [`Simulation::step`] returned (what the metrics counted
    /// in it, message by message); the input of [`super::moments::Story`].
    pub fn facts(&self) -> &[Fact] {
        &self.facts
    }

    /// The event the last [`Simulation::step`] returned, with its facts (both borrowed, so a
    /// caller can hand them to a [`super::moments::Story`] after stepping).
    pub fn last_step(&self) -> Option<(&Event, &[Fact])> {
        self.timeline
            .last_event()
            .map(|e| (e, self.facts.as_slice()))
    }

    /// Executes the next event. Returns `Ok(None)` when the run is finished.
    pub fn step(&mut self) -> Result<Option<&Event>, SimError> {
        loop {
            let Some(Reverse(next)) = self.heap.pop() else {
                self.finished = true;
                return Ok(None);
            };
            self.now = next.at;
            self.facts.clear();
            let Some(mut event) = self.execute(next.action)? else {
                continue;
            };
            event.index = self.events;
            event.at_ms = self.now;
            self.events += 1;
            event.hash_into(&mut self.hasher);
            let scalars = &mut self.live.scalars;
            scalars.event_index = Some(event.index);
            scalars.now_ms = self.now;
            scalars.broker_down = self.broker_down_until > self.now;
            scalars.ages_len = self.ages.len();
            let delta = Delta {
                event,
                changes: std::mem::take(&mut self.pending),
                scalars: self.live.scalars,
            };
            self.timeline.push(delta, &self.live);
            return Ok(self.timeline.last_event());
        }
    }

    /// Runs until nothing is left to do and returns the report (with the invariant check).
    pub fn run_to_end(&mut self) -> Result<RunReport, SimError> {
        while self.step()?.is_some() {}
        self.report()
    }

    /// True when the event queue ran dry.
    pub fn is_finished(&self) -> bool {
        self.finished
    }

    /// Injects a fault at the current virtual time (it fires at the next matching step).
    pub fn inject(&mut self, fault: Fault) {
        self.schedule(self.now, Action::Inject(fault));
    }

    /// The operator fixes the cause of poison messages (the consumer learns schema v2).
    pub fn fix_cause(&mut self) {
        self.schedule(self.now, Action::FixCause);
    }

    /// The operator replays the chosen DLQ entries (by [`DlqEntry::seq`]) at the current time;
    /// entries already replayed are skipped.
    pub fn replay_dlq_entries(&mut self, seqs: &[i64]) {
        self.chosen_replays.push_back(seqs.to_vec());
        self.schedule(self.now, Action::ReplayChosen);
    }

    /// The operator replays up to `count` DLQ entries (oldest first) at the current time.
    pub fn replay_dlq(&mut self, count: u32) {
        self.schedule(self.now, Action::ReplayDlq(count));
    }
}
