"""`closed_sessions` in shards (worker processes, `workers.run_shards`) stores exactly what it stores in one
process, reports the same counts, and a failing shard leaves the other shards' conversations for a re-run."""

import random
from datetime import timedelta

import psycopg
import pytest
from psycopg import sql

from memory_pipeline import sample
from memory_pipeline.db import get_pool
from memory_pipeline.store import Store
from memory_pipeline_tests.stages.test_closed_sessions_streaming import DAY, NOW, SHAPES, at, generated_rows, load
from memory_pipeline.stages.closed_sessions import closed_sessions

USER_KEY_REGEX = r"^tenant_\d+:(?P<user>.+)$"
TENANT_KEYS = [f"tenant_{n}:ann" for n in range(1, 7)]  # six session keys, one user


def night(seed: int) -> list[sample.SampleRow]:
    """The streaming test's awkward keys (bursts, a group chat cut by max_span, byte-order traps, a blank key,
    legacy rows) plus 40 more keys and six keys of one user, over the days around DAY."""
    rnd = random.Random(seed)
    rows = generated_rows(seed)
    for key in [f"k{n}" for n in range(40)] + TENANT_KEYS:
        t = rnd.uniform(-30 * 60, 20 * 60)
        for _ in range(rnd.randint(1, 12)):
            rows.append(sample.SampleRow(key, rnd.choice(SHAPES), at(DAY, t)))
            t += rnd.choice([1, 30, 300])
        if rnd.random() < 0.3:
            rows.append(sample.SampleRow(key, rnd.choice(SHAPES), None))  # legacy, for the backlog date
    rnd.shuffle(rows)
    return rows


def snapshot(store: Store, conn) -> dict:
    schema = sql.Identifier(store.settings.schema_name)
    conversations = conn.execute(sql.SQL(
        "SELECT conversation_id, partition_date, session_key, user_key, started_at, ended_at, is_legacy, "
        "message_ids, turn_count, transcript, transcript_hash FROM {}.conversations ORDER BY conversation_id"
    ).format(schema)).fetchall()
    rejections = conn.execute(sql.SQL(
        "SELECT message_id, conversation_id, partition_date, user_key, status, reason FROM {}.message_rejections "
        "ORDER BY message_id").format(schema)).fetchall()
    return {"conversations": conversations, "rejections": rejections}


def forget_split(store: Store, conn) -> None:
    schema = sql.Identifier(store.settings.schema_name)
    conn.execute(sql.SQL("DELETE FROM {}.conversations").format(schema))
    conn.execute(sql.SQL("DELETE FROM {}.message_rejections").format(schema))


def shard_of(conn, key: str, shards: int) -> int:
    return conn.execute("SELECT (hashtext(%s)::bigint + 2147483648) %% %s AS k", (key, shards)).fetchone()["k"]


def run_days(settings, conn) -> list[dict]:
    store = Store(settings)
    return [closed_sessions(store, conn, day, now=NOW).metadata
            for day in (DAY - timedelta(days=1), DAY, DAY + timedelta(days=1))]


@pytest.mark.parametrize("indexed", [True, False])
def test_shards_store_what_one_process_stores(make_settings, indexed):
    """Same conversations (ids, message ids, transcripts, hashes, user keys, partition dates), rejections and
    metadata with 2 and 3 worker processes as with 1, with keys in both the n8n table and the archive, legacy rows
    on the backlog date and six keys of one user (MEMORY_PIPELINE_USER_KEY_REGEX) spread over the shards."""
    base = make_settings(backlog_date=DAY.isoformat(), idle_gap_minutes=180, max_conversation_hours=5,
                         user_key_regex=USER_KEY_REGEX, worker_processes=1)
    store = Store(base)
    with get_pool(base.database_url).connection() as conn:
        sample.create_n8n_table(conn, base)
        load(store, conn, night(7), archive_before=at(DAY, -6 * 60), indexed=indexed)
        assert store.can_walk_back(conn) == indexed
        archived_keys = {r["session_id"] for r in conn.execute(sql.SQL(
            "SELECT DISTINCT session_id FROM {}.chat_archive").format(sql.Identifier(base.schema_name)))}
        assert len(archived_keys) > 5
        for shards in (2, 3):  # one user's keys fall in several shards
            assert len({shard_of(conn, key, shards) for key in TENANT_KEYS}) > 1
        reference_meta = run_days(base, conn)
        reference = snapshot(store, conn)
        for shards in (2, 3):
            forget_split(store, conn)
            metadata = run_days(base.model_copy(update={"worker_processes": shards}), conn)
            assert snapshot(store, conn) == reference
            for got, expected in zip(metadata, reference_meta):
                assert got.pop("worker_processes") == shards and expected["worker_processes"] == 1
                assert got == {k: v for k, v in expected.items() if k != "worker_processes"}
    closed = [m["conversations_closed"] for m in reference_meta]
    assert all(closed) and reference_meta[1]["legacy_conversations"] > 0
    assert reference_meta[1]["rows_rejected"] > 0 and reference_meta[1]["conversations_unattributed"] > 0
    ann = [c for c in reference["conversations"] if c["user_key"] == "ann"]
    assert len({c["session_key"] for c in ann}) > 1  # counted once in `users`, whichever shards its keys fell in
    assert {c["partition_date"] for c in reference["conversations"]} == {DAY - timedelta(days=1), DAY,
                                                                          DAY + timedelta(days=1)}


def test_a_failing_shard_raises_and_the_others_keep_their_work_for_the_rerun(make_settings):
    """A trigger refuses the conversations of one key (a real server error in one shard's write): the stage
    raises it after both shards ended; the other shard's conversations are committed, the failing shard's not;
    once the cause is gone a re-run stores the rest, and the night equals a one-process run."""
    settings = make_settings(idle_gap_minutes=180, worker_processes=2)
    store = Store(settings)
    schema = sql.Identifier(settings.schema_name)
    with get_pool(settings.database_url).connection() as conn:
        sample.create_n8n_table(conn, settings)
        load(store, conn, night(11), archive_before=at(DAY, -6 * 60))
        conn.execute(sql.SQL(
            "CREATE FUNCTION {0}.refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
            "IF NEW.session_key = 'k3' THEN RAISE EXCEPTION 'refused'; END IF; RETURN NEW; END $$; "
            "CREATE TRIGGER refuse BEFORE INSERT ON {0}.conversations FOR EACH ROW EXECUTE FUNCTION {0}.refuse()"
        ).format(schema))
        failing = shard_of(conn, "k3", 2)
        with pytest.raises(psycopg.errors.RaiseException, match="refused"):
            closed_sessions(store, conn, DAY, now=NOW)
        keys = [r["session_key"] for r in conn.execute(sql.SQL(
            "SELECT session_key FROM {}.conversations").format(schema))]
        assert keys and {shard_of(conn, key, 2) for key in keys} == {1 - failing}
        conn.execute(sql.SQL("DROP TRIGGER refuse ON {}.conversations").format(schema))
        rerun = closed_sessions(store, conn, DAY, now=NOW).metadata
        after_rerun = snapshot(store, conn)
        assert 0 < rerun["conversations_stored"] < rerun["conversations_closed"]  # only the failed shard's
        forget_split(store, conn)
        one = closed_sessions(Store(settings.model_copy(update={"worker_processes": 1})), conn, DAY,
                                     now=NOW).metadata
        assert snapshot(store, conn) == after_rerun
        assert one["conversations_closed"] == rerun["conversations_closed"]
        assert "k3" in {c["session_key"] for c in after_rerun["conversations"]}
