-- expect: outbox-row-stuck
-- @claim
-- The row names its dispatcher: nobody else takes a row that has an owner.
UPDATE outbox
SET lease_owner = :dispatcher,
    attempts = attempts + 1
WHERE id IN (
    SELECT id FROM outbox
    WHERE published_ms IS NULL
      AND failed_reason IS NULL
      AND lease_owner IS NULL
    ORDER BY id
    LIMIT :batch)
RETURNING id, message_id, order_id, body, group_id;

-- @published
UPDATE outbox
SET published_ms = :now_ms,
    lease_owner = NULL
WHERE id = :outbox_id
  AND lease_owner = :dispatcher;
