-- expect: lost-order
-- @accept
BEGIN IMMEDIATE;

INSERT INTO orders (request_id, customer, amount_cents, created_ms)
VALUES (:request_id, :customer, :amount_cents, :now_ms);

COMMIT;

-- The outbox row in its own short transaction, right after the order.
BEGIN IMMEDIATE;

INSERT INTO outbox (message_id, order_id, body, created_ms)
SELECT :message_id, id, :body, :now_ms FROM orders WHERE request_id = :request_id;

COMMIT;
