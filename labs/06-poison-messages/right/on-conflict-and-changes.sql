-- The inbox insert skips a message it has already seen (ON CONFLICT DO NOTHING), and the credit
-- is written only when that insert added a row: changes() counts the rows of the last insert.
-- @schema
CREATE UNIQUE INDEX inbox_message_consumer ON inbox (message_id, consumer);

-- @check
SELECT 1 FROM inbox
 WHERE message_id = :message_id AND consumer = :consumer AND processed_ms IS NOT NULL;

-- @handle
SELECT dead_letter('UnsupportedSchemaVersion: ' || :payload_error)
 WHERE :payload_error IS NOT NULL;

BEGIN IMMEDIATE;

INSERT INTO inbox (message_id, consumer, instance, received_ms, processed_ms)
VALUES (:message_id, :consumer, :instance, :now_ms, :now_ms)
ON CONFLICT (message_id, consumer) DO NOTHING;

INSERT INTO effects (business_key, order_id, message_id, kind, amount_cents, payload_ok,
                     applied_ms, instance)
SELECT :business_key, :order_id, :message_id, 'credit', :amount_cents, 1, :now_ms, :instance
 WHERE changes() = 1;

COMMIT;
