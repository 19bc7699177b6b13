-- expect: outbox-row-stuck
-- Every dispatcher writes the same owner ('taken'), so a mark cannot tell whose lease it is:
-- a dispatcher marks a row another one has taken over.
-- @claim
UPDATE outbox
SET lease_owner = 'taken',
    lease_until_ms = :now_ms + :lease_ms,
    attempts = attempts + 1
WHERE id IN (
    SELECT id FROM outbox
    WHERE published_ms IS NULL
      AND failed_reason IS NULL
      AND (lease_until_ms IS NULL OR lease_until_ms <= :now_ms)
    ORDER BY id
    LIMIT :batch)
RETURNING id, message_id, order_id, body, group_id;

-- @published
UPDATE outbox
SET published_ms = :now_ms,
    lease_owner = NULL,
    lease_until_ms = NULL
WHERE id = :outbox_id
  AND lease_owner = 'taken';
