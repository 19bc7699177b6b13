-- expect: duplicate-effect
-- The provider's idempotency key is taken for the whole guard: the charge is not repeated, but
-- without an inbox every delivery writes the effect again.
-- @handle
SELECT charge('charge-' || :message_id, :amount_cents);

INSERT INTO effects (business_key, order_id, message_id, kind, amount_cents, payload_ok,
                     applied_ms, instance)
VALUES (:business_key, :order_id, :message_id, 'charge', :amount_cents, 1, :now_ms, :instance);
