//! DLQ triage in the DLQ tab: its state (cause fixed, batch size, the entries), its keys
//! (toggle "cause fixed", choose the batch with the arrows, replay with Enter, replay under new
//! message ids with `N`), and what the tab shows at the event under the time cursor.

use super::playback::tell_engine;
use super::protocol::SimCommand;
use super::protocol::SimReply;
use super::{SimState, Tab};
use crate::keymap::Action;
use crate::{Effect, Session};
use content::key;
use model::state::rows::DlqColumn;
use model::{DlqEntry, Event, EventKind};

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
    /// DLQ entries not yet replayed, at the head of the run.
    pub dlq: Vec<DlqEntry>,
    /// A replay was sent and its event has not come back yet (its outcome goes to the
    /// status line).
    pub awaiting: bool,
}

impl Default for Triage {
    fn default() -> Triage {
        Triage {
            cause_fixed: false,
            fix_sent: false,
            batch: 3,
            dlq: Vec::new(),
            awaiting: false,
        }
    }
}

/// The triage keys; `None` when `action` is not one of them here (the screen handles it).
pub fn on_action(s: &mut SimState, session: &mut Session, action: Action) -> Option<Vec<Effect>> {
    match (s.tab, action) {
        (_, Action::ToggleFixed) => {
            s.triage.cause_fixed = !s.triage.cause_fixed || s.triage.fix_sent;
            Some(Vec::new())
        }
        (Tab::Dlq, Action::Open | Action::ReplayNewIds) => {
            // A replay key always answers: it replays, or the status line says why not.
            let why_not = if s.triage.dlq.is_empty() {
                Some(key::simulator::REPLAY_EMPTY)
            } else if s.timeline.pending {
                Some(key::simulator::REPLAY_BUSY)
            } else {
                None
            };
            if let Some(key) = why_not {
                let text = session.strings().get(key).to_owned();
                session.notify(text, false);
                return Some(Vec::new());
            }
            Some(replay(s, action == Action::ReplayNewIds))
        }
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

/// DLQ triage: replay a small batch (fixing the cause first when it is marked fixed), under
/// the messages' own ids or new ones. The replay happens at the head of the run, at once: the
/// reply carries its event, so a paused screen shows the outcome without playing on.
pub fn replay(s: &mut SimState, new_ids: bool) -> Vec<Effect> {
    if s.triage.dlq.is_empty() || s.timeline.pending {
        return Vec::new();
    }
    let fix_cause = s.triage.cause_fixed && !s.triage.fix_sent;
    s.triage.fix_sent |= fix_cause;
    s.triage.awaiting = true;
    s.timeline.cursor = None;
    s.timeline.viewed = None;
    s.timeline.finished = false;
    s.timeline.report = None;
    s.timeline.pending = true;
    tell_engine(SimCommand::Replay {
        run: s.timeline.run,
        count: s.triage.batch,
        fix_cause,
        new_ids,
    })
}

/// True for the events of an operator's DLQ replay.
pub fn is_replay(kind: EventKind) -> bool {
    kind.is_dlq_replay()
}

/// The outcome of a replay the screen sent goes to the status line: a drop by duplicate
/// detection as a warning, anything else as a notice.
pub fn feedback(s: &mut SimState, session: &mut Session, reply: &SimReply) {
    let SimReply::Advanced { run, events, .. } = reply else {
        return;
    };
    if !s.triage.awaiting || *run != s.timeline.run {
        return;
    }
    let Some(e) = events.iter().rev().find(|e| is_replay(e.kind)) else {
        return;
    };
    s.triage.awaiting = false;
    let text = super::view::caption(session, e);
    session.notify(text, e.kind == EventKind::ReplayDroppedDuplicate);
}

/// One DLQ entry as it was at the event shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShownEntry {
    /// The message.
    pub message_id: String,
    /// Dead-letter reason (empty on SQS: the redrive policy stores none).
    pub reason: String,
    /// The last error (empty on SQS).
    pub description: String,
    /// Deliveries before it was dead-lettered.
    pub deliveries: String,
    /// The last replay up to the event shown kept its id and the broker dropped it.
    pub dropped: bool,
}

/// A replay that duplicate detection dropped, as of the event shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dropped {
    /// How many copies were dropped.
    pub count: String,
    /// Since the broker first saw the id, ms.
    pub ago_ms: u64,
    /// The duplicate-detection window, ms.
    pub window_ms: u64,
    /// The dropped message ids.
    pub ids: Vec<String>,
}

/// The DLQ as it was at the event under the time cursor (not the end state): the entries
/// not yet replayed then, in DLQ order.
pub fn entries_at(s: &SimState) -> Vec<ShownEntry> {
    let Some(snap) = s.shown() else {
        return Vec::new();
    };
    let dropped = last_drop(s).map(|d| d.ids).unwrap_or_default();
    snap.tables
        .rows_of::<DlqColumn>()
        .filter(|(_, r)| r.is_empty(DlqColumn::ReplayedMs))
        .map(|(_, r)| ShownEntry {
            dropped: dropped.iter().any(|id| id == &r[DlqColumn::MessageId]),
            message_id: r[DlqColumn::MessageId].to_owned(),
            reason: r[DlqColumn::Reason].to_owned(),
            description: r[DlqColumn::Description].to_owned(),
            deliveries: r[DlqColumn::DeliveryCount].to_owned(),
        })
        .collect()
}

/// The latest replay up to the event shown, when duplicate detection dropped it.
pub fn last_drop(s: &SimState) -> Option<Dropped> {
    let e: &Event = super::view::events_until(s)
        .rev()
        .find(|e| is_replay(e.kind))?;
    if e.kind != EventKind::ReplayDroppedDuplicate {
        return None;
    }
    let arg = |i: usize| e.args.get(i).cloned().unwrap_or_default();
    Some(Dropped {
        count: arg(3),
        ago_ms: arg(1).parse().unwrap_or(0),
        window_ms: arg(2).parse().unwrap_or(0),
        ids: arg(5).split_whitespace().map(str::to_owned).collect(),
    })
}

#[cfg(test)]
mod tests;
