"""Crash safety: a failure at any statement of any stage (an exception raised, or the worker process killed with
os._exit) and a re-run leave every message in n8n's table or the archive, no duplicate or contradicting active
fact, and the same facts as an uninterrupted run.

Faults are injected in `Store.query`, which every statement of every stage goes through: failing its k-th call
stops a stage mid-transaction (the transaction rolls back) or, when the call is a transaction's first statement,
right after the previous transaction committed. One fault point per kind of statement (the first call of each
named query) plus its last call, so every point of every stage is hit without running hundreds of times.
"""

import os
import subprocess
import sys
from datetime import date, datetime, timedelta, timezone

import pytest
from psycopg import sql

from memory_pipeline import sample
from memory_pipeline.db import get_pool
from memory_pipeline.extractors.offline import OfflineExtractor
from memory_pipeline.stages.checks import check_no_duplicate_active_facts
from memory_pipeline.store import Store
from memory_pipeline_tests.conftest import run_stages

DAYS = [date(2026, 5, 1), date(2026, 5, 2)]  # the first is the backlog date


def history() -> list[sample.SampleRow]:
    def at(day, hour, minute=0):
        return datetime.combine(day, datetime.min.time(), tzinfo=timezone.utc) + timedelta(hours=hour, minutes=minute)

    rows = [sample.SampleRow("crash:a", {"type": "human", "content": "I live in Oslo."}, None),
            sample.SampleRow("crash:a", {"type": "ai", "content": "Noted."}, None)]
    for day, (a_says, b_says) in zip(DAYS, [("Please contact me by email.", "I like jazz."),
                                            ("Please contact me by phone.", "I hate jazz.")]):
        rows += [sample.SampleRow("crash:a", {"type": "human", "content": a_says}, at(day, 9)),
                 sample.SampleRow("crash:a", {"type": "ai", "content": "Noted."}, at(day, 9, 1)),
                 sample.SampleRow("crash:a", "not json at all", at(day, 9, 2)),
                 sample.SampleRow("crash:b", {"type": "human", "content": b_says}, at(day, 15)),
                 sample.SampleRow("crash:b", {"type": "ai", "content": "Noted."}, at(day, 15, 1))]
    return rows


def run_days(store: Store) -> None:
    extractor = OfflineExtractor()
    with get_pool(store.settings.database_url).connection() as conn:
        for day in DAYS:
            run_stages(store, conn, day, extractor)


def fresh(make_settings) -> tuple[Store, set[int]]:
    # Every stage's statements run in this process, through the Store.query that faults are injected in.
    settings = make_settings(backlog_date=DAYS[0].isoformat())
    with get_pool(settings.database_url).connection() as conn:
        sample.create_n8n_table(conn, settings)
        sample.insert_rows(conn, settings, history())
        ids = {r["id"] for r in conn.execute(sql.SQL("SELECT id FROM {}").format(
            sql.Identifier(settings.source_schema, settings.source_table)))}
    return Store(settings), ids


def state(store: Store) -> dict:
    """Message ids by table, the facts comparable across installations, and the duplicate/contradiction check."""
    schema = sql.Identifier(store.settings.schema_name)
    with get_pool(store.settings.database_url).connection() as conn:
        source = {r["id"] for r in conn.execute(sql.SQL("SELECT id FROM {}").format(store.source))}
        archive = {r["id"] for r in conn.execute(sql.SQL("SELECT id FROM {}.chat_archive").format(schema))}
        facts = conn.execute(sql.SQL("SELECT f.*, s.fact AS by_fact FROM {0}.agent_facts f "
                                     "LEFT JOIN {0}.agent_facts s ON s.id = f.superseded_by").format(schema)).fetchall()
        check = check_no_duplicate_active_facts(store, conn)
    return {"source": source, "archive": archive, "check_passed": check.passed,
            "facts": sorted((f["user_key"], f["category"], f["fact"], f["valid_from"], f["last_seen_at"],
                             f["superseded_at"], f["by_fact"]) for f in facts)}


class InjectedFault(RuntimeError):
    pass


@pytest.fixture(scope="module")
def reference(pg_url, tmp_path_factory):
    """The uninterrupted run: its final state and the named query of every Store.query call, in order."""
    from memory_pipeline_tests.conftest import _counter
    from memory_pipeline.db import ensure_schema
    from memory_pipeline.settings import Settings

    def make_settings(**overrides):
        n = next(_counter)
        settings = Settings(database_url=pg_url, home=tmp_path_factory.mktemp("home"), schema_name=f"mp_test_{n}",
                            source_table=f"chat_{n}", **overrides)
        with get_pool(pg_url).connection() as conn:
            ensure_schema(conn, settings)
        return settings

    store, ids = fresh(make_settings)
    calls = []
    original = Store.query

    def recording(self, conn, name, *args, **kwargs):
        calls.append(name)
        return original(self, conn, name, *args, **kwargs)

    Store.query = recording
    try:
        run_days(store)
    finally:
        Store.query = original
    final = state(store)
    assert final["source"] == set() and final["archive"] == ids and final["check_passed"] and final["facts"]
    points = sorted({calls.index(name) + 1 for name in set(calls)} | {len(calls)})
    return final, points


def assert_safe_after_fault_and_rerun(store, ids, final):
    after_fault = state(store)
    assert after_fault["source"] | after_fault["archive"] == ids  # nothing lost at the crash
    assert after_fault["check_passed"]
    run_days(store)
    again = state(store)
    assert again == final


def test_an_exception_at_any_statement_then_a_rerun(make_settings, reference, monkeypatch):
    final, points = reference
    original = Store.query
    for point in points:
        store, ids = fresh(make_settings)
        calls = 0

        def faulty(self, conn, name, *args, **kwargs):
            nonlocal calls
            calls += 1
            if calls == point:
                raise InjectedFault(f"fault at call {point} ({name})")
            return original(self, conn, name, *args, **kwargs)

        monkeypatch.setattr(Store, "query", faulty)
        with pytest.raises(InjectedFault):
            run_days(store)
        monkeypatch.setattr(Store, "query", original)
        assert_safe_after_fault_and_rerun(store, ids, final)


KILLED_WORKER = """
import os, sys
from memory_pipeline.settings import Settings
from memory_pipeline.store import Store
from memory_pipeline_tests.test_crash_safety import run_days

point, calls, original = int(sys.argv[1]), 0, Store.query
def dying(self, conn, name, *args, **kwargs):
    global calls
    calls += 1
    if calls == point:
        os._exit(17)  # no clean-up of any kind: the server sees the connection drop mid-transaction
    return original(self, conn, name, *args, **kwargs)
Store.query = dying
run_days(Store(Settings(**dict(a.split("=", 1) for a in sys.argv[2:]))))
"""


def test_a_killed_worker_at_points_of_each_stage_then_a_rerun(make_settings, reference):
    final, points = reference
    for point in points[1::max(1, len(points) // 5)]:  # about five points spread over the stages
        store, ids = fresh(make_settings)
        s = store.settings
        args = [f"database_url={s.database_url}", f"schema_name={s.schema_name}", f"source_table={s.source_table}",
                f"backlog_date={s.backlog_date}", f"home={s.home}"]
        done = subprocess.run([sys.executable, "-c", KILLED_WORKER, str(point), *args], capture_output=True,
                              text=True, timeout=120, cwd=os.path.dirname(os.path.dirname(__file__)))
        assert done.returncode == 17, done.stderr[-2000:]
        assert_safe_after_fault_and_rerun(store, ids, final)
