-- The outbox row is written for the request's order unless the order has one already: the
-- message belongs to the order, not to the attempt.
-- @accept
BEGIN IMMEDIATE;

INSERT INTO orders (request_id, customer, amount_cents, created_ms)
VALUES (:request_id, :customer, :amount_cents, :now_ms)
ON CONFLICT (request_id) DO NOTHING;

INSERT INTO outbox (message_id, order_id, body, created_ms)
SELECT :message_id, o.id, :body, :now_ms FROM orders o
 WHERE o.request_id = :request_id
   AND NOT EXISTS (SELECT 1 FROM outbox x WHERE x.order_id = o.id);

COMMIT;
