"""Planner statistics after a bulk write: a stage that changed more `conversations` rows than autovacuum's
default analyze threshold (50 + 10% of the table) analyzes the columns the next statements filter on at once."""

from datetime import date

from psycopg import sql

from memory_pipeline.db import get_pool
from memory_pipeline.store import Store

DAY = date(2026, 3, 10)


def _add_conversations(conn, schema: str, first: int, count: int) -> None:
    conn.execute(sql.SQL(
        "INSERT INTO {}.conversations (conversation_id, partition_date, session_key, user_key, is_legacy, "
        "message_ids, turn_count, transcript, transcript_hash, closed_as_of, idle_gap_minutes, facts_extracted_at) "
        "SELECT 'c' || n, %s, 'k', 'u', false, ARRAY[n]::bigint[], 1, '[]', md5(n::text), now(), 180, now() "
        "FROM generate_series(%s::int, %s::int) AS n").format(sql.Identifier(schema)), (DAY, first, first + count - 1))


def _row_estimate(store: Store, conn) -> int:
    return store.scalar(conn, "conversations_row_estimate", {"schema": store.settings.schema_name})


def _analyzed_columns(conn, schema: str) -> set[str]:
    rows = conn.execute("SELECT attname FROM pg_stats WHERE schemaname = %s AND tablename = 'conversations'",
                        (schema,)).fetchall()
    return {r["attname"] if isinstance(r, dict) else r[0] for r in rows}


def test_analyze_runs_past_the_autovacuum_threshold_only(make_settings):
    settings = make_settings()
    store = Store(settings)
    schema = settings.schema_name
    with get_pool(settings.database_url).connection() as conn:
        _add_conversations(conn, schema, 0, 200)
        assert store.analyze_conversations_if_stale(conn, 200, "analyze_conversations_extracted")
        assert _row_estimate(store, conn) == 200
        # The named column list only: the transcript is never sampled.
        assert {"partition_date", "facts_extracted_at"} <= _analyzed_columns(conn, schema)
        assert "transcript" not in _analyzed_columns(conn, schema)

        _add_conversations(conn, schema, 200, 70)
        assert not store.analyze_conversations_if_stale(conn, 70, "analyze_conversations_extracted")  # <= 50 + 20
        assert _row_estimate(store, conn) == 200  # statistics left as they were

        assert store.analyze_conversations_if_stale(conn, 71, "analyze_conversations_split")  # 71 > 50 + 20
        assert _row_estimate(store, conn) == 270
        assert {"conversation_id", "transcript_hash"} <= _analyzed_columns(conn, schema)
