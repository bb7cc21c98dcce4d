"""Shard speed-up benchmark: one generated night run whole, then the same night split in N shards run at once, one
process each, as N runs of the job on N workers take it (issue 28: with 2 shards on 2 cores a night's wall time at
most 0.65x the one-shard time).

`memory-pipeline benchmark --size 100k --shards 2` builds two copies of the same generated night (`scale.prepare`:
the rows are a function of the size), runs the five stages of the first in one process (`Shard()`, the whole
night) and of the second in N processes at once (`Shard(i, N)`), each process started and connected before the
clock starts (a barrier), and prints both wall times, their ratio and the CPU seconds each cost (Python of every
process + the PostgreSQL server), with the offline extractor. Figures are printed, never asserted.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from typing import Any

from memory_pipeline.benchmarks import scale
from memory_pipeline.benchmarks.cpu import CpuMeter
from memory_pipeline.db import get_pool
from memory_pipeline.domain.shards import Shard
from memory_pipeline.extractors.offline import OfflineExtractor
from memory_pipeline.settings import Settings
from memory_pipeline.stages.active_facts import active_facts
from memory_pipeline.stages.archived_sessions import archived_sessions
from memory_pipeline.stages.closed_sessions import closed_sessions
from memory_pipeline.stages.extracted_facts import extracted_facts
from memory_pipeline.stages.session_summaries import session_summaries
from memory_pipeline.store import Store


def _shard_night(settings: Settings, shard: Shard, ready: Any, results: Any) -> None:
    """One shard's run of the night in this (child) process: connect, wait for the others, run the five stages,
    put (index, seconds) on `results`."""
    store = Store(settings, shard)
    extractor = OfflineExtractor()
    with get_pool(settings.database_url).connection() as conn:
        ready.wait()
        started = time.perf_counter()
        closed_sessions(store, conn, scale.NIGHT)
        session_summaries(store, conn, scale.NIGHT, extractor)
        extracted_facts(store, conn, scale.NIGHT, extractor)
        active_facts(store, conn, scale.NIGHT)
        archived_sessions(store, conn, scale.NIGHT)
        results.put((shard.index, time.perf_counter() - started))


def night_in_processes(night: scale.Night, count: int) -> tuple[float, float, float | None, int]:
    """Wall seconds of the night run as `count` shards, one process each, all at once; (wall, Python CPU of
    every process, server CPU or None, facts)."""
    context = multiprocessing.get_context("spawn")
    ready = context.Barrier(count + 1)
    results = context.Queue()
    shards = [Shard(i, count) for i in range(count)] if count > 1 else [Shard()]
    processes = [context.Process(target=_shard_night, args=(night.settings, s, ready, results)) for s in shards]
    with get_pool(night.settings.database_url).connection() as conn:
        meter = CpuMeter(conn)
        before = meter.read()
        for process in processes:
            process.start()
        ready.wait()
        started = time.perf_counter()
        finished = [results.get() for _ in processes]
        wall = time.perf_counter() - started
        for process in processes:
            process.join()
        after = meter.read()
        facts = night.store.scalar(conn, "count_facts")
    if any(p.exitcode for p in processes) or len(finished) != len(processes):
        raise RuntimeError("a shard's process failed")
    server = None if after[1] is None or before[1] is None else after[1] - before[1]
    return wall, after[0] - before[0], server, facts


def run(messages: int, count: int) -> tuple[tuple, tuple]:
    """Build two copies of the night, run one whole and one in `count` shards, print the figures, drop both.
    Returns the two runs' (wall seconds, Python CPU seconds, server CPU seconds or None, facts), whole night
    first. Raises RuntimeError when a shard's process fails."""
    tag = f"mp_bench_{os.getpid()}"
    whole = scale.prepare(messages, tag + "_a")
    split = None
    try:
        split = scale.prepare(messages, tag + "_b")
        one = night_in_processes(whole, 1)
        many = night_in_processes(split, count)
    finally:
        scale.drop(whole)
        if split is not None:
            scale.drop(split)
    cpu = lambda f: f"CPU {f[1] + (f[2] or 0):7.2f} s (Python {f[1]:.2f} + server {'n/a' if f[2] is None else f'{f[2]:.2f}'})"  # noqa: E731
    print(f"{whole.loaded:,} messages of {whole.users:,} session keys in one night (offline extractor), "
          f"{os.cpu_count()} cores")
    print(f"  {'one run (the whole night)':32s} {one[0]:8.2f} s  {cpu(one)}  {one[3]:,} facts")
    print(f"  {f'{count} shards at once':32s} {many[0]:8.2f} s  {cpu(many)}  {many[3]:,} facts")
    print(f"  shard speed-up: {count} shards take {many[0] / one[0]:.2f}x the one-run wall time")
    return one, many
