-- @accept
BEGIN IMMEDIATE;

-- A client retry with the same request id finds its order instead of failing.
INSERT INTO orders (request_id, customer, amount_cents, created_ms)
VALUES (:request_id, :customer, :amount_cents, :now_ms)
ON CONFLICT (request_id) DO NOTHING;

-- The message goes into the same transaction as the order: both rows or neither. The
-- dispatcher publishes it once it is committed; during a broker outage the row simply waits.
-- Every request brings a new message id, a client retry too, so the message belongs to the
-- order, not to the request: the row is written only when this request inserted the order
-- (changes() counts the rows of the insert just before). A retry that finds its order writes
-- no second message. The unique request_id decides which request that is, on any database.
INSERT INTO outbox (message_id, order_id, body, created_ms)
SELECT :message_id, id, :body, :now_ms FROM orders
 WHERE request_id = :request_id AND changes() = 1;

COMMIT;
