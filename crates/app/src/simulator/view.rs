//! What the simulator view shows, derived purely from the state: captions, the transcript, the
//! failing part, instance status, table and log lines, the runbook signals, the compare
//! sentence. The ratatui view only lays these out.

use super::SimState;
use crate::Session;
use content::Strings;
use content::key;
use model::state::rows::EffectColumn;
use model::{Actor, Event, EventKind, Metrics, Outcome, RunReport, Snapshot, Stage, Table};

/// Width of one tab title (fixed, so a click is hit-tested without strings).
pub const TAB_WIDTH: usize = 14;

/// The caption of an event in the app's language, durations shown for people (7 days, not
/// 604800000 ms).
pub fn caption(session: &Session, event: &Event) -> String {
    model::moments::caption(&session.content.captions, session.lang, event)
}

/// Events up to the one shown, oldest first (history view hides the "future").
pub fn events_until(s: &SimState) -> impl DoubleEndedIterator<Item = &Event> {
    let last = s.shown_index();
    s.timeline
        .log
        .iter()
        .filter(move |e| last.is_some_and(|l| e.index <= l))
}

/// The last `n` captions up to the event shown, oldest first (the transcript).
pub fn transcript(session: &Session, s: &SimState, n: usize) -> Vec<String> {
    let mut lines: Vec<String> = events_until(s)
        .rev()
        .take(n)
        .map(|e| {
            format!(
                "#{} {}",
                model::moments::event_number(e.index),
                caption(session, e)
            )
        })
        .collect();
    lines.reverse();
    lines
}

/// The part of the map that is failing right now, with the text mark (a string key).
pub fn failing(snapshot: &Snapshot) -> Option<(Stage, content::Key)> {
    if snapshot.scalars.broker_down {
        return Some((Stage::Broker, key::simulator::MARK_DOWN));
    }
    let event = snapshot.last_event.as_ref()?;
    // What a consumer failed at is the consumer's failure, even when it failed talking to the
    // broker (a refused settle, a renewal limit): the broker box turns red only while it is down.
    let stage = match event.actor {
        Actor::Consumer(_) => Stage::Consumer,
        _ => event.stage,
    };
    match event.outcome {
        Outcome::Ok => None,
        Outcome::Failed => Some((stage, key::simulator::MARK_FAILED)),
        Outcome::Unknown => Some((stage, key::simulator::MARK_UNKNOWN)),
    }
}

/// Consumer instance `i`'s newest event up to the one shown (empty polls skipped).
pub fn instance_event(s: &SimState, i: u8) -> Option<&Event> {
    events_until(s)
        .rev()
        .take(400)
        .find(|e| e.actor == Actor::Consumer(i) && e.kind != EventKind::ReceiveEmpty)
}

/// What consumer instance `i` did last (message and event kind), up to the event shown.
pub fn instance_status(s: &SimState, i: u8) -> Option<(String, Outcome)> {
    events_until(s)
        .rev()
        .take(400)
        // Polling an empty queue is noise on the map; the log still lists it.
        .find(|e| e.actor == Actor::Consumer(i) && e.kind != EventKind::ReceiveEmpty)
        .map(|e| {
            let id = e
                .message_id
                .as_deref()
                .map_or_else(|| "-".to_owned(), short_id);
            (format!("{id} {}", e.kind), e.outcome)
        })
}

/// The instance letter (A, B, ...).
pub fn instance_letter(i: u8) -> char {
    char::from(b'A' + (i % 26))
}

/// One line of a table section: a title, a header or a row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TableLine {
    /// `file · table (n rows)`.
    Title(String),
    /// Column names.
    Header(Vec<&'static str>),
    /// Cells.
    Row(Vec<String>),
}

/// Which database file holds a table.
pub fn file_of(table: Table) -> &'static str {
    match table {
        Table::Queue | Table::Dlq => "broker.db",
        Table::Orders | Table::Outbox | Table::Inbox | Table::Effects => "service.db",
    }
}

/// All six tables as lines (the view scrolls through them).
pub fn table_lines(snapshot: &Snapshot, rows_label: &str) -> Vec<TableLine> {
    let mut out = Vec::new();
    for table in Table::ALL {
        out.push(TableLine::Title(format!(
            "{} · {} ({} {rows_label})",
            file_of(table),
            table.name(),
            snapshot.tables.len(table)
        )));
        out.push(TableLine::Header(table.columns().to_vec()));
        for (_, cells) in snapshot.tables.rows(table) {
            out.push(TableLine::Row(cells.to_vec()));
        }
    }
    out
}

/// The tables view scrolled `scroll` lines down: the title and column header of the table the
/// first visible line belongs to (pinned, unless they are visible anyway), then the lines from
/// there on. The scroll stops at the last line.
pub fn table_window(lines: &[TableLine], scroll: usize) -> (Vec<&TableLine>, &[TableLine]) {
    if lines.is_empty() {
        return (Vec::new(), lines);
    }
    let first = scroll.min(lines.len() - 1);
    let title = lines[..=first]
        .iter()
        .rposition(|l| matches!(l, TableLine::Title(_)));
    let pinned: Vec<&TableLine> = match title {
        Some(t) if t < first => lines[t..first.min(t + 2)].iter().collect(),
        _ => Vec::new(),
    };
    (pinned, lines.get(first..).unwrap_or(&[]))
}

/// A runbook signal: string key of its name, how to read it, and whether it is a time.
pub struct Signal {
    /// String key of the name.
    pub key: content::Key,
    /// The value.
    pub value: fn(&Metrics) -> u64,
    /// Milliseconds (shown with a unit).
    pub millis: bool,
}

/// The six runbook signals of chapter 13 plus the effect counters they protect.
pub const SIGNALS: [Signal; 9] = [
    Signal {
        key: key::metric::AGE_P50,
        value: |m| m.age_p50_ms,
        millis: true,
    },
    Signal {
        key: key::metric::AGE_P95,
        value: |m| m.age_p95_ms,
        millis: true,
    },
    Signal {
        key: key::metric::AGE_MAX,
        value: |m| m.age_max_ms,
        millis: true,
    },
    Signal {
        key: key::metric::RETRIES,
        value: |m| m.retries,
        millis: false,
    },
    Signal {
        key: key::metric::DEAD_LETTERED,
        value: |m| m.dead_lettered,
        millis: false,
    },
    Signal {
        key: key::metric::LOCK_LOST,
        value: |m| m.lock_lost,
        millis: false,
    },
    Signal {
        key: key::metric::PREVENTED,
        value: |m| m.prevented_duplicates,
        millis: false,
    },
    Signal {
        key: key::metric::OUTBOX_LAG,
        value: |m| m.outbox_lag_max_ms,
        millis: true,
    },
    Signal {
        key: key::metric::EFFECTS,
        value: |m| m.effects,
        millis: false,
    },
];

/// A compared figure's string key and how to read it from a finished run.
type CompareRow = (content::Key, fn(&RunReport) -> u64);

/// Figures compared between safe and the other mode, most telling first. Out-of-order effects
/// come from the invariant check (no engine metric counts them).
const COMPARED: [CompareRow; 9] = [
    (key::metric::DUPLICATE_EFFECTS, |r| {
        r.metrics.duplicate_effects
    }),
    (key::metric::OUT_OF_ORDER, |r| r.invariants.out_of_order),
    (key::metric::EFFECTS, |r| r.metrics.effects),
    (key::metric::LOST, |r| r.metrics.lost),
    (key::metric::DEAD_LETTERED, |r| r.metrics.dead_lettered),
    (key::metric::PREVENTED, |r| r.metrics.prevented_duplicates),
    (key::metric::REDELIVERIES, |r| r.metrics.redeliveries),
    (key::metric::RETRIES, |r| r.metrics.retries),
    (key::metric::DELIVERED, |r| r.metrics.delivered),
];

/// The figures shown above the compared ones: what went in.
const INPUTS: [CompareRow; 2] = [
    (key::metric::ACCEPTED, |r| r.metrics.accepted),
    (key::metric::PUBLISHED, |r| r.metrics.published),
];

/// The rows of the compare table: `(label key, safe, naive)`. Orders out of order appear only
/// where there are some (the row means nothing in a scenario without per-customer order).
pub fn compare_rows(safe: &RunReport, naive: &RunReport) -> Vec<(content::Key, u64, u64)> {
    INPUTS
        .iter()
        .chain(COMPARED.iter())
        .map(|(k, f)| (*k, f(safe), f(naive)))
        .filter(|(k, a, b)| *k != key::metric::OUT_OF_ORDER || *a + *b > 0)
        .collect()
}

/// The string key of a mode's name on screen.
pub fn mode_key(mode: model::Mode) -> content::Key {
    match mode {
        model::Mode::Safe => key::simulator::MODE_SAFE,
        model::Mode::Naive => key::simulator::MODE_NAIVE,
        model::Mode::Pitfall => key::simulator::MODE_PITFALL,
    }
}

/// The final difference in one sentence (`naive` is the unsafe run: naive or pitfall mode).
pub fn compare_sentence(strings: &Strings, safe: &RunReport, naive: &RunReport) -> String {
    let other = strings.get(mode_key(naive.mode));
    let verdict = |r: &RunReport| {
        strings
            .get(if r.invariants.ok() {
                key::simulator::INVARIANTS_OK
            } else {
                key::simulator::INVARIANTS_BROKEN
            })
            .to_owned()
    };
    let differing = COMPARED
        .iter()
        .chain(INPUTS.iter())
        .find(|(_, f)| f(safe) != f(naive));
    if let Some((key, f)) = differing {
        return strings.fill(
            key::simulator::COMPARE_DIFF,
            &[
                ("metric", strings.get(*key)),
                ("safe", &f(safe).to_string()),
                ("naive", &f(naive).to_string()),
                ("safe_verdict", &verdict(safe)),
                ("naive_verdict", &verdict(naive)),
                ("other", other),
            ],
        );
    }
    // Equal figures can still hide a broken invariant (a DLQ reason that belongs to another
    // message, an unverified payload): then the verdicts are the difference, never "same".
    if safe.invariants.ok() != naive.invariants.ok() {
        return strings.fill(
            key::simulator::COMPARE_VERDICTS,
            &[
                ("safe_verdict", &verdict(safe)),
                ("naive_verdict", &verdict(naive)),
                ("other", other),
            ],
        );
    }
    strings.get(key::simulator::COMPARE_SAME).to_owned()
}

/// A message id as shown on the map (`msg-000003` -> `#3`).
pub fn short_id(id: &str) -> String {
    match id.strip_prefix("msg-") {
        Some(n) => format!("#{}", n.trim_start_matches('0')),
        None => id.to_owned(),
    }
}

/// Effects beyond the first per order in the picture's effects window. The engine counts
/// duplicates only in its final report, so the live map derives them from the rows.
pub fn duplicate_effects(snapshot: &Snapshot) -> u64 {
    let mut per_order: std::collections::BTreeMap<&str, u64> = std::collections::BTreeMap::new();
    for (_, cells) in snapshot.tables.rows_of::<EffectColumn>() {
        *per_order
            .entry(cells.get(EffectColumn::OrderId))
            .or_default() += 1;
    }
    per_order.values().map(|n| n.saturating_sub(1)).sum()
}
