//! The trail of a lab run: which learner statement wrote each effect and made each new charge,
//! so that a failure report names the statement behind the harm (`file:line:col`).

use content::LabSection as Section;

/// Which learner statement wrote an effect: the trail a failure report names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrailEntry {
    /// Virtual time of the write, ms.
    pub at_ms: u64,
    /// The message being handled.
    pub message_id: String,
    /// The consumer instance.
    pub instance: String,
    /// The section.
    pub section: Section,
    /// Line of the statement in the lab file.
    pub line: usize,
    /// Column of the statement in the lab file.
    pub column: usize,
}

/// Every effect write of a run, in time order, and the last statement of a handler that
/// settled a message without ever writing its effect (the report of a lost order names it).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Trail {
    /// The entries.
    pub entries: Vec<TrailEntry>,
    /// The statements whose `charge(…)` made a new charge at the provider (a charge the
    /// provider answered from its idempotency key is not one), in time order.
    pub charges: Vec<TrailEntry>,
}

impl Trail {
    /// The statements that wrote effects for `message_id`, in time order.
    pub fn for_message<'a>(&'a self, message_id: &'a str) -> impl Iterator<Item = &'a TrailEntry> {
        self.entries
            .iter()
            .filter(move |e| e.message_id == message_id)
    }

    /// The newest statement of `section` that wrote for `message_id`; where none did, the
    /// section's header (`line`) at `now_ms`. A breach found only at the end of a run (a
    /// charge missing, a row never sent) still names where to look.
    pub fn newest_or_header(
        &self,
        message_id: &str,
        section: Section,
        line: usize,
        now_ms: u64,
    ) -> TrailEntry {
        self.for_message(message_id)
            .filter(|e| e.section == section)
            .last()
            .cloned()
            .unwrap_or_else(|| TrailEntry {
                at_ms: now_ms,
                message_id: message_id.to_owned(),
                instance: String::new(),
                section,
                line,
                column: 1,
            })
    }

    /// The statement that made the second new charge for `message_id`: the double charge.
    pub fn second_charge(&self, message_id: &str) -> Option<&TrailEntry> {
        self.charges
            .iter()
            .filter(|e| e.message_id == message_id)
            .nth(1)
    }
}
