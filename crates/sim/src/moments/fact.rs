//! Facts the engine notes while it executes an event: the exact things the metrics count
//! (which order got an effect, which message was dropped as a duplicate, ...). Batch events
//! (a publish of ten rows, a DLQ replay) carry one fact per message, so the story layer never
//! has to guess from a caption which messages an event concerned.

/// What recognised a duplicate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Guard {
    /// The consumer's existence check found the inbox row.
    InboxCheck,
    /// The unique index on (`message_id`, `consumer`) refused the second inbox row.
    UniqueIndex,
    /// The unique index refused the marker, but the effect was already committed outside the
    /// transaction (the ExecuteUpdate pitfall): prevented on paper only.
    MarkerOnly,
    /// The provider recognised the idempotency key.
    IdempotencyKey,
    /// The broker's duplicate detection dropped a republished copy.
    BrokerDedup,
}

/// Why an accepted order can no longer get an effect.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Loss {
    /// The API published inside the request while the broker was down (no outbox row).
    DirectPublishFailed,
    /// A lab's `@accept` saved the order and ended without an outbox row and without its
    /// message sent (the request died after the commit, or failed on a retry).
    NoMessage,
    /// The message was settled before the commit, then the connection dropped.
    SettledBeforeCommit,
    /// Processing failed after the message was already settled.
    FailedAfterSettle,
    /// The dispatcher gave up on a message the broker will never accept.
    GaveUp,
    /// A DLQ replay kept its `MessageId`: duplicate detection dropped it, and the resubmit
    /// tool completed the DLQ entry.
    ReplayDropped,
}

/// One thing that happened inside an event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fact {
    /// The API committed order `order` with its message (and outbox row, unless published directly).
    Accepted {
        /// Order id in `service.db`.
        order: i64,
        /// The order's message id.
        message_id: String,
        /// Its outbox row id.
        outbox_id: Option<i64>,
    },
    /// A consumer received a message (delivery count from 1).
    Received {
        /// The message.
        message_id: String,
        /// Queue row.
        seq: i64,
        /// Delivery count.
        delivery: u32,
    },
    /// The broker put a second copy of the message into the queue.
    Copied {
        /// The message.
        message_id: String,
    },
    /// The message was sent twice (a producer's retry after a lost acknowledgement) and the
    /// broker kept both sends as two messages.
    SentTwice {
        /// The message.
        message_id: String,
    },
    /// An effect row was written.
    Effect {
        /// Order id.
        order: i64,
        /// The message whose delivery wrote it.
        message_id: String,
    },
    /// The provider performed a new charge.
    Charged {
        /// Order id.
        order: i64,
        /// The message whose delivery caused it.
        message_id: String,
    },
    /// The consumer lost its connection while holding the message.
    ConnectionLost {
        /// The message.
        message_id: String,
    },
    /// The lock / visibility timeout of queue row `seq` ran out.
    LockExpired {
        /// Queue row.
        seq: i64,
    },
    /// A duplicate was recognised and not applied.
    Prevented {
        /// The message.
        message_id: String,
        /// What recognised it.
        guard: Guard,
    },
    /// The message moved to the DLQ.
    DeadLettered {
        /// The message.
        message_id: String,
        /// The error description stored with it.
        description: String,
        /// The delivery count stored with the DLQ entry (`broker.db`, the triage view): the
        /// one count a moment may state.
        delivery_count: u32,
    },
    /// A settle was refused because the lock / visibility timeout had passed.
    LockLost {
        /// The message.
        message_id: String,
    },
    /// The order can no longer get an effect.
    Lost {
        /// The message.
        message_id: String,
        /// Why.
        loss: Loss,
    },
    /// The operator replayed the message from the DLQ.
    Replayed {
        /// The message.
        message_id: String,
        /// The new message id it was sent under, when the operator gave it one.
        as_id: Option<String>,
    },
    /// The dispatcher measured the age of the oldest unpublished outbox row.
    OutboxLag {
        /// That row.
        outbox_id: i64,
        /// Its age, ms.
        age_ms: u64,
    },
    /// The sweeper removed inbox markers past their retention.
    MarkersSwept {
        /// How many.
        count: u64,
        /// The retention, ms.
        retention_ms: u64,
    },
}
