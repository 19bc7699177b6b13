-- The effect row is its own inbox (a unique index on its message id); the charge before it,
-- keyed by the message, outside any transaction.
-- @schema
CREATE UNIQUE INDEX effects_message ON effects (message_id);

-- @check
SELECT 1 FROM effects WHERE message_id = :message_id;

-- @handle
SELECT charge('charge-' || :message_id, :amount_cents);

INSERT INTO effects (business_key, order_id, message_id, kind, amount_cents, payload_ok,
                     applied_ms, instance)
VALUES (:business_key, :order_id, :message_id, 'charge', :amount_cents, 1, :now_ms, :instance);
