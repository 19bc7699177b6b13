-- expect: duplicate-effect
-- last_insert_rowid() after ON CONFLICT DO NOTHING: a retry that finds its order inserted
-- nothing, and the function still names the connection's last row, another order's or its own.
-- @accept
BEGIN IMMEDIATE;

INSERT INTO orders (request_id, customer, amount_cents, created_ms)
VALUES (:request_id, :customer, :amount_cents, :now_ms)
ON CONFLICT (request_id) DO NOTHING;

INSERT INTO outbox (message_id, order_id, body, created_ms)
VALUES (:message_id, last_insert_rowid(), :body, :now_ms);

COMMIT;
