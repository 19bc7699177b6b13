-- expect: charge-in-transaction
-- The charge with a key from the message, inside the transaction that writes the inbox row and
-- the effect: the remote call holds the database's write lock for as long as the provider takes.
-- @schema
CREATE UNIQUE INDEX inbox_message_consumer ON inbox (message_id, consumer);

-- @check
SELECT 1 FROM inbox
 WHERE message_id = :message_id AND consumer = :consumer AND processed_ms IS NOT NULL;

-- @handle
BEGIN IMMEDIATE;

SELECT charge('charge-' || :message_id, :amount_cents);

INSERT INTO inbox (message_id, consumer, instance, received_ms, processed_ms)
VALUES (:message_id, :consumer, :instance, :now_ms, :now_ms);

INSERT INTO effects (business_key, order_id, message_id, kind, amount_cents, payload_ok,
                     applied_ms, instance)
VALUES (:business_key, :order_id, :message_id, 'charge', :amount_cents, 1, :now_ms, :instance);

COMMIT;
