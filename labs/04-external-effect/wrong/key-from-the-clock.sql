-- expect: duplicate-effect
-- The key is the time of the call: no two deliveries share it, so the provider cannot
-- recognise a repeat.
-- @schema
CREATE UNIQUE INDEX inbox_message_consumer ON inbox (message_id, consumer);

-- @check
SELECT 1 FROM inbox
 WHERE message_id = :message_id AND consumer = :consumer AND processed_ms IS NOT NULL;

-- @handle
BEGIN IMMEDIATE;

-- The key comes from the message: every delivery of it asks for the same payment, and the
-- provider answers a key it knows with its first charge. Called before the commit, so a
-- connection that drops after the commit cannot lose it.
SELECT charge('charge-' || :now_ms, :amount_cents);

INSERT INTO inbox (message_id, consumer, instance, received_ms, processed_ms)
VALUES (:message_id, :consumer, :instance, :now_ms, :now_ms);

INSERT INTO effects (business_key, order_id, message_id, kind, amount_cents, payload_ok,
                     applied_ms, instance)
VALUES (:business_key, :order_id, :message_id, 'charge', :amount_cents, 1, :now_ms, :instance);

COMMIT;
