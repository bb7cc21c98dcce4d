"""`closed_sessions` streams the night (server-side cursor, key by key, batched writes) and reads each active
key's rows only back to the start of its chain, yet stores exactly what splitting every row of the active keys
gives (the stage before streaming, kept here as the reference: its two queries and its split)."""

import random
from datetime import date, datetime, timedelta, timezone

import psycopg
import pytest
from psycopg import sql
from psycopg.types.json import Jsonb

from memory_pipeline import sample
from memory_pipeline.store import conversations as store_conversations
from memory_pipeline.db import get_pool
from memory_pipeline.domain.conversations import build_conversations, is_closed, partition_window, user_key_mapper
from memory_pipeline.domain.messages import SourceRow
from memory_pipeline.store import Store
import memory_pipeline.stages.closed_sessions as closed_sessions_stage
from memory_pipeline.stages.closed_sessions import closed_sessions

DAY = date(2026, 5, 10)
NOW = datetime(2026, 5, 12, tzinfo=timezone.utc)

# The stage's queries before streaming: every row (up to day end + idle gap) of every key active in the window.
REFERENCE_KEYS = """
SELECT session_id::text AS session_id FROM {source} WHERE {created_at} >= %(start)s AND {created_at} < %(end)s
UNION SELECT session_id FROM {schema}.chat_archive WHERE created_at >= %(start)s AND created_at < %(end)s"""
REFERENCE_ROWS = """
SELECT DISTINCT ON (id) id, session_id, message, created_at FROM (
    SELECT id::bigint AS id, session_id::text AS session_id, message::text AS message, {created_at} AS created_at,
           0 AS from_archive FROM {source} WHERE session_id = ANY(%(keys)s) AND {created_at} < %(until)s
    UNION ALL
    SELECT id, session_id, message, created_at, 1 FROM {schema}.chat_archive
    WHERE session_id = ANY(%(keys)s) AND created_at < %(until)s) AS r
ORDER BY id, from_archive"""
REFERENCE_LEGACY = """
SELECT DISTINCT ON (id) id, session_id, message, created_at FROM (
    SELECT id::bigint AS id, session_id::text AS session_id, message::text AS message, {created_at} AS created_at,
           0 AS from_archive FROM {source} WHERE {created_at} IS NULL
    UNION ALL
    SELECT id, session_id, message, created_at, 1 FROM {schema}.chat_archive WHERE created_at IS NULL) AS r
ORDER BY id, from_archive"""


def reference_split(store: Store, conn, day: date, now: datetime) -> dict:
    """What the stage stored before streaming: closed conversations of `day` (ids in order, message ids,
    transcript hashes) and the rejected/skipped rows, plus how many rows it read."""
    s = store.settings

    def run(text, params):
        query = sql.SQL(text).format(schema=sql.Identifier(s.schema_name), source=store.source,
                                     created_at=store.created_at_expr(conn))
        return conn.execute(query, params).fetchall()

    idle = timedelta(minutes=s.idle_gap_minutes)
    start, end = partition_window(day, s.timezone)
    keys = [r["session_id"] for r in run(REFERENCE_KEYS, {"start": start, "end": end})]
    records = run(REFERENCE_ROWS, {"keys": keys, "until": end + idle}) if keys else []
    if day == s.effective_backlog_date:
        records += run(REFERENCE_LEGACY, {})
    rows = [Store._source_row(r["id"], r["session_id"], r["message"], r["created_at"]) for r in records]
    conversations = build_conversations(
        rows, idle_gap=idle, timezone=s.timezone, backlog_date=s.effective_backlog_date,
        user_key=user_key_mapper(s.user_key_regex), max_chars=s.max_message_chars,
        max_span=timedelta(hours=s.max_conversation_hours), id_salt=store.id_salt(conn),
        sender_template=s.sender_user_key)
    closed = [c for c in conversations if c.partition_date == day and is_closed(c, now, idle)]
    return {
        "ids": [c.conversation_id for c in closed if not c.is_unattributed],
        "conversations": {c.conversation_id: (list(c.message_ids), c.transcript_hash, c.user_key)
                          for c in closed if not c.is_unattributed},
        "rejections": {r.message_id: (c.conversation_id, r.status, r.reason)
                       for c in closed for r in c.rows if r.status != "turn"},
        "rows_read": len(rows),
    }


def stored(store: Store, conn, day: date) -> dict:
    schema = sql.Identifier(store.settings.schema_name)
    conversations = conn.execute(sql.SQL(
        "SELECT conversation_id, message_ids, transcript_hash, user_key FROM {}.conversations "
        "WHERE partition_date = %s").format(schema), (day,)).fetchall()
    rejections = conn.execute(sql.SQL(
        "SELECT message_id, conversation_id, status, reason FROM {}.message_rejections WHERE partition_date = %s")
        .format(schema), (day,)).fetchall()
    return {
        "conversations": {r["conversation_id"]: (r["message_ids"], r["transcript_hash"], r["user_key"])
                          for r in conversations},
        "rejections": {r["message_id"]: (r["conversation_id"], r["status"], r["reason"]) for r in rejections},
    }


def at(day: date, minutes: float) -> datetime:
    return datetime.combine(day, datetime.min.time(), tzinfo=timezone.utc) + timedelta(minutes=minutes)


SHAPES = [{"type": "human", "content": "I live in Oslo."}, {"type": "ai", "content": "Noted."},
          {"type": "system", "content": "hidden"}, "not json", {"type": "ai", "tool_calls": [{"name": "x"}]},
          {"type": "human", "content": "## Message from Ann: I like jazz."}, {"content": "no type"}]


def generated_rows(seed: int) -> list[sample.SampleRow]:
    """Keys living over several days around DAY: bursts with short and long gaps, a group chat that never
    pauses (cut by max_span), keys whose byte order differs from naive orders, a blank key, legacy rows."""
    rnd = random.Random(seed)
    keys = ["alpha", "Zed", "a b", "a-b", "émile", "Émile", "日本", "z" * 3, "group", "  "]
    rows = []
    for key in keys:
        t = rnd.uniform(-3 * 24 * 60, -60)  # minutes from DAY's midnight
        while t < 26 * 60:
            for _ in range(rnd.randint(1, 25)):
                rows.append(sample.SampleRow(key, rnd.choice(SHAPES), at(DAY, t)))
                t += rnd.choice([0, 0.5, 7, 40]) if key != "group" else 50
            t += rnd.choice([20, 150, 200, 500]) if key != "group" else 60
    rows += [sample.SampleRow(rnd.choice(keys), rnd.choice(SHAPES), None) for _ in range(15)]  # legacy
    rnd.shuffle(rows)  # ids do not follow time
    return rows


def load(store: Store, conn, rows: list[sample.SampleRow], archive_before: datetime | None = None,
         also_archived: bool = True, indexed: bool = True) -> None:
    """Insert `rows` into n8n's table (with the indexes add-time-column builds unless not `indexed`), then move
    the rows before
    `archive_before` to the archive as a previous night's purge would and, with `also_archived`, copy every
    seventh other row there too (archived, not yet purged: in both tables)."""
    sample.insert_rows(conn, store.settings, rows)
    if indexed:
        store.add_time_column(conn)
    if archive_before is not None:
        schema = sql.Identifier(store.settings.schema_name)
        conn.execute(sql.SQL(
            "INSERT INTO {0}.chat_archive (id, session_id, message, created_at, conversation_id, partition_date) "
            "SELECT id, session_id, message::text, created_at, 'earlier', coalesce(created_at::date, DATE '2026-01-01') FROM {1} "
            "WHERE created_at < %(before)s OR (%(also)s AND id %% 7 = 0)").format(schema, store.source),
            {"before": archive_before, "also": also_archived})
        conn.execute(sql.SQL("DELETE FROM {} WHERE created_at < %s").format(store.source), (archive_before,))


@pytest.mark.parametrize("seed,indexed", [(1, True), (2, True), (3, True), (4, False), (5, False)])
def test_streamed_stage_stores_what_splitting_every_row_gives(make_settings, monkeypatch, seed, indexed):
    """Without the (session_id, created_at) index, every row of the active keys is read (no walk back), with the
    same result."""
    # Tiny cursor and write batches: keys span several cursor fetches and batches.
    monkeypatch.setattr(store_conversations, "WINDOW_CURSOR_ITERSIZE", 7)
    monkeypatch.setattr(closed_sessions_stage, "CLOSED_SESSIONS_WRITE_BATCH", 3)
    settings = make_settings(backlog_date=DAY.isoformat(), idle_gap_minutes=180, max_conversation_hours=5)
    store = Store(settings)
    with get_pool(settings.database_url).connection() as conn:
        sample.create_n8n_table(conn, settings)
        load(store, conn, generated_rows(seed), archive_before=at(DAY, -6 * 60), indexed=indexed)
        assert store.can_walk_back(conn) == indexed
        for day in (DAY - timedelta(days=1), DAY, DAY + timedelta(days=1)):
            expected = reference_split(store, conn, day, NOW)
            result = closed_sessions(store, conn, day, now=NOW).metadata
            got = stored(store, conn, day)
            assert got["conversations"] == expected["conversations"]
            assert got["rejections"] == expected["rejections"]
            assert result["conversation_ids"] == expected["ids"][:200]
            assert result["conversations_closed"] == len(expected["ids"])
            assert 0 < result["rows_read"] <= expected["rows_read"]
            if not indexed:
                assert result["rows_read"] == expected["rows_read"]
    assert expected["ids"] and any(r[1] == "rejected" for r in expected["rejections"].values())


def test_conversation_across_midnight_joins_its_archived_start(make_settings):
    """Evening rows of the previous day were archived and purged by the previous night's run; a row written late
    after midnight, within the idle gap, joins them: the day's conversation starts with the archived rows."""
    settings = make_settings(idle_gap_minutes=180)
    store = Store(settings)
    said = {"type": "human", "content": "I live in Oslo."}
    with get_pool(settings.database_url).connection() as conn:
        sample.create_n8n_table(conn, settings)
        evening = [sample.SampleRow("kim", said, at(DAY, -120 + 10 * i)) for i in range(6)]  # 22:00 .. 22:50
        after_midnight = [sample.SampleRow("kim", said, at(DAY, 60 + i)) for i in range(3)]  # 01:00 .. 01:02
        load(store, conn, evening + after_midnight, archive_before=at(DAY, 0), also_archived=False)
        archived = [r["id"] for r in conn.execute(sql.SQL(
            "SELECT id FROM {}.chat_archive ORDER BY created_at").format(sql.Identifier(settings.schema_name)))]
        expected = reference_split(store, conn, DAY, NOW)
        result = closed_sessions(store, conn, DAY, now=NOW).metadata
        got = stored(store, conn, DAY)
    assert len(archived) == 6
    ((message_ids, _, _),) = got["conversations"].values()
    assert message_ids[:6] == archived and len(message_ids) == 9
    assert got["conversations"] == expected["conversations"]
    assert result["rows_read"] == 9


def test_long_archived_history_reads_only_the_chain(make_settings):
    """30 days of a key's history in the archive: the night reads that day's chain (the evening before, joined
    across midnight within the idle gap) and nothing older; the conversations are those of a full read. A group
    chat that never pauses for days has its whole chain read, so max_span cuts fall where they always did."""
    settings = make_settings(idle_gap_minutes=180, max_conversation_hours=5)
    store = Store(settings)
    said = {"type": "human", "content": "I live in Oslo."}
    rows = [sample.SampleRow("kim", said, at(DAY - timedelta(days=d), 9 * 60 + i)) for d in range(1, 31)
            for i in range(10)]
    chain = [sample.SampleRow("kim", said, at(DAY, -60 + 30 * i)) for i in range(5)]  # 23:00 .. 01:00
    group = [sample.SampleRow("group", said, at(DAY, -3 * 24 * 60 + 50 * i)) for i in range(100)]  # 3.5 days
    with get_pool(settings.database_url).connection() as conn:
        sample.create_n8n_table(conn, settings)
        load(store, conn, rows + chain + group, archive_before=at(DAY, 0), also_archived=False)
        expected = reference_split(store, conn, DAY, NOW)
        result = closed_sessions(store, conn, DAY, now=NOW).metadata
        got = stored(store, conn, DAY)
    group_before_window_end = sum(1 for r in group if r.created_at < at(DAY, 24 * 60 + 180))
    assert result["rows_read"] == len(chain) + group_before_window_end
    assert expected["rows_read"] == len(rows) + len(chain) + group_before_window_end
    assert got["conversations"] == expected["conversations"]
    assert result["conversations_closed"] == len(expected["ids"]) > 2


def test_window_query_uses_the_time_indexes(make_settings):
    """With a timestamptz created_at, the window query's conditions on n8n's table are on the bare column: the
    (created_at) and (session_id, created_at) indexes serve them (sequential scans disabled to show that an
    index path exists: with the column wrapped in an expression the plan would still scan the table)."""
    settings = make_settings()
    store = Store(settings)
    with get_pool(settings.database_url).connection() as conn:
        sample.create_n8n_table(conn, settings)
        load(store, conn, [sample.SampleRow("kim", {"type": "human", "content": "Hi."}, at(DAY, 60))])
        start, end = partition_window(DAY, "UTC")
        with conn.transaction():
            conn.execute("SET LOCAL enable_seqscan = off")
            plan = "\n".join(next(iter(r.values())) for r in conn.execute(
                sql.SQL("EXPLAIN ") + store.query(conn, "window_rows"),
                {"start": start, "end": end, "until": end + timedelta(hours=3), "idle_gap": timedelta(hours=3)}))
    table = settings.source_table
    assert f"Seq Scan on {table}" not in plan
    assert f"{table}_created_idx" in plan and f"{table}_session_created_idx" in plan


def test_text_time_column_keeps_the_range_checked_filter(make_settings):
    settings = make_settings()
    store = Store(settings)
    with get_pool(settings.database_url).connection() as conn:
        sample.create_n8n_table(conn, settings)
        conn.execute(sql.SQL("ALTER TABLE {} ALTER COLUMN created_at TYPE text").format(store.source))
        assert store.created_at_filter(conn) == store.created_at_expr(conn)
        assert not store.can_walk_back(conn)
        conn.execute(sql.SQL("INSERT INTO {} (session_id, message, created_at) VALUES (%s, %s, %s)").format(
            store.source), ("kim", Jsonb({"type": "human", "content": "Hi."}), "2026-05-10 10:00:00+00"))
        result = closed_sessions(store, conn, DAY, now=NOW).metadata
    assert result["conversations_closed"] == 1 and result["rows_read"] == 1


def test_rows_by_session_key_merges_timed_and_legacy_streams_by_key():
    from memory_pipeline.domain.conversations import rows_by_session_key

    def rows(*keys):
        return [SourceRow(i, k, {}, None) for i, k in enumerate(keys)]

    grouped = list(rows_by_session_key(iter(rows("a", "a", "b", "é")), iter(rows("a", "c", "é"))))
    assert [[r.session_id for r in g] for g in grouped] == [["a", "a", "a"], ["b"], ["c"], ["é", "é"]]


def test_rerun_after_a_late_row_replaces_the_overlapped_conversation(make_settings, monkeypatch):
    """A row written late before a stored conversation's first message (within the idle gap) moves its start,
    so its id changes: the batched write deletes the stored one it overlaps (same partition and key) and keeps
    the other key's conversation; a plain re-run then writes nothing."""
    monkeypatch.setattr(closed_sessions_stage, "CLOSED_SESSIONS_WRITE_BATCH", 1)  # in this process: one worker
    settings = make_settings(idle_gap_minutes=180)
    store = Store(settings)
    said = {"type": "human", "content": "I live in Oslo."}
    with get_pool(settings.database_url).connection() as conn:
        sample.create_n8n_table(conn, settings)
        load(store, conn, [sample.SampleRow(key, said, at(DAY, 600 + i)) for key in ("kim", "lea") for i in range(3)])
        first = closed_sessions(store, conn, DAY, now=NOW).metadata
        sample.insert_rows(conn, settings, [sample.SampleRow("kim", said, at(DAY, 590))])
        second = closed_sessions(store, conn, DAY, now=NOW).metadata
        again = closed_sessions(store, conn, DAY, now=NOW).metadata
        got = stored(store, conn, DAY)
        expected = reference_split(store, conn, DAY, NOW)
    assert first["conversations_stored"] == 2 and second["conversations_stored"] == 1
    assert again["conversations_stored"] == 0
    assert got["conversations"] == expected["conversations"] and len(got["conversations"]) == 2
    assert set(first["conversation_ids"]) & set(second["conversation_ids"]) == {
        i for i in first["conversation_ids"] if got["conversations"].get(i, ("", "", ""))[2] == "lea"}


def test_a_failing_write_batch_rolls_the_whole_stage_back(make_settings, monkeypatch):
    """The stage runs in one transaction: a failing batch rolls back the whole night."""
    monkeypatch.setattr(store_conversations, "WINDOW_CURSOR_ITERSIZE", 5)
    monkeypatch.setattr(closed_sessions_stage, "CLOSED_SESSIONS_WRITE_BATCH", 2)
    settings = make_settings()
    store = Store(settings)
    noon = datetime(2026, 5, 10, 12, tzinfo=timezone.utc)
    rows = [sample.SampleRow(f"user{k}", {"type": "human", "content": f"I live in town {k}."},
                             noon + timedelta(minutes=k)) for k in range(12)]
    calls = []
    save = Store.save_conversations

    def failing_save(self, conn, conversations, closed_as_of):
        calls.append(len(conversations))
        if len(calls) == 3:
            raise psycopg.errors.DiskFull("no space left")
        return save(self, conn, conversations, closed_as_of)

    with get_pool(settings.database_url).connection() as conn:
        sample.create_n8n_table(conn, settings)
        sample.insert_rows(conn, settings, rows)
        monkeypatch.setattr(Store, "save_conversations", failing_save)
        with pytest.raises(psycopg.errors.DiskFull):
            closed_sessions(store, conn, DAY, now=NOW)
        assert len(calls) == 3  # two batches written before the failure, none after
        # rolled back whole (the two batches written too), and the connection is idle and usable
        assert conn.info.transaction_status == psycopg.pq.TransactionStatus.IDLE
        count = sql.SQL("SELECT count(*) AS n FROM {}.conversations").format(sql.Identifier(settings.schema_name))
        assert conn.execute(count).fetchone()["n"] == 0
        monkeypatch.setattr(Store, "save_conversations", save)
        result = closed_sessions(store, conn, DAY, now=NOW).metadata
        assert result["conversations_closed"] == result["conversations_stored"] == 12
