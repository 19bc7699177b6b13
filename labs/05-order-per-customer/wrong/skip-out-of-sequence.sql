-- expect: lost-order
-- @schema
CREATE UNIQUE INDEX inbox_message_consumer ON inbox (message_id, consumer);

-- @accept
-- The order and its message in one transaction (lab 2); the dispatcher sends the row.
BEGIN IMMEDIATE;

INSERT INTO orders (request_id, customer, amount_cents, created_ms)
VALUES (:request_id, :customer, :amount_cents, :now_ms)
ON CONFLICT (request_id) DO NOTHING;

INSERT INTO outbox (message_id, order_id, body, created_ms)
SELECT :message_id, id, :body, :now_ms FROM orders
 WHERE request_id = :request_id AND changes() = 1;

COMMIT;

-- @handle
-- Order is the handler's business: an order that overtook an earlier order of the same
-- customer is marked as processed without its credit, so it cannot come out of order.
BEGIN IMMEDIATE;

INSERT INTO inbox (message_id, consumer, instance, received_ms, processed_ms)
VALUES (:message_id, :consumer, :instance, :now_ms, :now_ms);

INSERT INTO effects (business_key, order_id, message_id, kind, amount_cents, payload_ok,
                     applied_ms, instance)
SELECT :business_key, :order_id, :message_id, 'credit', :amount_cents, 1, :now_ms, :instance
 WHERE NOT EXISTS (
       SELECT 1 FROM orders earlier
         JOIN orders mine ON mine.id = :order_id
        WHERE earlier.customer = mine.customer
          AND earlier.id < mine.id
          AND NOT EXISTS (SELECT 1 FROM effects e WHERE e.order_id = earlier.id));

COMMIT;
