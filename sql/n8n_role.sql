-- Rights of the role n8n connects with: what the templates in n8n/ use, nothing more. Applied by
-- `memory-pipeline db n8n-credential` on the embedded server; printed by it, for you to run, on your own server.
-- Placeholders (psycopg.sql): {role}, {schema} (the pipeline's), {source_schema} (n8n's table's schema),
-- {vector_schema} (where the vector extension lives).
--
-- n8n's Postgres Chat Memory node creates its table on first use (CREATE TABLE IF NOT EXISTS, which PostgreSQL
-- checks the CREATE right for even when the table exists), then reads, inserts and, on "clear", deletes its rows.
GRANT USAGE, CREATE ON SCHEMA {source_schema} TO {role};
-- The recall functions run with their owner's rights (SECURITY DEFINER): EXECUTE is all the role needs on them.
GRANT USAGE ON SCHEMA {schema} TO {role};
GRANT EXECUTE ON FUNCTION {schema}.recall_block(text, integer, boolean, timestamptz),
    {schema}.search_memory_text(text, text, integer, boolean, timestamptz),
    {schema}.search_memory_vector(text, {vector_schema}.vector, integer, boolean, timestamptz),
    {schema}.search_conversations_text(text, text, integer, boolean, timestamptz),
    {schema}.search_conversations_vector(text, {vector_schema}.vector, integer, boolean, timestamptz) TO {role};
-- n8n's PGVector Store node reads the view, after a CREATE TABLE IF NOT EXISTS on it (hence CREATE on the
-- schema), and lets an HNSW scan go on until k rows pass its user filter (pgvector 0.8).
GRANT SELECT ON {schema}.memory_documents TO {role};
GRANT CREATE ON SCHEMA {schema} TO {role};
ALTER ROLE {role} SET hnsw.iterative_scan = strict_order;
