//! Folding the event log: routine steps (empty receives, a dispatcher's claim and mark, lock
//! renewals, sweeps) collapse into one line ("… 6 quiet steps") unless the learner opens the
//! full log, so the events that teach something stay on screen.

use model::{Event, EventKind};

/// True for an event that only shows the machinery turning over.
pub fn is_routine(kind: EventKind) -> bool {
    matches!(
        kind,
        EventKind::ReceiveEmpty
            | EventKind::DispatcherClaimed
            | EventKind::DispatcherMarked
            | EventKind::LockRenewed
            | EventKind::VisibilityExtended
            | EventKind::Sweep
            | EventKind::ConsumerReconnected
            | EventKind::DispatcherRestarted
    )
}

/// One line of the folded log.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Row<'a> {
    /// An event shown in full.
    Event(&'a Event),
    /// Routine events folded into one line: how many, first and last index.
    Quiet {
        /// Number of events folded.
        count: usize,
        /// Index of the first.
        first: u64,
        /// Index of the last.
        last: u64,
    },
}

/// The log rows for `events` (oldest first). With `full` every event is its own row; otherwise
/// runs of routine events fold, except the event at `keep` (the selected one stays visible).
pub fn rows<'a>(
    events: impl IntoIterator<Item = &'a Event>,
    full: bool,
    keep: Option<u64>,
) -> Vec<Row<'a>> {
    let mut out: Vec<Row<'a>> = Vec::new();
    for e in events {
        let fold = !full && is_routine(e.kind) && keep != Some(e.index);
        match (fold, out.last_mut()) {
            (true, Some(Row::Quiet { count, last, .. })) => {
                *count += 1;
                *last = e.index;
            }
            (true, _) => out.push(Row::Quiet {
                count: 1,
                first: e.index,
                last: e.index,
            }),
            (false, _) => out.push(Row::Event(e)),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use model::{Actor, Outcome, Stage};

    fn ev(index: u64, kind: EventKind) -> Event {
        Event {
            index,
            at_ms: index,
            actor: Actor::Consumer(0),
            stage: Stage::Broker,
            message_id: None,
            kind,
            sql: &[],
            outcome: Outcome::Ok,
            caption: kind.caption_key(),
            args: Vec::new(),
        }
    }

    #[test]
    fn quiet_runs_fold_and_the_selected_event_stays() {
        let events = [
            ev(0, EventKind::ApiAccepted),
            ev(1, EventKind::ReceiveEmpty),
            ev(2, EventKind::ReceiveEmpty),
            ev(3, EventKind::DispatcherClaimed),
            ev(4, EventKind::Received),
            ev(5, EventKind::ReceiveEmpty),
        ];
        let folded = rows(&events, false, None);
        assert_eq!(folded.len(), 4);
        assert_eq!(
            folded[1],
            Row::Quiet {
                count: 3,
                first: 1,
                last: 3
            }
        );
        assert_eq!(rows(&events, true, None).len(), 6);
        assert_eq!(rows(&events, false, Some(2)).len(), 6);
    }
}
