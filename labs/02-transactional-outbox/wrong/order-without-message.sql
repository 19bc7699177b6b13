-- expect: lost-order
-- Only the order is saved, in the belief that something will announce it: nothing writes or
-- sends its message.
-- @accept
BEGIN IMMEDIATE;

INSERT INTO orders (request_id, customer, amount_cents, created_ms)
VALUES (:request_id, :customer, :amount_cents, :now_ms)
ON CONFLICT (request_id) DO NOTHING;

COMMIT;
