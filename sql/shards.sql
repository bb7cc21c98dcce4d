-- Named queries of the shards of a night (memory_pipeline/domain/shards.py, memory_pipeline/store/base.py,
-- memory_pipeline/defs/shards.py).
-- A block starts with `-- name: NAME`; a name is unique across the store's files (`store.base.QUERY_FILES`).
-- Identifier placeholders are filled with psycopg.sql: {schema} (pipeline schema). Values are bound parameters.

-- name: in_shard
-- The filter `in_shard COLUMN` (in braces) of every named query of a partition becomes, for a run of shard
-- INDEX/COUNT with COUNT > 1 (with COUNT 1 it is `true`): the user key's shard as domain.shards.shard_of computes
-- it (the first 32 bits of md5 of its UTF-8 bytes, unsigned, modulo COUNT); the store fills in the column, the
-- count and the index (StoreBase.query; the comment lines are left out).
(mod(('x' || left(md5({column}), 8))::bit(32)::bigint, {count}) = {index})

-- name: record_shard_finished
-- A shard's run of a day ended its last asset: (day, shard, count) finished now (a re-run moves the time).
INSERT INTO {schema}.night_shards (partition_date, shard_index, shard_count, finished_at, run_id)
VALUES (%(partition_date)s, %(shard_index)s, %(shard_count)s, now(), %(run_id)s)
ON CONFLICT (partition_date, shard_index, shard_count) DO UPDATE SET
    finished_at = EXCLUDED.finished_at, run_id = EXCLUDED.run_id;

-- name: shards_finished
-- The shards of a day that finished under a shard count, with the run that finished each last.
SELECT shard_index, run_id FROM {schema}.night_shards
WHERE partition_date = %(partition_date)s AND shard_count = %(shard_count)s
ORDER BY shard_index;

-- name: shard_counts_complete
-- The shard counts under which every shard of the day finished (each a complete pass over the day's users).
SELECT shard_count FROM {schema}.night_shards
WHERE partition_date = %(partition_date)s
GROUP BY shard_count HAVING count(DISTINCT shard_index) = shard_count
ORDER BY shard_count;
