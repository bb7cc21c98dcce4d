-- Named queries of the archive, the purge of n8n's rows and text retention (memory_pipeline/store/archive.py).
-- A block starts with `-- name: NAME`; a name is unique across the store's files (`store.base.QUERY_FILES`).
-- Identifier placeholders are filled with psycopg.sql: {schema} (pipeline schema), {source} (the n8n table,
-- schema-qualified), {created_at} (the source's time expression: `created_at::timestamptz`, or NULL when the
-- table has no such column), {created_at_filter} (the same for WHERE clauses, bare when the column is a timestamp so
-- an index can serve it: use it only where out-of-range times cannot pass, see `Store.created_at_filter`).
-- Values are always bound parameters (%(name)s).

-- name: archive_work_mem
-- For the rest of the archive-and-purge transaction only (is_local): its hash joins stay in memory.
SELECT set_config('work_mem', %(work_mem)s, true);

-- name: consolidated_conversations_of_partition
SELECT count(*) AS n FROM {schema}.conversations
WHERE partition_date = %(partition_date)s AND facts_extracted_at IS NOT NULL AND {in_shard user_key};

-- name: archive_partition_rows
-- Copy the rows of the partition's consolidated conversations (facts extracted) into the archive in one
-- statement (kept as the source held them); a row already there is left as it is.
INSERT INTO {schema}.chat_archive (id, session_id, message, created_at, conversation_id, partition_date)
SELECT s.id, s.session_id::text, s.message::text, {created_at}, m.conversation_id, %(partition_date)s
FROM (SELECT conversation_id, unnest(message_ids) AS id FROM {schema}.conversations
      WHERE partition_date = %(partition_date)s AND facts_extracted_at IS NOT NULL AND {in_shard user_key}) AS m
JOIN {source} AS s ON s.id = m.id
ON CONFLICT (id) DO NOTHING;

-- name: purge_partition_archived_rows
-- Delete from n8n's table only rows of the partition's consolidated conversations whose identical copy (same
-- id, session key and message text, a NULL message matching a NULL one) is in the archive. No DISTINCT over the ids: a row joined twice is deleted
-- once (the second join row finds it deleted by this statement), and at 100k messages the de-duplication cost
-- ~0.1 s of the purge's ~0.7 s.
DELETE FROM {source} AS s
USING {schema}.chat_archive AS a,
      (SELECT unnest(message_ids) AS id FROM {schema}.conversations
       WHERE partition_date = %(partition_date)s AND facts_extracted_at IS NOT NULL AND {in_shard user_key}) AS m
WHERE s.id = m.id AND a.id = s.id AND a.session_id = s.session_id::text
  AND a.message IS NOT DISTINCT FROM s.message::text;

-- name: archive_unattributed_rows
-- The rows of unattributed conversations (a blank or too long key: every row rejected, nothing to consolidate),
-- copied into the archive by `closed_sessions` as it records their rejections: each row by id and session key,
-- as it was just read (a row whose id now belongs to another key is not copied). A row already there is left.
INSERT INTO {schema}.chat_archive (id, session_id, message, created_at, conversation_id, partition_date)
SELECT s.id, s.session_id::text, s.message::text, {created_at}, b.conversation_id, b.partition_date
FROM unnest(%(ids)s::bigint[], %(session_keys)s::text[], %(conversation_ids)s::text[], %(partition_dates)s::date[])
     AS b (id, session_key, conversation_id, partition_date)
JOIN {source} AS s ON s.id = b.id AND s.session_id::text = b.session_key
ON CONFLICT (id) DO NOTHING;

-- name: purge_partition_unattributed_rows
-- Delete from n8n's table the rows of the partition's unattributed conversations whose identical copy is in the
-- archive (same id, session key and message), as the purge of consolidated rows does.
DELETE FROM {source} AS s
USING {schema}.chat_archive AS a, {schema}.message_rejections AS r
WHERE r.partition_date = %(partition_date)s AND r.reason = ANY(%(reasons)s) AND {in_shard r.user_key}
  AND a.id = r.message_id AND a.conversation_id = r.conversation_id
  AND s.id = a.id AND a.session_id = s.session_id::text AND a.message IS NOT DISTINCT FROM s.message::text;

-- name: unconsolidated_conversations_of_partition
SELECT count(*) AS n FROM {schema}.conversations
WHERE partition_date = %(partition_date)s AND facts_extracted_at IS NULL AND {in_shard user_key};

-- name: drop_expired_archive_rows
DELETE FROM {schema}.chat_archive WHERE archived_at < now() - make_interval(days => %(retention_days)s);

-- name: prune_conversation_text
-- Text retention: a conversation consolidated more than `retention_days` ago loses its transcript; its ids,
-- hashes, times and counts stay. Only consolidated (extracted) conversations: the others still need their text.
UPDATE {schema}.conversations SET transcript = '[]'::jsonb, text_pruned_at = now()
WHERE text_pruned_at IS NULL AND facts_extracted_at < now() - make_interval(days => %(retention_days)s)
  AND {in_shard user_key};

-- name: prune_summary_embeddings
-- The cached embeddings of the summaries pruned just now (before prune_summaries drops their text; the
-- trigger on session_summaries drops the summary's own embedding with its text).
DELETE FROM {schema}.embedding_cache AS e
USING {schema}.session_summaries AS s
JOIN {schema}.conversations AS c ON c.conversation_id = s.conversation_id
WHERE c.text_pruned_at = now() AND s.summary IS NOT NULL
  AND e.text_sha256 = encode(sha256(convert_to(s.summary, 'UTF8')), 'hex');

-- name: prune_summaries
-- The prune_* statements run in one transaction: `text_pruned_at = now()` are the conversations pruned just now
-- (no stage writes text for a pruned conversation, so older ones have none left), which keeps each night's work
-- proportional to that night's expired conversations.
UPDATE {schema}.session_summaries AS s SET summary = NULL
FROM {schema}.conversations AS c
WHERE c.conversation_id = s.conversation_id AND c.text_pruned_at = now() AND s.summary IS NOT NULL;

-- name: prune_summary_cache
-- Cached summaries older than the retention that no conversation with its text still uses (orphans included).
DELETE FROM {schema}.summary_cache AS s
WHERE s.created_at < now() - make_interval(days => %(retention_days)s)
  AND NOT EXISTS (SELECT 1 FROM {schema}.conversations AS c
                  WHERE c.transcript_hash = s.transcript_hash AND c.text_pruned_at IS NULL);

-- name: prune_extraction_cache
-- Cached extraction answers (facts and their quotes), by the same rule as cached summaries.
DELETE FROM {schema}.extraction_cache AS e
WHERE e.created_at < now() - make_interval(days => %(retention_days)s)
  AND NOT EXISTS (SELECT 1 FROM {schema}.conversations AS c
                  WHERE c.transcript_hash = e.transcript_hash AND c.text_pruned_at IS NULL);

-- name: prune_rejected_candidates
-- Rejected candidates of pruned conversations keep category, reason and ids; their text goes.
UPDATE {schema}.fact_candidates AS f SET fact = '', quote = '', attribute = NULL, value = NULL
FROM {schema}.conversations AS c
WHERE c.conversation_id = f.conversation_id AND c.text_pruned_at = now() AND f.status = 'rejected'
  AND (f.fact <> '' OR f.quote <> '');

-- name: prune_repeat_quotes
-- Accepted candidates of pruned conversations keep their fact (reconciliation folds it); their quote goes
-- unless it is the quote of a fact version (agent_facts keeps that one until time-to-live + grace).
UPDATE {schema}.fact_candidates AS f SET quote = ''
FROM {schema}.conversations AS c
WHERE c.conversation_id = f.conversation_id AND c.text_pruned_at = now() AND f.status = 'accepted'
  AND f.quote <> '' AND NOT EXISTS (SELECT 1 FROM {schema}.agent_facts AS a WHERE a.candidate_id = f.candidate_id);

-- name: prune_expired_fact_quotes
-- A fact version past its time-to-live plus the grace period loses its quote (its fact text is kept for history).
-- It keeps it at least the grace period after it was recorded, so a backfill of old history shows its evidence.
UPDATE {schema}.agent_facts SET quote = ''
WHERE quote <> '' AND expires_at < now() - make_interval(days => %(grace_days)s)
  AND recorded_at < now() - make_interval(days => %(grace_days)s) AND {in_shard user_key}
RETURNING candidate_id;

-- name: prune_expired_candidate_quotes
-- ... and so does the candidate it was built from, so the next reconciliation gives the same empty quote.
UPDATE {schema}.fact_candidates SET quote = ''
WHERE candidate_id = ANY(%(candidate_ids)s) AND quote <> '';
