-- @claim
-- The next unpublished rows of the outbox, oldest first: this dispatcher's batch.
SELECT id, message_id, order_id, body, group_id
FROM outbox
WHERE published_ms IS NULL
  AND failed_reason IS NULL
ORDER BY id
LIMIT :batch;

-- @published
-- The broker has the message: the row is done.
UPDATE outbox
SET published_ms = :now_ms
WHERE id = :outbox_id;
