//! The in-memory picture of a run the UI reads: table rows (a bounded window per table),
//! stage counters, tokens, the last event. The engine keeps it in step with the SQL it runs.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::report::Metrics;
use crate::{Event, Stage};

/// Rows kept per table in the picture (the newest by key); the files hold all of them.
pub const TABLE_ROW_CAP: usize = 100;

/// A table shown in the UI's tables tab.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Table {
    /// `service.db` orders.
    Orders,
    /// `service.db` outbox.
    Outbox,
    /// `broker.db` queue.
    Queue,
    /// `broker.db` dlq.
    Dlq,
    /// `service.db` inbox.
    Inbox,
    /// `service.db` effects.
    Effects,
}

impl Table {
    /// All tables in display order.
    pub const ALL: [Table; 6] = [
        Table::Orders,
        Table::Outbox,
        Table::Queue,
        Table::Dlq,
        Table::Inbox,
        Table::Effects,
    ];

    /// SQL table name (qualified by its file in the UI).
    pub fn name(self) -> &'static str {
        match self {
            Table::Orders => "orders",
            Table::Outbox => "outbox",
            Table::Queue => "queue",
            Table::Dlq => "dlq",
            Table::Inbox => "inbox",
            Table::Effects => "effects",
        }
    }

    /// Column headers of the picture's rows (a readable subset of the SQL columns).
    pub fn columns(self) -> &'static [&'static str] {
        match self {
            Table::Orders => &["id", "request_id", "amount_cents", "created_ms"],
            Table::Outbox => &[
                "id",
                "message_id",
                "created_ms",
                "published_ms",
                "lease_owner",
                "lease_until_ms",
                "attempts",
            ],
            Table::Queue => &[
                "seq",
                "message_id",
                "visible_ms",
                "lock_token",
                "delivery_count",
                "group_id",
            ],
            Table::Dlq => &[
                "seq",
                "message_id",
                "reason",
                "description",
                "delivery_count",
                "replayed_ms",
            ],
            Table::Inbox => &[
                "id",
                "message_id",
                "consumer",
                "instance",
                "received_ms",
                "processed_ms",
            ],
            Table::Effects => &[
                "id",
                "business_key",
                "order_id",
                "message_id",
                "kind",
                "applied_ms",
                "instance",
            ],
        }
    }

    fn slot(self) -> usize {
        self as usize
    }
}

/// One change to the picture, recorded per event so that step back can replay it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RowChange {
    /// Insert or replace a whole row (shared with the picture and the step-back log).
    Put(Table, i64, Arc<Vec<String>>),
    /// Set one cell of an existing row (ignored when the row left the window).
    Set(Table, i64, usize, String),
    /// Remove a row.
    Delete(Table, i64),
}

/// The bounded table window.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tables {
    maps: [BTreeMap<i64, Arc<Vec<String>>>; 6],
}

impl Tables {
    /// Applies one change; keeps at most [`TABLE_ROW_CAP`] rows per table (drops the oldest key).
    pub fn apply(&mut self, change: &RowChange) {
        match change {
            RowChange::Put(t, key, cells) => {
                let map = &mut self.maps[t.slot()];
                map.insert(*key, Arc::clone(cells));
                while map.len() > TABLE_ROW_CAP {
                    map.pop_first();
                }
            }
            RowChange::Set(t, key, col, value) => {
                if let Some(row) = self.maps[t.slot()].get_mut(key)
                    && row.get(*col) != Some(value)
                    && let Some(cell) = Arc::make_mut(row).get_mut(*col)
                {
                    cell.clone_from(value);
                }
            }
            RowChange::Delete(t, key) => {
                self.maps[t.slot()].remove(key);
            }
        }
    }

    /// Rows of `table` in key order: `(key, cells)` with cells matching [`Table::columns`].
    pub fn rows(&self, table: Table) -> impl Iterator<Item = (i64, &[String])> {
        self.maps[table.slot()]
            .iter()
            .map(|(k, v)| (*k, v.as_slice()))
    }

    /// Number of rows of `table` in the window.
    pub fn len(&self, table: Table) -> usize {
        self.maps[table.slot()].len()
    }

    /// True when no table has rows.
    pub fn is_empty(&self) -> bool {
        self.maps.iter().all(BTreeMap::is_empty)
    }
}

/// Exact counts per stage (not limited by the table window).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StageCounters {
    /// Orders the API committed.
    pub accepted: u64,
    /// Outbox rows not yet published.
    pub outbox_pending: u64,
    /// Outbox rows currently leased by a dispatcher.
    pub dispatching: u64,
    /// Messages in the broker queue (any state).
    pub queued: u64,
    /// Messages locked by a consumer.
    pub in_flight: u64,
    /// Messages in the DLQ (not replayed).
    pub dlq: u64,
    /// Inbox markers.
    pub inbox: u64,
    /// Effect rows.
    pub effects: u64,
}

impl StageCounters {
    /// The counter shown on a flow-map stage.
    pub fn for_stage(&self, stage: Stage) -> u64 {
        match stage {
            Stage::Api => self.accepted,
            Stage::Outbox => self.outbox_pending,
            Stage::Dispatcher => self.dispatching,
            Stage::Broker => self.queued.saturating_sub(self.in_flight),
            Stage::Retry => 0,
            Stage::Dlq => self.dlq,
            Stage::Consumer => self.in_flight,
            Stage::Effect => self.effects,
        }
    }
}

/// The small, copyable part of the state recorded with every event.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Scalars {
    /// Index of the event this state follows (`None` before the first event).
    pub event_index: Option<u64>,
    /// Virtual time, ms.
    pub now_ms: u64,
    /// Broker unreachable at this moment.
    pub broker_down: bool,
    /// Stage counts.
    pub stages: StageCounters,
    /// Counter metrics (percentiles are filled in by the snapshot).
    pub metrics: Metrics,
    /// How many message ages had been recorded (prefix of the age list).
    pub ages_len: usize,
}

/// Full in-memory state: what a checkpoint stores.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct State {
    /// The table window.
    pub tables: Tables,
    /// Counters.
    pub scalars: Scalars,
    /// The last event.
    pub last_event: Option<Event>,
}

/// A message drawn as a token on the flow map.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    /// Where it is.
    pub stage: Stage,
    /// Which message.
    pub message_id: String,
}

/// Everything the UI draws for one moment of a run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    /// The state's counters and time.
    pub scalars: Scalars,
    /// Metrics including percentiles.
    pub metrics: Metrics,
    /// Tokens in flight per stage (from the table window).
    pub tokens: Vec<Token>,
    /// The last event (with caption key and args).
    pub last_event: Option<Event>,
    /// Table rows (newest [`TABLE_ROW_CAP`] per table).
    pub tables: Tables,
}

/// Column index helpers so engine code names cells instead of counting.
pub mod col {
    pub const OUTBOX_PUBLISHED: usize = 3;
    pub const OUTBOX_LEASE_OWNER: usize = 4;
    pub const OUTBOX_LEASE_UNTIL: usize = 5;
    pub const OUTBOX_ATTEMPTS: usize = 6;
    pub const QUEUE_VISIBLE: usize = 2;
    pub const QUEUE_LOCK: usize = 3;
    pub const QUEUE_DELIVERIES: usize = 4;
    pub const DLQ_REPLAYED: usize = 5;
    pub const INBOX_PROCESSED: usize = 5;
}

/// Derives tokens from the table window at time `now`.
pub fn tokens(tables: &Tables, now: u64) -> Vec<Token> {
    let mut out = Vec::new();
    let cell = |r: &[String], i: usize| r.get(i).cloned().unwrap_or_default();
    for (_, r) in tables.rows(Table::Outbox) {
        if r.get(col::OUTBOX_PUBLISHED).is_some_and(String::is_empty) {
            let leased = r
                .get(col::OUTBOX_LEASE_OWNER)
                .is_some_and(|s| !s.is_empty());
            let stage = if leased {
                Stage::Dispatcher
            } else {
                Stage::Outbox
            };
            out.push(Token {
                stage,
                message_id: cell(r, 1),
            });
        }
    }
    for (_, r) in tables.rows(Table::Queue) {
        let locked = r.get(col::QUEUE_LOCK).is_some_and(|s| !s.is_empty());
        let visible: u64 = r
            .get(col::QUEUE_VISIBLE)
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        let stage = if locked {
            Stage::Consumer
        } else if visible > now {
            Stage::Retry
        } else {
            Stage::Broker
        };
        out.push(Token {
            stage,
            message_id: cell(r, 1),
        });
    }
    for (_, r) in tables.rows(Table::Dlq) {
        if r.get(col::DLQ_REPLAYED).is_some_and(String::is_empty) {
            out.push(Token {
                stage: Stage::Dlq,
                message_id: cell(r, 1),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn window_keeps_the_newest_rows() {
        let mut t = Tables::default();
        for k in 0..(TABLE_ROW_CAP as i64 + 5) {
            t.apply(&RowChange::Put(
                Table::Orders,
                k,
                Arc::new(vec![k.to_string()]),
            ));
        }
        assert_eq!(t.len(Table::Orders), TABLE_ROW_CAP);
        assert_eq!(t.rows(Table::Orders).next().map(|r| r.0), Some(5));
        t.apply(&RowChange::Set(Table::Orders, 5, 0, "x".into()));
        t.apply(&RowChange::Set(Table::Orders, 1, 0, "gone".into()));
        assert_eq!(
            t.rows(Table::Orders).next().map(|r| r.1[0].clone()),
            Some("x".into())
        );
        t.apply(&RowChange::Delete(Table::Orders, 5));
        assert_eq!(t.len(Table::Orders), TABLE_ROW_CAP - 1);
    }
}
