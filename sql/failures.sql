-- Named queries of the checks on failed LLM calls (memory_pipeline/stages.py, check_every_conversation_*).

-- name: failed_conversations_of_partition
-- Conversations of the partition left unconsolidated (facts not extracted) by a failed LLM call recorded in
-- extraction_failures, by stage and reason; `conversations` is the same count over every stage and reason.
SELECT e.stage, e.reason, count(*) AS n,
       (SELECT count(DISTINCT f.conversation_id) FROM {schema}.extraction_failures AS f
        JOIN {schema}.conversations AS k USING (conversation_id)
        WHERE k.partition_date = %(partition_date)s AND k.facts_extracted_at IS NULL) AS conversations
FROM {schema}.extraction_failures AS e JOIN {schema}.conversations AS c USING (conversation_id)
WHERE c.partition_date = %(partition_date)s AND c.facts_extracted_at IS NULL
GROUP BY e.stage, e.reason ORDER BY e.stage, e.reason;
