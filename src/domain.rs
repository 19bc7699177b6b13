//! Pure domain logic: the learner's progress and the facts that change it.

pub mod calculator;
pub mod progress;
pub mod qr;

pub use progress::{Fact, OrderingRecord, Progress};
