-- Named queries used by memory_pipeline/store.py. A block starts with `-- name: NAME`.
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
-- Shard `shard` of `shards` (worker processes): only the active keys whose hashtext falls in the shard are walked
-- and read (the filter in `firsts`, before the walk); `in_window` and `active_keys` stay whole, so whether an
-- archive row is left out does not depend on the shard count.
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
    WHERE (hashtext(w.session_id)::bigint + 2147483648) %% %(shards)s::int = %(shard)s::int
      AND NOT (w.archived AND EXISTS (
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
-- same order. Shard `shard` of `shards` reads the keys of `shard_keys` (as `window_rows`).
WITH active_keys AS (
    SELECT session_id::text AS session_id FROM {source} WHERE {created_at} >= %(start)s AND {created_at} < %(end)s
    UNION
    SELECT session_id FROM {schema}.chat_archive WHERE created_at >= %(start)s AND created_at < %(end)s
),
shard_keys AS (
    SELECT session_id FROM active_keys
    WHERE (hashtext(session_id)::bigint + 2147483648) %% %(shards)s::int = %(shard)s::int
)
SELECT id, session_id, message, created_at FROM (
    SELECT id::bigint AS id, session_id::text AS session_id, message::text AS message, {created_at} AS created_at
    FROM {source} WHERE session_id::text IN (SELECT session_id FROM shard_keys) AND {created_at} < %(until)s
    UNION ALL
    SELECT a.id, a.session_id, a.message, a.created_at FROM {schema}.chat_archive AS a
    WHERE a.session_id IN (SELECT session_id FROM shard_keys) AND a.created_at < %(until)s
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
-- (from the n8n table), ordered by key (byte order, as `window_rows`) then id. Only the keys of shard `shard` of
-- `shards` (as `window_rows`; the NOT EXISTS looks at every key, as with one shard).
SELECT id, session_id, message, created_at FROM (
    SELECT id::bigint AS id, session_id::text AS session_id, message::text AS message, {created_at} AS created_at
    FROM {source} WHERE {created_at} IS NULL
      AND (hashtext(session_id::text)::bigint + 2147483648) %% %(shards)s::int = %(shard)s::int
    UNION ALL
    SELECT a.id, a.session_id, a.message, a.created_at FROM {schema}.chat_archive AS a
    WHERE a.created_at IS NULL AND (hashtext(a.session_id)::bigint + 2147483648) %% %(shards)s::int = %(shard)s::int
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
FROM {schema}.conversations WHERE partition_date = %(partition_date)s
ORDER BY conversation_id;

-- name: summary_page
-- One page of a partition's conversations for the summary stage, in conversation_id order after %(after)s
-- (keyset pagination on conversations_partition_id_idx: each page is its own short statement, no transaction
-- is held between pages), with the cached summary of the same transcript, prompt version and model. The
-- transcript is read only where a request may need it (no cached summary, text not pruned).
SELECT c.conversation_id, c.partition_date, c.session_key, c.user_key, c.started_at, c.ended_at, c.is_legacy,
       c.transcript_hash, c.text_pruned_at,
       k.transcript_hash IS NOT NULL AS cache_hit, k.summary AS cached_summary,
       k.input_tokens AS cached_input_tokens, k.output_tokens AS cached_output_tokens,
       CASE WHEN k.transcript_hash IS NULL AND c.text_pruned_at IS NULL THEN c.transcript END AS transcript
FROM {schema}.conversations AS c
LEFT JOIN {schema}.summary_cache AS k
  ON k.transcript_hash = c.transcript_hash AND k.prompt_version = %(prompt_version)s AND k.model = %(model)s
WHERE c.partition_date = %(partition_date)s AND c.conversation_id > %(after)s
ORDER BY c.conversation_id
LIMIT %(limit)s;

-- name: extraction_page
-- One page of a partition's conversations for the extraction stage (keyset pagination as summary_page), with
-- whether it has a summary row, the summary, and (when %(use_cache)s) the cached extraction answer of the same
-- transcript, prompt version and model. The transcript is read only where it is extracted now: text not
-- pruned, summarised, and not yet extracted with %(extracted_with)s.
SELECT c.conversation_id, c.partition_date, c.session_key, c.user_key, c.started_at, c.ended_at, c.is_legacy,
       c.transcript_hash, c.text_pruned_at, c.facts_extracted_at, c.extracted_with,
       s.conversation_id IS NOT NULL AS has_summary, s.summary,
       e.facts AS cached_facts,
       CASE WHEN c.text_pruned_at IS NULL AND s.conversation_id IS NOT NULL
                 AND (c.facts_extracted_at IS NULL OR c.extracted_with IS DISTINCT FROM %(extracted_with)s)
            THEN c.transcript END AS transcript
FROM {schema}.conversations AS c
-- The bound on s repeats c's: a merge join then starts its scan of session_summaries_pkey at the page, not at
-- the first summary ever stored (which made a page's cost grow with the table).
LEFT JOIN {schema}.session_summaries AS s ON s.conversation_id = c.conversation_id AND s.conversation_id > %(after)s
LEFT JOIN {schema}.extraction_cache AS e
  ON %(use_cache)s AND e.transcript_hash = c.transcript_hash AND e.prompt_version = %(prompt_version)s
     AND e.model = %(model)s
WHERE c.partition_date = %(partition_date)s AND c.conversation_id > %(after)s
ORDER BY c.conversation_id
LIMIT %(limit)s;

-- name: mark_facts_extracted_batch
-- mark_facts_extracted for a batch: one statement over parallel arrays of ids and the hashes they were read with.
UPDATE {schema}.conversations AS c SET facts_extracted_at = now(), extracted_with = %(extracted_with)s
FROM unnest(%(conversation_ids)b::text[], %(transcript_hashes)b::text[]) AS k (conversation_id, transcript_hash)
WHERE c.conversation_id = k.conversation_id AND c.transcript_hash = k.transcript_hash
  AND (c.facts_extracted_at IS NULL OR c.extracted_with IS DISTINCT FROM %(extracted_with)s);

-- name: lock_conversations
-- Lock a write batch's conversation rows until the transaction ends, in conversation_id order (two batches
-- that overlap lock in the same order), and return their current transcript hashes (a gone one has no row).
SELECT conversation_id, transcript_hash FROM {schema}.conversations
WHERE conversation_id = ANY(%(conversation_ids)b::text[])
ORDER BY conversation_id
FOR UPDATE;

-- name: check_consolidated_rows_in_source
-- Rows of the partition's consolidated conversations still in n8n's table after archiving (e.g. ids reused
-- after the table was reset, so the archive holds another row under the same id).
SELECT count(*) AS left_in_source FROM {source} AS s
WHERE s.id IN (SELECT unnest(message_ids) FROM {schema}.conversations
               WHERE partition_date = %(partition_date)s AND facts_extracted_at IS NOT NULL);

-- name: insert_cached_summaries
-- A write batch's summaries into the cache, one statement over parallel arrays (first answer wins). The LLM
-- stages bind their arrays in binary (a `b` placeholder): psycopg's text form escapes every element in Python,
-- about 20 times slower for a batch of summaries.
INSERT INTO {schema}.summary_cache (transcript_hash, prompt_version, model, summary, input_tokens, output_tokens)
SELECT k.transcript_hash, %(prompt_version)s, %(model)s, k.summary, k.input_tokens, k.output_tokens
FROM unnest(%(transcript_hashes)b::text[], %(summaries)b::text[], %(input_tokens)b::integer[],
            %(output_tokens)b::integer[]) AS k (transcript_hash, summary, input_tokens, output_tokens)
ON CONFLICT DO NOTHING;

-- name: upsert_summaries
-- A write batch's summaries, one statement over parallel arrays (its conversation ids are distinct); a row that
-- would not change is not rewritten.
INSERT INTO {schema}.session_summaries AS s
    (conversation_id, partition_date, user_key, summary, transcript_hash, extractor, model, prompt_version,
     input_tokens, output_tokens)
SELECT k.conversation_id, %(partition_date)s, k.user_key, k.summary, k.transcript_hash, %(extractor)s, %(model)s,
       %(prompt_version)s, k.input_tokens, k.output_tokens
FROM unnest(%(conversation_ids)b::text[], %(user_keys)b::text[], %(summaries)b::text[],
            %(transcript_hashes)b::text[], %(input_tokens)b::integer[], %(output_tokens)b::integer[])
     AS k (conversation_id, user_key, summary, transcript_hash, input_tokens, output_tokens)
ON CONFLICT (conversation_id) DO UPDATE SET
    partition_date = EXCLUDED.partition_date, user_key = EXCLUDED.user_key, summary = EXCLUDED.summary,
    transcript_hash = EXCLUDED.transcript_hash, extractor = EXCLUDED.extractor, model = EXCLUDED.model,
    prompt_version = EXCLUDED.prompt_version, input_tokens = EXCLUDED.input_tokens,
    output_tokens = EXCLUDED.output_tokens
WHERE (s.summary, s.transcript_hash, s.model, s.prompt_version, s.partition_date)
      IS DISTINCT FROM
      (EXCLUDED.summary, EXCLUDED.transcript_hash, EXCLUDED.model, EXCLUDED.prompt_version, EXCLUDED.partition_date);

-- name: delete_stale_candidates
-- Candidates of these conversations that this run did not produce again.
DELETE FROM {schema}.fact_candidates
WHERE conversation_id = ANY(%(conversation_ids)b::text[]) AND NOT (candidate_id = ANY(%(keep)b::text[]));

-- name: upsert_candidates
-- A write batch's candidates, one statement over parallel arrays (candidate ids are distinct: each is a hash of
-- its conversation and position); a row that would not change is not rewritten.
INSERT INTO {schema}.fact_candidates AS f
    (candidate_id, partition_date, conversation_id, user_key, position, category, attribute, value, fact, quote,
     status, reject_reason, quote_message_id, quote_speaker, said_at, extractor, model, prompt_version, retraction)
SELECT k.candidate_id, %(partition_date)s, k.conversation_id, k.user_key, k.position, k.category, k.attribute,
       k.value, k.fact, k.quote, k.status, k.reject_reason, k.quote_message_id, k.quote_speaker, k.said_at,
       %(extractor)s, %(model)s, %(prompt_version)s, k.retraction
FROM unnest(%(candidate_ids)b::text[], %(conversation_ids)b::text[], %(user_keys)b::text[],
            %(positions)b::integer[], %(categories)b::text[], %(attributes)b::text[], %(values)b::text[],
            %(facts)b::text[], %(quotes)b::text[], %(statuses)b::text[], %(reject_reasons)b::text[],
            %(quote_message_ids)b::bigint[], %(quote_speakers)b::text[], %(said_ats)b::timestamptz[],
            %(retractions)b::boolean[])
     AS k (candidate_id, conversation_id, user_key, position, category, attribute, value, fact, quote, status,
           reject_reason, quote_message_id, quote_speaker, said_at, retraction)
ON CONFLICT (candidate_id) DO UPDATE SET
    partition_date = EXCLUDED.partition_date, user_key = EXCLUDED.user_key, value = EXCLUDED.value,
    status = EXCLUDED.status, reject_reason = EXCLUDED.reject_reason, quote_message_id = EXCLUDED.quote_message_id,
    quote_speaker = EXCLUDED.quote_speaker, said_at = EXCLUDED.said_at
WHERE (f.partition_date, f.user_key, f.value, f.status, f.reject_reason, f.quote_message_id, f.quote_speaker,
       f.said_at)
      IS DISTINCT FROM
      (EXCLUDED.partition_date, EXCLUDED.user_key, EXCLUDED.value, EXCLUDED.status, EXCLUDED.reject_reason,
       EXCLUDED.quote_message_id, EXCLUDED.quote_speaker, EXCLUDED.said_at);

-- name: accepted_candidates_page
-- The quote check's page: up to %(limit)s conversations after %(after)s holding accepted candidates of the
-- partition, each once with its transcript (not when pruned) and its candidates as a JSON list (keyset
-- pagination on fact_candidates_accepted_partition_idx).
SELECT v.conversation_id, v.text_pruned_at,
       CASE WHEN v.text_pruned_at IS NULL THEN v.transcript END AS transcript,
       a.candidates
FROM (SELECT c.conversation_id,
             jsonb_agg(jsonb_build_object('candidate_id', c.candidate_id, 'quote', c.quote,
                                          'quote_message_id', c.quote_message_id)
                       ORDER BY c.candidate_id) AS candidates
      FROM {schema}.fact_candidates AS c
      WHERE c.partition_date = %(partition_date)s AND c.status = 'accepted' AND c.conversation_id > %(after)s
      GROUP BY c.conversation_id
      ORDER BY c.conversation_id
      LIMIT %(limit)s) AS a
JOIN {schema}.conversations AS v USING (conversation_id)
ORDER BY v.conversation_id;

-- name: folded_candidates_of_users
-- The accepted candidates already folded (a full fold's input besides the unfolded ones, read apart).
SELECT candidate_id, user_key, category, attribute, value, fact, quote, quote_message_id, quote_speaker,
       conversation_id, said_at, position, retraction, NULL::text AS row_version
FROM {schema}.fact_candidates
WHERE user_key = ANY(%(user_keys)s) AND status = 'accepted' AND said_at IS NOT NULL AND folded_at IS NOT NULL;

-- name: lock_erasure_shared
-- Held by each stage transaction that writes a user's data; an erasure takes it exclusive (erasure.sql).
SELECT pg_advisory_xact_lock_shared(hashtext('memory_pipeline.erasure'));

-- name: lock_user
SELECT pg_advisory_xact_lock(hashtext('memory_pipeline.user'), hashtext(%(user_key)s));

-- name: facts_of_users
SELECT id, user_key, category, attribute, value, fact, quote, quote_message_id, quote_speaker, source_session,
       candidate_id, valid_from, last_seen_at, expires_at, superseded_at, superseded_by
FROM {schema}.agent_facts WHERE user_key = ANY(%(user_keys)s);

-- name: insert_facts
-- New fact versions of a batch of users in one statement (parallel arrays, one element per row); fts_config is
-- the text search configuration of an active one (NULL: labelled later, or superseded). The natural key returned
-- maps each id back to its version. Arrays travel in binary format: psycopg dumps a list of 10,000 values that way
-- ~18x faster than as a text array literal (measured: 0.05 s against 0.86 s for 14 columns), here and below.
INSERT INTO {schema}.agent_facts
    (user_key, category, fact, source_session, valid_from, superseded_at, attribute, value, quote,
     quote_message_id, quote_speaker, last_seen_at, expires_at, candidate_id, fts_config)
SELECT u.user_key, u.category, u.fact, u.source_session, u.valid_from, u.superseded_at, u.attribute, u.value,
       u.quote, u.quote_message_id, u.quote_speaker, u.last_seen_at, u.expires_at, u.candidate_id,
       u.fts_config::regconfig
FROM unnest(%(user_key)b::text[], %(category)b::text[], %(fact)b::text[], %(source_session)b::text[],
            %(valid_from)b::timestamptz[], %(superseded_at)b::timestamptz[], %(attribute)b::text[],
            %(value)b::text[], %(quote)b::text[], %(quote_message_id)b::bigint[], %(quote_speaker)b::text[],
            %(last_seen_at)b::timestamptz[], %(expires_at)b::timestamptz[], %(candidate_id)b::text[],
            %(fts_config)b::text[])
     AS u (user_key, category, fact, source_session, valid_from, superseded_at, attribute, value, quote,
           quote_message_id, quote_speaker, last_seen_at, expires_at, candidate_id, fts_config)
RETURNING id, user_key, category, fact, valid_from;

-- name: update_facts
-- Rewrite fact versions of a batch of users in one statement (parallel arrays by id).
UPDATE {schema}.agent_facts AS f SET
    attribute = u.attribute, value = u.value, quote = u.quote, quote_message_id = u.quote_message_id,
    quote_speaker = u.quote_speaker, source_session = u.source_session, candidate_id = u.candidate_id,
    last_seen_at = u.last_seen_at, expires_at = u.expires_at, superseded_at = u.superseded_at
FROM unnest(%(ids)b::bigint[], %(attribute)b::text[], %(value)b::text[], %(quote)b::text[],
            %(quote_message_id)b::bigint[], %(quote_speaker)b::text[], %(source_session)b::text[],
            %(candidate_id)b::text[], %(last_seen_at)b::timestamptz[], %(expires_at)b::timestamptz[],
            %(superseded_at)b::timestamptz[])
     AS u (id, attribute, value, quote, quote_message_id, quote_speaker, source_session, candidate_id,
           last_seen_at, expires_at, superseded_at)
WHERE f.id = u.id;

-- name: link_superseded_by
UPDATE {schema}.agent_facts AS f SET superseded_by = u.superseded_by
FROM unnest(%(ids)b::bigint[], %(superseded_by)b::bigint[]) AS u (id, superseded_by)
WHERE f.id = u.id AND f.superseded_by IS DISTINCT FROM u.superseded_by;

-- name: active_facts_summary
-- Active = not superseded and time-to-live not over; expired and superseded are counted apart.
SELECT count(*) FILTER (WHERE superseded_at IS NULL AND (expires_at IS NULL OR expires_at > now())) AS active,
       count(*) FILTER (WHERE superseded_at IS NOT NULL) AS superseded,
       -- expired: past its time-to-live and not kept alive by recalls (fact_recalls.recalled_until)
       count(*) FILTER (WHERE superseded_at IS NULL AND expires_at <= now() AND NOT EXISTS (
           SELECT 1 FROM {schema}.fact_recalls AS r WHERE r.fact_id = f.id AND r.recalled_until > now())) AS expired
FROM {schema}.agent_facts AS f WHERE user_key = ANY(%(user_keys)s);

-- name: archive_work_mem
-- For the rest of the archive-and-purge transaction only (is_local): its hash joins stay in memory.
SELECT set_config('work_mem', %(work_mem)s, true);

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

-- name: consolidated_conversations_of_partition
SELECT count(*) AS n FROM {schema}.conversations
WHERE partition_date = %(partition_date)s AND facts_extracted_at IS NOT NULL;

-- name: archive_partition_rows
-- Copy the rows of the partition's consolidated conversations (facts extracted) of one shard of session keys
-- into the archive in one statement (kept as the source held them); a row already there is left as it is.
-- A session key's shard: hashtext's int4 moved to 0..2^32-1, modulo the shard count (every sharded query).
INSERT INTO {schema}.chat_archive (id, session_id, message, created_at, conversation_id, partition_date)
SELECT s.id, s.session_id::text, s.message::text, {created_at}, m.conversation_id, %(partition_date)s
FROM (SELECT conversation_id, unnest(message_ids) AS id FROM {schema}.conversations
      WHERE partition_date = %(partition_date)s AND facts_extracted_at IS NOT NULL
        AND (hashtext(session_key)::bigint + 2147483648) %% %(shards)s = %(shard)s) AS m
JOIN {source} AS s ON s.id = m.id
ON CONFLICT (id) DO NOTHING;

-- name: purge_partition_archived_rows
-- Delete from n8n's table only rows of the partition's consolidated conversations (one shard of session keys,
-- as archive_partition_rows) whose identical copy (same
-- id, session key and message text, a NULL message matching a NULL one) is in the archive. No DISTINCT over the ids: a row joined twice is deleted
-- once (the second join row finds it deleted by this statement), and at 100k messages the de-duplication cost
-- ~0.1 s of the purge's ~0.7 s.
DELETE FROM {source} AS s
USING {schema}.chat_archive AS a,
      (SELECT unnest(message_ids) AS id FROM {schema}.conversations
       WHERE partition_date = %(partition_date)s AND facts_extracted_at IS NOT NULL
         AND (hashtext(session_key)::bigint + 2147483648) %% %(shards)s = %(shard)s) AS m
WHERE s.id = m.id AND a.id = s.id AND a.session_id = s.session_id::text
  AND a.message IS NOT DISTINCT FROM s.message::text;

-- name: unconsolidated_conversations_of_partition
SELECT count(*) AS n FROM {schema}.conversations
WHERE partition_date = %(partition_date)s AND facts_extracted_at IS NULL;

-- name: drop_expired_archive_rows
DELETE FROM {schema}.chat_archive WHERE archived_at < now() - make_interval(days => %(retention_days)s);

-- name: check_duplicate_active_facts
SELECT count(*) AS groups FROM (
    SELECT 1 FROM {schema}.agent_facts WHERE superseded_at IS NULL
    GROUP BY user_key, category, md5(fact) HAVING count(*) > 1
) AS d;

-- name: check_contradicting_active_facts
-- Single-valued attributes with more than one active value for one user (multi-valued ones are passed in).
SELECT count(*) AS groups FROM (
    SELECT 1 FROM {schema}.agent_facts
    WHERE superseded_at IS NULL AND attribute IS NOT NULL AND NOT (attribute = ANY(%(multi_valued)s))
    GROUP BY user_key, attribute HAVING count(DISTINCT lower(coalesce(value, fact))) > 1
) AS d;

-- name: check_missing_messages
-- Message ids of the partition's conversations that are in neither the n8n table nor the archive, for
-- conversations whose archive retention has not ended yet.
SELECT count(*) AS missing FROM (
    SELECT unnest(message_ids) AS id FROM {schema}.conversations
    WHERE partition_date = %(partition_date)s
      AND recorded_at >= now() - make_interval(days => %(retention_days)s)
) AS m
WHERE NOT EXISTS (SELECT 1 FROM {schema}.chat_archive a WHERE a.id = m.id)
  AND NOT EXISTS (SELECT 1 FROM {source} s WHERE s.id = m.id);

-- name: check_open_conversations
-- Conversations of the partition that were still open (last message within the idle gap) when consolidated.
SELECT count(*) AS open FROM {schema}.conversations
WHERE partition_date = %(partition_date)s AND NOT is_legacy
  AND ended_at > closed_as_of - make_interval(mins => idle_gap_minutes);

-- name: facts_for_display
SELECT user_key, category, fact, quote, quote_message_id, valid_from, superseded_at, expires_at
FROM {schema}.agent_facts
WHERE user_key = ANY(%(user_keys)s)
ORDER BY user_key, superseded_at IS NOT NULL, valid_from, id;

-- name: source_rows_of_sessions
SELECT count(*) AS n FROM {source} WHERE session_id = ANY(%(keys)s);

-- name: archive_rows_of_sessions
SELECT count(*) AS n FROM {schema}.chat_archive WHERE session_id = ANY(%(keys)s);

-- name: rows_outside_prefix
-- Rows of the n8n table whose session key does not start with a prefix (the demo refuses to mix with them).
SELECT count(*) AS n FROM {source} WHERE NOT starts_with(session_id::text, %(prefix)s);

-- name: bench_history_conversations
-- Benchmark only: `days` x `per_day` consolidated conversations before the night `before`, one a day per user
-- (session and user keys `key_prefix` + 0..per_day-1), each of 10 messages at 10:00 on its day (message ids far
-- above any real id). They were consolidated one night each before the benchmark's own clock (retention counts
-- from when the pipeline ran, now(); facts from when they were said, before `before`), with their text pruned
-- once the text retention (`text_retention_days`) had passed, as the nightly run leaves them.
INSERT INTO {schema}.conversations (conversation_id, partition_date, session_key, user_key, started_at, ended_at,
    is_legacy, message_ids, turn_count, transcript, transcript_hash, closed_as_of, idle_gap_minutes,
    facts_extracted_at, extracted_with, recorded_at, text_pruned_at)
SELECT 'hist' || g, h.day, %(key_prefix)s::text || h.u, %(key_prefix)s::text || h.u,
       h.at, h.at + interval '3 minutes', false,
       ARRAY(SELECT 1000000000 + g::bigint * 10 + k FROM generate_series(0, 9) AS k)::bigint[], 10, '[]'::jsonb,
       md5(g::text), h.done, 180, h.done, 'history', h.done,
       CASE WHEN h.done + make_interval(days => %(text_retention_days)s) < now()
            THEN h.done + make_interval(days => %(text_retention_days)s) END
FROM generate_series(0, %(days)s::int * %(per_day)s::int - 1) AS g
CROSS JOIN LATERAL (
    SELECT %(before)s::date - 1 - (g / %(per_day)s::int) AS day, g %% %(per_day)s::int AS u,
           (%(before)s::date - 1 - (g / %(per_day)s::int))::timestamp AT TIME ZONE 'UTC' + interval '10 hours' AS at,
           now() - make_interval(days => g / %(per_day)s::int, hours => 21) AS done
) AS h;

-- name: bench_history_candidates
-- Two accepted candidates per history conversation, said in its first two messages, as a user's facts recur:
-- the contact channel (single-valued) changes every 45 days among four values, so it is repeated on most days
-- and superseded now and then; a hobby (multi-valued) is one of 20, so hobbies are said again and again.
INSERT INTO {schema}.fact_candidates (candidate_id, partition_date, conversation_id, user_key, position, category,
    attribute, value, fact, quote, status, quote_message_id, quote_speaker, said_at, extractor, model,
    prompt_version)
SELECT 'hist' || c.g || '_' || k, c.day, 'hist' || c.g, c.user_key, k, 'preference',
       CASE k WHEN 0 THEN 'contact_channel' ELSE 'hobby' END, v.value,
       CASE k WHEN 0 THEN 'User wants to be contacted by ' || v.value || '.' ELSE 'User enjoys ' || v.value || '.' END,
       CASE k WHEN 0 THEN 'Please use ' || v.value || '.' ELSE 'I enjoy ' || v.value || '.' END,
       'accepted', 1000000000 + c.g::bigint * 10 + k, 'human', c.at + make_interval(mins => k),
       'history', 'history', 'history'
FROM (SELECT g, g / %(per_day)s::int AS back, g %% %(per_day)s::int AS u,
             %(before)s::date - 1 - (g / %(per_day)s::int) AS day,
             %(key_prefix)s::text || (g %% %(per_day)s::int) AS user_key,
             (%(before)s::date - 1 - (g / %(per_day)s::int))::timestamp AT TIME ZONE 'UTC' + interval '10 hours' AS at
      FROM generate_series(0, %(days)s::int * %(per_day)s::int - 1) AS g) AS c
CROSS JOIN generate_series(0, 1) AS k
CROSS JOIN LATERAL (SELECT CASE k
    WHEN 0 THEN (ARRAY['email', 'phone', 'sms', 'whatsapp'])[1 + ((c.back / 45 + c.u) %% 4)]
    ELSE (ARRAY['chess', 'piano', 'hiking', 'running', 'cinema', 'football', 'gardening', 'novels', 'sushi', 'jazz',
                'cooking', 'cycling', 'yoga', 'painting', 'photography', 'tennis', 'swimming', 'baking', 'poetry',
                'climbing'])[1 + (hashint4(c.g) & 2147483647) %% 20]
    END AS value) AS v;

-- name: bench_history_archive
-- The archive as the nightly purge leaves it: the raw rows of the history conversations still within
-- `archive_retention_days` (they are dropped after it).
INSERT INTO {schema}.chat_archive (id, session_id, message, created_at, conversation_id, partition_date, archived_at)
SELECT m.id, c.session_key, '{{"type": "human", "content": "history"}}', c.started_at + make_interval(secs => 20 * m.k),
       c.conversation_id, c.partition_date, c.facts_extracted_at
FROM {schema}.conversations AS c
CROSS JOIN LATERAL unnest(c.message_ids) WITH ORDINALITY AS m(id, k)
WHERE c.extracted_with = 'history'
  AND c.facts_extracted_at > now() - make_interval(days => %(archive_retention_days)s);

-- name: bench_history_summaries
-- Their summaries (text dropped with the transcript's, as prune_summaries does) and, within text retention, the
-- cached summaries and extraction answers of their transcripts.
INSERT INTO {schema}.session_summaries (conversation_id, partition_date, user_key, summary, transcript_hash,
    extractor, model, prompt_version, recorded_at)
SELECT conversation_id, partition_date, user_key,
       CASE WHEN text_pruned_at IS NULL THEN 'The user talked about their week.' END, transcript_hash,
       'history', 'history', 'history', facts_extracted_at
FROM {schema}.conversations WHERE extracted_with = 'history';
INSERT INTO {schema}.summary_cache (transcript_hash, prompt_version, model, summary, created_at)
SELECT transcript_hash, 'history', 'history', 'The user talked about their week.', facts_extracted_at
FROM {schema}.conversations WHERE extracted_with = 'history' AND text_pruned_at IS NULL;
INSERT INTO {schema}.extraction_cache (transcript_hash, prompt_version, model, facts, created_at)
SELECT transcript_hash, 'history', 'history', '[]'::jsonb, facts_extracted_at
FROM {schema}.conversations WHERE extracted_with = 'history' AND text_pruned_at IS NULL;

-- name: bench_history_figures
SELECT (SELECT count(*) FROM {schema}.conversations) AS conversations,
       (SELECT count(*) FROM {schema}.fact_candidates) AS candidates,
       (SELECT count(*) FROM {schema}.chat_archive) AS archive_rows,
       (SELECT count(*) FROM {schema}.session_summaries) AS summaries,
       (SELECT count(*) FROM {schema}.agent_facts) AS versions,
       (SELECT count(*) FROM {schema}.agent_facts WHERE superseded_at IS NULL) AS active;

-- name: session_keys_with_prefix
-- Session keys starting with a prefix, in n8n's table or the archive (has the demo loaded its sample already?).
SELECT session_id::text AS session_id FROM {source} WHERE starts_with(session_id::text, %(prefix)s)
UNION
SELECT session_id FROM {schema}.chat_archive WHERE starts_with(session_id, %(prefix)s);

-- name: count_facts
SELECT count(*) AS n FROM {schema}.agent_facts;

-- name: analyze_conversations
-- Benchmark only: fresh statistics after a bulk load of history (autovacuum would take them later).
ANALYZE {schema}.conversations, {schema}.fact_candidates, {schema}.agent_facts, {schema}.chat_archive,
    {schema}.session_summaries, {schema}.summary_cache, {schema}.extraction_cache, {schema}.fact_folds;

-- name: drop_pipeline_and_source
-- Benchmark clean-up: the scratch pipeline schema and n8n-like table, never a configured one.
DROP SCHEMA IF EXISTS {schema} CASCADE;
DROP TABLE IF EXISTS {source};

-- name: insert_cached_extractions
-- A write batch's extraction answers into the cache, one statement over parallel arrays (first answer wins).
INSERT INTO {schema}.extraction_cache (transcript_hash, prompt_version, model, facts, input_tokens, output_tokens)
SELECT k.transcript_hash, %(prompt_version)s, %(model)s, k.facts, k.input_tokens, k.output_tokens
FROM unnest(%(transcript_hashes)b::text[], %(facts)b::jsonb[], %(input_tokens)b::integer[],
            %(output_tokens)b::integer[]) AS k (transcript_hash, facts, input_tokens, output_tokens)
ON CONFLICT DO NOTHING;

-- name: record_llm_failures
-- A write batch's failed calls, one statement over parallel arrays (its conversation ids are distinct).
INSERT INTO {schema}.extraction_failures AS f
    (conversation_id, stage, partition_date, reason, model, prompt_version)
SELECT k.conversation_id, %(stage)s, %(partition_date)s, k.reason, %(model)s, %(prompt_version)s
FROM unnest(%(conversation_ids)b::text[], %(reasons)b::text[]) AS k (conversation_id, reason)
ON CONFLICT (conversation_id, stage) DO UPDATE SET
    partition_date = EXCLUDED.partition_date, reason = EXCLUDED.reason, model = EXCLUDED.model,
    prompt_version = EXCLUDED.prompt_version, attempts = f.attempts + 1, recorded_at = now();

-- name: clear_llm_failures
DELETE FROM {schema}.extraction_failures
WHERE conversation_id = ANY(%(conversation_ids)b::text[]) AND stage = %(stage)s;

-- name: llm_failures_of_partition
SELECT reason, count(*) AS n FROM {schema}.extraction_failures
WHERE partition_date = %(partition_date)s AND stage = %(stage)s
GROUP BY reason ORDER BY reason;

-- name: summary_tokens_of_partition
-- What the partition's stored summaries cost when they were computed (cache hits carry the cached figures).
SELECT coalesce(sum(input_tokens), 0) AS input_tokens, coalesce(sum(output_tokens), 0) AS output_tokens
FROM {schema}.session_summaries WHERE partition_date = %(partition_date)s;

-- name: extraction_tokens_of_partition
-- What the extraction answers of the partition's conversations cost (0 when the summary request answered both).
SELECT coalesce(sum(e.input_tokens), 0) AS input_tokens, coalesce(sum(e.output_tokens), 0) AS output_tokens
FROM {schema}.conversations AS c
JOIN {schema}.extraction_cache AS e
  ON e.transcript_hash = c.transcript_hash AND e.prompt_version = %(prompt_version)s AND e.model = %(model)s
WHERE c.partition_date = %(partition_date)s;

-- Recall: text search languages and embeddings of active facts (memory_pipeline/embeddings.py).
-- name: facts_without_fts_config
-- One page (keyset on id) of the active facts without a text search configuration.
SELECT id, fact FROM {schema}.agent_facts
WHERE fts_config IS NULL AND superseded_at IS NULL AND id > %(after)s ORDER BY id LIMIT %(limit)s;

-- name: set_fts_config
UPDATE {schema}.agent_facts SET fts_config = %(config)s::regconfig WHERE id = ANY(%(ids)s);

-- name: embedding_column_dimensions
-- A vector(N) column stores N as its type modifier (-1 when no size was declared).
SELECT a.atttypmod AS dims FROM pg_attribute AS a
JOIN pg_class AS c ON c.oid = a.attrelid JOIN pg_namespace AS n ON n.oid = c.relnamespace
WHERE n.nspname = %(schema)s AND c.relname = 'agent_facts' AND a.attname = 'embedding' AND NOT a.attisdropped;

-- name: facts_without_embedding
-- One page (keyset on id) of the active facts without an embedding.
SELECT id, fact FROM {schema}.agent_facts
WHERE embedding IS NULL AND superseded_at IS NULL AND id > %(after)s ORDER BY id LIMIT %(limit)s;

-- name: count_facts_without_embedding
-- Active facts without an embedding after a page (the ones a failing endpoint leaves for the next night).
SELECT count(*) AS n FROM {schema}.agent_facts WHERE embedding IS NULL AND superseded_at IS NULL AND id > %(after)s;

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

-- name: recall_users
SELECT DISTINCT user_key FROM {schema}.agent_facts WHERE superseded_at IS NULL ORDER BY user_key;

-- name: bench_recall_facts
-- Recall benchmark only: `facts` active facts spread over `users` users ('user0'..), said over two years,
-- English texts from a small vocabulary, random vectors of `dims` floats (the correlated subquery draws one per
-- row). Set-based: one statement, no round trip per row.
INSERT INTO {schema}.agent_facts (user_key, category, fact, source_session, valid_from, quote, last_seen_at,
    expires_at, candidate_id, fts_config, embedding)
SELECT 'user' || (g %% %(users)s::int), (ARRAY['preference', 'decision', 'client_info'])[1 + g %% 3],
       'User likes ' || w.words[1 + (g * 7) %% 20] || ' and ' || w.words[1 + (g * 13 + g / 20) %% 20] || ' #' || g || '.',
       'bench', now() - make_interval(days => g %% 700), 'I said so.', now(), now() + interval '1 year',
       'bench' || g, 'english',
       (SELECT array_agg(random()::real) FROM generate_series(1, %(dims)s::int) WHERE g >= 0)::vector
FROM generate_series(0, %(facts)s::int - 1) AS g,
     (SELECT ARRAY['coffee', 'tea', 'jazz', 'hiking', 'email', 'phone', 'Paris', 'Lisbon', 'python', 'cats',
                   'dogs', 'football', 'cinema', 'sushi', 'pizza', 'running', 'chess', 'piano', 'novels',
                   'gardening'] AS words) AS w;

-- name: vector_extension_schema
SELECT n.nspname FROM pg_extension AS e JOIN pg_namespace AS n ON n.oid = e.extnamespace WHERE e.extname = 'vector';

-- name: lock_embeddings
-- Session-level: the embedding pass spans several transactions (one per batch).
SELECT pg_advisory_lock(hashtext('memory_pipeline.embeddings'), hashtext(%(schema)s));

-- name: unlock_embeddings
SELECT pg_advisory_unlock(hashtext('memory_pipeline.embeddings'), hashtext(%(schema)s));

-- name: partition_state_conversations
-- A partition's state as its tables hold it now (not what one run did), for the assets' partition_* metadata.
SELECT count(*) AS conversations, count(DISTINCT user_key) AS users,
       coalesce(sum(cardinality(message_ids)), 0) AS messages,
       count(*) FILTER (WHERE is_legacy) AS legacy_conversations,
       (SELECT count(*) FROM {schema}.message_rejections r
        WHERE r.partition_date = %(partition_date)s AND r.status = 'rejected') AS rows_rejected,
       (SELECT count(*) FROM {schema}.message_rejections r
        WHERE r.partition_date = %(partition_date)s AND r.status = 'skipped') AS rows_skipped
FROM {schema}.conversations WHERE partition_date = %(partition_date)s;

-- name: partition_state_summaries
-- Every closed conversation of the partition and whether it has a summary (the session_summaries check reads
-- conversations_without_summary).
SELECT count(s.conversation_id) AS summaries,
       count(*) FILTER (WHERE s.conversation_id IS NULL) AS conversations_without_summary,
       coalesce(sum(s.input_tokens), 0) AS input_tokens, coalesce(sum(s.output_tokens), 0) AS output_tokens
FROM {schema}.conversations AS c LEFT JOIN {schema}.session_summaries AS s USING (conversation_id)
WHERE c.partition_date = %(partition_date)s;

-- name: partition_state_candidates
SELECT coalesce(sum(n), 0)::bigint AS candidates,
       coalesce(sum(n) FILTER (WHERE status = 'accepted'), 0)::bigint AS candidates_accepted,
       coalesce(sum(n) FILTER (WHERE status = 'rejected'), 0)::bigint AS candidates_rejected,
       coalesce(jsonb_object_agg(reject_reason, n) FILTER (WHERE reject_reason IS NOT NULL), '{{}}')
           AS candidates_rejected_by_reason
FROM (
    SELECT status, reject_reason, count(*) AS n FROM {schema}.fact_candidates
    WHERE partition_date = %(partition_date)s GROUP BY status, reject_reason
) AS c;

-- name: partition_state_facts
-- Fact versions first said in the partition's conversations: active (not superseded, time-to-live not over),
-- expired (not superseded, time-to-live over and not kept alive by recalls: fact_recalls.recalled_until) and
-- superseded, counted apart.
SELECT count(f.id) AS facts,
       count(f.id) FILTER (WHERE f.superseded_at IS NULL AND NOT f.expired) AS facts_active,
       count(f.id) FILTER (WHERE f.superseded_at IS NULL AND f.expired) AS facts_expired,
       count(f.id) FILTER (WHERE f.superseded_at IS NOT NULL) AS facts_superseded
FROM {schema}.conversations AS c
JOIN LATERAL (
    SELECT f.id, f.superseded_at,
           (f.expires_at <= now() AND NOT EXISTS (SELECT 1 FROM {schema}.fact_recalls AS r
                                                  WHERE r.fact_id = f.id AND r.recalled_until > now())) AS expired
    FROM {schema}.agent_facts AS f WHERE f.source_session = c.conversation_id
) AS f ON true
WHERE c.partition_date = %(partition_date)s;

-- name: partition_state_archive
-- Conversations consolidated (facts extracted, so archived) or not, archive rows of the partition (within
-- retention), and rows of its consolidated conversations still in n8n's table.
SELECT (SELECT count(*) FROM {schema}.conversations
        WHERE partition_date = %(partition_date)s AND facts_extracted_at IS NOT NULL) AS conversations_consolidated,
       (SELECT count(*) FROM {schema}.conversations
        WHERE partition_date = %(partition_date)s AND facts_extracted_at IS NULL) AS conversations_not_consolidated,
       (SELECT count(*) FROM {schema}.chat_archive WHERE partition_date = %(partition_date)s) AS rows_archived,
       (SELECT count(*) FROM {source} AS s
        WHERE s.id IN (SELECT unnest(message_ids) FROM {schema}.conversations
                       WHERE partition_date = %(partition_date)s AND facts_extracted_at IS NOT NULL))
           AS consolidated_rows_in_source;

-- name: check_conversations_without_summary
-- Closed conversations of the partition with neither a summary nor a recorded failure of the summary stage (an
-- LLM call that failed is accounted for in extraction_failures, with its reason, and tried again next run).
SELECT count(*) AS without_summary FROM {schema}.conversations AS c
WHERE c.partition_date = %(partition_date)s
  AND NOT EXISTS (SELECT 1 FROM {schema}.session_summaries AS s WHERE s.conversation_id = c.conversation_id)
  AND NOT EXISTS (SELECT 1 FROM {schema}.extraction_failures AS e
                  WHERE e.conversation_id = c.conversation_id AND e.stage = 'session_summaries');

-- name: prune_conversation_text
-- Text retention: a conversation consolidated more than `retention_days` ago loses its transcript; its ids,
-- hashes, times and counts stay. Only consolidated (extracted) conversations: the others still need their text.
UPDATE {schema}.conversations SET transcript = '[]'::jsonb, text_pruned_at = now()
WHERE text_pruned_at IS NULL AND facts_extracted_at < now() - make_interval(days => %(retention_days)s);

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
  AND recorded_at < now() - make_interval(days => %(grace_days)s)
RETURNING candidate_id;

-- name: prune_expired_candidate_quotes
-- ... and so does the candidate it was built from, so the next reconciliation gives the same empty quote.
UPDATE {schema}.fact_candidates SET quote = ''
WHERE candidate_id = ANY(%(candidate_ids)s) AND quote <> '';

-- Scale benchmark only (memory_pipeline/benchmark_scale.py): one night of generated chat memory, set-based.
-- name: bench_scale_rows
-- `conversations` conversations of 2-60 messages (length from a hash of the conversation number), spread over
-- `users` session keys (`bench:<n>`), each key's conversations of the night 4 hours apart (longer than the
-- benchmark's 3-hour idle gap), messages 20 s apart from `day_start`. Texts cycle through `base` (MemoryBank's
-- human/ai rows); every 10th conversation takes its rows from `shapes` (every n8n row shape, malformed ones
-- included); every 50th is legacy (key `legacy:<n>`, created_at NULL). Ids follow conversation order; `messages`
-- caps the total.
INSERT INTO {source} (session_id, message, created_at)
SELECT CASE WHEN c.legacy THEN 'legacy:' ELSE 'bench:' END || c.u,
       CASE WHEN c.n %% 10 = 3 THEN p.shapes -> ((c.n + k) %% jsonb_array_length(p.shapes))
            ELSE p.base -> ((c.n * 14 + k) %% jsonb_array_length(p.base)) END,
       CASE WHEN NOT c.legacy THEN %(day_start)s::timestamptz + make_interval(hours => 4 * c.slot, secs => 20 * k) END
FROM (SELECT n, n %% %(users)s::int AS u, (n / %(users)s::int) %% 6 AS slot,
             2 + (hashint4(n) & 2147483647) %% 59 AS len, n %% 50 = 7 AS legacy
      FROM generate_series(0, %(conversations)s::int - 1) AS n) AS c
CROSS JOIN LATERAL generate_series(0, c.len - 1) AS k
CROSS JOIN (SELECT %(base)s::jsonb AS base, %(shapes)s::jsonb AS shapes) AS p
ORDER BY c.n, k
LIMIT %(messages)s;

-- name: bench_scale_source_indexes
-- The indexes `memory-pipeline add-time-column` builds, built after the load as a bulk load would.
CREATE INDEX ON {source} (session_id, created_at);
CREATE INDEX ON {source} (created_at);
ANALYZE {source};

-- name: bench_floor_setup
-- A copy of the night's rows and an archive shaped and indexed like chat_archive, for the SQL floor.
CREATE TABLE {schema}.floor_source AS SELECT * FROM {source};
ALTER TABLE {schema}.floor_source ADD PRIMARY KEY (id);
CREATE INDEX ON {schema}.floor_source (session_id, created_at);
CREATE INDEX ON {schema}.floor_source (created_at);
CREATE TABLE {schema}.floor_archive (LIKE {schema}.chat_archive INCLUDING ALL);
ANALYZE {schema}.floor_source;

-- name: bench_floor_copy_out
COPY (SELECT id, session_id, message, created_at FROM {schema}.floor_source) TO STDOUT;

-- name: bench_floor_archive
INSERT INTO {schema}.floor_archive (id, session_id, message, created_at, conversation_id, partition_date)
SELECT id, session_id::text, message::text, created_at, 'floor', %(partition_date)s FROM {schema}.floor_source;

-- name: bench_floor_delete
DELETE FROM {schema}.floor_source AS s USING {schema}.floor_archive AS a
WHERE a.id = s.id AND a.session_id = s.session_id::text AND a.message = s.message::text;

-- name: bench_floor_drop
DROP TABLE {schema}.floor_source, {schema}.floor_archive;

-- Incremental reconciliation (memory_pipeline/folds.py, Store.*fold*).
-- name: users_to_reconcile
-- Users a partition's active_facts reconciles: its consolidated conversations' users, its accepted candidates'
-- users (a group chat's senders have their own), and users whose folded candidates were changed or deleted
-- since their last fold (fact_folds.needs_refold). Keys only, no transcript.
SELECT user_key FROM {schema}.conversations
WHERE partition_date = %(partition_date)s AND facts_extracted_at IS NOT NULL
UNION
SELECT user_key FROM {schema}.fact_candidates WHERE partition_date = %(partition_date)s AND status = 'accepted'
UNION
SELECT user_key FROM {schema}.fact_folds WHERE needs_refold
UNION
SELECT user_key FROM {schema}.fold_requests
ORDER BY user_key;

-- name: folds_of_users
-- Locked until the transaction ends (a concurrent fold of the same user waits). needs_refold: flagged by a fold
-- that found a candidate changed under it, or requested by the trigger on a folded candidate's deletion or
-- change (fold_requests; the ids seen are deleted by record_fold, a request committed later stays for the next
-- fold). has_forgotten: a forget request covers some of the user's slots (their new candidates are filtered).
SELECT user_key, said_at, quote_message_id, conversation_id, position, candidate_id, fold_rule,
       needs_refold OR cardinality(r.ids) > 0 AS needs_refold, r.ids AS fold_requests,
       EXISTS (SELECT 1 FROM {schema}.forgotten_facts AS g WHERE g.user_key = f.user_key) AS has_forgotten
FROM {schema}.fact_folds AS f
CROSS JOIN LATERAL (SELECT ARRAY(SELECT request_id FROM {schema}.fold_requests AS q
                                 WHERE q.user_key = f.user_key) AS ids) AS r
WHERE user_key = ANY(%(user_keys)s) FOR UPDATE OF f;

-- name: unfolded_candidates_of_users
-- row_version (the row's xmin): `record_fold` marks the candidate folded only if the row is still the version read.
SELECT candidate_id, user_key, category, attribute, value, fact, quote, quote_message_id, quote_speaker,
       conversation_id, said_at, position, retraction, xmin::text AS row_version
FROM {schema}.fact_candidates
WHERE user_key = ANY(%(user_keys)s) AND status = 'accepted' AND folded_at IS NULL AND said_at IS NOT NULL;

-- name: active_facts_of_users
-- The user's active versions with the position of the candidate that created each (its said order's tie-break).
SELECT f.id, f.user_key, f.category, f.attribute, f.value, f.fact, f.quote, f.quote_message_id, f.quote_speaker,
       f.source_session, f.candidate_id, f.valid_from, f.last_seen_at, f.expires_at, f.superseded_at,
       f.superseded_by, coalesce(c.position, 0) AS position
FROM {schema}.agent_facts AS f LEFT JOIN {schema}.fact_candidates AS c USING (candidate_id)
WHERE f.user_key = ANY(%(user_keys)s) AND f.superseded_at IS NULL;

-- name: record_fold
-- Mark the candidates a batch of users' folds just folded and move each user's watermark, in one statement (a
-- data-modifying WITH always runs). A candidate is marked only while its row is the version the fold read (xmin):
-- one deleted or changed by another process meanwhile (a re-extraction, a re-split, before it was ever folded, so
-- no trigger flagged it) leaves its user flagged `needs_refold` (a user with more candidates read than marked:
-- EXCEPT ALL), or its fact would stay folded in for good. A row another transaction is deleting or changing
-- right now is skipped (SKIP LOCKED), flagging the user too: waiting for it would deadlock when that
-- transaction's trigger waits for this fold's lock on the user's fact_folds row. Marking a candidate folded does
-- not fire the refold trigger (it fires on rows already folded).
WITH read AS (
    SELECT * FROM unnest(%(read_user_keys)b::text[], %(candidate_ids)b::text[], %(row_versions)b::text[])
        AS r (user_key, candidate_id, row_version)
),
unchanged AS (
    SELECT c.candidate_id, r.user_key
    FROM {schema}.fact_candidates AS c
    JOIN read AS r ON c.candidate_id = r.candidate_id
    WHERE c.xmin::text = r.row_version AND c.folded_at IS NULL
    FOR NO KEY UPDATE OF c SKIP LOCKED
),
folded AS (
    UPDATE {schema}.fact_candidates AS c SET folded_at = now()
    FROM unchanged AS u WHERE c.candidate_id = u.candidate_id
    RETURNING u.user_key
),
missed AS (
    SELECT user_key FROM read EXCEPT ALL SELECT user_key FROM folded
),
requests_served AS (
    DELETE FROM {schema}.fold_requests WHERE request_id = ANY(%(fold_requests)b::bigint[])
)
INSERT INTO {schema}.fact_folds AS f
    (user_key, said_at, quote_message_id, conversation_id, position, candidate_id, fold_rule, needs_refold)
SELECT m.user_key, m.said_at, m.quote_message_id, m.conversation_id, m.position, m.candidate_id, m.fold_rule,
       m.user_key IN (SELECT user_key FROM missed)
FROM unnest(%(user_keys)b::text[], %(said_at)b::timestamptz[], %(quote_message_ids)b::bigint[],
            %(conversation_ids)b::text[], %(positions)b::integer[], %(last_candidate_ids)b::text[],
            %(fold_rules)b::text[])
     AS m (user_key, said_at, quote_message_id, conversation_id, position, candidate_id, fold_rule)
ON CONFLICT (user_key) DO UPDATE SET
    said_at = EXCLUDED.said_at, quote_message_id = EXCLUDED.quote_message_id,
    conversation_id = EXCLUDED.conversation_id, position = EXCLUDED.position, candidate_id = EXCLUDED.candidate_id,
    fold_rule = EXCLUDED.fold_rule, needs_refold = EXCLUDED.needs_refold, folded_at = now();

-- name: delete_facts
DELETE FROM {schema}.agent_facts WHERE id = ANY(%(ids)s);
