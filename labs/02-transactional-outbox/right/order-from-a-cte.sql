-- The request named once in a CTE, both rows in one transaction; the outbox row only for an
-- order this request inserted.
-- @accept
BEGIN IMMEDIATE;

WITH req AS (SELECT :request_id AS request_id, :customer AS customer, :amount_cents AS amount)
INSERT INTO orders (request_id, customer, amount_cents, created_ms)
SELECT request_id, customer, amount, :now_ms FROM req WHERE true
ON CONFLICT (request_id) DO NOTHING;

WITH mine AS (SELECT id FROM orders WHERE request_id = :request_id AND changes() = 1)
INSERT INTO outbox (message_id, order_id, body, created_ms)
SELECT :message_id, id, :body, :now_ms FROM mine;

COMMIT;
