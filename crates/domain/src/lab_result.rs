//! What is known about one lab of the learner: the store keeps it, the lab screens and
//! `queuelab lab list` show it.

/// Checks, first pass and hints of one lab.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LabResult {
    /// Checks run.
    pub attempts: u32,
    /// When it first passed (seconds since the epoch).
    pub solved_at: Option<i64>,
    /// Hints revealed (0 to 3).
    pub hints: u32,
}
