"""Review of issue 10's merges (streaming closed_sessions, paged LLM stages, incremental fold): attacks a real
user's installation meets, each against the embedded PostgreSQL."""

from psycopg import sql

from memory_pipeline import stages
from memory_pipeline.db import get_pool
from memory_pipeline_tests.test_incremental_fold import DAYS, USERS, Night
from memory_pipeline_tests.test_order_independence import FACT_POOL


def test_a_candidate_deleted_while_its_user_is_folded_does_not_stay_folded_in(make_settings, monkeypatch):
    """Another process re-extracts a day (its candidate is dropped) and commits while active_facts is folding
    that user, after the fold read the candidate unfolded and before the fold commits: the fact of the deleted
    candidate must not stay in agent_facts. Before incremental folds the next fold of the user read every
    candidate again and dropped it; an incremental fold never reads it again unless the user is flagged."""
    night = Night(make_settings())
    email, jazz = FACT_POOL[0], FACT_POOL[5]
    history = [(0, 1, 10, email), (0, 2, 10, jazz), (0, 2, 20, FACT_POOL[1])]
    night.store_day(history, 1)
    night.reconcile(1)  # user 0 has a watermark: day 2 folds incrementally
    night.store_day(history, 2)
    real = night.store.record_fold
    raced = []

    def record_fold_after_a_concurrent_reextraction(conn, *args, **kwargs):
        if not raced:  # the other process: day 2 re-extracted with one candidate fewer, committed meanwhile
            raced.append(True)
            night.store_day(history, 2, drop_first=True)
        return real(conn, *args, **kwargs)

    monkeypatch.setattr(night.store, "record_fold", record_fold_after_a_concurrent_reextraction)
    first = night.reconcile(2)
    assert raced and first["users_folded_incrementally"] == 1
    monkeypatch.setattr(night.store, "record_fold", real)
    night.reconcile(3)  # the next night (no candidates of its own)
    assert night.facts() == night.facts_from_scratch()
    with night.pool.connection() as conn:
        facts = [r["fact"] for r in conn.execute(sql.SQL(
            "SELECT fact FROM {}.agent_facts WHERE user_key = %s").format(night.schema), (USERS[0],))]
    assert jazz[3] not in facts


def test_a_resplit_deleting_folded_and_unfolded_candidates_during_a_fold_does_not_deadlock(make_settings,
                                                                                          monkeypatch):
    """Another process re-splits the user's conversations (the cascade deletes a folded candidate of day 1 and
    an unfolded one of day 2) while active_facts folds that user: the deletion's trigger waits for the fold's
    lock on the user's `fact_folds` row, so the fold must not in turn wait for the rows the deletion holds
    (a deadlock, one of the two aborted). Both commit; the user is folded from scratch next."""
    import threading

    import psycopg

    settings = make_settings()
    night = Night(settings)
    history = [(0, 1, 10, FACT_POOL[0]), (0, 2, 10, FACT_POOL[5])]
    night.store_day(history, 1)
    night.reconcile(1)
    night.store_day(history, 2)
    real = night.store.record_fold
    errors: list[BaseException] = []
    resplit_pid: list[int] = []

    def resplit() -> None:
        try:
            with psycopg.connect(settings.database_url) as other, other.transaction():
                resplit_pid.append(other.info.backend_pid)
                other.execute(sql.SQL("DELETE FROM {}.conversations WHERE conversation_id = ANY(%s)").format(
                    night.schema), (["conv-0-1", "conv-0-2"],))
        except BaseException as exc:  # noqa: BLE001 - reported by the assertion below
            errors.append(exc)

    other = threading.Thread(target=resplit)

    def record_fold_while_a_resplit_waits(conn, *args, **kwargs):
        if not other.is_alive() and not resplit_pid:
            other.start()
            with psycopg.connect(settings.database_url, autocommit=True) as watcher:
                for _ in range(500):  # until the re-split waits for the fold (its trigger on fact_folds)
                    if resplit_pid and watcher.execute("SELECT cardinality(pg_blocking_pids(%s))",
                                                       (resplit_pid[0],)).fetchone()[0]:
                        break
                    threading.Event().wait(0.02)
                else:
                    raise AssertionError("the re-split never waited for the fold")
        return real(conn, *args, **kwargs)

    monkeypatch.setattr(night.store, "record_fold", record_fold_while_a_resplit_waits)
    try:
        night.reconcile(2)
    finally:
        other.join(timeout=60)
    assert not errors, errors
    monkeypatch.setattr(night.store, "record_fold", real)
    with night.pool.connection() as conn:
        assert night.store.users_to_reconcile(conn, DAYS[3]) == [USERS[0]]
    night.reconcile(3)
    assert night.facts() == night.facts_from_scratch() == []
