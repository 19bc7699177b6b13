-- expect: lost-order
-- The order on its own, then a direct publish: an API that stops between the two has saved an
-- order no message carries.
-- @accept
INSERT INTO orders (request_id, customer, amount_cents, created_ms)
VALUES (:request_id, :customer, :amount_cents, :now_ms)
ON CONFLICT (request_id) DO NOTHING;

SELECT publish(:message_id, :body) WHERE :request_id IS NOT NULL;
