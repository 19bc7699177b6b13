//! The discrete-event engine: virtual clock, seeded RNG, event queue ordered by (time, sequence),
//! the actors' connections, and the public API the UI and the CLI drive.

use std::collections::HashMap;

use rand::SeedableRng;
use rand::rngs::StdRng;
use rusqlite::Connection;

use super::blobs::BlobStore;
use super::fault::Fault;
use super::model::{BrokerKind, Event, Mode, Pitfall};
use super::moments::Fact;
use super::profile::{BrokerProfile, profile};
use super::report::RunReport;
use super::retry::RetryPolicy;
use super::scenario::{MAX_MESSAGES, Scenario, Setup};
use super::state::{RowChange, Scalars};
use super::store::{self, RunPaths};

mod action;
mod api;
mod applied;
mod apply;
mod broker;
mod config;
mod consume;
mod dispatch;
pub mod inbox;
mod lab_accept;
mod lab_captions;
mod lab_consumer;
pub use lab_captions::LAB_CAPTIONS;
mod lab_dispatch;
mod lab_effects;
mod lab_marker;
mod lab_probe;
mod outbox;
mod parts;
mod payload;
mod queue;
mod recorder;
mod replay;
mod retry_copy;
mod run_action;
mod scheduler;
mod settle;
#[cfg(test)]
mod sql_tests;
mod two_phase;
mod upkeep;
mod view;

pub(crate) use config::SqlContext;
pub use config::{RunConfig, SimError};
pub use lab_marker::marked_section;
pub use model::DlqEntry;

pub(crate) use action::{Action, ConsumerState, DispatcherState};
use parts::{Actors, BrokerState, Ledger, RunSpec, Script};
use recorder::Recorder;
use scheduler::Scheduler;

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
    /// What is run (scenario, mode, broker, seed, size, profile, settings, files).
    pub(crate) spec: RunSpec,
    /// One connection per actor that has its own in reality.
    pub(crate) conns: Conns,
    /// The claim-check payload store.
    pub(crate) blobs: BlobStore,
    /// Every random draw of the run comes from here (seeded: same seed, same trace).
    pub(crate) rng: StdRng,
    /// The virtual clock and the event queue.
    pub(crate) clock: Scheduler,
    /// Dispatcher, consumer and broker state beside the databases.
    pub(crate) actors: Actors,
    /// The scenario script, armed faults and the operator's requests.
    pub(crate) script: Script,
    /// Metrics, stage counters and per-order accounting.
    pub(crate) ledger: Ledger,
    /// The live picture, the step-back timeline, facts and the trace hash.
    pub(crate) recorder: Recorder,
    /// A lab run: the learner's SQL at the hook points, its guards and trail (`None`: the
    /// built-in SQL of the mode).
    pub(crate) lab: Option<lab_consumer::LabRun>,
}

/// Delay between a receive and the consumer's existence check, ms.
pub(crate) const CHECK_MS: u64 = 2;
/// Delay between a dispatcher's claim and its publish, ms.
pub(crate) const PUBLISH_MS: u64 = 3;
/// How long a consumer is gone after losing its connection, ms.
pub(crate) const RECONNECT_MS: u64 = 1_000;
/// The logical consumer name written to the inbox (instances share it).
pub(crate) const CONSUMER_NAME: &str = "billing";

/// The number of orders a run sends: the scenario's, or the one asked for where the scenario
/// scales (a fixed-size scenario's story depends on its size).
fn run_size(scenario: &Scenario, messages: Option<u32>) -> Result<u32, SimError> {
    match messages {
        None => Ok(scenario.setup.messages),
        Some(0) => Err(SimError::Config("--messages must be at least 1".into())),
        Some(n) if n > MAX_MESSAGES => Err(SimError::Config(format!(
            "--messages {n} is too many (at most {MAX_MESSAGES})"
        ))),
        Some(n) if n != scenario.setup.messages && !scenario.setup.scalable => {
            Err(SimError::Config(format!(
                "scenario '{}' has a fixed size of {} messages; --messages scales only backlog and chaos",
                scenario.id, scenario.setup.messages
            )))
        }
        Some(n) => Ok(n),
    }
}

impl Settings {
    /// The scenario's setup where it names a value, else the broker profile's; the pitfall
    /// mode changes the one setting its pitfall is about.
    fn resolve(
        scenario: &Scenario,
        mode: Mode,
        broker: BrokerKind,
        profile: &BrokerProfile,
    ) -> Settings {
        let s = &scenario.setup;
        let dedup_window_ms = match (s.dedup, broker) {
            (false, _) => None,
            (true, BrokerKind::Asb) => {
                Some(s.dedup_window_ms.unwrap_or(profile.dedup_window_ms.value))
            }
            (true, BrokerKind::Sqs) => Some(profile.dedup_window_ms.value),
        };
        let pitfall = (mode == Mode::Pitfall).then_some(scenario.pitfall);
        Settings {
            lock_ms: s.lock_ms.unwrap_or(profile.lock_ms.value),
            max_deliveries: if pitfall == Some(Pitfall::RaiseDeliveryLimit) {
                s.raised_max_deliveries
            } else {
                s.max_deliveries
                    .unwrap_or(profile.max_deliveries.value as u32)
            },
            dedup_window_ms,
            // Sessions / FIFO message groups, unless the pitfall leaves the ordering key out.
            ordered: s.groups > 0 && pitfall != Some(Pitfall::NoOrderingKey),
            retention_ms: if pitfall == Some(Pitfall::ShortRetention) {
                s.short_retention_ms
            } else {
                s.retention_ms
            },
            renew_limit_ms: s.renew_limit_ms.unwrap_or(profile.renew_limit_ms.value),
            retry: crate::scenario::retry_policy(scenario),
            pitfall,
        }
    }
}

impl Conns {
    /// One connection per actor to the run's databases, as many dispatchers and consumers as
    /// the setup has.
    fn open(paths: &RunPaths, setup: &Setup) -> Result<Conns, SimError> {
        let open = |file: &'static str| store::open(&paths.dir.join(file), file);
        Ok(Conns {
            api: open("service.db")?,
            dispatchers: (0..setup.dispatchers)
                .map(|_| open("service.db"))
                .collect::<Result<_, _>>()?,
            consumers: (0..setup.consumers)
                .map(|_| open("service.db"))
                .collect::<Result<_, _>>()?,
            broker: open("broker.db")?,
            provider: open("provider.db")?,
            sweeper: open("service.db")?,
        })
    }
}

/// The learner's SQL installed on the run's connections.
fn start_lab(
    sql: std::sync::Arc<super::lab::LabSql>,
    conns: &mut Conns,
    settings: &Settings,
) -> Result<lab_consumer::LabRun, SimError> {
    let mut run = lab_consumer::LabRun::start(sql, conns)?;
    // Where order matters and the learner writes the messages, the groups are theirs too
    // (lab 5).
    run.groups_from_file = settings.ordered && run.sql.opens(super::lab::Section::Accept);
    Ok(run)
}

impl Simulation {
    /// Creates the run directory and schemas and schedules the scenario.
    pub fn new(config: RunConfig) -> Result<Simulation, SimError> {
        Simulation::build(config, None)
    }

    /// Like [`Simulation::new`], with the learner's SQL at the hook points: no inbox index but
    /// the file's `@schema`, its `@check` and `@handle` instead of the consumer's built-in SQL;
    /// everything else (broker, faults, failure path, settle) as in `config.mode`.
    pub fn with_lab(
        config: RunConfig,
        lab: std::sync::Arc<super::lab::LabSql>,
    ) -> Result<Simulation, SimError> {
        Simulation::build(config, Some(lab))
    }

    /// The trail of learner statements that wrote effects (empty outside a lab run).
    pub fn lab_trail(&self) -> Option<&super::lab::Trail> {
        self.lab.as_ref().map(|l| &l.trail)
    }

    /// A run of `config` (with the learner's SQL, if any): the run directory, its databases
    /// and connections, and the scenario scheduled.
    fn build(
        config: RunConfig,
        lab: Option<std::sync::Arc<super::lab::LabSql>>,
    ) -> Result<Simulation, SimError> {
        let RunConfig {
            scenario,
            mode,
            broker,
            seed,
            messages,
            dir,
        } = config;
        let messages = run_size(&scenario, messages)?;
        let profile = profile(broker);
        let settings = Settings::resolve(&scenario, mode, broker, profile);
        let s = &scenario.setup;
        let paths = match &lab {
            // The learner's @schema decides the inbox's index when the file takes over the
            // consumer; else the engine's careful consumer runs with its own.
            Some(sql) if sql.takes_consumer() => store::create_with_inbox(&dir, None)?,
            _ => store::create(&dir, mode)?,
        };
        let mut conns = Conns::open(&paths, s)?;
        let lab = match lab {
            None => None,
            Some(sql) => Some(start_lab(sql, &mut conns, &settings)?),
        };
        let mut rng = StdRng::seed_from_u64(seed);
        let steps = run_action::build_script(&scenario, messages, &mut rng);
        let mut sim = Simulation {
            blobs: BlobStore::new(&paths.blobs),
            actors: Actors {
                dispatchers: vec![DispatcherState::default(); usize::from(s.dispatchers)],
                consumers: vec![ConsumerState::default(); usize::from(s.consumers)],
                retry_delays: HashMap::new(),
                broker: BrokerState {
                    next_token: 1,
                    ..BrokerState::default()
                },
            },
            ledger: Ledger::new(messages),
            spec: RunSpec {
                scenario,
                mode,
                broker,
                seed,
                messages,
                profile,
                settings,
                paths,
            },
            conns,
            rng,
            clock: Scheduler::default(),
            script: Script {
                steps,
                ..Script::default()
            },
            recorder: Recorder::default(),
            lab,
        };
        sim.schedule_start();
        Ok(sim)
    }

    /// The run's first actions: the client's first request at once, the sweeper at its
    /// interval and the script's first step.
    fn schedule_start(&mut self) {
        self.schedule(
            0,
            Action::ApiRequest {
                order: 1,
                retry: false,
            },
        );
        let sweep = self.spec.scenario.setup.sweep_ms;
        self.schedule(sweep, Action::Sweep);
        self.schedule_next_script();
    }

    /// Schedules `action` at virtual time `at` (never before now).
    pub(crate) fn schedule(&mut self, at: u64, action: Action) {
        self.clock.schedule(at, action);
    }

    /// True when nothing but the sweeper is left to do.
    pub(crate) fn only_sweeper_left(&self) -> bool {
        self.clock.is_empty()
    }

    /// Applies a picture change and records it for step back.
    pub(crate) fn change(&mut self, c: RowChange) {
        self.recorder.change(c);
    }

    /// Notes a fact of the event being executed.
    pub(crate) fn note(&mut self, fact: Fact) {
        self.recorder.facts.push(fact);
    }

    /// The facts of the event the last [`Simulation::step`] returned (what the metrics counted
    /// in it, message by message); the input of [`super::moments::Story`].
    pub fn facts(&self) -> &[Fact] {
        &self.recorder.facts
    }

    /// The event the last [`Simulation::step`] returned, with its facts (both borrowed, so a
    /// caller can hand them to a [`super::moments::Story`] after stepping).
    pub fn last_step(&self) -> Option<(&Event, &[Fact])> {
        self.recorder
            .timeline
            .last_event()
            .map(|e| (e, self.recorder.facts.as_slice()))
    }

    /// Executes the next event. Returns `Ok(None)` when the run is finished.
    pub fn step(&mut self) -> Result<Option<&Event>, SimError> {
        loop {
            let Some(action) = self.clock.next() else {
                self.recorder.finished = true;
                return Ok(None);
            };
            self.recorder.facts.clear();
            let executed = self.execute(action);
            self.lab_fault_in_engine_sql(executed.as_ref().err())?;
            let Some(mut event) = executed? else {
                continue;
            };
            // The caption speaks the run's broker's words (one place decides, for every event),
            // and the learner's file's where it decided.
            event.caption = lab_captions::lab_caption(&event)
                .unwrap_or_else(|| event.kind.caption_key_on(self.spec.broker));
            let now = self.clock.now;
            let (stages, metrics, ages_len) = self.ledger.counters();
            let scalars = Scalars {
                event_index: None,
                now_ms: now,
                broker_down: self.actors.broker.down_until > now,
                stages,
                metrics,
                ages_len,
            };
            return Ok(self.recorder.record(event, scalars));
        }
    }

    /// In a lab run: the file's trigger that ran the engine's own SQL of this step over its
    /// budget or past a size limit, as the file's error at the trigger's line.
    fn lab_fault_in_engine_sql(&self, error: Option<&SimError>) -> Result<(), SimError> {
        match &self.lab {
            Some(lab) => match crate::lab::guard::engine_sql_finding(&lab.sql, error) {
                Some(e) => Err(SimError::Lab(e)),
                None => Ok(()),
            },
            None => Ok(()),
        }
    }

    /// Runs until nothing is left to do and returns the report (with the invariant check).
    pub fn run_to_end(&mut self) -> Result<RunReport, SimError> {
        while self.step()?.is_some() {}
        self.report()
    }

    /// True when the event queue ran dry.
    pub fn is_finished(&self) -> bool {
        self.recorder.finished
    }

    /// Injects a fault at the current virtual time (it fires at the next matching step).
    pub fn inject(&mut self, fault: Fault) {
        self.schedule(self.clock.now, Action::Inject(fault));
    }

    /// The operator fixes the cause of poison messages (the consumer learns schema v2).
    pub fn fix_cause(&mut self) {
        self.schedule(self.clock.now, Action::FixCause);
    }

    /// The operator replays the chosen DLQ entries (by [`DlqEntry::seq`]) at the current time,
    /// like [`Simulation::replay_dlq`] (same `MessageId`); entries already replayed are skipped.
    pub fn replay_dlq_entries(&mut self, seqs: &[i64]) {
        self.script.chosen_replays.push_back(seqs.to_vec());
        self.schedule(self.clock.now, Action::ReplayChosen);
    }

    /// The operator replays up to `count` DLQ entries (oldest first) at the current time the
    /// way a resubmit tool does: the same `MessageId`, and the DLQ entry completed after the
    /// send. With duplicate detection on, the broker silently drops a copy whose id it saw
    /// inside the window - and the message is lost.
    pub fn replay_dlq(&mut self, count: u32) {
        self.schedule(self.clock.now, Action::ReplayDlq(count));
    }

    /// The operator replays up to `count` DLQ entries (oldest first) under new broker
    /// `MessageIds` while the envelope keeps the logical message id: duplicate detection lets
    /// them through, and the inbox recognises a message that was already processed.
    pub fn replay_dlq_with_new_ids(&mut self, count: u32) {
        self.schedule(self.clock.now, Action::ReplayDlqNewIds(count));
    }
}
