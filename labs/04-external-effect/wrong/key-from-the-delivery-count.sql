-- expect: duplicate-effect
-- The message id plus the delivery count: stable within one delivery, new at the next.
-- @schema
CREATE UNIQUE INDEX inbox_message_consumer ON inbox (message_id, consumer);

-- @check
SELECT 1 FROM inbox
 WHERE message_id = :message_id AND consumer = :consumer AND processed_ms IS NOT NULL;

-- @handle
BEGIN IMMEDIATE;

DELETE FROM inbox
 WHERE message_id = :message_id AND consumer = :consumer
   AND processed_ms IS NULL AND received_ms <= :now_ms - :claim_lease_ms;

INSERT INTO inbox (message_id, consumer, instance, received_ms)
VALUES (:message_id, :consumer, :instance, :now_ms);

COMMIT;

SELECT charge(:message_id || '-' || :delivery_count, :amount_cents);

BEGIN IMMEDIATE;

UPDATE inbox SET processed_ms = :now_ms
 WHERE message_id = :message_id AND consumer = :consumer AND processed_ms IS NULL;

INSERT INTO effects (business_key, order_id, message_id, kind, amount_cents, payload_ok,
                     applied_ms, instance)
SELECT :business_key, :order_id, :message_id, 'charge', :amount_cents, 1, :now_ms, :instance
 WHERE changes() = 1;

COMMIT;
