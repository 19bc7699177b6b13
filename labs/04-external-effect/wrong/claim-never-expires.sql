-- expect: claim-never-expires
-- A two-phase claim without an end: when the consumer that took it crashes, every later
-- delivery finds the claim and waits, until none is left.
-- @schema
CREATE UNIQUE INDEX inbox_message_consumer ON inbox (message_id, consumer);

-- @check
SELECT 1 FROM inbox
 WHERE message_id = :message_id AND consumer = :consumer AND processed_ms IS NOT NULL;

-- @handle
BEGIN IMMEDIATE;

INSERT INTO inbox (message_id, consumer, instance, received_ms)
VALUES (:message_id, :consumer, :instance, :now_ms);

COMMIT;

SELECT charge('charge-' || :message_id, :amount_cents);

BEGIN IMMEDIATE;

UPDATE inbox SET processed_ms = :now_ms
 WHERE message_id = :message_id AND consumer = :consumer AND processed_ms IS NULL;

INSERT INTO effects (business_key, order_id, message_id, kind, amount_cents, payload_ok,
                     applied_ms, instance)
SELECT :business_key, :order_id, :message_id, 'charge', :amount_cents, 1, :now_ms, :instance
 WHERE changes() = 1;

COMMIT;
