-- expect: duplicate-effect
-- The order once, but an outbox row on every attempt: a client retry carries a new message id,
-- so ON CONFLICT (message_id) never fires and the retry writes a second message for the order.
-- @accept
BEGIN IMMEDIATE;

INSERT INTO orders (request_id, customer, amount_cents, created_ms)
VALUES (:request_id, :customer, :amount_cents, :now_ms)
ON CONFLICT (request_id) DO NOTHING;

INSERT INTO outbox (message_id, order_id, body, created_ms)
SELECT :message_id, id, :body, :now_ms FROM orders WHERE request_id = :request_id
ON CONFLICT (message_id) DO NOTHING;

COMMIT;
