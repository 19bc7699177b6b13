-- The effect row is its own inbox: a unique index on its message id lets one credit per message
-- in, and one statement needs no transaction of its own.
-- @schema
CREATE UNIQUE INDEX effects_message ON effects (message_id);

-- @check
SELECT 1 FROM effects WHERE message_id = :message_id;

-- @handle
INSERT INTO effects (business_key, order_id, message_id, kind, amount_cents, payload_ok,
                     applied_ms, instance)
VALUES (:business_key, :order_id, :message_id, 'credit', :amount_cents, 1, :now_ms, :instance);
