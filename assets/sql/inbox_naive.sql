-- Naive mode: the same columns, but only a plain index. The application checks first
-- and inserts later; two instances can both pass the check.
CREATE INDEX IF NOT EXISTS inbox_message_consumer ON inbox(message_id, consumer);
