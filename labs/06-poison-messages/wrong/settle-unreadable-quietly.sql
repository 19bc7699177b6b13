-- expect: lost-order
-- An unreadable message is marked processed and settled without a credit or a DLQ entry: the
-- order disappears without a trace.
-- @schema
CREATE UNIQUE INDEX inbox_message_consumer ON inbox (message_id, consumer);

-- @check
SELECT 1 FROM inbox
 WHERE message_id = :message_id AND consumer = :consumer AND processed_ms IS NOT NULL;

-- @handle
-- A body the consumer cannot read stays unreadable: no retry helps. Dead-letter it at once,
-- with a reason for whoever owns the DLQ (dead_letter ends the section here).

BEGIN IMMEDIATE;

INSERT INTO inbox (message_id, consumer, instance, received_ms, processed_ms)
VALUES (:message_id, :consumer, :instance, :now_ms, :now_ms);

INSERT INTO effects (business_key, order_id, message_id, kind, amount_cents, payload_ok,
                     applied_ms, instance)
SELECT :business_key, :order_id, :message_id, 'credit', :amount_cents, 1, :now_ms, :instance
 WHERE :payload_error IS NULL;

COMMIT;
