-- The message id derived from the request, not taken from it: every attempt of one request
-- names the same message, and the unique message_id keeps one row.
-- @accept
BEGIN IMMEDIATE;

INSERT INTO orders (request_id, customer, amount_cents, created_ms)
VALUES (:request_id, :customer, :amount_cents, :now_ms)
ON CONFLICT (request_id) DO NOTHING;

INSERT INTO outbox (message_id, order_id, body, created_ms)
SELECT 'order-' || request_id, id, :body, :now_ms FROM orders WHERE request_id = :request_id
ON CONFLICT (message_id) DO NOTHING;

COMMIT;
