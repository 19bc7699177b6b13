//! The incident simulator engine: a deterministic discrete-event simulation that runs the
//! outbox and inbox patterns as real SQL on real SQLite files.
//!
//! No UI, no async, no wall clock. The UI drives a [`Simulation`]:
//!
//! ```no_run
//! # use queuelab::sim::{self, BrokerKind, Mode, RunConfig, Simulation};
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
pub mod captions;
pub mod engine;
pub mod fault;
pub mod model;
pub mod profile;
pub mod report;
pub mod retry;
pub mod scenario;
pub mod state;
pub mod store;
pub mod timeline;

pub use engine::{DlqEntry, RunConfig, SimError, Simulation};
pub use fault::Fault;
pub use model::{Actor, BrokerKind, Event, Mode, Outcome, Pitfall, Stage};
pub use report::{InvariantCheck, Metrics, RunReport};
pub use scenario::Scenario;
pub use state::{Snapshot, Table, Tables, Token};
