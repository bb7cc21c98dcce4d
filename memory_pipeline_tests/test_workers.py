"""`workers.run_shards`: a shard function in worker processes, each on its own connection, results in shard
order, a shard's exception re-raised in the caller once every shard has ended."""

import multiprocessing
import os
import subprocess
import sys
import threading

import pytest
from concurrent.futures.process import BrokenProcessPool
from psycopg import sql

from memory_pipeline import workers
from memory_pipeline.db import get_pool


# Shard functions run in worker processes: module-level, so they travel by name.
def identify(store, conn, shard, shards, tag):
    return {"shard": shard, "shards": shards, "tag": tag, "pid": os.getpid(), "backend": conn.info.backend_pid,
            "schema": store.settings.schema_name}


def meet(store, conn, shard, shards):
    """Record this shard, then wait (a condition, up to a minute) until every shard has: so no worker can run
    two shards one after the other."""
    seen = sql.Identifier(store.settings.schema_name, "shards_seen")
    conn.execute(sql.SQL("INSERT INTO {} VALUES (%s)").format(seen), (shard,))
    for _ in range(1200):
        if conn.execute(sql.SQL("SELECT count(*) AS n FROM {}").format(seen)).fetchone()["n"] == shards:
            break
        threading.Event().wait(0.05)
    else:
        raise TimeoutError("the other shards never started")
    return os.getpid(), conn.info.backend_pid


def fail_in(store, conn, shard, shards, failing):
    if shard in failing:
        raise LookupError(f"shard {shard} failed")
    return shard


class NeedsTwoArguments(Exception):
    """Pickles, but does not unpickle: pickle calls the class with `args`, one string."""

    def __init__(self, key, reason):
        super().__init__(f"{key}: {reason}")


class HoldsALock(Exception):
    """Does not pickle at all (a lock in its state)."""

    def __init__(self, message):
        super().__init__(message)
        self.lock = threading.Lock()


def fail_unpicklably(store, conn, shard, shards, kind):
    if kind == "args":
        raise NeedsTwoArguments("k", "broken")
    raise HoldsALock("locked")


def die(store, conn, shard, shards):
    if shard == 1:
        os._exit(3)
    return shard


def test_results_come_in_shard_order_each_shard_on_its_own_connection(make_settings):
    settings = make_settings()
    with get_pool(settings.database_url).connection() as conn:
        conn.execute(sql.SQL("CREATE TABLE {} (shard int)").format(
            sql.Identifier(settings.schema_name, "shards_seen")))
    results = workers.run_shards(meet, settings, 3)
    pids, backends = zip(*results)
    assert len(set(pids)) == 3 and os.getpid() not in pids
    assert len(set(backends)) == 3
    assert all(workers.worker_peak_rss_kib[pid] > 0 for pid in pids)
    ordered = workers.run_shards(identify, settings, 3, "night")
    assert [(r["shard"], r["shards"], r["tag"], r["schema"]) for r in ordered] == [
        (k, 3, "night", settings.schema_name) for k in range(3)]


def test_one_shard_runs_in_a_worker_process(make_settings):
    settings = make_settings()
    (result,) = workers.run_shards(identify, settings, 1, "solo")
    assert (result["shard"], result["shards"], result["tag"]) == (0, 1, "solo")
    assert result["pid"] != os.getpid() and result["pid"] in workers.worker_peak_rss_kib


def test_a_failing_shard_raises_its_exception_after_the_others_ended(make_settings):
    settings = make_settings()
    with pytest.raises(LookupError, match="shard 1 failed"):
        workers.run_shards(fail_in, settings, 3, {1, 2})  # the first failing shard's, in shard order
    assert workers.run_shards(fail_in, settings, 3, set()) == [0, 1, 2]


@pytest.mark.parametrize("kind,cls", [("args", "NeedsTwoArguments"), ("lock", "HoldsALock")])
def test_an_exception_that_cannot_travel_arrives_as_shard_failed(make_settings, kind, cls):
    settings = make_settings()
    with pytest.raises(workers.ShardFailed, match=cls):
        workers.run_shards(fail_unpicklably, settings, 2, kind)
    assert workers.run_shards(fail_in, settings, 2, set()) == [0, 1]  # the pool is intact


def test_a_dead_worker_breaks_the_pool_which_starts_afresh(make_settings):
    settings = make_settings()
    with pytest.raises(BrokenProcessPool):
        workers.run_shards(die, settings, 2)
    assert workers.run_shards(fail_in, settings, 2, set()) == [0, 1]


def shards_in_a_child(settings, answers):
    answers.put(workers.run_shards(fail_in, settings, 2, set()))


def test_a_multiprocessing_child_that_ran_shards_exits(make_settings):
    """A process started by multiprocessing (as the benchmark's nights and Dagster's step processes are) joins its
    children as it ends: its idle workers must be shut down then, not waited for forever."""
    context = multiprocessing.get_context("spawn")
    answers = context.Queue()
    child = context.Process(target=shards_in_a_child, args=(make_settings(), answers))
    child.start()
    assert answers.get(timeout=120) == [0, 1]
    child.join(120)  # a hang guard, not a timing: the child ends in about a second once its shards are done
    if child.is_alive():
        child.kill()
    assert child.exitcode == 0


def test_shards_must_be_positive(make_settings):
    with pytest.raises(ValueError, match="at least 1"):
        workers.run_shards(fail_in, make_settings(), 0, set())


def insert_then_wait(store, conn, shard, shards, table):
    """Insert a row in a transaction, then wait inside it (until the worker is ended from outside)."""
    with conn.transaction():
        conn.execute(sql.SQL("INSERT INTO {} VALUES (%s)").format(sql.Identifier(store.settings.schema_name, table)),
                     (shard,))
        threading.Event().wait(120)
    return shard


KILLED_CALLER = """
import os, sys, threading, time
import psycopg
from memory_pipeline import workers
from memory_pipeline.settings import Settings
from memory_pipeline_tests.test_workers import insert_then_wait

if __name__ == "__main__":
    settings = Settings(database_url=sys.argv[1], schema_name=sys.argv[2], worker_processes=2)
    threading.Thread(target=workers.run_shards, args=(insert_then_wait, settings, 2, "written"), daemon=True).start()
    with psycopg.connect(sys.argv[1], autocommit=True) as conn:
        for _ in range(600):  # until both shards hold their insert uncommitted
            if conn.execute("SELECT count(*) FROM pg_stat_activity WHERE state = 'idle in transaction' "
                            "AND query LIKE 'INSERT INTO %%written%%'").fetchone()[0] == 2:
                os._exit(17)  # killed: no clean-up of any kind
            time.sleep(0.1)
    os._exit(3)  # the shards never got there
"""


def test_a_killed_caller_ends_its_workers_and_their_transactions_roll_back(make_settings):
    """The caller dies (os._exit: no clean-up) while both shards are inside a transaction: the workers end
    (the caller's output pipe, which they inherited, closes within the timeout) and the rows they inserted are
    rolled back, as the caller's own transaction would be."""
    settings = make_settings()
    table = sql.Identifier(settings.schema_name, "written")
    with get_pool(settings.database_url).connection() as conn:
        conn.execute(sql.SQL("CREATE TABLE {} (shard int)").format(table))
    done = subprocess.run([sys.executable, "-c", KILLED_CALLER, settings.database_url, settings.schema_name],
                          capture_output=True, text=True, timeout=60,
                          cwd=os.path.dirname(os.path.dirname(__file__)))
    assert done.returncode == 17, done.stderr[-2000:]
    with get_pool(settings.database_url).connection() as conn:
        for _ in range(100):  # the server notices the dropped connections a moment later
            waiting = conn.execute("SELECT count(*) AS n FROM pg_stat_activity "
                                   "WHERE query LIKE 'INSERT INTO %%written%%'").fetchone()["n"]
            if waiting == 0:
                break
            threading.Event().wait(0.1)
        assert waiting == 0
        assert conn.execute(sql.SQL("SELECT count(*) AS n FROM {}").format(table)).fetchone()["n"] == 0
