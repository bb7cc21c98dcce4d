"""Run a stage's reads and writes on worker threads while its own thread computes, on one connection.

psycopg serialises the statements of threads that share a connection (each takes the connection's lock for a
whole statement, COPY block or batched `executemany`) and releases the GIL while it waits for the server, so a
thread that FETCHes the next rows of a server-side cursor, or writes the last batch, leaves the stage's thread to
parse meanwhile: PostgreSQL's work and Python's overlap instead of taking turns. Every statement still runs in
the caller's one transaction, in the order each thread issues them. Cursors are not shared between threads: each
is used by the one thread that opened it.

`Prefetched` advances an iterator on a thread, a bounded number of items ahead; `BackgroundWrites` runs one write
at a time on a thread, the next one submitted waiting for the previous to finish. Both hand the worker's
exception to the caller, and both end their thread when their `with` block ends (on an error too), so nothing
runs on the connection once the caller leaves the block: leave them before the transaction ends.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from queue import Full, Queue
from typing import Any, Generic, TypeVar

T = TypeVar("T")

_POLL_SECONDS = 0.05  # how often a worker blocked on a full queue checks whether the caller has left
_END: Any = object()  # a worker's end-of-items marker


class Prefetched(Generic[T]):
    """`with Prefetched(open_items, ahead) as items: for item in items: ...`: `open_items()` is called on a worker
    thread, which advances the iterator it returns at most `ahead` items ahead of the caller, then calls
    `close()` on it (a generator's `finally` and `with` blocks run on that thread, where it ran). An exception
    raised by the iterator is raised by the caller's loop; leaving the block early stops the worker, which ends
    after the item it is reading."""

    def __init__(self, open_items: Callable[[], Iterator[T]], ahead: int):
        self._open_items = open_items
        self._queue: Queue[Any] = Queue(maxsize=max(1, ahead))
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._work, name="prefetch", daemon=True)

    def __enter__(self) -> Iterator[T]:
        self._thread.start()
        return self._items()

    def __exit__(self, *exc_info: Any) -> None:
        self._stop.set()
        self._thread.join()

    def _items(self) -> Iterator[T]:
        while True:
            item = self._queue.get()
            if item is _END:
                return
            if isinstance(item, _Failure):
                raise item.error
            yield item

    def _put(self, item: Any) -> bool:
        # False when the caller has left: the worker stops instead of waiting for room forever
        while not self._stop.is_set():
            try:
                self._queue.put(item, timeout=_POLL_SECONDS)
                return True
            except Full:
                continue
        return False

    def _work(self) -> None:
        failure: BaseException | None = None
        items = None
        try:
            items = self._open_items()
            for item in items:
                if not self._put(item):
                    break
        except BaseException as exc:  # handed to the caller's thread, which raises it
            failure = exc
        finally:
            # closed here, before the end is announced: once the caller has it, nothing runs on this thread
            close = getattr(items, "close", None)
            if close is not None:
                try:
                    close()
                except BaseException as exc:  # noqa: BLE001 - a failing close fails the caller's loop too
                    failure = failure or exc
        self._put(_Failure(failure) if failure is not None else _END)


class _Failure:
    __slots__ = ("error",)

    def __init__(self, error: BaseException):
        self.error = error


class BackgroundWrites:
    """`with BackgroundWrites() as writes: writes.submit(fn, *args)`: runs each `fn(*args)` on one worker thread,
    in submission order, at most one at a time; `submit` first waits for the previous call and raises its
    exception. `results` lists the calls' return values, in order, once the block has ended without an error.
    Leaving the block waits for the call running (its exception is raised unless the block is already leaving
    with one)."""

    def __init__(self) -> None:
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="writes")
        self._pending: Future | None = None
        self.results: list[Any] = []

    def __enter__(self) -> BackgroundWrites:
        return self

    def submit(self, fn: Callable[..., Any], *args: Any) -> None:
        self._wait()
        self._pending = self._executor.submit(fn, *args)

    def _wait(self) -> None:
        pending, self._pending = self._pending, None
        if pending is not None:
            self.results.append(pending.result())

    def __exit__(self, exc_type: Any, *rest: Any) -> None:
        try:
            if exc_type is None:
                self._wait()
            elif self._pending is not None:
                self._pending.exception()  # wait for it; the block's own exception is the one raised
        finally:
            self._executor.shutdown(wait=True)
