-- Named queries of the asset checks and each asset's partition state (memory_pipeline/stages/checks.py,
-- memory_pipeline/stages/partition_state.py).
-- A block starts with `-- name: NAME`; a name is unique across the store's files (`store.base.QUERY_FILES`).
-- Identifier placeholders are filled with psycopg.sql: {schema} (pipeline schema), {source} (the n8n table,
-- schema-qualified), {created_at} (the source's time expression: `created_at::timestamptz`, or NULL when the
-- table has no such column), {created_at_filter} (the same for WHERE clauses, bare when the column is a timestamp so
-- an index can serve it: use it only where out-of-range times cannot pass, see `Store.created_at_filter`).
-- Values are always bound parameters (%(name)s).

-- name: check_consolidated_rows_in_source
-- Rows of the partition's consolidated conversations still in n8n's table after archiving (e.g. ids reused
-- after the table was reset, so the archive holds another row under the same id).
SELECT count(*) AS left_in_source FROM {source} AS s
WHERE s.id IN (SELECT unnest(message_ids) FROM {schema}.conversations
               WHERE partition_date = %(partition_date)s AND facts_extracted_at IS NOT NULL AND {in_shard user_key});

-- name: check_rows_left_behind
-- Rows of n8n's table dated in [start, before) that no stored conversation nor rejection holds, by local day
-- (`timezone`): rows that arrived after their day's nightly run and its catch-up (check_rows_left_behind).
SELECT ({created_at} AT TIME ZONE %(timezone)s)::date AS day, count(*) AS n
FROM {source} AS s
WHERE {created_at_filter} >= %(start)s AND {created_at_filter} < %(before)s
  AND NOT EXISTS (SELECT 1 FROM {schema}.conversations AS c WHERE c.message_ids @> ARRAY[s.id::bigint])
  AND NOT EXISTS (SELECT 1 FROM {schema}.message_rejections AS r WHERE r.message_id = s.id)
GROUP BY 1 ORDER BY 1;

-- name: check_duplicate_active_facts
SELECT count(*) AS groups FROM (
    SELECT 1 FROM {schema}.agent_facts WHERE superseded_at IS NULL AND {in_shard user_key}
    GROUP BY user_key, category, md5(fact) HAVING count(*) > 1
) AS d;

-- name: check_contradicting_active_facts
-- Single-valued attributes with more than one active value for one user (multi-valued ones are passed in).
SELECT count(*) AS groups FROM (
    SELECT 1 FROM {schema}.agent_facts
    WHERE superseded_at IS NULL AND attribute IS NOT NULL AND NOT (attribute = ANY(%(multi_valued)s))
      AND {in_shard user_key}
    GROUP BY user_key, attribute HAVING count(DISTINCT lower(coalesce(value, fact))) > 1
) AS d;

-- name: check_related_active_facts
-- Pairs of one user's active facts that one owner holds (the slot or object a value belongs to, whatever the
-- attribute was called: `owners`, written by the fold from domain.owners), e.g. `job` and `occupation` both active.
SELECT coalesce(sum(n * (n - 1) / 2), 0)::bigint AS pairs FROM (
    SELECT count(*) AS n FROM {schema}.agent_facts AS f, jsonb_array_elements_text(f.owners) AS o (owner)
    WHERE f.superseded_at IS NULL AND {in_shard f.user_key}
    GROUP BY f.user_key, o.owner HAVING count(*) > 1
) AS d;

-- name: check_missing_messages
-- Message ids of the partition's conversations that are in neither the n8n table nor the archive, for
-- conversations whose archive retention has not ended yet.
SELECT count(*) AS missing FROM (
    SELECT unnest(message_ids) AS id FROM {schema}.conversations
    WHERE partition_date = %(partition_date)s AND {in_shard user_key}
      AND recorded_at >= now() - make_interval(days => %(retention_days)s)
) AS m
WHERE NOT EXISTS (SELECT 1 FROM {schema}.chat_archive a WHERE a.id = m.id)
  AND NOT EXISTS (SELECT 1 FROM {source} s WHERE s.id = m.id);

-- name: check_open_conversations
-- Conversations of the partition that were still open (last message within the idle gap) when consolidated.
SELECT count(*) AS open FROM {schema}.conversations
WHERE partition_date = %(partition_date)s AND NOT is_legacy AND {in_shard user_key}
  AND ended_at > closed_as_of - make_interval(mins => idle_gap_minutes);

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
-- conversations_without_summary): summaries stored, rejected by grounding, the mean sentences of those stored,
-- and the sentences of the model's answers dropped as not grounded.
SELECT count(s.conversation_id) FILTER (WHERE s.rejected_reason IS NULL) AS summaries,
       count(s.rejected_reason) AS summaries_rejected,
       coalesce(round(avg(s.sentences)::numeric, 2), 0)::float8 AS sentences_mean,
       coalesce(sum(s.sentences_dropped), 0)::bigint AS sentences_dropped,
       count(*) FILTER (WHERE s.conversation_id IS NULL) AS conversations_without_summary,
       coalesce(sum(s.input_tokens), 0) AS input_tokens, coalesce(sum(s.output_tokens), 0) AS output_tokens
FROM {schema}.conversations AS c LEFT JOIN {schema}.session_summaries AS s USING (conversation_id)
WHERE c.partition_date = %(partition_date)s;

-- name: partition_state_candidates
-- The partition's candidates, the rejected ones by reason and the accepted ones by category (whichever run wrote
-- them: a re-run that extracts nothing still reports them).
WITH c AS (
    SELECT status, reject_reason, category, count(*) AS n FROM {schema}.fact_candidates
    WHERE partition_date = %(partition_date)s GROUP BY status, reject_reason, category
)
SELECT coalesce(sum(n), 0)::bigint AS candidates,
       coalesce(sum(n) FILTER (WHERE status = 'accepted'), 0)::bigint AS candidates_accepted,
       coalesce(sum(n) FILTER (WHERE status = 'rejected'), 0)::bigint AS candidates_rejected,
       (SELECT coalesce(jsonb_object_agg(reject_reason, n), '{{}}') FROM (
            SELECT reject_reason, sum(n) AS n FROM c WHERE reject_reason IS NOT NULL GROUP BY 1) AS r)
           AS candidates_rejected_by_reason,
       (SELECT coalesce(jsonb_object_agg(category, n), '{{}}') FROM (
            SELECT category, sum(n) AS n FROM c WHERE status = 'accepted' GROUP BY 1) AS a)
           AS candidates_accepted_by_category
FROM c;

-- name: partition_state_facts
-- Fact versions first said in the partition's conversations: active (not superseded, time-to-live not over),
-- expired (not superseded, time-to-live over and not kept alive by recalls: fact_recalls.recalled_until) and
-- superseded, counted apart. A fact without a time-to-live (expires_at NULL: a name) never expires.
-- facts_active_by_category: the active ones by category.
WITH f AS (
    SELECT f.id, f.category, f.superseded_at,
           (f.expires_at IS NOT NULL AND f.expires_at <= now() AND NOT EXISTS (SELECT 1 FROM {schema}.fact_recalls AS r
                                                  WHERE r.fact_id = f.id AND r.recalled_until > now())) AS expired
    FROM {schema}.conversations AS c JOIN {schema}.agent_facts AS f ON f.source_session = c.conversation_id
    WHERE c.partition_date = %(partition_date)s
)
SELECT count(id) AS facts,
       count(id) FILTER (WHERE superseded_at IS NULL AND NOT expired) AS facts_active,
       count(id) FILTER (WHERE superseded_at IS NULL AND expired) AS facts_expired,
       count(id) FILTER (WHERE superseded_at IS NOT NULL) AS facts_superseded,
       (SELECT coalesce(jsonb_object_agg(category, n), '{{}}') FROM (
            SELECT category, count(*) AS n FROM f WHERE superseded_at IS NULL AND NOT expired GROUP BY 1) AS a)
           AS facts_active_by_category
FROM f;

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
WHERE c.partition_date = %(partition_date)s AND {in_shard c.user_key}
  AND NOT EXISTS (SELECT 1 FROM {schema}.session_summaries AS s WHERE s.conversation_id = c.conversation_id)
  AND NOT EXISTS (SELECT 1 FROM {schema}.extraction_failures AS e
                  WHERE e.conversation_id = c.conversation_id AND e.stage = 'session_summaries');

-- name: failed_conversations_of_partition
-- (stages/checks.py, check_every_conversation_consolidated)
-- Conversations of the partition left unconsolidated (facts not extracted) by a failed LLM call recorded in
-- extraction_failures, by stage and reason; `conversations` is the same count over every stage and reason.
SELECT e.stage, e.reason, count(*) AS n,
       (SELECT count(DISTINCT f.conversation_id) FROM {schema}.extraction_failures AS f
        JOIN {schema}.conversations AS k USING (conversation_id)
        WHERE k.partition_date = %(partition_date)s AND k.facts_extracted_at IS NULL AND {in_shard k.user_key})
       AS conversations
FROM {schema}.extraction_failures AS e JOIN {schema}.conversations AS c USING (conversation_id)
WHERE c.partition_date = %(partition_date)s AND c.facts_extracted_at IS NULL AND {in_shard c.user_key}
GROUP BY e.stage, e.reason ORDER BY e.stage, e.reason;

-- name: rejected_summaries_of_partition
-- (stages/checks.py, check_summaries_grounded) The partition's summaries rejected by grounding, by reason, with
-- up to 50 of their conversation ids.
SELECT rejected_reason AS reason, count(*) AS n,
       (array_agg(conversation_id ORDER BY conversation_id))[1:50] AS conversation_ids
FROM {schema}.session_summaries
WHERE partition_date = %(partition_date)s AND rejected_reason IS NOT NULL AND {in_shard user_key}
GROUP BY rejected_reason ORDER BY rejected_reason;
