-- The outbox row is written only when this request inserted the order (changes() counts the
-- rows of the last insert): a retry that finds its order writes no second message.
-- @accept
BEGIN IMMEDIATE;

INSERT INTO orders (request_id, customer, amount_cents, created_ms)
VALUES (:request_id, :customer, :amount_cents, :now_ms)
ON CONFLICT (request_id) DO NOTHING;

INSERT INTO outbox (message_id, order_id, body, created_ms)
SELECT :message_id, id, :body, :now_ms FROM orders
 WHERE request_id = :request_id AND changes() = 1;

COMMIT;
