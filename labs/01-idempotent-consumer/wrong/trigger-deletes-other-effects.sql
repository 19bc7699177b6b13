-- expect: duplicate-effect
-- A trigger keeps one effect per order by deleting the others: the duplicate credit happened,
-- and the engine's record keeps it.
-- @schema
CREATE TRIGGER effects_keep_one AFTER INSERT ON effects BEGIN
  DELETE FROM effects WHERE order_id = NEW.order_id AND id <> NEW.id;
END;
-- @check
SELECT 1 FROM effects WHERE message_id = :message_id;
-- @handle
INSERT INTO effects (business_key, order_id, message_id, kind, amount_cents, payload_ok,
                     applied_ms, instance)
VALUES (:business_key, :order_id, :message_id, 'credit', :amount_cents, 1, :now_ms, :instance);
