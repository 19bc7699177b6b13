-- @schema
CREATE UNIQUE INDEX inbox_message_consumer ON inbox (message_id, consumer);

-- @check
SELECT 1 FROM inbox
 WHERE message_id = :message_id AND consumer = :consumer AND processed_ms IS NOT NULL;

-- @handle
-- Phase 1: commit a claim. A claim older than the lease belongs to a consumer that crashed and
-- may be taken over; a live claim or a processed row makes the insert fail (UNIQUE), and the
-- engine settles a duplicate or lets a claim in progress wait.
BEGIN IMMEDIATE;

DELETE FROM inbox
 WHERE message_id = :message_id AND consumer = :consumer
   AND processed_ms IS NULL AND received_ms <= :now_ms - :claim_lease_ms;

INSERT INTO inbox (message_id, consumer, instance, received_ms)
VALUES (:message_id, :consumer, :instance, :now_ms);

COMMIT;

-- Phase 2: the provider, outside any transaction, keyed by the message: a delivery that takes
-- the claim over asks for the same payment and gets the first charge back.
SELECT charge('charge-' || :message_id, :amount_cents);

-- Phase 3: the effect and processed_ms commit together, and only on a claim nobody finished.
BEGIN IMMEDIATE;

UPDATE inbox SET processed_ms = :now_ms
 WHERE message_id = :message_id AND consumer = :consumer AND processed_ms IS NULL;

INSERT INTO effects (business_key, order_id, message_id, kind, amount_cents, payload_ok,
                     applied_ms, instance)
SELECT :business_key, :order_id, :message_id, 'charge', :amount_cents, 1, :now_ms, :instance
 WHERE changes() = 1;

COMMIT;
