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
shard`) or a slice of a list the caller already holds: shards never share a session key or a user, so they never
wait on each other's locks. A failing shard raises in the caller after every shard has ended; the shards that finished committed their
work (each stage's work is idempotent per key, so the re-run redoes only what is missing).
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.util
import os
import pickle
import resource
import threading
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
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
            context.set_forkserver_preload(["memory_pipeline.stages.closed_sessions", "memory_pipeline.stages.folds",
                                             "memory_pipeline.stages.archived_sessions"])
            _executor = ProcessPoolExecutor(max_workers=processes, mp_context=context, initializer=_exit_with_parent)
            _executor_size = processes
            _shutdown_before_exit()
        return _executor


_finalizer_registered = False


def _shutdown_before_exit() -> None:
    # When the caller is itself a multiprocessing child (a Dagster step process, the scale benchmark's night
    # process), its exit joins every child process before the interpreter's own exit hooks would stop the pool:
    # idle workers would then be waited for forever. A finalizer with an exit priority runs before that join;
    # above 10, the priority of the finalizers that stop the pool's queue feeder threads, or the workers' stop
    # messages would never be sent.
    global _finalizer_registered
    if not _finalizer_registered:
        multiprocessing.util.Finalize(None, _stop_executor, exitpriority=100)
        _finalizer_registered = True


def _stop_executor(wait: bool = True) -> None:
    # wait=False for a broken pool (a worker died): the next run_shards starts a new one.
    global _executor
    with _lock:
        if _executor is not None:
            _executor.shutdown(wait=wait, cancel_futures=True)
        _executor = None


def _exit_with_parent() -> None:
    # In each worker, at start. Nothing else ends a worker whose caller is gone (even killed): the fork server
    # waits for its own workers, which hold its keep-alive pipe, and an idle worker waits for work forever, a busy
    # one goes on writing for nobody. `multiprocessing.parent_process()` is the caller, not the fork server: its
    # sentinel is a pipe the caller holds open, readable (EOF) once the caller has ended however it ended. A daemon
    # thread waits on it and ends the worker, so a killed caller's shards roll back like its own transaction.
    caller = multiprocessing.parent_process()
    if caller is None:
        return

    def exit_when_caller_ends() -> None:
        caller.join()
        os._exit(1)

    threading.Thread(target=exit_when_caller_ends, name="exit-with-caller", daemon=True).start()


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
            _stop_executor(wait=False)
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


def each_shard(fn: Callable[..., T], store: Any, conn: Any, *args: Any) -> list[T]:
    """The results of a stage's shard function over `store.settings.worker_processes` shards, in shard order: in
    worker processes (`run_shards`), or, with one worker process, [fn(store, conn, 0, 1, *args)] on the caller's
    own connection (no process started). Raises what the shard function or `run_shards` raises."""
    shards = store.settings.worker_processes
    if shards == 1:
        return [fn(store, conn, 0, 1, *args)]
    return run_shards(fn, store.settings, shards, *args)


def _ready(store: Any, conn: Any, shard: int, shards: int) -> None:
    """Nothing: a shard that only makes its worker exist and hold a connection (`start_workers`)."""


def start_workers(settings: Any) -> None:
    """Start the `settings.worker_processes` workers and their connections now rather than in the first stage
    that shards (a fixed ~1 s per calling process on a 2-core machine: the fork server imports this package).
    Nothing happens with one worker process. Raises what `run_shards` raises."""
    if settings.worker_processes > 1:
        run_shards(_ready, settings, settings.worker_processes)
