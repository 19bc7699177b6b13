-- expect: out-of-order
-- The inbox row first, the credit second, each committed on its own: a crash between them
-- leaves a message processed without its credit, and the customer's next order is credited
-- ahead of the one that lost its credit.
-- @schema
CREATE UNIQUE INDEX inbox_message_consumer ON inbox (message_id, consumer);

-- @accept
-- The order and its message in one transaction (lab 2); the dispatcher sends the row.
BEGIN IMMEDIATE;

INSERT INTO orders (request_id, customer, amount_cents, created_ms)
VALUES (:request_id, :customer, :amount_cents, :now_ms)
ON CONFLICT (request_id) DO NOTHING;

-- The group is the customer: their orders queue up one behind the other in one session /
-- message group, while the other customer's orders run beside them. The dispatcher sends
-- group_id as the SessionId (Service Bus) or MessageGroupId (SQS FIFO).
INSERT INTO outbox (message_id, order_id, body, group_id, created_ms)
SELECT :message_id, id, :body, :customer, :now_ms FROM orders
 WHERE request_id = :request_id AND changes() = 1;

COMMIT;

-- @handle

INSERT INTO inbox (message_id, consumer, instance, received_ms, processed_ms)
VALUES (:message_id, :consumer, :instance, :now_ms, :now_ms);

INSERT INTO effects (business_key, order_id, message_id, kind, amount_cents, payload_ok,
                     applied_ms, instance)
VALUES (:business_key, :order_id, :message_id, 'credit', :amount_cents, 1, :now_ms, :instance);
