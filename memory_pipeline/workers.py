"""Worker processes for the stages whose work splits into independent shards (by session key or by user).

One Python process parses, splits and folds on one core however many the machine has, and its one connection
keeps one PostgreSQL backend busy at a time; a night of a million messages spent ~30 s of Python CPU and ~17 s of
server CPU in `closed_sessions` alone, one after the other (measured with the scale benchmark at 1M messages).
`run_shards` runs a stage's shard function in `MEMORY_PIPELINE_WORKER_PROCESSES` processes at once, each with its
own connection (so its own backend), and returns their results in shard order.

The processes come from a `forkserver` (the standard library's start method that forks each worker from a clean
server process started once, with this package imported in it), never from `fork` of the caller: the caller (a
Dagster run worker, pytest) has threads and open connections that a forked child must not inherit. The pool is
kept for the life of the calling process and reused by every stage and run in it; a worker keeps one pool of
connections per database URL (`db.get_pool`). Results and exceptions travel pickled: a shard function returns
counts and ids, never message text. As with every start method but `fork`, each worker imports the caller's
`__main__` script (not a `-m` module) as `__mp_main__`: a script that calls a stage must keep its work under
`if __name__ == "__main__":`.

A shard is a residue of the session key's PostgreSQL `hashtext` (queries `(hashtext(key) + 2^31) % shards =
shard`) or a slice of a list the caller already holds: shards never share a session key or a user, so they never wait on each other's
locks. A failing shard raises in the caller after every shard has ended; the shards that finished committed their
work (each stage's work is idempotent per key, so the re-run redoes only what is missing).
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import resource
import threading
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import util as multiprocessing_util
from typing import Any, Callable, TypeVar

T = TypeVar("T")

_lock = threading.Lock()
_executor: ProcessPoolExecutor | None = None
_executor_size = 0
# Peak resident set of every worker process that has returned a shard, in KiB by pid (what the scale benchmark
# adds to its own peak: the night's memory is the caller's plus its workers').
worker_peak_rss_kib: dict[int, int] = {}


class ShardFailed(RuntimeError):
    """A shard raised an exception that cannot travel back pickled; the message names its type and text."""


def _executor_for(processes: int) -> ProcessPoolExecutor:
    global _executor, _executor_size
    with _lock:
        if _executor is None or _executor_size != processes:
            if _executor is not None:
                _executor.shutdown(wait=True)
            context = multiprocessing.get_context("forkserver")
            # Imported once in the server, so a new worker starts in milliseconds instead of importing for ~1 s.
            context.set_forkserver_preload(["memory_pipeline.stages"])
            _executor = ProcessPoolExecutor(max_workers=processes, mp_context=context)
            _executor_size = processes
            # A caller that is itself a multiprocessing child (a spawned benchmark night, a Dagster step process)
            # joins its children when it ends, before any atexit hook: the idle workers would wait for work
            # forever. Finalizers of priority >= 0 run before that join, highest first: above 10, that of the
            # executor's own call queue, whose closing would keep the workers' stop signals from them.
            multiprocessing_util.Finalize(_executor, _executor.shutdown, kwargs={"wait": True}, exitpriority=100)
        return _executor


def _discard_executor() -> None:
    global _executor
    with _lock:
        if _executor is not None:
            _executor.shutdown(wait=False, cancel_futures=True)
        _executor = None


def _run_in_worker(fn: Callable[..., T], settings: Any, shard: int, shards: int, args: tuple) -> tuple[T, int, int]:
    # In the worker: the shard on a connection of this process's pool, then (result, pid, peak RSS in KiB).
    from memory_pipeline.db import get_pool
    from memory_pipeline.store import Store

    try:
        with get_pool(settings.database_url).connection() as conn:
            result = fn(Store(settings), conn, shard, shards, *args)
    except BaseException as exc:
        # Round trip, not only dumps: an exception whose __init__ takes other arguments than its `args` (a
        # subclass calling super().__init__(message)) pickles but fails to unpickle in the caller, which then
        # declares the whole pool broken.
        try:
            pickle.loads(pickle.dumps(exc))
        except Exception:
            raise ShardFailed(f"{type(exc).__name__}: {exc}") from None
        raise
    return result, os.getpid(), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def run_shards(fn: Callable[..., T], settings: Any, shards: int, *args: Any) -> list[T]:
    """[fn(Store(settings), conn, shard, shards, *args) for shard in range(shards)], each in a worker process
    with its own connection, at most `shards` at once; in shard order. `fn` must be a module-level function
    (it travels by name), `settings` a Settings with `database_url` resolved, `args` and results picklable.

    `shards == 1` runs the one shard in one worker process; a stage with one worker process calls its shard
    function itself on its own connection instead (no process started). Raises the first shard's exception
    (in shard order) once every shard has ended, ShardFailed when it could not be pickled, and
    concurrent.futures.process.BrokenProcessPool when a worker died (the pool is then started afresh next time)."""
    if shards < 1:
        raise ValueError(f"shards must be at least 1, got {shards}")
    if not settings.database_url:  # the embedded server: its URL, so no worker starts a server of its own
        from memory_pipeline.db import resolve_database_url

        settings = settings.model_copy(update={"database_url": resolve_database_url(settings)})
    executor = _executor_for(shards)
    futures = [executor.submit(_run_in_worker, fn, settings, shard, shards, args) for shard in range(shards)]
    results: list[T] = []
    error: BaseException | None = None
    for future in futures:
        try:
            result, pid, peak = future.result()
        except BrokenProcessPool as exc:
            _discard_executor()
            error = error or exc
            continue
        except BaseException as exc:
            error = error or exc
            continue
        worker_peak_rss_kib[pid] = max(peak, worker_peak_rss_kib.get(pid, 0))
        results.append(result)
    if error is not None:
        raise error
    return results
