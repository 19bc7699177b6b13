-- service.db: the service's own database. Orders and their outbox rows commit together;
-- the inbox and the effects commit together (safe mode). The broker is NOT in this file:
-- the two share no transaction, which is the whole reason the outbox exists.
CREATE TABLE IF NOT EXISTS orders (
    id            INTEGER PRIMARY KEY,
    request_id    TEXT    NOT NULL UNIQUE,   -- the client's stable id: a retry finds the same order
    customer      TEXT    NOT NULL,
    amount_cents  INTEGER NOT NULL,
    created_ms    INTEGER NOT NULL
);

CREATE TABLE IF NOT EXISTS outbox (
    id             INTEGER PRIMARY KEY,
    message_id     TEXT    NOT NULL UNIQUE,
    order_id       INTEGER NOT NULL REFERENCES orders(id),
    body           TEXT    NOT NULL,          -- small payload or a claim-check reference
    blob_key       TEXT,                      -- claim-check: unpredictable blob name
    blob_sha256    TEXT,                      -- claim-check: checksum verified on read
    group_id       TEXT,                      -- session id / MessageGroupId
    created_ms     INTEGER NOT NULL,
    published_ms   INTEGER,
    lease_owner    TEXT,                      -- SQLite has no SKIP LOCKED: a lease instead
    lease_until_ms INTEGER,
    attempts       INTEGER NOT NULL DEFAULT 0,
    failed_reason  TEXT
);
CREATE INDEX IF NOT EXISTS outbox_unpublished ON outbox(id) WHERE published_ms IS NULL;

CREATE TABLE IF NOT EXISTS inbox (
    id            INTEGER PRIMARY KEY,
    message_id    TEXT    NOT NULL,
    consumer      TEXT    NOT NULL,           -- the logical consumer (not the instance)
    instance      TEXT    NOT NULL,           -- which instance wrote the marker
    received_ms   INTEGER NOT NULL,
    processed_ms  INTEGER                     -- NULL while only claimed (two-phase claim)
);

CREATE TABLE IF NOT EXISTS effects (
    id            INTEGER PRIMARY KEY,
    business_key  TEXT    NOT NULL UNIQUE,    -- e.g. the credit note number: its own uniqueness
    order_id      INTEGER NOT NULL,
    message_id    TEXT    NOT NULL,
    kind          TEXT    NOT NULL,
    amount_cents  INTEGER NOT NULL,
    payload_ok    INTEGER NOT NULL,           -- 0 when a claim-check payload was not verified
    applied_ms    INTEGER NOT NULL,
    instance      TEXT    NOT NULL
);
CREATE INDEX IF NOT EXISTS effects_order ON effects(order_id);

CREATE TABLE IF NOT EXISTS receipts (
    id            INTEGER PRIMARY KEY,
    message_id    TEXT    NOT NULL,
    instance      TEXT    NOT NULL,
    outcome       TEXT    NOT NULL,           -- applied (with its effect) | duplicate (recognised by the inbox, not applied)
    at_ms         INTEGER NOT NULL
);
