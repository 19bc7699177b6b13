-- expect: healthy-dead-lettered
-- A message that comes back is taken for poison: but a healthy message fails for a moment too
-- (a database briefly unreachable) and comes back, and is then dead-lettered, never credited.
-- @schema
CREATE UNIQUE INDEX inbox_message_consumer ON inbox (message_id, consumer);

-- @check
SELECT 1 FROM inbox
 WHERE message_id = :message_id AND consumer = :consumer AND processed_ms IS NOT NULL;

-- @handle
SELECT dead_letter('UnsupportedSchemaVersion or retried: ' || coalesce(:payload_error, 'delivery ' || :delivery_count))
 WHERE :payload_error IS NOT NULL OR :delivery_count > 1;

BEGIN IMMEDIATE;

INSERT INTO inbox (message_id, consumer, instance, received_ms, processed_ms)
VALUES (:message_id, :consumer, :instance, :now_ms, :now_ms);

INSERT INTO effects (business_key, order_id, message_id, kind, amount_cents, payload_ok,
                     applied_ms, instance)
VALUES (:business_key, :order_id, :message_id, 'credit', :amount_cents, 1, :now_ms, :instance);

COMMIT;
