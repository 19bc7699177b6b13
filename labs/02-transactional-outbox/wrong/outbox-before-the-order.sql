-- expect: lost-order
-- The outbox row is written before the order exists: its SELECT finds no order, so the
-- transaction commits an order without a message.
-- @accept
BEGIN IMMEDIATE;


-- The message goes into the same transaction as the order: both rows or neither. The
-- dispatcher publishes it once it is committed; during a broker outage the row simply waits.
INSERT INTO outbox (message_id, order_id, body, created_ms)
SELECT :message_id, id, :body, :now_ms FROM orders WHERE request_id = :request_id
ON CONFLICT (message_id) DO NOTHING;

INSERT INTO orders (request_id, customer, amount_cents, created_ms)
VALUES (:request_id, :customer, :amount_cents, :now_ms)
ON CONFLICT (request_id) DO NOTHING;

COMMIT;
