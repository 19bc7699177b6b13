//! A broken rule of the lab check itself ([`LabInvariant`]): what the learner's handler
//! decided about one delivery, seen as it happened (the engine's invariants and the
//! independent checker judge the files; these judge the decisions only a lab run sees).

use super::TrailEntry;
use content::LabInvariant;

/// One broken lab invariant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Breach {
    /// Which rule.
    pub invariant: LabInvariant,
    /// The order.
    pub order: i64,
    /// The message id.
    pub message_id: String,
    /// The learner's statement that made the decision (the one that failed, or the one that
    /// called `dead_letter`).
    pub statement: TrailEntry,
}

impl Breach {
    /// The line `--json` and the violations list carry (English-free: the name and the ids).
    pub fn summary(&self) -> String {
        format!(
            "{}: order {}, message {}",
            self.invariant.as_str(),
            self.order,
            self.message_id
        )
    }
}
