-- expect: healthy-dead-lettered
-- @schema
CREATE UNIQUE INDEX inbox_message_consumer ON inbox (message_id, consumer);

-- @check
SELECT 1 FROM inbox
 WHERE message_id = :message_id AND consumer = :consumer AND processed_ms IS NOT NULL;

-- @handle
-- The handler keeps its own list of the versions it accepts, apart from what the consumer
-- can actually read: after the fix, a replayed message it could read goes back to the DLQ.
SELECT dead_letter('UnsupportedSchemaVersion: ' || :schema_version)
 WHERE :schema_version <> 'v1';

BEGIN IMMEDIATE;

INSERT INTO inbox (message_id, consumer, instance, received_ms, processed_ms)
VALUES (:message_id, :consumer, :instance, :now_ms, :now_ms);

INSERT INTO effects (business_key, order_id, message_id, kind, amount_cents, payload_ok,
                     applied_ms, instance)
VALUES (:business_key, :order_id, :message_id, 'credit', :amount_cents, 1, :now_ms, :instance);

COMMIT;
