//! Pure domain logic: the learner's progress and the facts that change it, the ordering game.

pub mod calculator;
pub mod ordering;
pub mod progress;

pub use ordering::{OrderingGame, Pick};
pub use progress::{Fact, OrderingRecord, Progress};
