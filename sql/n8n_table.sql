-- The table n8n's Postgres Chat Memory node creates (id SERIAL, session_id VARCHAR(255), message JSONB), plus the
-- opt-in created_at column of add_time_column.sql. Used by the demo and the tests, never on a user's table.
-- Placeholders: {source} (schema-qualified identifier), {source_schema}.
CREATE SCHEMA IF NOT EXISTS {source_schema};
CREATE TABLE IF NOT EXISTS {source} (
    id          SERIAL PRIMARY KEY,
    session_id  VARCHAR(255) NOT NULL,
    message     JSONB NOT NULL,
    created_at  timestamptz DEFAULT now()
);
