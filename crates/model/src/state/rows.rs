//! Typed rows of the picture's tables. Each table has a column enum (its headers in display
//! order) and a row struct with named, typed fields; the row turns into display cells by asking
//! for each column's text, so a cell can only land under its own header. Cell updates name a
//! column of the table they change.

use std::ops::Index;

use super::Table;

/// A column of one table: its position in a row is its place among the table's columns.
pub trait TableColumn: Copy + Into<Column> + 'static {
    /// The table the column belongs to.
    const TABLE: Table;
    /// Every column of the table in display order.
    const ALL: &'static [Self];
    /// The headers in display order (one per column).
    const HEADERS: &'static [&'static str];
    /// Position of the column's cell in a row.
    fn index(self) -> usize;
}

/// A typed row of one table: its key and the text of each of its cells.
pub trait TableRow {
    /// The table's columns.
    type Column: TableColumn;
    /// The row's key in its table (id or sequence number).
    fn key(&self) -> i64;
    /// The display text of one cell.
    fn cell(&self, column: Self::Column) -> String;
}

/// Declares a table's column enum: variants in display order, each with its header.
macro_rules! columns {
    ($(#[$doc:meta])* $name:ident for $table:ident {
        $($(#[$vdoc:meta])* $variant:ident => $header:literal,)+
    }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum $name {
            $($(#[$vdoc])* $variant,)+
        }

        impl TableColumn for $name {
            const TABLE: Table = Table::$table;
            const ALL: &'static [Self] = &[$($name::$variant,)+];
            const HEADERS: &'static [&'static str] = &[$($header,)+];
            fn index(self) -> usize {
                self as usize
            }
        }

        impl From<$name> for Column {
            fn from(c: $name) -> Column {
                Column::$table(c)
            }
        }
    };
}

columns! {
    /// Columns of `service.db` orders.
    OrderColumn for Orders {
        /// Order id.
        Id => "id",
        /// The client's request id.
        RequestId => "request_id",
        /// Amount in cents.
        AmountCents => "amount_cents",
        /// When the order was written, ms.
        CreatedMs => "created_ms",
    }
}

columns! {
    /// Columns of `service.db` outbox.
    OutboxColumn for Outbox {
        /// Outbox row id.
        Id => "id",
        /// The message's id.
        MessageId => "message_id",
        /// When the row was written, ms.
        CreatedMs => "created_ms",
        /// When a dispatcher marked it published, ms (empty before).
        PublishedMs => "published_ms",
        /// The dispatcher holding its lease (empty when none).
        LeaseOwner => "lease_owner",
        /// End of the lease, ms (empty when none).
        LeaseUntilMs => "lease_until_ms",
        /// Publish attempts.
        Attempts => "attempts",
    }
}

columns! {
    /// Columns of `broker.db` queue.
    QueueColumn for Queue {
        /// Queue sequence number.
        Seq => "seq",
        /// The message's id.
        MessageId => "message_id",
        /// When the message is visible to a receive, ms.
        VisibleMs => "visible_ms",
        /// Lock token or receipt handle of the current delivery (empty when unlocked).
        LockToken => "lock_token",
        /// Deliveries so far.
        DeliveryCount => "delivery_count",
        /// Session or message group (empty when none).
        GroupId => "group_id",
    }
}

columns! {
    /// Columns of `broker.db` dlq.
    DlqColumn for Dlq {
        /// DLQ sequence number.
        Seq => "seq",
        /// The message's id.
        MessageId => "message_id",
        /// Why it was dead-lettered.
        Reason => "reason",
        /// The error's description.
        Description => "description",
        /// Deliveries that took place.
        DeliveryCount => "delivery_count",
        /// When it was replayed, ms (empty before).
        ReplayedMs => "replayed_ms",
    }
}

columns! {
    /// Columns of `service.db` inbox.
    InboxColumn for Inbox {
        /// Inbox marker id.
        Id => "id",
        /// The message's id.
        MessageId => "message_id",
        /// The consumer (service) that keeps the marker.
        Consumer => "consumer",
        /// The consumer instance.
        Instance => "instance",
        /// When the marker was written, ms.
        ReceivedMs => "received_ms",
        /// When processing finished, ms (empty before).
        ProcessedMs => "processed_ms",
    }
}

columns! {
    /// Columns of `service.db` effects.
    EffectColumn for Effects {
        /// Effect row id.
        Id => "id",
        /// The effect's business key.
        BusinessKey => "business_key",
        /// The order it belongs to.
        OrderId => "order_id",
        /// The message that caused it.
        MessageId => "message_id",
        /// What kind of effect.
        Kind => "kind",
        /// When it was applied, ms.
        AppliedMs => "applied_ms",
        /// The consumer instance that applied it.
        Instance => "instance",
    }
}

/// A column of any table (what a cell update names).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Column {
    /// An orders column.
    Orders(OrderColumn),
    /// An outbox column.
    Outbox(OutboxColumn),
    /// A queue column.
    Queue(QueueColumn),
    /// A DLQ column.
    Dlq(DlqColumn),
    /// An inbox column.
    Inbox(InboxColumn),
    /// An effects column.
    Effects(EffectColumn),
}

impl Column {
    /// The table the column belongs to.
    pub fn table(self) -> Table {
        match self {
            Column::Orders(_) => Table::Orders,
            Column::Outbox(_) => Table::Outbox,
            Column::Queue(_) => Table::Queue,
            Column::Dlq(_) => Table::Dlq,
            Column::Inbox(_) => Table::Inbox,
            Column::Effects(_) => Table::Effects,
        }
    }

    /// Position of the column's cell in a row of its table.
    pub fn index(self) -> usize {
        match self {
            Column::Orders(c) => c.index(),
            Column::Outbox(c) => c.index(),
            Column::Queue(c) => c.index(),
            Column::Dlq(c) => c.index(),
            Column::Inbox(c) => c.index(),
            Column::Effects(c) => c.index(),
        }
    }
}

/// A time cell that may be unset: empty until it happened.
fn optional<T: ToString>(value: Option<&T>) -> String {
    value.map(ToString::to_string).unwrap_or_default()
}

/// A row of `service.db` orders.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderRow {
    /// Order id.
    pub id: i64,
    /// The client's request id.
    pub request_id: String,
    /// Amount in cents.
    pub amount_cents: i64,
    /// When the order was written, ms.
    pub created_ms: u64,
}

impl TableRow for OrderRow {
    type Column = OrderColumn;
    fn key(&self) -> i64 {
        self.id
    }
    fn cell(&self, column: OrderColumn) -> String {
        match column {
            OrderColumn::Id => self.id.to_string(),
            OrderColumn::RequestId => self.request_id.clone(),
            OrderColumn::AmountCents => self.amount_cents.to_string(),
            OrderColumn::CreatedMs => self.created_ms.to_string(),
        }
    }
}

/// A row of `service.db` outbox.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutboxRow {
    /// Outbox row id.
    pub id: i64,
    /// The message's id.
    pub message_id: String,
    /// When the row was written, ms.
    pub created_ms: u64,
    /// When a dispatcher marked it published, ms.
    pub published_ms: Option<u64>,
    /// The dispatcher holding its lease.
    pub lease_owner: Option<String>,
    /// End of the lease, ms.
    pub lease_until_ms: Option<u64>,
    /// Publish attempts.
    pub attempts: u32,
}

impl OutboxRow {
    /// A row just written beside its order: unpublished, unleased, not attempted.
    pub fn written(id: i64, message_id: String, created_ms: u64) -> OutboxRow {
        OutboxRow {
            id,
            message_id,
            created_ms,
            published_ms: None,
            lease_owner: None,
            lease_until_ms: None,
            attempts: 0,
        }
    }
}

impl TableRow for OutboxRow {
    type Column = OutboxColumn;
    fn key(&self) -> i64 {
        self.id
    }
    fn cell(&self, column: OutboxColumn) -> String {
        match column {
            OutboxColumn::Id => self.id.to_string(),
            OutboxColumn::MessageId => self.message_id.clone(),
            OutboxColumn::CreatedMs => self.created_ms.to_string(),
            OutboxColumn::PublishedMs => optional(self.published_ms.as_ref()),
            OutboxColumn::LeaseOwner => optional(self.lease_owner.as_ref()),
            OutboxColumn::LeaseUntilMs => optional(self.lease_until_ms.as_ref()),
            OutboxColumn::Attempts => self.attempts.to_string(),
        }
    }
}

/// A row of `broker.db` queue.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueueRow {
    /// Queue sequence number.
    pub seq: i64,
    /// The message's id.
    pub message_id: String,
    /// When the message is visible to a receive, ms.
    pub visible_ms: u64,
    /// Lock token or receipt handle of the current delivery.
    pub lock_token: Option<String>,
    /// Deliveries so far.
    pub delivery_count: u32,
    /// Session or message group.
    pub group_id: Option<String>,
}

impl TableRow for QueueRow {
    type Column = QueueColumn;
    fn key(&self) -> i64 {
        self.seq
    }
    fn cell(&self, column: QueueColumn) -> String {
        match column {
            QueueColumn::Seq => self.seq.to_string(),
            QueueColumn::MessageId => self.message_id.clone(),
            QueueColumn::VisibleMs => self.visible_ms.to_string(),
            QueueColumn::LockToken => optional(self.lock_token.as_ref()),
            QueueColumn::DeliveryCount => self.delivery_count.to_string(),
            QueueColumn::GroupId => optional(self.group_id.as_ref()),
        }
    }
}

/// A row of `broker.db` dlq.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DlqRow {
    /// DLQ sequence number.
    pub seq: i64,
    /// The message's id.
    pub message_id: String,
    /// Why it was dead-lettered.
    pub reason: String,
    /// The error's description.
    pub description: String,
    /// Deliveries that took place.
    pub delivery_count: u32,
    /// When it was replayed, ms.
    pub replayed_ms: Option<u64>,
}

impl TableRow for DlqRow {
    type Column = DlqColumn;
    fn key(&self) -> i64 {
        self.seq
    }
    fn cell(&self, column: DlqColumn) -> String {
        match column {
            DlqColumn::Seq => self.seq.to_string(),
            DlqColumn::MessageId => self.message_id.clone(),
            DlqColumn::Reason => self.reason.clone(),
            DlqColumn::Description => self.description.clone(),
            DlqColumn::DeliveryCount => self.delivery_count.to_string(),
            DlqColumn::ReplayedMs => optional(self.replayed_ms.as_ref()),
        }
    }
}

/// A row of `service.db` inbox.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InboxRow {
    /// Inbox marker id.
    pub id: i64,
    /// The message's id.
    pub message_id: String,
    /// The consumer (service) that keeps the marker.
    pub consumer: String,
    /// The consumer instance.
    pub instance: String,
    /// When the marker was written, ms.
    pub received_ms: u64,
    /// When processing finished, ms.
    pub processed_ms: Option<u64>,
}

impl TableRow for InboxRow {
    type Column = InboxColumn;
    fn key(&self) -> i64 {
        self.id
    }
    fn cell(&self, column: InboxColumn) -> String {
        match column {
            InboxColumn::Id => self.id.to_string(),
            InboxColumn::MessageId => self.message_id.clone(),
            InboxColumn::Consumer => self.consumer.clone(),
            InboxColumn::Instance => self.instance.clone(),
            InboxColumn::ReceivedMs => self.received_ms.to_string(),
            InboxColumn::ProcessedMs => optional(self.processed_ms.as_ref()),
        }
    }
}

/// A row of `service.db` effects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EffectRow {
    /// Effect row id.
    pub id: i64,
    /// The effect's business key.
    pub business_key: String,
    /// The order it belongs to.
    pub order_id: i64,
    /// The message that caused it.
    pub message_id: String,
    /// What kind of effect.
    pub kind: String,
    /// When it was applied, ms.
    pub applied_ms: u64,
    /// The consumer instance that applied it.
    pub instance: String,
}

impl TableRow for EffectRow {
    type Column = EffectColumn;
    fn key(&self) -> i64 {
        self.id
    }
    fn cell(&self, column: EffectColumn) -> String {
        match column {
            EffectColumn::Id => self.id.to_string(),
            EffectColumn::BusinessKey => self.business_key.clone(),
            EffectColumn::OrderId => self.order_id.to_string(),
            EffectColumn::MessageId => self.message_id.clone(),
            EffectColumn::Kind => self.kind.clone(),
            EffectColumn::AppliedMs => self.applied_ms.to_string(),
            EffectColumn::Instance => self.instance.clone(),
        }
    }
}

/// The display cells of a row, in its table's column order.
pub fn cells<R: TableRow>(row: &R) -> Vec<String> {
    R::Column::ALL.iter().map(|c| row.cell(*c)).collect()
}

/// The cells of one row of the window, read by the table's own columns.
#[derive(Debug, Clone, Copy)]
pub struct Cells<'a, C> {
    cells: &'a [String],
    column: std::marker::PhantomData<C>,
}

impl<'a, C: TableColumn> Cells<'a, C> {
    pub(super) fn new(cells: &'a [String]) -> Self {
        Cells {
            cells,
            column: std::marker::PhantomData,
        }
    }

    /// The text of one cell (empty when the row is shorter).
    pub fn get(&self, column: C) -> &'a str {
        self.cells.get(column.index()).map_or("", String::as_str)
    }

    /// True when the cell holds no text (an unset time, no lease, no lock).
    pub fn is_empty(&self, column: C) -> bool {
        self.get(column).is_empty()
    }
}

impl<C: TableColumn> Index<C> for Cells<'_, C> {
    type Output = str;
    fn index(&self, column: C) -> &str {
        self.get(column)
    }
}

#[cfg(test)]
mod tests;
