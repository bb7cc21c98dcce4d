"""Several partitions materialized at once in separate processes on one database give the same tables as the
same partitions run one after the other: what must be exclusive is guarded in PostgreSQL (per-user advisory
locks in active_facts, the archive and purge in one transaction, conversations upserted by id), nothing in a
process's memory or local files."""

from __future__ import annotations

import multiprocessing
import multiprocessing.synchronize

from psycopg import sql

from memory_pipeline import sample
from memory_pipeline.db import get_pool
from memory_pipeline.extractors.offline import OfflineExtractor
from memory_pipeline.settings import Settings
from memory_pipeline.store import Store
from memory_pipeline_tests.conftest import run_stages

DAYS = sample.memory_bank_days(sample.load_memory_bank())[:3]


def run_night(settings: Settings, day: str, start: multiprocessing.synchronize.Barrier | None = None) -> None:
    """The five stages of one partition (the order the job runs them), with the offline extractor."""
    from datetime import date

    store, extractor, night = Store(settings), OfflineExtractor(), date.fromisoformat(day)
    if start is not None:
        start.wait(timeout=120)  # every process begins together, so their stages overlap
    with get_pool(settings.database_url).connection() as conn:
        run_stages(store, conn, night, extractor)


def tables(settings: Settings) -> dict[str, object]:
    """The pipeline's outcome, free of per-installation ids (conversation ids are salted per schema)."""
    names = {"schema": sql.Identifier(settings.schema_name),
             "source": sql.Identifier(settings.source_schema, settings.source_table)}
    queries = {
        "conversations": "SELECT partition_date, session_key, message_ids, transcript_hash, "
                         "facts_extracted_at IS NOT NULL AS extracted FROM {schema}.conversations",
        "candidates": "SELECT c.partition_date, c.user_key, c.fact, c.status, c.reject_reason "
                      "FROM {schema}.fact_candidates AS c",
        "facts": "SELECT user_key, category, fact, valid_from, superseded_at IS NULL AS active, "
                 "expires_at FROM {schema}.agent_facts",
        "archive": "SELECT id, session_id, message, partition_date FROM {schema}.chat_archive",
        "source": "SELECT id FROM {source}",
    }
    with get_pool(settings.database_url).connection() as conn:
        return {name: sorted(tuple(r.values()) for r in conn.execute(sql.SQL(q).format(**names)).fetchall())
                for name, q in queries.items()}


def load_sample(settings: Settings) -> set[int]:
    with get_pool(settings.database_url).connection() as conn:
        sample.create_n8n_table(conn, settings)
        sample.insert_rows(conn, settings, sample.memory_bank_rows(sample.load_memory_bank()))
        return {r["id"] for r in conn.execute(sql.SQL("SELECT id FROM {}").format(
            sql.Identifier(settings.source_schema, settings.source_table))).fetchall()}


def test_three_partitions_in_three_processes_equal_a_sequential_run(make_settings):
    sequential, concurrent = make_settings(), make_settings()
    loaded = load_sample(sequential)
    assert load_sample(concurrent) == loaded
    for day in DAYS:
        run_night(sequential, day)

    spawn = multiprocessing.get_context("spawn")  # fresh interpreters, as separate run workers would be
    start = spawn.Barrier(len(DAYS))
    workers = [spawn.Process(target=run_night, args=(concurrent, day, start)) for day in DAYS]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=300)
    assert [w.exitcode for w in workers] == [0, 0, 0]

    expected, got = tables(sequential), tables(concurrent)
    assert expected["facts"] and expected["archive"]  # the days did consolidate something
    for name in expected:
        assert got[name] == expected[name], name
    # No message in neither table: every loaded id is still in n8n's table or in the archive.
    assert {r[0] for r in got["source"]} | {r[0] for r in got["archive"]} == loaded
