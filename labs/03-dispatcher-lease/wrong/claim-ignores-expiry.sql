-- expect: outbox-row-stuck
-- The claim takes only rows without an owner and never looks at the lease's end: the rows of
-- a dispatcher that crashed keep its lease for ever.
-- @claim
UPDATE outbox
SET lease_owner = :dispatcher,
    lease_until_ms = :now_ms + :lease_ms,
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
    lease_owner = NULL,
    lease_until_ms = NULL
WHERE id = :outbox_id
  AND lease_owner = :dispatcher;
