-- @claim
-- The lease is written into the row, in the one statement that picks the rows, so a second
-- dispatcher's claim sees this lease and skips the rows. The lease ends: rows of a dispatcher
-- that crashed go to the next claim after :lease_ms. The free-row test is repeated on the
-- row being updated: SQLite runs one writer at a time and would not need it, but PostgreSQL
-- and SQL Server under READ COMMITTED re-check the UPDATE's own WHERE on a row another
-- dispatcher just leased, and skip it.
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
    LIMIT :batch)
  AND published_ms IS NULL
  AND (lease_until_ms IS NULL OR lease_until_ms <= :now_ms)
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
