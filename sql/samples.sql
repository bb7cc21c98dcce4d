-- Named queries of the demo's and the benchmarks' sample and generated data (memory_pipeline/sample.py,
-- memory_pipeline/benchmarks/).
-- A block starts with `-- name: NAME`; a name is unique across the store's files (`store.base.QUERY_FILES`).
-- Identifier placeholders are filled with psycopg.sql: {schema} (pipeline schema), {source} (the n8n table,
-- schema-qualified), {created_at} (the source's time expression: `created_at::timestamptz`, or NULL when the
-- table has no such column), {created_at_filter} (the same for WHERE clauses, bare when the column is a timestamp so
-- an index can serve it: use it only where out-of-range times cannot pass, see `Store.created_at_filter`).
-- Values are always bound parameters (%(name)s).

-- name: source_rows_of_sessions
SELECT count(*) AS n FROM {source} WHERE session_id = ANY(%(keys)s);

-- name: archive_rows_of_sessions
SELECT count(*) AS n FROM {schema}.chat_archive WHERE session_id = ANY(%(keys)s);

-- name: conversations_of_sessions
SELECT count(*) AS n FROM {schema}.conversations WHERE session_key = ANY(%(keys)s);

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

-- name: drop_pipeline_and_source
-- Benchmark clean-up: the scratch pipeline schema and n8n-like table, never a configured one.
DROP SCHEMA IF EXISTS {schema} CASCADE;
DROP TABLE IF EXISTS {source};

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

-- Scale benchmark only (memory_pipeline/benchmarks/scale.py): one night of generated chat memory, set-based.

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
