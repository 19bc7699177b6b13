-- expect: lost-order
-- @schema
CREATE UNIQUE INDEX inbox_message_consumer ON inbox (message_id, consumer);

-- @check
SELECT 1 FROM inbox
 WHERE message_id = :message_id AND consumer = :consumer AND processed_ms IS NOT NULL;

-- @handle
-- "Never let one bad message block the queue": skip what cannot be read and settle it.
BEGIN IMMEDIATE;

INSERT INTO inbox (message_id, consumer, instance, received_ms, processed_ms)
SELECT :message_id, :consumer, :instance, :now_ms, :now_ms
 WHERE :payload_error IS NULL;

INSERT INTO effects (business_key, order_id, message_id, kind, amount_cents, payload_ok,
                     applied_ms, instance)
SELECT :business_key, :order_id, :message_id, 'credit', :amount_cents, 1, :now_ms, :instance
 WHERE :payload_error IS NULL;

COMMIT;
