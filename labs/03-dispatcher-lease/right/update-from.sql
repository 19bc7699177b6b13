-- The rows picked in a subquery joined with UPDATE … FROM, the lease written in the same
-- statement that picks them.
-- @claim
UPDATE outbox
SET lease_owner = :dispatcher,
    lease_until_ms = :now_ms + :lease_ms,
    attempts = outbox.attempts + 1
FROM (SELECT id AS pick_id FROM outbox
       WHERE published_ms IS NULL
         AND failed_reason IS NULL
         AND (lease_until_ms IS NULL OR lease_until_ms <= :now_ms)
       ORDER BY id
       LIMIT :batch) AS pick
WHERE outbox.id = pick.pick_id
RETURNING id, message_id, order_id, body, group_id;

-- @published
UPDATE outbox
SET published_ms = :now_ms,
    lease_owner = NULL,
    lease_until_ms = NULL
WHERE id = :outbox_id
  AND lease_owner = :dispatcher;
