-- Opt-in: give n8n's table a created_at column (`memory-pipeline add-time-column`).
-- Added without a default first, so existing rows stay NULL (the legacy backlog, ordered by id); then the default
-- now() applies to new rows only. n8n inserts only (session_id, message), so it keeps working unchanged.
-- Placeholders: {source} (the n8n table, schema-qualified identifier), {index} (index name).
ALTER TABLE {source} ADD COLUMN IF NOT EXISTS created_at timestamptz;
ALTER TABLE {source} ALTER COLUMN created_at SET DEFAULT now();
-- Each statement runs on its own (autocommit); CONCURRENTLY builds the indexes without blocking n8n's writes.
CREATE INDEX CONCURRENTLY IF NOT EXISTS {index} ON {source} (session_id, created_at);
CREATE INDEX CONCURRENTLY IF NOT EXISTS {time_index} ON {source} (created_at);
