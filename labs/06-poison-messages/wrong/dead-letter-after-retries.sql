-- expect: poison-retried
-- The unreadable message is given three deliveries before it is dead-lettered: no retry can
-- read an unknown schema version, so the retries only spend time and the delivery limit.
-- @schema
CREATE UNIQUE INDEX inbox_message_consumer ON inbox (message_id, consumer);

-- @check
SELECT 1 FROM inbox
 WHERE message_id = :message_id AND consumer = :consumer AND processed_ms IS NOT NULL;

-- @handle
-- A body the consumer cannot read stays unreadable: no retry helps. Dead-letter it at once,
-- with a reason for whoever owns the DLQ (dead_letter ends the section here).
SELECT dead_letter('UnsupportedSchemaVersion: ' || :payload_error)
 WHERE :payload_error IS NOT NULL AND :delivery_count >= 3;

BEGIN IMMEDIATE;

INSERT INTO inbox (message_id, consumer, instance, received_ms, processed_ms)
VALUES (:message_id, :consumer, :instance, :now_ms, :now_ms);

INSERT INTO effects (business_key, order_id, message_id, kind, amount_cents, payload_ok,
                     applied_ms, instance)
VALUES (:business_key, :order_id, :message_id, 'credit', :amount_cents, 1, :now_ms, :instance);

COMMIT;
