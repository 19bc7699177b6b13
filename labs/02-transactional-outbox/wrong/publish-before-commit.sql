-- expect: published-without-order
-- @accept
BEGIN IMMEDIATE;

INSERT INTO orders (request_id, customer, amount_cents, created_ms)
VALUES (:request_id, :customer, :amount_cents, :now_ms)
ON CONFLICT (request_id) DO NOTHING;

-- Publish inside the transaction: if the broker is down, the statement fails and the
-- order rolls back with it, so no order is saved without its message.
SELECT publish(:message_id, :body);

COMMIT;
