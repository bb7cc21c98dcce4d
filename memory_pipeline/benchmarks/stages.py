"""Benchmark: time and memory of each stage on synthetic chat memory built from MemoryBank.

`memory-pipeline benchmark --users 150 --days 10` writes the MemoryBank sample replicated to that many users
(session keys `bench<k>:<name>`) into a fresh n8n-like table and pipeline schema (`mp_bench_<pid>`) of the
configured database, runs the five stages for every day directly (no Dagster run overhead), prints one line per
stage with seconds and messages per second, the peak resident memory of the process, and drops the schema and the
table at the end. Figures are printed, never asserted: a test must not depend on this machine's speed.
"""

from __future__ import annotations

import os
import resource
import time
from collections import defaultdict
from dataclasses import replace
from datetime import date

from memory_pipeline import sample
from memory_pipeline.benchmarks.scale import build_history
from memory_pipeline.db import ensure_schema, get_pool, resolve_database_url
from memory_pipeline.extractors.offline import OfflineExtractor
from memory_pipeline.settings import Settings
from memory_pipeline.store import Store
from memory_pipeline.stages.active_facts import active_facts
from memory_pipeline.stages.archived_sessions import archived_sessions
from memory_pipeline.stages.closed_sessions import closed_sessions
from memory_pipeline.stages.extracted_facts import extracted_facts
from memory_pipeline.stages.session_summaries import session_summaries


def synthetic_rows(users: int) -> list[sample.SampleRow]:
    """MemoryBank's 15 users repeated until `users` session keys exist (same texts, distinct keys)."""
    base = list(sample.memory_bank_rows(sample.load_memory_bank()))
    rows = []
    for copy in range((users + 14) // 15):
        for row in base:
            rows.append(replace(row, session_id=f"bench{copy}:{row.session_id.split(':', 1)[1]}"))
    keys = sorted({r.session_id for r in rows})[:users]
    wanted = set(keys)
    return [r for r in rows if r.session_id in wanted]


def run(users: int, days: int | None = None, history_days: int = 0) -> dict[str, float]:
    """Load, consolidate every day, print figures, clean up. Returns {stage: seconds}.

    `history_days`: first store that many days of already consolidated history of other users
    (`benchmark_scale.build_history`: `users` conversations a day, two accepted candidates each, their archive
    rows within retention and fact versions), to time a night against a long-running installation."""
    base = Settings.from_env()
    tag = f"mp_bench_{os.getpid()}"
    settings = base.model_copy(update={"schema_name": tag, "source_table": tag})
    url = resolve_database_url(settings)
    settings = settings.model_copy(update={"database_url": url})
    store = Store(settings)
    rows = synthetic_rows(users)
    all_days = sorted({r.created_at.date().isoformat() for r in rows})[: days or None]
    rows = [r for r in rows if r.created_at.date().isoformat() in all_days]  # load only the days that run
    timings: dict[str, float] = defaultdict(float)
    extractor = OfflineExtractor()
    pool = get_pool(url)
    try:
        with pool.connection() as conn:
            ensure_schema(conn, settings)
            sample.create_n8n_table(conn, settings)
            if history_days:
                build_history(store, conn, history_days, users, date.fromisoformat(all_days[0]), "hist:")
            started = time.perf_counter()
            sample.insert_rows(conn, settings, rows)
            timings["load (n8n-style single-row inserts)"] = time.perf_counter() - started
            for day_text in all_days:
                day = date.fromisoformat(day_text)
                for name, call in [
                    ("closed_sessions", lambda: closed_sessions(store, conn, day)),
                    ("session_summaries", lambda: session_summaries(store, conn, day, extractor)),
                    ("extracted_facts", lambda: extracted_facts(store, conn, day, extractor)),
                    ("active_facts", lambda: active_facts(store, conn, day)),
                    ("archived_sessions", lambda: archived_sessions(store, conn, day)),
                ]:
                    started = time.perf_counter()
                    call()
                    timings[name] += time.perf_counter() - started
            facts = store.scalar(conn, "count_facts")
    finally:
        with pool.connection() as conn:
            conn.execute(store.query(conn, "drop_pipeline_and_source"))
    messages = len(rows)
    print(f"{users} users, {len(all_days)} days, {messages} messages, {facts} facts (offline extractor)"
          + (f", after {history_days} days x {users} conversations of stored history" if history_days else ""))
    for name, seconds in timings.items():
        print(f"  {name:40s} {seconds:8.2f} s  {messages / seconds if seconds else 0:10.0f} messages/s")
    pipeline = sum(v for k, v in timings.items() if not k.startswith("load"))
    print(f"  {'all five stages':40s} {pipeline:8.2f} s  {messages / pipeline:10.0f} messages/s")
    print(f"  peak resident memory of this process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")
    return dict(timings)
