-- Named queries of memory_pipeline/erasure.py (same placeholders as the store's other files: {schema}, {source}).
-- Every `erase_*` query takes the same parameters, so covering a new table is one query here and one line in
-- erasure.ERASURE_STEPS: %(user_key)s, %(session_keys)s (every session key that maps to the user),
-- %(conversation_ids)s and %(transcript_hashes)s (the user's conversations), %(fact_texts)s (the user's fact
-- texts, for caches keyed by text).

-- name: lock_erasure_exclusive
-- Stages take this lock shared around each write transaction (lock_erasure_shared below, `Store.hold_off_erasure`): an erasure waits
-- for those in flight, and those that start later wait for the erasure, then find the user's rows gone.
SELECT pg_advisory_xact_lock(hashtext('memory_pipeline.erasure'));

-- name: session_keys_in_source
SELECT DISTINCT session_id::text AS session_id FROM {source};

-- name: session_keys_in_archive
SELECT DISTINCT session_id FROM {schema}.chat_archive;

-- name: session_keys_of_user
SELECT DISTINCT session_key AS session_id FROM {schema}.conversations WHERE user_key = %(user_key)s;

-- name: conversations_of_user
SELECT conversation_id, transcript_hash FROM {schema}.conversations
WHERE user_key = %(user_key)s OR session_key = ANY(%(session_keys)s);

-- name: keys_derived_from_conversations
-- Other user keys that facts were derived under from the user's conversations (a group chat's senders), each
-- with `elsewhere`: whether it also has candidates from other conversations. Sorted by key (lock order).
SELECT c.user_key, EXISTS (SELECT 1 FROM {schema}.fact_candidates AS o
                           WHERE o.user_key = c.user_key
                             AND NOT (o.conversation_id = ANY(%(conversation_ids)s))) AS elsewhere
FROM (SELECT DISTINCT user_key FROM {schema}.fact_candidates
      WHERE conversation_id = ANY(%(conversation_ids)s) AND user_key <> %(user_key)s
      UNION
      SELECT DISTINCT user_key FROM {schema}.agent_facts
      WHERE source_session = ANY(%(conversation_ids)s) AND user_key <> %(user_key)s) AS c
ORDER BY c.user_key;

-- name: fact_texts_of_user
-- The user's fact and summary texts (the embedding cache is keyed by the text's sha256).
SELECT fact FROM {schema}.agent_facts WHERE user_key = %(user_key)s
UNION
SELECT fact FROM {schema}.fact_candidates WHERE user_key = %(user_key)s
UNION
SELECT summary FROM {schema}.session_summaries WHERE user_key = %(user_key)s AND summary IS NOT NULL;

-- name: erase_fact_recalls
-- Recall bookkeeping (would cascade from agent_facts; deleted first so the count is reported).
DELETE FROM {schema}.fact_recalls WHERE user_key = %(user_key)s;

-- name: erase_conversation_recalls
-- Recalls of the user's conversations (would cascade from conversations; deleted first so the count is reported).
DELETE FROM {schema}.conversation_recalls
WHERE user_key = %(user_key)s OR conversation_id = ANY(%(conversation_ids)s);

-- name: erase_embedding_cache
-- Cached embeddings of the user's fact and summary texts (keyed by the text's sha256), unless another user's fact has the
-- same text: an embedding is derived from the text, so it goes with it.
DELETE FROM {schema}.embedding_cache AS e
WHERE e.text_sha256 IN (SELECT encode(sha256(convert_to(t, 'UTF8')), 'hex') FROM unnest(%(fact_texts)s::text[]) AS t)
  AND NOT EXISTS (SELECT 1 FROM {schema}.agent_facts AS f
                  WHERE f.user_key <> %(user_key)s AND encode(sha256(convert_to(f.fact, 'UTF8')), 'hex') = e.text_sha256);

-- name: erase_agent_facts
-- Every version (active, superseded, expired) with its quote and embedding.
DELETE FROM {schema}.agent_facts WHERE user_key = %(user_key)s;

-- name: erase_fact_candidates
DELETE FROM {schema}.fact_candidates
WHERE user_key = %(user_key)s OR conversation_id = ANY(%(conversation_ids)s);

-- name: erase_session_summaries
DELETE FROM {schema}.session_summaries
WHERE user_key = %(user_key)s OR conversation_id = ANY(%(conversation_ids)s);

-- name: erase_summary_cache
-- The cache has no user column: an entry goes when no conversation outside the erased ones has its transcript
-- hash (entries another user's identical transcript still uses stay; orphans left by a replaced conversation go).
DELETE FROM {schema}.summary_cache AS s
WHERE NOT EXISTS (SELECT 1 FROM {schema}.conversations AS c
                  WHERE c.transcript_hash = s.transcript_hash
                    AND NOT (c.conversation_id = ANY(%(conversation_ids)s)));

-- name: erase_extraction_cache
-- Cached extraction answers (facts and quotes) by transcript hash: the same rule as the summary cache.
DELETE FROM {schema}.extraction_cache AS e
WHERE NOT EXISTS (SELECT 1 FROM {schema}.conversations AS c
                  WHERE c.transcript_hash = e.transcript_hash
                    AND NOT (c.conversation_id = ANY(%(conversation_ids)s)));

-- name: erase_extraction_failures
DELETE FROM {schema}.extraction_failures WHERE conversation_id = ANY(%(conversation_ids)s);

-- name: erase_message_rejections
DELETE FROM {schema}.message_rejections
WHERE user_key = %(user_key)s OR conversation_id = ANY(%(conversation_ids)s);

-- name: erase_forgotten_facts
DELETE FROM {schema}.forgotten_facts WHERE user_key = %(user_key)s;

-- name: erase_conversations
DELETE FROM {schema}.conversations WHERE conversation_id = ANY(%(conversation_ids)s);

-- name: erase_chat_archive
DELETE FROM {schema}.chat_archive
WHERE session_id = ANY(%(session_keys)s) OR conversation_id = ANY(%(conversation_ids)s);

-- name: erase_source_rows
-- n8n's own table: every row of every session key of the user.
DELETE FROM {source} WHERE session_id = ANY(%(session_keys)s);

-- name: insert_erasure_log
INSERT INTO {schema}.erasure_log (key_hash, scope, counts) VALUES (%(key_hash)s, %(scope)s, %(counts)s)
RETURNING erasure_id, erased_at;

-- name: candidates_of_user
SELECT candidate_id, conversation_id, category, attribute, value, fact, said_at FROM {schema}.fact_candidates
WHERE user_key = %(user_key)s;

-- name: delete_candidates
DELETE FROM {schema}.fact_candidates WHERE candidate_id = ANY(%(candidate_ids)s);

-- name: withhold_summaries
-- `forget`: the summaries of the conversations a forgotten fact was said in may repeat it, so they are withheld
-- for good (withheld_at; the trigger on session_summaries drops their text and embedding now and on every later
-- write), with their cached summaries and the cached embeddings of their text (a cache: another conversation of
-- the same text pays for it again). Summaries withheld already are left as they are.
WITH withheld AS (
    SELECT s.conversation_id, s.transcript_hash,
           encode(sha256(convert_to(s.summary, 'UTF8')), 'hex') AS text_sha256
    FROM {schema}.session_summaries AS s
    WHERE s.conversation_id = ANY(%(conversation_ids)s::text[]) AND s.withheld_at IS NULL
    FOR UPDATE
), cached_summaries AS (
    DELETE FROM {schema}.summary_cache AS k USING withheld AS w WHERE k.transcript_hash = w.transcript_hash
), cached_vectors AS (
    DELETE FROM {schema}.embedding_cache AS e USING withheld AS w WHERE e.text_sha256 = w.text_sha256
)
UPDATE {schema}.session_summaries AS s SET withheld_at = now()
FROM withheld AS w WHERE s.conversation_id = w.conversation_id;

-- name: forget_slot
INSERT INTO {schema}.forgotten_facts (user_key, slot_hash, said_before)
VALUES (%(user_key)s, %(slot_hash)s, %(said_before)s)
ON CONFLICT (user_key, slot_hash) DO UPDATE SET said_before = greatest(forgotten_facts.said_before, EXCLUDED.said_before);

-- name: forgotten_of_users
SELECT user_key, slot_hash, said_before FROM {schema}.forgotten_facts WHERE user_key = ANY(%(user_keys)s);

-- name: retractions_of_users
-- Accepted retractions ("forget my phone number") of these users, with their quotes: forget requests erase their
-- slot, other retractions only with MEMORY_PIPELINE_ERASE_ON_RETRACTION (erasure.erase_retracted_slots).
SELECT user_key, candidate_id, category, attribute, value, fact, quote, said_at FROM {schema}.fact_candidates
WHERE user_key = ANY(%(user_keys)s) AND status = 'accepted' AND retraction AND said_at IS NOT NULL;

-- name: erase_fact_folds
-- The user's fold watermark (ids and times only).
DELETE FROM {schema}.fact_folds WHERE user_key = %(user_key)s;

-- name: erase_fact_relations
-- The model's verdicts on pairs of the user's facts (hashes and verdicts).
DELETE FROM {schema}.fact_relations WHERE user_key = %(user_key)s;

-- name: erase_fold_requests
-- The user's requests to fold from scratch (ids and times only), after the candidates (their trigger adds them).
DELETE FROM {schema}.fold_requests WHERE user_key = %(user_key)s;

-- name: lock_erasure_shared
-- Held by each stage transaction that writes a user's data; an erasure takes it exclusive (erasure.sql).
SELECT pg_advisory_xact_lock_shared(hashtext('memory_pipeline.erasure'));

-- name: conversations_of_rows
-- Stored conversations holding any of these n8n row ids (`forget --row` refuses rows of a user's conversation).
SELECT count(*) AS n FROM {schema}.conversations WHERE message_ids && %(row_ids)s::bigint[];

-- name: erase_rows_source
DELETE FROM {source} WHERE id = ANY(%(row_ids)s::bigint[]);

-- name: erase_rows_chat_archive
DELETE FROM {schema}.chat_archive WHERE id = ANY(%(row_ids)s::bigint[]);

-- name: erase_rows_message_rejections
DELETE FROM {schema}.message_rejections WHERE message_id = ANY(%(row_ids)s::bigint[]);

-- name: rows_of_conversation
-- The n8n row ids of a conversation by its id (the salted hash in message_rejections, chat_archive and the
-- metadata's conversation_ids): its rejections' and its archived rows'.
SELECT message_id AS id FROM {schema}.message_rejections WHERE conversation_id = %(conversation_id)s
UNION
SELECT id FROM {schema}.chat_archive WHERE conversation_id = %(conversation_id)s
ORDER BY id;
