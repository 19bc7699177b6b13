-- broker.db: the message broker's own storage (Azure Service Bus or Amazon SQS profile).
CREATE TABLE IF NOT EXISTS queue (
    seq              INTEGER PRIMARY KEY AUTOINCREMENT, -- broker sequence number, never reused
    message_id       TEXT    NOT NULL,        -- the broker's MessageId (new for a sound DLQ replay)
    logical_id       TEXT    NOT NULL,        -- the envelope's message id: what the inbox deduplicates on
    order_id         INTEGER NOT NULL,
    body             TEXT    NOT NULL,
    enqueued_ms      INTEGER NOT NULL,
    visible_ms       INTEGER NOT NULL,        -- visible at (SQS) / lock until (Service Bus)
    locked_until_ms  INTEGER,
    lock_token       TEXT,                    -- lock token / receipt handle
    delivery_count   INTEGER NOT NULL DEFAULT 0,
    group_id         TEXT,                    -- session id / MessageGroupId
    dedup_id         TEXT,
    attempt          INTEGER NOT NULL DEFAULT 1 -- the consumer's own attempt counter (an application property of a scheduled copy)
);
CREATE INDEX IF NOT EXISTS queue_group ON queue(group_id, seq);

CREATE TABLE IF NOT EXISTS dlq (
    seq              INTEGER PRIMARY KEY AUTOINCREMENT,
    message_id       TEXT    NOT NULL,        -- the broker's MessageId
    logical_id       TEXT    NOT NULL,        -- the envelope's message id, kept by a replay
    order_id         INTEGER NOT NULL,
    body             TEXT    NOT NULL,
    reason           TEXT    NOT NULL,        -- DeadLetterReason (Service Bus); '' on SQS
    description      TEXT    NOT NULL,        -- DeadLetterErrorDescription; '' on SQS
    delivery_count   INTEGER NOT NULL,
    dead_lettered_ms INTEGER NOT NULL,
    replayed_ms      INTEGER,                 -- the replay tool completed the entry (sent a copy)
    group_id         TEXT,                    -- session id / MessageGroupId, kept for a replay
    dedup_id         TEXT                     -- the deduplication id it was sent with
);

CREATE TABLE IF NOT EXISTS dedup (
    dedup_id         TEXT    PRIMARY KEY,     -- MessageId (Service Bus) / deduplication id (SQS FIFO)
    first_seen_ms    INTEGER NOT NULL
);
