-- Named queries of n8n's rows read and split into conversations (`closed_sessions`), stored conversations and their
-- pages (memory_pipeline/store/conversations.py).
-- A block starts with `-- name: NAME`; a name is unique across the store's files (`store.base.QUERY_FILES`).
-- Identifier placeholders are filled with psycopg.sql: {schema} (pipeline schema), {source} (the n8n table,
-- schema-qualified), {created_at} (the source's time expression: `created_at::timestamptz`, or NULL when the
-- table has no such column), {created_at_filter} (the same for WHERE clauses, bare when the column is a timestamp so
-- an index can serve it: use it only where out-of-range times cannot pass, see `Store.created_at_filter`).
-- Values are always bound parameters (%(name)s).

-- name: source_columns
SELECT column_name, data_type, current_setting('server_version_num')::int AS server_version
FROM information_schema.columns
WHERE table_schema = %(schema)s AND table_name = %(table)s;

-- name: id_salt
SELECT id_salt FROM {schema}.installation;

-- name: window_rows
-- The rows `closed_sessions` splits for the window [start, end): for each session key with a message in the
-- window (n8n table or archive), its rows from the start of the chain its first message of the window belongs
-- to, up to `until` (window end + idle gap). A chain is a run of a key's rows with no gap over the idle gap: the
-- split cuts at every such gap and, within a chain, every `max_span` from the chain's first row, so the chain's
-- rows are all a conversation ending in the window can need, and earlier rows cannot change its cut points.
-- The chain start is found by walking back from the key's first time in the window one earlier time at a time
-- (a backward index scan on (session_id, created_at) of each table) until a gap over the idle gap.
-- A row in both tables (archived, not yet purged) is read once, from the n8n table: an archive row is left out
-- when a timed n8n row of an active key has its id (the NOT EXISTS repeated in each of the three places).
-- {created_at_filter} is the bare column for a timestamp column (so the indexes serve the WHERE) and the
-- range-checked expression for a text column; for times in the window it reads the same as {created_at}.
-- Ordered by key (byte order, "C", as Python sorts str), then time, then id: what the split expects. The keys
-- come sorted, so only each key's rows are sorted (incremental sort, in memory), not the whole night.
WITH RECURSIVE in_window AS MATERIALIZED (
    SELECT session_id::text AS session_id, {created_at} AS created_at, id::bigint AS id, false AS archived
    FROM {source} WHERE {created_at_filter} >= %(start)s AND {created_at_filter} < %(end)s
    UNION ALL
    SELECT session_id, created_at, id, true FROM {schema}.chat_archive
    WHERE created_at >= %(start)s AND created_at < %(end)s
),
active_keys AS (SELECT DISTINCT session_id FROM in_window),
firsts AS (
    SELECT session_id, min(created_at) AS at FROM in_window AS w
    WHERE NOT (w.archived AND EXISTS (
        SELECT 1 FROM {source} AS s WHERE s.id = w.id AND s.session_id::text IN (SELECT session_id FROM active_keys)
          AND {created_at_filter} >= '0001-01-02'::timestamptz AND {created_at_filter} < %(until)s))
    GROUP BY session_id
),
walk AS (
    SELECT session_id, at FROM firsts
    UNION ALL
    SELECT w.session_id, earlier.at FROM walk AS w
    CROSS JOIN LATERAL (
        SELECT max(t) AS at FROM (
            (SELECT {created_at} AS t FROM {source}
             WHERE session_id = w.session_id AND {created_at_filter} >= '0001-01-02'::timestamptz
               AND {created_at_filter} < w.at
             ORDER BY {created_at_filter} DESC LIMIT 1)
            UNION ALL
            (SELECT a.created_at FROM {schema}.chat_archive AS a
             WHERE a.session_id = w.session_id AND a.created_at < w.at
               AND NOT EXISTS (
                   SELECT 1 FROM {source} AS s WHERE s.id = a.id
                     AND s.session_id::text IN (SELECT session_id FROM active_keys)
                     AND {created_at_filter} >= '0001-01-02'::timestamptz AND {created_at_filter} < %(until)s)
             ORDER BY a.created_at DESC LIMIT 1)
        ) AS previous
    ) AS earlier
    WHERE w.at - earlier.at <= %(idle_gap)s
),
chains AS (SELECT session_id, min(at) AS chain_start FROM walk GROUP BY session_id ORDER BY session_id COLLATE "C")
SELECT r.id, r.session_id, r.message, r.created_at FROM chains AS c
CROSS JOIN LATERAL (
    SELECT id::bigint AS id, session_id::text AS session_id, message::text AS message, {created_at} AS created_at
    FROM {source}
    WHERE session_id = c.session_id AND {created_at_filter} >= c.chain_start AND {created_at_filter} < %(until)s
    UNION ALL
    SELECT a.id, a.session_id, a.message, a.created_at FROM {schema}.chat_archive AS a
    WHERE a.session_id = c.session_id AND a.created_at >= c.chain_start AND a.created_at < %(until)s
      AND NOT EXISTS (
          SELECT 1 FROM {source} AS s WHERE s.id = a.id
            AND s.session_id::text IN (SELECT session_id FROM active_keys)
            AND {created_at_filter} >= '0001-01-02'::timestamptz AND {created_at_filter} < %(until)s)
) AS r
ORDER BY c.session_id COLLATE "C", r.created_at, r.id;

-- name: window_rows_every_row
-- `window_rows` without the walk back, for a text time column or an n8n table without an index led by
-- (session_id, created_at) (walking back would scan the table at every step): every row of the active keys up
-- to `until`, read in one scan of each table, a row in both tables read once (from the n8n table), in the
-- same order.
WITH active_keys AS (
    SELECT session_id::text AS session_id FROM {source} WHERE {created_at} >= %(start)s AND {created_at} < %(end)s
    UNION
    SELECT session_id FROM {schema}.chat_archive WHERE created_at >= %(start)s AND created_at < %(end)s
)
SELECT id, session_id, message, created_at FROM (
    SELECT id::bigint AS id, session_id::text AS session_id, message::text AS message, {created_at} AS created_at
    FROM {source} WHERE session_id::text IN (SELECT session_id FROM active_keys) AND {created_at} < %(until)s
    UNION ALL
    SELECT a.id, a.session_id, a.message, a.created_at FROM {schema}.chat_archive AS a
    WHERE a.session_id IN (SELECT session_id FROM active_keys) AND a.created_at < %(until)s
      AND NOT EXISTS (
          SELECT 1 FROM {source} AS s WHERE s.id = a.id
            AND s.session_id::text IN (SELECT session_id FROM active_keys) AND {created_at} < %(until)s)
) AS r
ORDER BY session_id COLLATE "C", created_at, id;

-- name: source_has_session_time_index
-- Whether n8n's table has an index led by (session_id, created_at), as `add-time-column` builds: without one,
-- walking back one time at a time would scan the table at every step, so `window_rows_every_row` is read instead.
SELECT EXISTS (
    SELECT 1 FROM pg_catalog.pg_index AS i
    JOIN pg_catalog.pg_attribute AS s ON s.attrelid = i.indrelid AND s.attnum = i.indkey[0]
    JOIN pg_catalog.pg_attribute AS t ON t.attrelid = i.indrelid AND t.attnum = i.indkey[1]
    WHERE i.indrelid = %(table)s::regclass AND s.attname = 'session_id' AND t.attname = 'created_at'
) AS present;

-- name: legacy_rows
-- Rows written before the time column existed (created_at NULL): the backlog, a row in both tables read once
-- (from the n8n table), ordered by key (byte order, as `window_rows`) then id.
SELECT id, session_id, message, created_at FROM (
    SELECT id::bigint AS id, session_id::text AS session_id, message::text AS message, {created_at} AS created_at
    FROM {source} WHERE {created_at} IS NULL
    UNION ALL
    SELECT a.id, a.session_id, a.message, a.created_at FROM {schema}.chat_archive AS a
    WHERE a.created_at IS NULL
      AND NOT EXISTS (SELECT 1 FROM {source} AS s WHERE s.id = a.id AND {created_at} IS NULL)
) AS r
ORDER BY session_id COLLATE "C", id;

-- name: create_conversation_batch
-- The conversations of one write batch of `closed_sessions`, COPYed in, then moved by the two statements below.
-- Dropped at commit; emptied between batches.
CREATE TEMP TABLE IF NOT EXISTS conversation_batch (
    conversation_id text, partition_date date, session_key text, user_key text, started_at timestamptz,
    ended_at timestamptz, is_legacy boolean, message_ids bigint[], turn_count integer, transcript jsonb,
    transcript_hash text, closed_as_of timestamptz, idle_gap_minutes integer
) ON COMMIT DROP;

-- name: clear_conversation_batch
TRUNCATE conversation_batch;

-- name: copy_conversation_batch
COPY conversation_batch (conversation_id, partition_date, session_key, user_key, started_at, ended_at, is_legacy,
                         message_ids, turn_count, transcript, transcript_hash, closed_as_of, idle_gap_minutes)
FROM STDIN;

-- name: delete_overlapping_conversations_of_batch
-- A stored conversation of the same partition that shares messages with a newly split one of the batch under
-- another id (a late row moved its start): it is replaced, with its summary and candidates (cascade). Other
-- partitions' and other session keys' conversations (ids reused after a table reset) are never touched from
-- here. LATERAL: for each conversation of the batch, an index scan ((session_key, partition_date), or the
-- message_ids GIN) finds the stored ones it overlaps, a few rows however many the partition and the table hold.
-- OFFSET 0 keeps the subquery from being flattened into a join: the planner, which knows no row count of the
-- temporary batch table, otherwise sorted the partition's every conversation once per batch (measured: 19 ms a
-- batch at 300k messages, growing with the night, so quadratic over it).
DELETE FROM {schema}.conversations AS c
WHERE c.conversation_id IN (
    SELECT stale.conversation_id FROM conversation_batch AS b
    CROSS JOIN LATERAL (
        SELECT s.conversation_id FROM {schema}.conversations AS s
        WHERE s.message_ids && b.message_ids AND s.conversation_id <> b.conversation_id
          AND s.partition_date = b.partition_date AND s.session_key = b.session_key
        OFFSET 0
    ) AS stale
);

-- name: upsert_conversations_of_batch
-- Unchanged conversations are not rewritten (a re-run of a finished day writes nothing): the row count is the
-- conversations inserted or changed.
INSERT INTO {schema}.conversations AS c
    (conversation_id, partition_date, session_key, user_key, started_at, ended_at, is_legacy, message_ids,
     turn_count, transcript, transcript_hash, closed_as_of, idle_gap_minutes)
SELECT conversation_id, partition_date, session_key, user_key, started_at, ended_at, is_legacy, message_ids,
       turn_count, transcript, transcript_hash, closed_as_of, idle_gap_minutes
FROM conversation_batch
ORDER BY conversation_id  -- rows locked in id order, as the LLM stages' batches lock them: no lock-order deadlock
ON CONFLICT (conversation_id) DO UPDATE SET
    partition_date = EXCLUDED.partition_date, session_key = EXCLUDED.session_key, user_key = EXCLUDED.user_key,
    started_at = EXCLUDED.started_at, ended_at = EXCLUDED.ended_at, is_legacy = EXCLUDED.is_legacy,
    message_ids = EXCLUDED.message_ids, turn_count = EXCLUDED.turn_count, transcript = EXCLUDED.transcript,
    transcript_hash = EXCLUDED.transcript_hash, closed_as_of = EXCLUDED.closed_as_of,
    idle_gap_minutes = EXCLUDED.idle_gap_minutes, facts_extracted_at = NULL, extracted_with = NULL,
    text_pruned_at = NULL
WHERE (c.partition_date, c.user_key, c.message_ids, c.transcript_hash, c.idle_gap_minutes)
      IS DISTINCT FROM
      (EXCLUDED.partition_date, EXCLUDED.user_key, EXCLUDED.message_ids, EXCLUDED.transcript_hash,
       EXCLUDED.idle_gap_minutes);

-- name: upsert_rejection
INSERT INTO {schema}.message_rejections AS r (message_id, conversation_id, partition_date, user_key, status, reason)
VALUES (%(message_id)s, %(conversation_id)s, %(partition_date)s, %(user_key)s, %(status)s, %(reason)s)
ON CONFLICT (message_id) DO UPDATE SET
    conversation_id = EXCLUDED.conversation_id, partition_date = EXCLUDED.partition_date,
    user_key = EXCLUDED.user_key, status = EXCLUDED.status, reason = EXCLUDED.reason
WHERE (r.conversation_id, r.partition_date, r.status, r.reason)
      IS DISTINCT FROM (EXCLUDED.conversation_id, EXCLUDED.partition_date, EXCLUDED.status, EXCLUDED.reason);

-- name: conversations_of_partition
SELECT conversation_id, partition_date, session_key, user_key, started_at, ended_at, is_legacy, message_ids,
       transcript, transcript_hash, closed_as_of, idle_gap_minutes, facts_extracted_at, extracted_with,
       text_pruned_at
FROM {schema}.conversations WHERE partition_date = %(partition_date)s AND {in_shard user_key}
ORDER BY conversation_id;

-- name: lock_conversations
-- Lock a write batch's conversation rows until the transaction ends, in conversation_id order (two batches
-- that overlap lock in the same order), and return their current transcript hashes (a gone one has no row).
SELECT conversation_id, transcript_hash FROM {schema}.conversations
WHERE conversation_id = ANY(%(conversation_ids)b::text[])
ORDER BY conversation_id
FOR UPDATE;

-- name: conversations_row_estimate
-- Rows of `conversations` at its last ANALYZE (pg_class.reltuples; -1: never analyzed).
SELECT c.reltuples::bigint AS n FROM pg_class AS c JOIN pg_namespace AS ns ON ns.oid = c.relnamespace
WHERE ns.nspname = %(schema)s AND c.relname = 'conversations';

-- name: analyze_conversations_split
-- SKIP_LOCKED (both): when another ANALYZE or VACUUM (autovacuum, a concurrent partition's stage) holds the
-- table, that one refreshes the statistics and this stage does not wait for it.
-- After closed_sessions wrote a partition: the columns the LLM stages' pages filter, order and join on (not the
-- transcript, whose sample would be the bulk of the work).
ANALYZE (SKIP_LOCKED) {schema}.conversations (partition_date, conversation_id, transcript_hash, text_pruned_at);

-- name: analyze_conversations_extracted
-- Before archived_sessions: the columns that pick a partition's consolidated conversations.
ANALYZE (SKIP_LOCKED) {schema}.conversations (partition_date, facts_extracted_at);

-- name: analyze_conversations
-- Benchmark only: fresh statistics after a bulk load of history (autovacuum would take them later).
ANALYZE {schema}.conversations, {schema}.fact_candidates, {schema}.agent_facts, {schema}.chat_archive,
    {schema}.session_summaries, {schema}.summary_cache, {schema}.extraction_cache, {schema}.fact_folds;
