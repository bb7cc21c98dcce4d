"""`overlap`: the prefetching and writing threads give the caller every item in order, never run ahead of their
bound, hand their errors to the caller, and have ended (the iterator closed on its own thread) once the caller's
block is left; `closed_sessions`, which uses them over one connection, fails whole (nothing stored, connection
usable) when one of its write batches fails."""

import threading
import time
from datetime import date, datetime, timedelta, timezone

import psycopg
import pytest
from psycopg import sql

from memory_pipeline import sample, stages, store as store_module
from memory_pipeline.db import get_pool
from memory_pipeline.overlap import BackgroundWrites, Prefetched
from memory_pipeline.store import Store


class Source:
    """An iterator over 0..n-1 that records how far it was read, on which thread, and whether it was closed."""

    def __init__(self, n, fail_at=None, fail_on_close=False):
        self.n, self.fail_at, self.fail_on_close = n, fail_at, fail_on_close
        self.read = 0
        self.threads = set()
        self.closed_on = None

    def __iter__(self):
        return self

    def __next__(self):
        self.threads.add(threading.get_ident())
        if self.read == self.fail_at:
            raise KeyError("boom")
        if self.read >= self.n:
            raise StopIteration
        self.read += 1
        return self.read - 1

    def close(self):
        self.closed_on = threading.get_ident()
        if self.fail_on_close:
            raise OSError("close failed")


def test_prefetched_gives_every_item_in_order_from_another_thread_and_closes_there():
    source = Source(50)
    with Prefetched(lambda: source, ahead=3) as items:
        assert list(items) == list(range(50))
    assert threading.get_ident() not in source.threads
    assert source.closed_on is not None and source.closed_on != threading.get_ident()


def test_prefetched_reads_at_most_ahead_items_beyond_the_caller():
    source = Source(100)
    with Prefetched(lambda: source, ahead=3) as items:
        for taken, _ in enumerate(items, start=1):
            time.sleep(0.01)  # the worker has time to run ahead as far as it may
            # queued (3), the one the worker holds waiting for room (1), the ones taken
            assert source.read <= taken + 3 + 1
            if taken == 10:
                break
    assert source.read <= 14 and source.closed_on is not None  # stopped and closed once the block was left


def test_prefetched_raises_the_iterators_error_in_the_caller_after_the_items_before_it():
    source = Source(10, fail_at=4)
    got = []
    with pytest.raises(KeyError, match="boom"):
        with Prefetched(lambda: source, ahead=2) as items:
            for item in items:
                got.append(item)
    assert got == [0, 1, 2, 3] and source.closed_on is not None


def test_prefetched_raises_a_failing_close():
    with pytest.raises(OSError, match="close failed"):
        with Prefetched(lambda: Source(3, fail_on_close=True), ahead=2) as items:
            list(items)


def test_prefetched_worker_ends_when_the_caller_fails():
    source = Source(10_000)
    with pytest.raises(ZeroDivisionError):
        with Prefetched(lambda: source, ahead=2) as items:
            next(items)
            1 / 0
    assert source.closed_on is not None and source.read < 10_000
    assert not [t for t in threading.enumerate() if t.name == "prefetch"]


def test_background_writes_run_in_order_one_at_a_time_off_the_callers_thread():
    running, log, threads = [], [], set()

    def write(n):
        running.append(n)
        assert len(running) == 1  # never two at once
        threads.add(threading.get_ident())
        time.sleep(0.005)
        log.append(n)
        running.remove(n)
        return n * 10

    with BackgroundWrites() as writes:
        for n in range(8):
            writes.submit(write, n)
    assert log == list(range(8)) and writes.results == [n * 10 for n in range(8)]
    assert threading.get_ident() not in threads


def test_background_writes_raise_a_failed_write_at_the_next_submit_or_at_the_end():
    def write(n):
        if n == 2:
            raise ValueError(n)
        return n

    with pytest.raises(ValueError):
        with BackgroundWrites() as writes:
            for n in range(5):
                writes.submit(write, n)
    assert writes.results == [0, 1]
    with pytest.raises(ValueError):
        with BackgroundWrites() as writes:
            writes.submit(write, 2)


def test_background_writes_wait_for_the_running_write_when_the_block_fails():
    done = []

    def slow():
        time.sleep(0.05)
        done.append(True)

    with pytest.raises(KeyError):
        with BackgroundWrites() as writes:
            writes.submit(slow)
            raise KeyError("caller")
    assert done == [True]  # it had ended before the block was left


DAY = date(2026, 5, 10)


def test_closed_sessions_fails_whole_when_a_write_batch_fails(make_settings, monkeypatch):
    monkeypatch.setattr(store_module, "WINDOW_CURSOR_ITERSIZE", 5)
    monkeypatch.setattr(stages, "CLOSED_SESSIONS_WRITE_BATCH", 2)
    settings = make_settings()
    store = Store(settings)
    noon = datetime(2026, 5, 10, 12, tzinfo=timezone.utc)
    rows = [sample.SampleRow(f"user{k}", {"type": "human", "content": f"I live in town {k}."},
                             noon + timedelta(minutes=k)) for k in range(12)]
    calls = []
    save = Store.save_conversations

    def failing_save(self, conn, conversations, closed_as_of):
        calls.append(len(conversations))
        if len(calls) == 3:
            raise psycopg.errors.DiskFull("no space left")
        return save(self, conn, conversations, closed_as_of)

    with get_pool(settings.database_url).connection() as conn:
        sample.create_n8n_table(conn, settings)
        sample.insert_rows(conn, settings, rows)
        monkeypatch.setattr(Store, "save_conversations", failing_save)
        with pytest.raises(psycopg.errors.DiskFull):
            stages.closed_sessions(store, conn, DAY, now=noon + timedelta(days=1))
        assert len(calls) == 3  # two batches written before the failure, none after
        # rolled back whole, and the connection is idle and usable (no statement of a worker left behind)
        assert conn.info.transaction_status == psycopg.pq.TransactionStatus.IDLE
        count = sql.SQL("SELECT count(*) AS n FROM {}.conversations").format(sql.Identifier(settings.schema_name))
        assert conn.execute(count).fetchone()["n"] == 0
        monkeypatch.setattr(Store, "save_conversations", save)
        result = stages.closed_sessions(store, conn, DAY, now=noon + timedelta(days=1)).metadata
        assert result["conversations_closed"] == result["conversations_stored"] == 12

