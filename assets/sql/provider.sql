-- provider.db: an external payment/pricing API that honours an idempotency key.
CREATE TABLE IF NOT EXISTS charges (
    id               INTEGER PRIMARY KEY,
    idempotency_key  TEXT UNIQUE,             -- NULL: the caller sent no key
    order_id         INTEGER NOT NULL,
    amount_cents     INTEGER NOT NULL,
    performed_ms     INTEGER NOT NULL
);
