-- expect: two-dispatchers-one-row
-- @claim
-- Write who has the rows and until when, so the table shows which dispatcher sends what.
UPDATE outbox
SET lease_owner = :dispatcher,
    lease_until_ms = :now_ms + :lease_ms,
    attempts = attempts + 1
WHERE id IN (
    SELECT id FROM outbox
    WHERE published_ms IS NULL
      AND failed_reason IS NULL
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
