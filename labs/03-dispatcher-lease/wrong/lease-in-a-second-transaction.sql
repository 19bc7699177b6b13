-- expect: two-dispatchers-one-row
-- The batch read in one transaction, the lease written in another: between the two commits a
-- second dispatcher reads the same rows.
-- @claim
BEGIN IMMEDIATE;
SELECT id, message_id, order_id, body, group_id FROM outbox
WHERE published_ms IS NULL
  AND failed_reason IS NULL
  AND (lease_until_ms IS NULL OR lease_until_ms <= :now_ms)
ORDER BY id
LIMIT :batch;
COMMIT;

BEGIN IMMEDIATE;
UPDATE outbox
SET lease_owner = :dispatcher,
    lease_until_ms = :now_ms + :lease_ms,
    attempts = attempts + 1
WHERE id IN (
    SELECT id FROM outbox
    WHERE published_ms IS NULL
      AND failed_reason IS NULL
      AND (lease_until_ms IS NULL OR lease_until_ms <= :now_ms)
    ORDER BY id
    LIMIT :batch);
COMMIT;

-- @published
UPDATE outbox
SET published_ms = :now_ms,
    lease_owner = NULL,
    lease_until_ms = NULL
WHERE id = :outbox_id
  AND lease_owner = :dispatcher;
