-- @schema
CREATE UNIQUE INDEX inbox_message_consumer ON inbox (message_id, consumer);

-- @accept
BEGIN IMMEDIATE;

INSERT INTO orders (request_id, customer, amount_cents, created_ms)
VALUES (:request_id, :customer, :amount_cents, :now_ms)
ON CONFLICT (request_id) DO NOTHING;

COMMIT;

-- The order is saved; now tell billing about it.
SELECT publish(:message_id, :body);

-- @handle
-- Inbox row and credit in one transaction (lab 1): a repeated message hits the unique index.
BEGIN IMMEDIATE;

INSERT INTO inbox (message_id, consumer, instance, received_ms, processed_ms)
VALUES (:message_id, :consumer, :instance, :now_ms, :now_ms);

INSERT INTO effects (business_key, order_id, message_id, kind, amount_cents, payload_ok,
                     applied_ms, instance)
VALUES (:business_key, :order_id, :message_id, 'credit', :amount_cents, 1, :now_ms, :instance);

COMMIT;
