-- expect: lost-order
-- The order and its outbox row, each committed on its own: the API that crashes between the
-- two leaves an order no message will ever carry.
-- @accept
INSERT INTO orders (request_id, customer, amount_cents, created_ms)
VALUES (:request_id, :customer, :amount_cents, :now_ms)
ON CONFLICT (request_id) DO NOTHING;

INSERT INTO outbox (message_id, order_id, body, created_ms)
SELECT :message_id, id, :body, :now_ms FROM orders WHERE request_id = :request_id
ON CONFLICT (message_id) DO NOTHING;
