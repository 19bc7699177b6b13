-- expect: lost-order
-- The order commits, then the message is published directly: during an outage the publish
-- fails after the commit and nothing ever sends it.
-- @accept
BEGIN IMMEDIATE;

INSERT INTO orders (request_id, customer, amount_cents, created_ms)
VALUES (:request_id, :customer, :amount_cents, :now_ms)
ON CONFLICT (request_id) DO NOTHING;

COMMIT;

SELECT publish(:message_id, :body);
