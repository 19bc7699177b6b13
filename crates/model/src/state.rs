//! The in-memory picture of a run the UI reads: table rows (a bounded window per table),
//! stage counters, tokens, the last event. The engine keeps it in step with the SQL it runs.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::report::Metrics;
use crate::{Event, Stage};

pub mod rows;

use rows::{
    Cells, Column, DlqColumn, EffectColumn, InboxColumn, OrderColumn, OutboxColumn, QueueColumn,
    TableColumn, TableRow,
};

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

    /// Column headers of the picture's rows (a readable subset of the SQL columns), defined
    /// with the table's column enum in [`rows`].
    pub fn columns(self) -> &'static [&'static str] {
        match self {
            Table::Orders => OrderColumn::HEADERS,
            Table::Outbox => OutboxColumn::HEADERS,
            Table::Queue => QueueColumn::HEADERS,
            Table::Dlq => DlqColumn::HEADERS,
            Table::Inbox => InboxColumn::HEADERS,
            Table::Effects => EffectColumn::HEADERS,
        }
    }

    fn slot(self) -> usize {
        self as usize
    }
}

/// A whole row of the picture: its table, key and display cells, built from a typed row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    table: Table,
    key: i64,
    cells: Arc<Vec<String>>,
}

/// One change to the picture, recorded per event so that step back can replay it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RowChange {
    /// Insert or replace a whole row (shared with the picture and the step-back log).
    Put(Row),
    /// Set one cell of an existing row (ignored when the row left the window).
    Set(i64, Column, String),
    /// Remove a row.
    Delete(Table, i64),
}

impl RowChange {
    /// Inserts or replaces `row` in its table.
    pub fn put<R: TableRow>(row: &R) -> RowChange {
        RowChange::Put(Row {
            table: R::Column::TABLE,
            key: row.key(),
            cells: Arc::new(rows::cells(row)),
        })
    }

    /// Sets `column` of the row with `key` in the column's table to `value`.
    pub fn set(key: i64, column: impl Into<Column>, value: String) -> RowChange {
        RowChange::Set(key, column.into(), value)
    }
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
            RowChange::Put(row) => {
                let map = &mut self.maps[row.table.slot()];
                map.insert(row.key, Arc::clone(&row.cells));
                while map.len() > TABLE_ROW_CAP {
                    map.pop_first();
                }
            }
            RowChange::Set(key, column, value) => {
                let i = column.index();
                if let Some(row) = self.maps[column.table().slot()].get_mut(key)
                    && row.get(i) != Some(value)
                    && let Some(cell) = Arc::make_mut(row).get_mut(i)
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

    /// Rows of the table of columns `C` in key order, each read by those columns.
    pub fn rows_of<C: TableColumn>(&self) -> impl Iterator<Item = (i64, Cells<'_, C>)> {
        self.rows(C::TABLE).map(|(k, cells)| (k, Cells::new(cells)))
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

/// Derives tokens from the table window at time `now`.
pub fn tokens(tables: &Tables, now: u64) -> Vec<Token> {
    let mut out = Vec::new();
    for (_, r) in tables.rows_of::<OutboxColumn>() {
        if r.is_empty(OutboxColumn::PublishedMs) {
            let stage = if r.is_empty(OutboxColumn::LeaseOwner) {
                Stage::Outbox
            } else {
                Stage::Dispatcher
            };
            out.push(Token {
                stage,
                message_id: r[OutboxColumn::MessageId].to_owned(),
            });
        }
    }
    for (_, r) in tables.rows_of::<QueueColumn>() {
        let visible: u64 = r[QueueColumn::VisibleMs].parse().unwrap_or(0);
        let stage = if !r.is_empty(QueueColumn::LockToken) {
            Stage::Consumer
        } else if visible > now {
            Stage::Retry
        } else {
            Stage::Broker
        };
        out.push(Token {
            stage,
            message_id: r[QueueColumn::MessageId].to_owned(),
        });
    }
    for (_, r) in tables.rows_of::<DlqColumn>() {
        if r.is_empty(DlqColumn::ReplayedMs) {
            out.push(Token {
                stage: Stage::Dlq,
                message_id: r[DlqColumn::MessageId].to_owned(),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::rows::{OrderRow, OutboxRow, QueueRow};
    use super::*;

    fn order(id: i64) -> OrderRow {
        OrderRow {
            id,
            request_id: format!("req-{id}"),
            amount_cents: 100,
            created_ms: 0,
        }
    }

    #[test]
    fn window_keeps_the_newest_rows() {
        let mut t = Tables::default();
        for k in 0..(TABLE_ROW_CAP as i64 + 5) {
            t.apply(&RowChange::put(&order(k)));
        }
        assert_eq!(t.len(Table::Orders), TABLE_ROW_CAP);
        assert_eq!(t.rows(Table::Orders).next().map(|r| r.0), Some(5));
        t.apply(&RowChange::set(5, OrderColumn::RequestId, "x".into()));
        t.apply(&RowChange::set(1, OrderColumn::RequestId, "gone".into()));
        let first = t
            .rows_of::<OrderColumn>()
            .next()
            .map(|(k, r)| (k, r[OrderColumn::RequestId].to_owned()));
        assert_eq!(first, Some((5, "x".to_owned())));
        t.apply(&RowChange::Delete(Table::Orders, 5));
        assert_eq!(t.len(Table::Orders), TABLE_ROW_CAP - 1);
    }

    #[test]
    fn a_cell_update_changes_only_its_own_table() {
        let mut t = Tables::default();
        t.apply(&RowChange::put(&order(3)));
        t.apply(&RowChange::put(&OutboxRow::written(3, "msg-3".into(), 9)));
        t.apply(&RowChange::set(3, OutboxColumn::LeaseOwner, "d1".into()));
        let outbox: Vec<_> = t.rows(Table::Outbox).map(|(_, r)| r.to_vec()).collect();
        assert_eq!(outbox, [vec!["3", "msg-3", "9", "", "d1", "", "0"]]);
        let orders: Vec<_> = t.rows(Table::Orders).map(|(_, r)| r.to_vec()).collect();
        assert_eq!(orders, [vec!["3", "req-3", "100", "0"]]);
    }

    #[test]
    fn tokens_follow_the_typed_cells() {
        let mut t = Tables::default();
        t.apply(&RowChange::put(&OutboxRow::written(1, "msg-1".into(), 0)));
        t.apply(&RowChange::put(&OutboxRow::written(2, "msg-2".into(), 0)));
        t.apply(&RowChange::set(2, OutboxColumn::LeaseOwner, "d0".into()));
        let queued = |seq: i64, visible_ms: u64, lock: Option<&str>| QueueRow {
            seq,
            message_id: format!("msg-q{seq}"),
            visible_ms,
            lock_token: lock.map(str::to_owned),
            delivery_count: 0,
            group_id: None,
        };
        t.apply(&RowChange::put(&queued(1, 0, None)));
        t.apply(&RowChange::put(&queued(2, 50, None)));
        t.apply(&RowChange::put(&queued(3, 50, Some("t1"))));
        let stages: Vec<(Stage, String)> = tokens(&t, 10)
            .into_iter()
            .map(|k| (k.stage, k.message_id))
            .collect();
        let want = [
            (Stage::Outbox, "msg-1"),
            (Stage::Dispatcher, "msg-2"),
            (Stage::Broker, "msg-q1"),
            (Stage::Retry, "msg-q2"),
            (Stage::Consumer, "msg-q3"),
        ];
        assert_eq!(stages, want.map(|(s, m)| (s, m.to_owned())));
    }
}
