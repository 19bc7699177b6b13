-- expect: dead-letter-without-reason
-- @schema
CREATE UNIQUE INDEX inbox_message_consumer ON inbox (message_id, consumer);

-- @check
SELECT 1 FROM inbox
 WHERE message_id = :message_id AND consumer = :consumer AND processed_ms IS NOT NULL;

-- @handle
-- Dead-lettered at once, but with nothing for whoever empties the DLQ.
SELECT dead_letter('') WHERE :payload_error IS NOT NULL;

BEGIN IMMEDIATE;

INSERT INTO inbox (message_id, consumer, instance, received_ms, processed_ms)
VALUES (:message_id, :consumer, :instance, :now_ms, :now_ms);

INSERT INTO effects (business_key, order_id, message_id, kind, amount_cents, payload_ok,
                     applied_ms, instance)
VALUES (:business_key, :order_id, :message_id, 'credit', :amount_cents, 1, :now_ms, :instance);

COMMIT;
