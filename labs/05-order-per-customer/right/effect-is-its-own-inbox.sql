-- The group is the customer; the credit is its own inbox (a unique index on its message id).
-- @schema
CREATE UNIQUE INDEX effects_message ON effects (message_id);

-- @accept
BEGIN IMMEDIATE;

INSERT INTO orders (request_id, customer, amount_cents, created_ms)
VALUES (:request_id, :customer, :amount_cents, :now_ms)
ON CONFLICT (request_id) DO NOTHING;

INSERT INTO outbox (message_id, order_id, body, group_id, created_ms)
SELECT :message_id, id, :body, :customer, :now_ms FROM orders
 WHERE request_id = :request_id AND changes() = 1;

COMMIT;

-- @handle
INSERT INTO effects (business_key, order_id, message_id, kind, amount_cents, payload_ok,
                     applied_ms, instance)
VALUES (:business_key, :order_id, :message_id, 'credit', :amount_cents, 1, :now_ms, :instance);
