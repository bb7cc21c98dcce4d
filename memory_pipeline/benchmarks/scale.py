"""Scale benchmark: one night of 10k, 100k or 1M generated messages, next to the SQL floor on the same rows.

`memory-pipeline benchmark --size 100k` (or `--messages N`) builds a fresh n8n-like table and pipeline schema
(`mp_bench_<pid>`) in the configured database with one set-based INSERT ... SELECT over generate_series
(`bench_scale_rows` in sql/samples.sql): conversations of 2-60 messages on session keys that come back every 4
hours, MemoryBank's texts, every n8n row shape of `sample_data/message_shapes.jsonl` mixed in, 2% legacy rows
without created_at (attributed to the night by the backlog date). It then measures the SQL floor on a copy of the
same rows (COPY them out, INSERT ... SELECT into an archive shaped and indexed like chat_archive, DELETE them),
runs the five stages of the night with the offline extractor, and prints per stage seconds, messages/s, the peak
resident memory so far (`resource.getrusage`, the Python process, not the server) and the CPU seconds the stage
cost this process and the PostgreSQL server (`cpu.CpuMeter`), plus the ratio of the non-LLM time (every stage's
time minus the extractor's own calls, timed apart) to the floor.
`--history-days N` first stores N days of the same users' consolidated history (`build_history`): a conversation a
day with two accepted candidates that recur as a user's facts do, the archive rows within retention, and the fact
versions they reconcile to.

Figures are printed, never asserted: a test must not depend on this machine's speed.
"""

from __future__ import annotations

import json
import os
import resource
import time
from dataclasses import dataclass
from datetime import date, datetime, timezone
from importlib import resources as package_files
from typing import Any

from psycopg.types.json import Jsonb

from memory_pipeline import sample
from memory_pipeline.benchmarks.cpu import CpuMeter
from memory_pipeline.db import ensure_schema, get_pool, resolve_database_url
from memory_pipeline.extractors.offline import OfflineExtractor
from memory_pipeline.settings import Settings
from memory_pipeline.store import Store
from memory_pipeline.stages.active_facts import active_facts
from memory_pipeline.stages.archived_sessions import archived_sessions
from memory_pipeline.stages.closed_sessions import closed_sessions
from memory_pipeline.stages.extracted_facts import extracted_facts
from memory_pipeline.stages.session_summaries import session_summaries

SIZES = {"10k": 10_000, "100k": 100_000, "1m": 1_000_000}
NIGHT = date(2026, 3, 10)  # the partition the benchmark runs; any past day works
MESSAGES_PER_USER = 75  # a night's messages per session key: the measured table (11,320 for 150 users)
MEAN_CONVERSATION = 31  # mean of the uniform 2..60 conversation length


class TimedExtractor:
    """Wraps an extractor and adds up the wall time of its `summarize` and `extract` calls (`seconds`), so the
    benchmark can count model time apart from the stages' own work. Other attributes pass through."""

    def __init__(self, inner: Any):
        self._inner = inner
        self.seconds = 0.0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def _timed(self, method: str, *args: Any) -> Any:
        started = time.perf_counter()
        try:
            return getattr(self._inner, method)(*args)
        finally:
            self.seconds += time.perf_counter() - started

    def summarize(self, conversation: Any) -> Any:
        return self._timed("summarize", conversation)

    def extract(self, conversation: Any, summary: str = "") -> Any:
        return self._timed("extract", conversation, summary)


@dataclass
class ScaleFigures:
    """What one run measured: seconds per stage, extractor seconds, floor seconds, peak RSS in MiB per stage."""

    messages: int
    users: int
    stage_seconds: dict[str, float]
    peak_rss_mib: dict[str, float]
    extractor_seconds: float
    floor_seconds: float
    facts: int
    # CPU seconds per stage: (this process, the server or None when not readable)
    stage_cpu: dict[str, tuple[float, float | None]] | None = None

    @property
    def total_seconds(self) -> float:
        """All five stages, extractor calls included."""
        return sum(self.stage_seconds.values())

    @property
    def non_llm_seconds(self) -> float:
        """All five stages minus the extractor's calls (the model time)."""
        return self.total_seconds - self.extractor_seconds

    @property
    def floor_ratio(self) -> float:
        return self.non_llm_seconds / self.floor_seconds if self.floor_seconds else float("inf")


def _peak_rss_mib() -> float:
    # Linux reports ru_maxrss in KiB.
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _text_pools() -> tuple[list[Any], list[Any]]:
    """(MemoryBank's n8n messages in order, the message of every row shape of message_shapes.jsonl)."""
    base = [row.message for row in sample.memory_bank_rows(sample.load_memory_bank())]
    lines = package_files.files("memory_pipeline.sample_data").joinpath("message_shapes.jsonl").read_text()
    shapes = [json.loads(line)["message"] for line in lines.splitlines() if line.strip()]
    return base, shapes


def size_to_messages(size: str) -> int:
    """'10k' | '100k' | '1m' (case-insensitive) -> message count. Raises ValueError for anything else."""
    try:
        return SIZES[size.lower()]
    except KeyError:
        raise ValueError(f"size must be one of {', '.join(SIZES)}") from None


@dataclass
class Night:
    """A generated night in a scratch schema and n8n-like table (`prepare`): its settings (schema and table named
    by the tag), store, rows loaded, session keys and the seconds the load took."""

    settings: Settings
    store: Store
    loaded: int
    users: int
    load_seconds: float


def prepare(messages: int, tag: str) -> Night:
    """Create the scratch schema and table `tag` and load `messages` generated messages into it (one INSERT ...
    SELECT, a function of `messages` alone: two nights of one size hold the same rows)."""
    users = max(1, messages // MESSAGES_PER_USER)
    settings = Settings.from_env().model_copy(update={
        "schema_name": tag, "source_table": tag, "timezone": "UTC", "idle_gap_minutes": 180,
        "backlog_date": NIGHT, "partitions_start": date(2020, 1, 1)})
    settings = settings.model_copy(update={"database_url": resolve_database_url(settings)})
    store = Store(settings)
    base, shapes = _text_pools()
    with get_pool(settings.database_url).connection() as conn:
        ensure_schema(conn, settings)
        sample.create_n8n_table(conn, settings)
        started = time.perf_counter()
        day_start = datetime(NIGHT.year, NIGHT.month, NIGHT.day, tzinfo=timezone.utc)
        with conn.transaction():
            loaded = conn.execute(store.query(conn, "bench_scale_rows"), {
                "messages": messages, "users": users, "day_start": day_start,
                "conversations": messages // MEAN_CONVERSATION * 2 + 2,  # LIMIT cuts the surplus
                "base": Jsonb(base), "shapes": Jsonb(shapes)}).rowcount
        conn.execute(store.query(conn, "bench_scale_source_indexes"))
        return Night(settings, store, loaded, users, time.perf_counter() - started)


def drop(night: Night) -> None:
    """Drop the night's scratch schema and table."""
    with get_pool(night.settings.database_url).connection() as conn:
        conn.execute(night.store.query(conn, "drop_pipeline_and_source"))


def run(messages: int, history_days: int = 0) -> ScaleFigures:
    """Build, measure the floor, run the night, print figures, drop the scratch schema and table."""
    night = prepare(messages, f"mp_bench_{os.getpid()}")
    store = night.store
    extractor = TimedExtractor(OfflineExtractor())
    stage_seconds: dict[str, float] = {}
    peak: dict[str, float] = {}
    stage_cpu: dict[str, tuple[float, float | None]] = {}
    try:
        with get_pool(night.settings.database_url).connection() as conn:
            if history_days:
                history = build_history(store, conn, history_days, night.users)
            floor = measure_floor(store, conn)
            stages = [
                ("closed_sessions", lambda: closed_sessions(store, conn, NIGHT)),
                ("session_summaries", lambda: session_summaries(store, conn, NIGHT, extractor)),
                ("extracted_facts", lambda: extracted_facts(store, conn, NIGHT, extractor)),
                ("active_facts", lambda: active_facts(store, conn, NIGHT)),
                ("archived_sessions", lambda: archived_sessions(store, conn, NIGHT)),
            ]
            meter = CpuMeter(conn)
            for name, call in stages:
                cpu_before = meter.read()
                started = time.perf_counter()
                result = call()
                if name == "closed_sessions":
                    split = {k: result.metadata[k] for k in ("conversations_closed", "legacy_conversations",
                                                               "rows_rejected", "messages")}
                stage_seconds[name] = time.perf_counter() - started
                cpu_after = meter.read()
                stage_cpu[name] = (cpu_after[0] - cpu_before[0],
                                   None if cpu_after[1] is None else cpu_after[1] - cpu_before[1])
                peak[name] = _peak_rss_mib()
            facts = store.scalar(conn, "count_facts")
    finally:
        drop(night)
    figures = ScaleFigures(night.loaded, night.users, stage_seconds, peak, extractor.seconds, floor, facts,
                           stage_cpu)
    print_figures(figures, night.load_seconds, history_days)
    if history_days:
        print(f"  history: {history['conversations']:,} conversations, {history['candidates']:,} accepted "
              f"candidates, {history['summaries']:,} summaries, {history['archive_rows']:,} archive rows within "
              f"retention, {history['versions']:,} fact versions ({history['active']:,} active)")
    print(f"  split: {split['conversations_closed']:,} conversations ({split['legacy_conversations']:,} legacy), "
          f"{split['messages']:,} messages consolidated, {split['rows_rejected']:,} rows rejected with a reason")
    return figures


def build_history(store: Store, conn: Any, days: int, users: int, before: date = NIGHT,
                  key_prefix: str = "bench:") -> dict[str, int]:
    """Store `days` days of the same users' consolidated history before the night, as earlier nights would
    have left it (queries `bench_history_*`): a 10-message conversation a day per user, its two accepted
    candidates (a contact channel changing every 45 days, one of 20 hobbies: facts that recur, as a user's do),
    its summary, the archive rows and cached answers still within retention, and the fact versions they
    reconcile to. Users are `key_prefix` +
    0..users-1 (the night's own session keys are `bench:<n>`); the history ends the day before `before`.
    Returns its figures (bench_history_figures: counts of conversations, candidates, archive rows, versions)."""
    settings = store.settings
    params = {"before": before, "days": days, "per_day": users, "key_prefix": key_prefix,
              "text_retention_days": settings.effective_text_retention_days,
              "archive_retention_days": settings.archive_retention_days}
    with conn.transaction():
        for name in ("bench_history_conversations", "bench_history_candidates", "bench_history_archive",
                     "bench_history_summaries"):
            conn.execute(store.query(conn, name), params)
    conn.execute(store.query(conn, "analyze_conversations"))
    # Every user has a conversation on the last history day, so its partition reconciles them all.
    active_facts(store, conn, before.fromordinal(before.toordinal() - 1))
    conn.execute(store.query(conn, "analyze_conversations"))
    return dict(conn.execute(store.query(conn, "bench_history_figures")).fetchone())


def measure_floor(store: Store, conn: Any) -> float:
    """Seconds to COPY the night's rows out, INSERT ... SELECT them into an archive shaped and indexed like
    chat_archive and DELETE them, on a copy of the n8n table (set up and dropped outside the timing)."""
    conn.execute(store.query(conn, "bench_floor_setup"))
    started = time.perf_counter()
    with conn.transaction():
        with conn.cursor().copy(store.query(conn, "bench_floor_copy_out")) as copy:
            for _ in copy:
                pass  # read and discard: the floor is moving the bytes
        conn.execute(store.query(conn, "bench_floor_archive"), {"partition_date": NIGHT})
        conn.execute(store.query(conn, "bench_floor_delete"))
    seconds = time.perf_counter() - started
    conn.execute(store.query(conn, "bench_floor_drop"))
    return seconds


def _cpu_text(f: ScaleFigures, name: str) -> str:
    if not f.stage_cpu or name not in f.stage_cpu:
        return ""
    client, server = f.stage_cpu[name]
    server_text = "n/a" if server is None else f"{server:.2f}"
    total = client + (server or 0.0)
    return f"  CPU {total:7.2f} s (Python {client:.2f} + server {server_text})"


def print_figures(f: ScaleFigures, load_seconds: float, history_days: int) -> None:
    """The figures as lines of text (no message text, counts and times only)."""
    print(f"{f.messages:,} messages of {f.users:,} session keys in one night, {f.facts:,} facts (offline extractor)"
          + (f", after {history_days} days of the same users' consolidated history" if history_days else ""))
    print(f"  {'load (one INSERT ... SELECT + indexes)':40s} {load_seconds:8.2f} s")
    for name, seconds in f.stage_seconds.items():
        print(f"  {name:40s} {seconds:8.2f} s  {f.messages / seconds if seconds else 0:10.0f} messages/s"
              f"  peak RSS {f.peak_rss_mib[name]:6.0f} MiB{_cpu_text(f, name)}")
    total = sum(f.stage_seconds.values())
    print(f"  {'all five stages':40s} {total:8.2f} s  {f.messages / total if total else 0:10.0f} messages/s")
    print(f"  {'of which extractor calls (LLM time)':40s} {f.extractor_seconds:8.2f} s")
    print(f"  {'non-LLM stages':40s} {f.non_llm_seconds:8.2f} s")
    print(f"  {'SQL floor (COPY out + INSERT + DELETE)':40s} {f.floor_seconds:8.2f} s")
    print(f"  non-LLM stages / SQL floor: {f.floor_ratio:.1f}x; peak RSS {max(f.peak_rss_mib.values()):.0f} MiB")
