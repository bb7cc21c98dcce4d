-- Named queries of the recall index: fact text search languages and embeddings (memory_pipeline/embeddings.py),
-- recall's user list.
-- A block starts with `-- name: NAME`; a name is unique across the store's files (`store.base.QUERY_FILES`).
-- Identifier placeholders are filled with psycopg.sql: {schema} (pipeline schema), {source} (the n8n table,
-- schema-qualified), {created_at} (the source's time expression: `created_at::timestamptz`, or NULL when the
-- table has no such column), {created_at_filter} (the same for WHERE clauses, bare when the column is a timestamp so
-- an index can serve it: use it only where out-of-range times cannot pass, see `Store.created_at_filter`).
-- Values are always bound parameters (%(name)s).

-- name: facts_without_fts_config
-- One page (keyset on id) of the active facts without a text search configuration.
SELECT id, fact AS text FROM {schema}.agent_facts
WHERE fts_config IS NULL AND superseded_at IS NULL AND id > %(after)s AND {in_shard user_key}
ORDER BY id LIMIT %(limit)s;

-- name: set_fts_config
UPDATE {schema}.agent_facts SET fts_config = %(config)s::regconfig WHERE id = ANY(%(ids)s);

-- name: embedding_column_dimensions
-- A vector(N) column stores N as its type modifier (-1 when no size was declared).
SELECT a.atttypmod AS dims FROM pg_attribute AS a
JOIN pg_class AS c ON c.oid = a.attrelid JOIN pg_namespace AS n ON n.oid = c.relnamespace
WHERE n.nspname = %(schema)s AND c.relname = 'agent_facts' AND a.attname = 'embedding' AND NOT a.attisdropped;

-- name: facts_without_embedding
-- One page (keyset on id) of the active facts without an embedding.
SELECT id, fact AS text FROM {schema}.agent_facts
WHERE embedding IS NULL AND superseded_at IS NULL AND id > %(after)s AND {in_shard user_key}
ORDER BY id LIMIT %(limit)s;

-- name: count_facts_without_embedding
-- Active facts without an embedding after a page (the ones a failing endpoint leaves for the next night).
SELECT count(*) AS n FROM {schema}.agent_facts
WHERE embedding IS NULL AND superseded_at IS NULL AND id > %(after)s AND {in_shard user_key};

-- name: cached_embedding_hashes
SELECT text_sha256 FROM {schema}.embedding_cache
WHERE model = %(model)s AND dimensions = %(dimensions)s AND text_sha256 = ANY(%(hashes)s);

-- name: insert_cached_embeddings
INSERT INTO {schema}.embedding_cache (text_sha256, model, dimensions, embedding)
SELECT h, %(model)s, %(dimensions)s, v::vector
FROM unnest(%(hashes)s::text[], %(vectors)s::text[]) AS u(h, v)
ON CONFLICT DO NOTHING;

-- name: set_embeddings_from_cache
UPDATE {schema}.agent_facts AS f SET embedding = c.embedding
FROM unnest(%(ids)s::bigint[], %(hashes)s::text[]) AS u(id, h)
JOIN {schema}.embedding_cache AS c
  ON c.text_sha256 = u.h AND c.model = %(model)s AND c.dimensions = %(dimensions)s
WHERE f.id = u.id AND f.embedding IS NULL;

-- name: summaries_without_fts_config
-- One page (keyset on conversation_id) of the summaries holding text without a text search configuration.
SELECT conversation_id AS id, summary AS text FROM {schema}.session_summaries
WHERE fts_config IS NULL AND summary IS NOT NULL AND conversation_id > %(after)s AND {in_shard user_key}
ORDER BY conversation_id LIMIT %(limit)s;

-- name: set_summary_fts_config
UPDATE {schema}.session_summaries SET fts_config = %(config)s::regconfig
WHERE conversation_id = ANY(%(ids)s) AND fts_config IS NULL;

-- name: summaries_without_embedding
-- One page (keyset on conversation_id) of the searchable summaries without an embedding.
SELECT conversation_id AS id, summary AS text FROM {schema}.session_summaries
WHERE embedding IS NULL AND summary IS NOT NULL AND withheld_at IS NULL AND conversation_id > %(after)s
  AND {in_shard user_key}
ORDER BY conversation_id LIMIT %(limit)s;

-- name: count_summaries_without_embedding
SELECT count(*) AS n FROM {schema}.session_summaries
WHERE embedding IS NULL AND summary IS NOT NULL AND withheld_at IS NULL AND conversation_id > %(after)s
  AND {in_shard user_key};

-- name: set_summary_embeddings_from_cache
-- Only while the summary still holds the text the vector was computed from (a re-run may have rewritten it).
UPDATE {schema}.session_summaries AS s SET embedding = c.embedding
FROM unnest(%(ids)s::text[], %(hashes)s::text[]) AS u(id, h)
JOIN {schema}.embedding_cache AS c
  ON c.text_sha256 = u.h AND c.model = %(model)s AND c.dimensions = %(dimensions)s
WHERE s.conversation_id = u.id AND s.embedding IS NULL AND s.withheld_at IS NULL
  AND encode(sha256(convert_to(s.summary, 'UTF8')), 'hex') = u.h;

-- name: recall_users
SELECT DISTINCT user_key FROM {schema}.agent_facts WHERE superseded_at IS NULL ORDER BY user_key;

-- name: vector_extension_schema
SELECT n.nspname FROM pg_extension AS e JOIN pg_namespace AS n ON n.oid = e.extnamespace WHERE e.extname = 'vector';

-- name: lock_embeddings
-- Session-level: the embedding pass spans several transactions (one per batch).
SELECT pg_advisory_lock(hashtext('memory_pipeline.embeddings'), hashtext(%(schema)s));

-- name: unlock_embeddings
SELECT pg_advisory_unlock(hashtext('memory_pipeline.embeddings'), hashtext(%(schema)s));
