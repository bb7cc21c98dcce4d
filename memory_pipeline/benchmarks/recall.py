"""Recall benchmark and token budget: figures printed by commands, never asserted by tests.

`memory-pipeline benchmark-recall` writes synthetic facts (default 1,000,000 facts of 10,000 users, random
unit vectors of `--dims` floats, English fact texts from a small vocabulary) with set-based SQL
(generate_series) into a scratch pipeline schema `mp_recall_bench_<pid>` of the configured database, builds the
HNSW index once after the load (faster than growing it row by row), then times, for random users, the prompt
block (N=20), the vector search and the full-text search (top 5), and the SELECT n8n's PGVector Store node sends,
each over `--queries` calls; it prints p50/p95/max in milliseconds, then drops the schema.

`memory-pipeline token-budget` consolidates the MemoryBank sample (15 users, 10 days) in a scratch schema and
compares, per user, the tokens of the injected facts block with the tokens of the window n8n's Postgres Chat
Memory gives the agent by default: its Context Window Length is 5 (n8n's `contextWindowLengthProperty`), which
LangChain's BufferWindowMemory reads as the last 5 exchanges, `messages.slice(-k * 2)`: the last 10 messages.
Tokens are estimated as ceil(characters / 4), OpenAI's rule of thumb for English text (help.openai.com, "What
are tokens and how to count them?"); no tokenizer files are needed.
"""

from __future__ import annotations

import math
import os
import random
import statistics
import time
from collections.abc import Callable
from datetime import date, datetime, timedelta, timezone

from psycopg import sql

from memory_pipeline import sample
from memory_pipeline.db import ensure_schema, get_pool, resolve_database_url
from memory_pipeline.embeddings import vector_literal
from memory_pipeline.extractors.offline import OfflineExtractor
from memory_pipeline.recall import prompt_block
from memory_pipeline.settings import Settings
from memory_pipeline.store import Store
from memory_pipeline.stages.active_facts import active_facts
from memory_pipeline.stages.closed_sessions import closed_sessions
from memory_pipeline.stages.extracted_facts import extracted_facts
from memory_pipeline.stages.session_summaries import session_summaries
from memory_pipeline.extractors.tokens import estimate_tokens

N8N_WINDOW_MESSAGES = 10  # Postgres Chat Memory's default Context Window Length 5 = the last 5 exchanges


def _scratch(prefix: str, **overrides) -> tuple[Settings, Store, str]:
    base = Settings.from_env()
    tag = f"{prefix}_{os.getpid()}"
    settings = base.model_copy(update={"schema_name": tag, "source_table": tag, **overrides})
    url = resolve_database_url(settings)
    settings = settings.model_copy(update={"database_url": url})
    return settings, Store(settings), url


def _percentiles(samples: list[float]) -> str:
    ms = sorted(s * 1000 for s in samples)
    p95 = statistics.quantiles(ms, n=20, method="inclusive")[18]
    return f"p50 {statistics.median(ms):6.2f} ms   p95 {p95:6.2f} ms   max {ms[-1]:6.2f} ms"


def run(facts: int, users: int, dims: int, queries: int, seed: int = 7) -> dict[str, list[float]]:
    """Load, index, time, print, drop. Returns {measurement: [seconds per call]}."""
    settings, store, url = _scratch("mp_recall_bench", embedding_dimensions=dims)
    pool = get_pool(url)
    schema = sql.Identifier(settings.schema_name)
    timings: dict[str, list[float]] = {}
    rng = random.Random(seed)
    try:
        with pool.connection() as conn:
            ensure_schema(conn, settings)
            started = time.perf_counter()
            conn.execute(sql.SQL("DROP INDEX {}").format(sql.Identifier(settings.schema_name,
                                                                         "agent_facts_embedding_hnsw")))
            conn.execute(store.query(conn, "bench_recall_facts"), {"facts": facts, "users": users, "dims": dims})
            loaded = time.perf_counter() - started
            started = time.perf_counter()
            conn.execute("SET maintenance_work_mem = '2GB'")
            conn.execute("SET max_parallel_maintenance_workers = 1")
            conn.execute(sql.SQL("CREATE INDEX agent_facts_embedding_hnsw ON {}.agent_facts "
                                 "USING hnsw (embedding vector_cosine_ops)").format(schema))
            conn.execute(sql.SQL("ANALYZE {}.agent_facts").format(schema))
            indexed = time.perf_counter() - started
            size = conn.execute("SELECT pg_size_pretty(pg_total_relation_size(%s::regclass)) AS s",
                                (f"{settings.schema_name}.agent_facts",)).fetchone()["s"]
            print(f"{facts:,} facts of {users:,} users, {dims}-dimension vectors: loaded in {loaded:.1f} s, HNSW "
                  f"index built in {indexed:.1f} s; agent_facts with indexes: {size}")

            def vector() -> str:
                v = [rng.gauss(0, 1) for _ in range(dims)]
                norm = math.sqrt(sum(x * x for x in v))
                return vector_literal([x / norm for x in v])

            word = lambda: rng.choice(VOCABULARY)  # noqa: E731
            node_select = (f'SELECT *, "embedding" <=> $1 as "_distance" FROM {settings.schema_name}.memory_documents '
                           "WHERE metadata->>'user_key' = $3 ORDER BY \"_distance\" ASC LIMIT $2;")
            calls: list[tuple[str, Callable[[str], None]]] = []
            for record in (False, True):
                suffix = " + recall recorded" if record else ""
                calls += [
                    (f"recall_block (N=20){suffix}", lambda u, r=record: conn.execute(
                        sql.SQL("SELECT {}.recall_block(%s, 20, %s)").format(schema), (u, r)).fetchall()),
                    (f"search_memory_vector (k=5){suffix}", lambda u, r=record: conn.execute(
                        sql.SQL("SELECT * FROM {}.search_memory_vector(%s, %s::vector, 5, %s)").format(schema),
                        (u, vector(), r)).fetchall()),
                    (f"search_memory_text (k=5){suffix}", lambda u, r=record: conn.execute(
                        sql.SQL("SELECT * FROM {}.search_memory_text(%s, %s, 5, %s)").format(schema),
                        (u, f"what {word()} do I like", r)).fetchall()),
                ]
            calls.append(("n8n PGVector Store node SELECT (k=5)", lambda u: conn.pgconn.exec_params(
                node_select.encode(), [vector().encode(), b"5", u.encode()])))
            for name, call in calls:
                for _ in range(5):  # warm the cache and the function plans
                    call(f"user{rng.randrange(users)}")
                samples = []
                for _ in range(queries):
                    user = f"user{rng.randrange(users)}"
                    started = time.perf_counter()
                    call(user)
                    samples.append(time.perf_counter() - started)
                timings[name] = samples
            plan = conn.execute(sql.SQL("EXPLAIN SELECT * FROM {}.vector_candidates('user1', %s::vector, 5)")
                                .format(schema), (vector(),)).fetchall()
    finally:
        with pool.connection() as conn:
            conn.execute(store.query(conn, "drop_pipeline_and_source"))
    print(f"{queries} calls each, random users, one connection, the client's round trip included:")
    for name, samples in timings.items():
        print(f"  {name:45s} {_percentiles(samples)}")
    scan = next((r["QUERY PLAN"].strip() for r in plan if "Scan" in r["QUERY PLAN"] and "agent_facts" in r["QUERY PLAN"]), "")
    print(f"  plan of the vector query for one user's {facts // users} facts: {scan.split('  (')[0]}")
    return timings


VOCABULARY = ["coffee", "tea", "jazz", "hiking", "email", "phone", "Paris", "Lisbon", "python", "cats", "dogs",
              "football", "cinema", "sushi", "pizza", "running", "chess", "piano", "novels", "gardening"]


def token_budget() -> list[dict[str, int]]:
    """Consolidate MemoryBank in a scratch schema; print per user the tokens of the facts block against n8n's
    default window (last 10 messages). Returns one dict per user."""
    settings, store, url = _scratch("mp_tokens")
    pool = get_pool(url)
    data = sample.load_memory_bank()
    rows = list(sample.memory_bank_rows(data))
    days = sample.memory_bank_days(data, settings.timezone)
    extractor = OfflineExtractor()
    results = []
    try:
        with pool.connection() as conn:
            ensure_schema(conn, settings)
            sample.create_n8n_table(conn, settings)
            sample.insert_rows(conn, settings, rows)
            now = datetime.fromisoformat(days[-1]).replace(tzinfo=timezone.utc) + timedelta(days=2)
            for day in days:
                d = date.fromisoformat(day)
                closed_sessions(store, conn, d, now=now)
                session_summaries(store, conn, d, extractor)
                extracted_facts(store, conn, d, extractor)
                active_facts(store, conn, d)
            by_user: dict[str, list[str]] = {}
            for row in rows:
                by_user.setdefault(row.session_id, []).append(row.message["content"])
            # The sample is from 2023: judge time-to-live the day after its last conversation.
            as_of = datetime.fromisoformat(days[-1]).replace(tzinfo=timezone.utc) + timedelta(days=1)
            for user, messages in sorted(by_user.items()):
                block = prompt_block(conn, user, settings=settings, record=False, as_of=as_of)
                window = messages[-N8N_WINDOW_MESSAGES:]
                results.append({"user": user, "facts": block.count("\n") + 1 if block else 0,
                                "block_tokens": estimate_tokens(block),
                                "window_tokens": sum(estimate_tokens(m) for m in window)})
    finally:
        with pool.connection() as conn:
            conn.execute(store.query(conn, "drop_pipeline_and_source"))
    print("Tokens per user, estimated as ceil(characters / 4): the facts block (default N=20) vs n8n's default "
          "window (last 10 messages)")
    for r in results:
        print(f"  {r['user']:28s} {r['facts']:3d} facts {r['block_tokens']:6d} tokens   window {r['window_tokens']:6d}")
    block_total = sum(r["block_tokens"] for r in results)
    window_total = sum(r["window_tokens"] for r in results)
    print(f"  {'all ' + str(len(results)) + ' users':28s} {sum(r['facts'] for r in results):3d} facts "
          f"{block_total:6d} tokens   window {window_total:6d}   (block = {block_total / window_total:.0%} of the window; "
          f"mean {block_total / len(results):.0f} vs {window_total / len(results):.0f} tokens per user)")
    return results


