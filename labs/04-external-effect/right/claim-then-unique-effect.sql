-- A two-phase claim whose effect row guards itself: a unique index on the effect's message id
-- lets phase 3 insert without asking whether the claim is still its own; a second effect fails
-- as a duplicate the engine's ledger confirms.
-- @schema
CREATE UNIQUE INDEX inbox_message_consumer ON inbox (message_id, consumer);
CREATE UNIQUE INDEX effects_message ON effects (message_id);

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

SELECT charge('charge-' || :message_id, :amount_cents);

BEGIN IMMEDIATE;

INSERT INTO effects (business_key, order_id, message_id, kind, amount_cents, payload_ok,
                     applied_ms, instance)
VALUES (:business_key, :order_id, :message_id, 'charge', :amount_cents, 1, :now_ms, :instance);

UPDATE inbox SET processed_ms = :now_ms
 WHERE message_id = :message_id AND consumer = :consumer;

COMMIT;
