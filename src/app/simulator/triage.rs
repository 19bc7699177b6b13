//! DLQ triage in the DLQ tab: its state (cause fixed, batch size, the entries) and its keys
//! (toggle "cause fixed", choose the batch with the arrows, replay with Enter).

use super::playback::tell_engine;
use super::protocol::SimCommand;
use super::{SimState, Tab};
use crate::app::Effect;
use crate::app::keymap::Action;
use crate::sim::DlqEntry;

/// Largest DLQ replay batch the triage offers ("a small batch").
pub const MAX_BATCH: u32 = 10;

/// DLQ triage in the DLQ tab: fix the cause first, then replay in small batches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Triage {
    /// The cause is marked as fixed.
    pub cause_fixed: bool,
    /// The fix was sent to the engine (it cannot be undone inside a run).
    pub fix_sent: bool,
    /// Replay batch size.
    pub batch: u32,
    /// DLQ entries not yet replayed.
    pub dlq: Vec<DlqEntry>,
}

impl Default for Triage {
    fn default() -> Triage {
        Triage {
            cause_fixed: false,
            fix_sent: false,
            batch: 3,
            dlq: Vec::new(),
        }
    }
}

/// The triage keys; `None` when `action` is not one of them here (the screen handles it).
pub fn on_action(s: &mut SimState, action: Action) -> Option<Vec<Effect>> {
    match (s.tab, action) {
        (_, Action::ToggleFixed) => {
            s.triage.cause_fixed = !s.triage.cause_fixed || s.triage.fix_sent;
            Some(Vec::new())
        }
        (Tab::Dlq, Action::Open) => Some(replay(s)),
        // In the DLQ tab the arrows choose the batch size.
        (Tab::Dlq, Action::Up) => {
            s.triage.batch = (s.triage.batch + 1).min(MAX_BATCH);
            Some(Vec::new())
        }
        (Tab::Dlq, Action::Down) => {
            s.triage.batch = s.triage.batch.saturating_sub(1).max(1);
            Some(Vec::new())
        }
        _ => None,
    }
}

/// DLQ triage: replay a small batch (fixing the cause first when it is marked fixed).
pub fn replay(s: &mut SimState) -> Vec<Effect> {
    if s.triage.dlq.is_empty() {
        return Vec::new();
    }
    let fix_cause = s.triage.cause_fixed && !s.triage.fix_sent;
    s.triage.fix_sent |= fix_cause;
    s.timeline.cursor = None;
    s.timeline.viewed = None;
    s.timeline.finished = false;
    s.timeline.report = None;
    tell_engine(SimCommand::Replay {
        run: s.timeline.run,
        count: s.triage.batch,
        fix_cause,
    })
}
