-- A table of its own for the processed messages (its primary key is the guard), and the credit
-- written from a CTE that names the delivery once.
-- @schema
CREATE TABLE processed_messages (
    message_id   TEXT PRIMARY KEY,
    processed_ms INTEGER NOT NULL
);

-- @check
SELECT 1 FROM processed_messages WHERE message_id = :message_id;

-- @handle
SELECT dead_letter('UnsupportedSchemaVersion: ' || :payload_error)
 WHERE :payload_error IS NOT NULL;

BEGIN IMMEDIATE;

INSERT INTO processed_messages (message_id, processed_ms) VALUES (:message_id, :now_ms);

WITH delivery AS (SELECT :message_id AS message_id, :order_id AS order_id)
INSERT INTO effects (business_key, order_id, message_id, kind, amount_cents, payload_ok,
                     applied_ms, instance)
SELECT :business_key, order_id, message_id, 'credit', :amount_cents, 1, :now_ms, :instance
  FROM delivery;

COMMIT;
