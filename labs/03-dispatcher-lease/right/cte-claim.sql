-- The candidates in a CTE, leased in the one statement that picks them.
-- @claim
WITH free AS (
    SELECT id FROM outbox
     WHERE published_ms IS NULL
       AND failed_reason IS NULL
       AND coalesce(lease_until_ms, 0) <= :now_ms
     ORDER BY id
     LIMIT :batch)
UPDATE outbox
SET lease_owner = :dispatcher,
    lease_until_ms = :now_ms + :lease_ms,
    attempts = attempts + 1
WHERE id IN (SELECT id FROM free)
RETURNING id, message_id, order_id, body, group_id;

-- @published
UPDATE outbox
SET published_ms = :now_ms,
    lease_owner = NULL,
    lease_until_ms = NULL
WHERE id = :outbox_id
  AND lease_owner = :dispatcher;
