//! Pure domain logic: the learner's progress and the facts that change it, the ordering game,
//! the quiz, the one-time code, address validation and the report.

pub mod address;
pub mod calculator;
pub mod html;
pub mod lab_result;
pub mod ordering;
pub mod otp;
pub mod outbox;
pub mod progress;
pub mod qr;
pub mod quiz;
pub mod report;
pub mod send_failure;
pub mod workshop;

pub use lab_result::LabResult;
pub use ordering::{OrderingGame, Pick};
pub use progress::{Fact, OrderingRecord, Progress, SimChoice};
