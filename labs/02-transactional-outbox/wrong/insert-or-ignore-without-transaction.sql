-- expect: lost-order
-- INSERT OR IGNORE makes each insert safe to repeat, but without a transaction an API that
-- stops after the order leaves it without a message, and no retry comes.
-- @accept
INSERT OR IGNORE INTO orders (request_id, customer, amount_cents, created_ms)
VALUES (:request_id, :customer, :amount_cents, :now_ms);

INSERT OR IGNORE INTO outbox (message_id, order_id, body, created_ms)
SELECT :message_id, id, :body, :now_ms FROM orders WHERE request_id = :request_id;
