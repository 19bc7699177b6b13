-- The group named in a CTE from the order row (the customer the order belongs to), for an order
-- this request inserted.
-- @schema
CREATE UNIQUE INDEX inbox_message_consumer ON inbox (message_id, consumer);

-- @accept
BEGIN IMMEDIATE;

INSERT INTO orders (request_id, customer, amount_cents, created_ms)
VALUES (:request_id, :customer, :amount_cents, :now_ms)
ON CONFLICT (request_id) DO NOTHING;

WITH o AS (SELECT id, customer AS grp FROM orders
            WHERE request_id = :request_id AND changes() = 1)
INSERT INTO outbox (message_id, order_id, body, group_id, created_ms)
SELECT :message_id, id, :body, grp, :now_ms FROM o;

COMMIT;

-- @handle
BEGIN IMMEDIATE;

INSERT INTO inbox (message_id, consumer, instance, received_ms, processed_ms)
VALUES (:message_id, :consumer, :instance, :now_ms, :now_ms);

INSERT INTO effects (business_key, order_id, message_id, kind, amount_cents, payload_ok,
                     applied_ms, instance)
VALUES (:business_key, :order_id, :message_id, 'credit', :amount_cents, 1, :now_ms, :instance);

COMMIT;
