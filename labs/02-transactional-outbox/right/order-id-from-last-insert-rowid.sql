-- The order's id from last_insert_rowid(), used only when the insert just before added a row
-- (changes() = 1); after DO NOTHING it would still name an earlier row.
-- @accept
BEGIN IMMEDIATE;

INSERT INTO orders (request_id, customer, amount_cents, created_ms)
VALUES (:request_id, :customer, :amount_cents, :now_ms)
ON CONFLICT (request_id) DO NOTHING;

INSERT INTO outbox (message_id, order_id, body, created_ms)
SELECT :message_id, last_insert_rowid(), :body, :now_ms
 WHERE changes() = 1;

COMMIT;
