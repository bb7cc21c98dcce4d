-- Named queries of summaries, extraction answers, candidates and LLM failures (memory_pipeline/store/summaries.py).
-- A block starts with `-- name: NAME`; a name is unique across the store's files (`store.base.QUERY_FILES`).
-- Identifier placeholders are filled with psycopg.sql: {schema} (pipeline schema), {source} (the n8n table,
-- schema-qualified), {created_at} (the source's time expression: `created_at::timestamptz`, or NULL when the
-- table has no such column), {created_at_filter} (the same for WHERE clauses, bare when the column is a timestamp so
-- an index can serve it: use it only where out-of-range times cannot pass, see `Store.created_at_filter`).
-- Values are always bound parameters (%(name)s).

-- name: summary_page
-- One page of a partition's conversations for the summary stage, in conversation_id order after %(after)s
-- (keyset pagination on conversations_partition_id_idx: each page is its own short statement, no transaction
-- is held between pages), with the cached summary of the same transcript, prompt version and model. The
-- transcript is read only where a request may need it (no cached summary, text not pruned).
SELECT c.conversation_id, c.partition_date, c.session_key, c.user_key, c.started_at, c.ended_at, c.is_legacy,
       c.transcript_hash, c.text_pruned_at,
       k.transcript_hash IS NOT NULL AS cache_hit, k.summary AS cached_summary,
       k.rejected_reason AS cached_rejected_reason, k.sentences_dropped AS cached_sentences_dropped,
       k.input_tokens AS cached_input_tokens, k.output_tokens AS cached_output_tokens,
       CASE WHEN k.transcript_hash IS NULL AND c.text_pruned_at IS NULL THEN c.transcript END AS transcript
FROM {schema}.conversations AS c
LEFT JOIN {schema}.summary_cache AS k
  ON k.transcript_hash = c.transcript_hash AND k.prompt_version = %(prompt_version)s AND k.model = %(model)s
WHERE c.partition_date = %(partition_date)s AND c.conversation_id > %(after)s AND {in_shard c.user_key}
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
WHERE c.partition_date = %(partition_date)s AND c.conversation_id > %(after)s AND {in_shard c.user_key}
ORDER BY c.conversation_id
LIMIT %(limit)s;

-- name: mark_facts_extracted_batch
-- mark_facts_extracted for a batch: one statement over parallel arrays of ids and the hashes they were read with.
UPDATE {schema}.conversations AS c SET facts_extracted_at = now(), extracted_with = %(extracted_with)s
FROM unnest(%(conversation_ids)b::text[], %(transcript_hashes)b::text[]) AS k (conversation_id, transcript_hash)
WHERE c.conversation_id = k.conversation_id AND c.transcript_hash = k.transcript_hash
  AND (c.facts_extracted_at IS NULL OR c.extracted_with IS DISTINCT FROM %(extracted_with)s);

-- name: insert_cached_summaries
-- A write batch's summaries into the cache, one statement over parallel arrays (first answer wins). The LLM
-- stages bind their arrays in binary (a `b` placeholder): psycopg's text form escapes every element in Python,
-- about 20 times slower for a batch of summaries. A rejected summary is cached as '' with its reason.
INSERT INTO {schema}.summary_cache
    (transcript_hash, prompt_version, model, summary, input_tokens, output_tokens, rejected_reason, sentences_dropped)
SELECT k.transcript_hash, %(prompt_version)s, %(model)s, coalesce(k.summary, ''), k.input_tokens, k.output_tokens,
       k.rejected_reason, k.sentences_dropped
FROM unnest(%(transcript_hashes)b::text[], %(summaries)b::text[], %(input_tokens)b::integer[],
            %(output_tokens)b::integer[], %(rejected_reasons)b::text[], %(sentences_dropped)b::integer[])
     AS k (transcript_hash, summary, input_tokens, output_tokens, rejected_reason, sentences_dropped)
ON CONFLICT DO NOTHING;

-- name: upsert_summaries
-- A write batch's summaries, one statement over parallel arrays (its conversation ids are distinct); a row that
-- would not change is not rewritten. A rejected summary: summary NULL, its `rejected_reason`; `sentences_dropped`:
-- the model's sentences left out as not grounded.
INSERT INTO {schema}.session_summaries AS s
    (conversation_id, partition_date, user_key, summary, transcript_hash, extractor, model, prompt_version,
     input_tokens, output_tokens, rejected_reason, sentences, sentences_dropped)
SELECT k.conversation_id, %(partition_date)s, k.user_key, k.summary, k.transcript_hash, %(extractor)s, %(model)s,
       %(prompt_version)s, k.input_tokens, k.output_tokens, k.rejected_reason, k.sentences, k.sentences_dropped
FROM unnest(%(conversation_ids)b::text[], %(user_keys)b::text[], %(summaries)b::text[],
            %(transcript_hashes)b::text[], %(input_tokens)b::integer[], %(output_tokens)b::integer[],
            %(rejected_reasons)b::text[], %(sentences)b::integer[], %(sentences_dropped)b::integer[])
     AS k (conversation_id, user_key, summary, transcript_hash, input_tokens, output_tokens, rejected_reason,
           sentences, sentences_dropped)
ON CONFLICT (conversation_id) DO UPDATE SET
    partition_date = EXCLUDED.partition_date, user_key = EXCLUDED.user_key, summary = EXCLUDED.summary,
    transcript_hash = EXCLUDED.transcript_hash, extractor = EXCLUDED.extractor, model = EXCLUDED.model,
    prompt_version = EXCLUDED.prompt_version, input_tokens = EXCLUDED.input_tokens,
    output_tokens = EXCLUDED.output_tokens, rejected_reason = EXCLUDED.rejected_reason,
    sentences = EXCLUDED.sentences, sentences_dropped = EXCLUDED.sentences_dropped
WHERE (s.summary, s.transcript_hash, s.model, s.prompt_version, s.partition_date, s.rejected_reason, s.sentences,
       s.sentences_dropped)
      IS DISTINCT FROM
      (EXCLUDED.summary, EXCLUDED.transcript_hash, EXCLUDED.model, EXCLUDED.prompt_version, EXCLUDED.partition_date,
       EXCLUDED.rejected_reason, EXCLUDED.sentences, EXCLUDED.sentences_dropped);

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
        AND {in_shard c.user_key}
      GROUP BY c.conversation_id
      ORDER BY c.conversation_id
      LIMIT %(limit)s) AS a
JOIN {schema}.conversations AS v USING (conversation_id)
ORDER BY v.conversation_id;

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
SELECT f.reason, count(*) AS n FROM {schema}.extraction_failures AS f
WHERE f.partition_date = %(partition_date)s AND f.stage = %(stage)s
  AND EXISTS (SELECT 1 FROM {schema}.conversations AS c
              WHERE c.conversation_id = f.conversation_id AND {in_shard c.user_key})
GROUP BY f.reason ORDER BY f.reason;

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
