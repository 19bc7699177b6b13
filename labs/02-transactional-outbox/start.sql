-- @accept
BEGIN IMMEDIATE;

INSERT INTO orders (request_id, customer, amount_cents, created_ms)
VALUES (:request_id, :customer, :amount_cents, :now_ms);

COMMIT;

-- The order is saved; now tell billing about it.
SELECT publish(:message_id, :body);
