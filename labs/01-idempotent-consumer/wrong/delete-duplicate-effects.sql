-- expect: duplicate-effect
-- A second credit is cleaned up after the fact: the last statement deletes every older effect
-- of the order. The credit happened all the same; deleting its row does not undo it.
-- @schema
CREATE UNIQUE INDEX inbox_message_consumer ON inbox (message_id, consumer);
-- @check
SELECT 1 FROM effects WHERE message_id = :message_id;
-- @handle
INSERT INTO effects (business_key, order_id, message_id, kind, amount_cents, payload_ok,
                     applied_ms, instance)
VALUES (:business_key, :order_id, :message_id, 'credit', :amount_cents, 1, :now_ms, :instance);
DELETE FROM effects WHERE order_id = :order_id AND id < (SELECT max(id) FROM effects WHERE order_id = :order_id);
