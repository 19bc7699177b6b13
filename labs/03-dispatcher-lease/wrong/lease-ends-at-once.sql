-- expect: two-dispatchers-one-row
-- The lease ends the moment it is written (:now_ms, not :now_ms + :lease_ms): the next
-- dispatcher's claim takes the row while the first one still sends it.
-- @claim
-- The lease is written into the row, in the one statement that picks the rows: SQLite runs
-- one writer at a time, so a second dispatcher's claim sees this lease and skips the rows.
-- The lease ends: rows of a dispatcher that crashed go to the next claim after :lease_ms.
UPDATE outbox
SET lease_owner = :dispatcher,
    lease_until_ms = :now_ms,
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
-- Mark only while the lease is still ours: a row whose lease ran out belongs to the
-- dispatcher that claimed it next, and that one marks it after its own publish.
UPDATE outbox
SET published_ms = :now_ms,
    lease_owner = NULL,
    lease_until_ms = NULL
WHERE id = :outbox_id
  AND lease_owner = :dispatcher;
