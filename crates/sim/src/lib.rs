//! The incident simulator engine: a deterministic discrete-event simulation that runs the
//! outbox and inbox patterns as real SQL on real SQLite files.
//!
//! No UI, no async, no wall clock: virtual time in ms, a seeded RNG and an event queue ordered
//! by (time, sequence). The same scenario, mode, broker, seed and size give the same trace,
//! byte for byte ([`Simulation::trace_hash`] is SHA-256 over the canonical event lines).
//!
//! # API for the UI
//!
//! | call | what it does |
//! | --- | --- |
//! | [`scenario::from_loaded`] (CLI, TUI) / [`scenario::find`] (tests) | a scenario from the loaded content (texts, setup, script, expectations) |
//! | [`Simulation::new`] with a [`RunConfig`] | creates the run directory (`service.db`, `broker.db`, `provider.db`, `blobs/`) and schedules the scenario |
//! | [`Simulation::step`] | executes one event and returns it ([`Event`]: time, actor, stage, message id, kind, SQL, outcome, caption key + args); `None` when finished |
//! | [`Simulation::run_to_end`] | steps until done and returns the [`RunReport`] (metrics, invariants, trace hash, paths) |
//! | [`Simulation::inject`] | arms a [`Fault`] at the current virtual time (menu: [`Fault::MENU`]) |
//! | [`Simulation::snapshot`] | the current [`Snapshot`]: stage counters, tokens per stage with message ids, last event, table rows ([`Table`]), metrics |
//! | [`Simulation::state_at`] | the snapshot right after an earlier event (step back; checkpoints + deltas, no SQL re-run) |
//! | [`Simulation::events`] | the recent event log with SQL and outcome |
//! | [`Simulation::dlq`], [`Simulation::fix_cause`], [`Simulation::replay_dlq_entries`], [`Simulation::replay_dlq`] | DLQ triage: reasons, "cause fixed", replay the chosen entries or the oldest few |
//! | [`Simulation::profile`] | broker profile values, each with its documented source ([`profile::Sourced`]) |
//! | [`Simulation::paths`] | the run's database files, for `sqlite3` |
//! | `Content::captions` + [`EventKind`] | caption texts in de and en for [`Event::caption`]; match on [`Event::kind`] |
//!
//! The UI should own the `Simulation` on one thread (it is `Send`) and ask it for snapshots;
//! nothing in here blocks on anything but SQLite.
//!
//! ```no_run
//! # use queuelab_sim::{self as sim, BrokerKind, Mode, RunConfig, Simulation};
//! let scenario = sim::scenario::find("twin-consumers")?;
//! let mut run = Simulation::new(RunConfig {
//!     scenario,
//!     mode: Mode::Naive,
//!     broker: BrokerKind::Asb,
//!     seed: 1,
//!     messages: None,
//!     dir: "/tmp/run-1".into(),
//! })?;
//! while let Some(event) = run.step()? {
//!     println!("{}", event.caption);         // caption key + event.args
//! }
//! let picture = run.snapshot();             // counters, tokens, table rows, metrics
//! let earlier = run.state_at(10);           // step back
//! let report = run.report()?;               // metrics + invariants + trace hash
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod blobs;
pub mod checker;
pub mod engine;
/// The kinds of events (defined in `queuelab-model`); its tests check that the captions the
/// engine needs are all there, which takes the engine's own lists.
pub mod event_kind {
    pub use model::event_kind::*;

    #[cfg(test)]
    mod tests;
}
pub mod fault;
pub mod history;
pub mod invariants;
pub mod lab;
pub mod moments;
pub mod profile;
/// Metrics of a run, the invariant check over the run's files, and the final report (the types
/// live in `queuelab-model`, which the screens use without the engine).
pub mod report {
    pub use super::invariants::{check_invariants, out_of_order, reason_fits_body};
    pub use model::report::*;
}
pub mod retry;
pub mod scenario;
pub mod store;
pub mod timeline;

// The plain data of a run lives in `queuelab-model`, which the screens use without SQLite; its
// modules keep their paths here (`sim::model::Mode`, `sim::state::Snapshot`, ...).
pub use ::model::{self, engine_words, state};
pub use engine::{DlqEntry, RunConfig, SimError, Simulation};
pub use fault::Fault;
pub use model::{Actor, BrokerKind, Event, EventKind, Mode, Outcome, Pitfall, RefusedCall, Stage};
pub use moments::{Moment, MomentKind, Story};
pub use report::{InvariantCheck, Metrics, RunReport};
pub use scenario::Scenario;
pub use state::{Snapshot, Table, Tables, Token};
