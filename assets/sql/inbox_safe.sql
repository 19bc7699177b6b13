-- Safe mode: the database decides about duplicates. SQLite reports a violation as
-- "UNIQUE constraint failed: inbox.message_id, inbox.consumer" (extended code 2067).
CREATE UNIQUE INDEX IF NOT EXISTS inbox_message_consumer ON inbox(message_id, consumer);
