"""Folds while other processes change a user's candidates: a candidate deleted while its user is folded does not stay
folded in, and re-splits or re-extractions deleting folded candidates during a fold do not deadlock."""

from psycopg import sql

from memory_pipeline_tests.stages.test_incremental_fold import DAYS, USERS, Night
from memory_pipeline_tests.domain.test_order_independence import FACT_POOL
from memory_pipeline.stages.active_facts import active_facts


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
    an unfolded one of day 2) while active_facts folds that user: neither waits for the other in a cycle (the
    trigger appends a fold request instead of updating the user's fact_folds row, and the fold skips candidate
    rows another transaction holds). Both commit; the user is folded from scratch next."""
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
    deleted = threading.Event()
    release = threading.Event()

    def resplit() -> None:
        try:
            with psycopg.connect(settings.database_url) as other, other.transaction():
                resplit_pid.append(other.info.backend_pid)
                other.execute(sql.SQL("DELETE FROM {}.conversations WHERE conversation_id = ANY(%s)").format(
                    night.schema), (["conv-0-1", "conv-0-2"],))
                deleted.set()
                release.wait(10)  # still holding the deleted rows while the fold records itself
        except BaseException as exc:  # noqa: BLE001 - reported by the assertion below
            errors.append(exc)
            deleted.set()

    other = threading.Thread(target=resplit)

    def record_fold_while_a_resplit_holds_the_rows(conn, *args, **kwargs):
        if not other.is_alive() and not resplit_pid:
            other.start()
            assert deleted.wait(20), "the re-split did not get through its deletion while the fold held its locks"
        try:
            return real(conn, *args, **kwargs)
        finally:
            release.set()

    monkeypatch.setattr(night.store, "record_fold", record_fold_while_a_resplit_holds_the_rows)
    try:
        night.reconcile(2)
    finally:
        release.set()
        other.join(timeout=60)
    assert not errors, errors
    monkeypatch.setattr(night.store, "record_fold", real)
    with night.pool.connection() as conn:
        assert night.store.users_to_reconcile(conn, DAYS[3]) == [USERS[0]]
    night.reconcile(3)
    assert night.facts() == night.facts_from_scratch() == []


def test_two_reextractions_deleting_folded_candidates_of_two_users_in_opposite_orders_do_not_deadlock(make_settings):
    """Two processes each delete a folded candidate of user 0 and one of user 1, in opposite orders, both holding
    the first deletion until the other has made its own (two re-extraction backfills sharing users). The refold
    trigger appends requests, so neither waits for the other: both commit, both users are folded from scratch
    next and equal a fold from scratch."""
    import threading

    import psycopg

    settings = make_settings()
    night = Night(settings)
    history = [(u, d, 10, FACT_POOL[u * 5 + d]) for u in (0, 1) for d in (1, 2)]
    for day in (1, 2):
        night.store_day(history, day)
        night.reconcile(day)
    both_first = threading.Barrier(2, timeout=20)
    errors: list[BaseException] = []

    def delete_in_order(first: str, second: str) -> None:
        try:
            with psycopg.connect(settings.database_url) as conn, conn.transaction():
                conn.execute("SET lock_timeout = '15s'")
                for n, conversation_id in enumerate((first, second)):
                    conn.execute(sql.SQL("DELETE FROM {}.fact_candidates WHERE conversation_id = %s").format(
                        night.schema), (conversation_id,))
                    if n == 0:
                        both_first.wait()
        except BaseException as exc:  # noqa: BLE001 - reported by the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=delete_in_order, args=("conv-0-1", "conv-1-1")),
               threading.Thread(target=delete_in_order, args=("conv-1-2", "conv-0-2"))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not errors, errors
    with night.pool.connection() as conn:
        assert night.store.users_to_reconcile(conn, DAYS[3]) == USERS
        assert active_facts(night.store, conn, DAYS[3]).metadata["users_folded_from_scratch"] == 2
        assert night.store.users_to_reconcile(conn, DAYS[3]) == []  # the requests were served
    assert night.facts() == night.facts_from_scratch() == []
