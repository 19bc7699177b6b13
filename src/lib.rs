//! queuelab: an interactive terminal workshop on resilient message processing.
//!
//! This crate holds the views, the runtime and the CLI; the lower layers are crates of their own
//! (`crates/`), re-exported here under their layer names so `queuelab::sim::…` reads as before.

pub use app;
pub use content;
pub use domain;
pub use services;
pub use sim;

pub mod cli;
mod platform;
pub mod runtime;
pub mod ui;
