"""Incremental reconciliation (memory_pipeline/stages/folds.py) equals a fold from scratch.

Domain: `continue_fold` on top of a prefix's active versions gives the full fold's versions, for every split of
generated candidate sets. Database: days of candidates stored and reconciled in a random order, with
re-extractions that drop or bring back candidates, forget requests, retractions and near-duplicates; after each
step, `agent_facts` equals what a fold from scratch of the stored candidates writes (version keys, superseded
links, last_seen_at, expires_at). A plain test pins which path each case takes and that a night writes only the
rows it changes.
"""

from datetime import date, datetime, timedelta, timezone

from hypothesis import HealthCheck, given, settings, strategies as st
from psycopg import Rollback, sql

from memory_pipeline import erasure
from memory_pipeline.db import get_pool
from memory_pipeline.domain.facts import Candidate
from memory_pipeline.domain.reconcile import continue_fold, reconcile_user
from memory_pipeline.settings import DEFAULT_TTL_DAYS
from memory_pipeline.store import Store
from memory_pipeline_tests.domain.test_order_independence import FACT_POOL, NEAR, accepted_facts
from memory_pipeline.stages.active_facts import active_facts
from memory_pipeline.stages import folds
from memory_pipeline.stages.folds import reconcile_one_user


@settings(max_examples=300, deadline=None, database=None)
@given(facts=accepted_facts, split=st.integers(0, 14))
def test_continue_fold_on_a_prefix_equals_the_full_fold(facts, split):
    ordered = sorted(facts, key=lambda f: f.said_order)
    first = reconcile_user(ordered[:split], DEFAULT_TTL_DAYS, NEAR)
    continued = continue_fold([v for v in first if v.is_active], ordered[split:], DEFAULT_TTL_DAYS, NEAR)
    combined = [v for v in first if not v.is_active] + continued
    assert sorted(combined, key=repr) == sorted(reconcile_user(facts, DEFAULT_TTL_DAYS, NEAR), key=repr)


DAYS = [date(2026, 6, 1) + timedelta(days=i) for i in range(5)]
USERS = ["inc:u0", "inc:u1"]


class Night:
    """Conversations and candidates written straight into a test schema, reconciled with the stage."""

    def __init__(self, settings_):
        self.store = Store(settings_)
        self.schema = sql.Identifier(settings_.schema_name)
        self.pool = get_pool(settings_.database_url)

    def store_day(self, events, day: int, drop_first: bool = False) -> None:
        """(Re-)extract the day's conversations (one per user): their candidates become the day's events, less
        the first of each when `drop_first` (a re-extraction that found one fact fewer)."""
        with self.pool.connection() as conn, conn.transaction():
            for user in range(len(USERS)):
                mine = [e for e in events if e[0] == user and e[1] == day]
                if not mine:
                    continue
                conversation_id = f"conv-{user}-{day}"
                conn.execute(sql.SQL(
                    "INSERT INTO {}.conversations (conversation_id, partition_date, session_key, user_key, "
                    "is_legacy, message_ids, turn_count, transcript, transcript_hash, closed_as_of, idle_gap_minutes,"
                    " facts_extracted_at) VALUES (%s, %s, %s, %s, false, '{{}}', 0, '[]', 'h', now(), 180, now()) "
                    "ON CONFLICT DO NOTHING").format(self.schema),
                    (conversation_id, DAYS[day], USERS[user], USERS[user]))
                candidates = [
                    Candidate(conversation_id=conversation_id, user_key=USERS[user], position=i, category=item[0],
                              attribute=item[1], value=item[2], fact=item[3], quote=item[3], status="accepted",
                              reason=None, quote_message_id=day * 1000 + minute, quote_speaker="human",
                              said_at=datetime.combine(DAYS[day], datetime.min.time(), tzinfo=timezone.utc)
                              + timedelta(hours=8, minutes=minute), retraction=len(item) > 4)
                    for i, (_, _, minute, item) in enumerate(mine)]
                self.store.replace_candidates(conn, DAYS[day], [conversation_id], candidates[drop_first:],
                                              "test", "test", "test")

    def reconcile(self, day: int) -> dict:
        with self.pool.connection() as conn:
            return active_facts(self.store, conn, DAYS[day]).metadata

    def forget_first_active(self, user: int) -> None:
        with self.pool.connection() as conn:
            row = conn.execute(sql.SQL("SELECT min(id) AS id FROM {}.agent_facts WHERE user_key = %s "
                                       "AND superseded_at IS NULL").format(self.schema), (USERS[user],)).fetchone()
            if row["id"] is not None:
                erasure.forget_fact(self.store, conn, USERS[user], row["id"])

    def facts(self) -> list[tuple]:
        with self.pool.connection() as conn:
            return snapshot(conn.execute(sql.SQL("SELECT * FROM {}.agent_facts").format(self.schema)).fetchall())

    def facts_from_scratch(self) -> list[tuple]:
        """Every user folded from scratch (no watermark, no fact row), in a transaction then rolled back."""
        with self.pool.connection() as conn:
            with conn.transaction():
                conn.execute(sql.SQL("DELETE FROM {}.fact_folds").format(self.schema))
                conn.execute(sql.SQL("DELETE FROM {}.agent_facts").format(self.schema))
                for user in USERS:
                    assert reconcile_one_user(self.store, conn, user)["folded_from_scratch"] == 1
                facts = snapshot(conn.execute(sql.SQL("SELECT * FROM {}.agent_facts").format(self.schema)).fetchall())
                raise Rollback()
        return facts


def snapshot(rows) -> list[tuple]:
    """Fact rows without ids: what each version says, its times, and the version that superseded it."""
    by_id = {r["id"]: r for r in rows}
    return sorted((
        (r["user_key"], r["category"], r["attribute"], r["value"], r["fact"], r["quote"], r["candidate_id"],
         r["source_session"], r["valid_from"], r["last_seen_at"], r["expires_at"], r["superseded_at"],
         (by_id[r["superseded_by"]]["fact"], by_id[r["superseded_by"]]["valid_from"]) if r["superseded_by"] else None)
        for r in rows), key=repr)


# One event: (user, day, minutes after 08:00, a fact of the pool: repeats, contradictions, retractions,
# near-duplicates). One step: store and reconcile a day, re-extract it with one fact fewer, or forget a fact.
events = st.lists(st.tuples(st.integers(0, 1), st.integers(0, 4), st.integers(0, 600), st.sampled_from(FACT_POOL)),
                  min_size=2, max_size=16)
steps = st.lists(st.tuples(st.sampled_from(["day", "day", "day", "drop", "forget"]), st.integers(0, 4)),
                 min_size=2, max_size=9)


@settings(max_examples=25, deadline=None, database=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(history=events, order=st.permutations(range(5)), more=steps,
       batch=st.sampled_from([(1, 1), (1, 100), (100, 100)]))
def test_incremental_reconciliation_equals_a_fold_from_scratch(make_settings, history, order, more, batch):
    # batch: (users folded together, their reads and writes shared; users per transaction) in active_facts: one
    # user per transaction, both in one transaction folded one after the other, or both folded together.
    night = Night(make_settings())
    plan = [("day", d) for d in order] + more
    saved = folds.FOLD_BATCH, folds.FOLD_COMMIT
    folds.FOLD_BATCH, folds.FOLD_COMMIT = batch
    try:
        for kind, day in plan:
            if kind == "forget":
                night.forget_first_active(day % 2)
            else:
                night.store_day(history, day, drop_first=kind == "drop")
                night.reconcile(day)
            assert night.facts() == night.facts_from_scratch(), (kind, day, batch)
    finally:
        folds.FOLD_BATCH, folds.FOLD_COMMIT = saved


def test_each_case_takes_its_path_and_a_night_writes_only_what_changes(make_settings):
    night = Night(make_settings())
    jazz, email, phone = FACT_POOL[5], FACT_POOL[0], FACT_POOL[1]
    history = [(0, 1, 10, email), (0, 1, 20, jazz), (0, 2, 10, jazz), (0, 3, 10, phone), (0, 0, 10, phone)]
    night.store_day(history, 1)
    first = night.reconcile(1)
    assert (first["users_folded_from_scratch"], first["facts_inserted"]) == (1, 2)  # no watermark yet
    night.store_day(history, 2)
    repeat = night.reconcile(2)  # jazz said again: one row refreshed, nothing else written
    assert (repeat["users_folded_incrementally"], repeat["users_folded_from_scratch"]) == (1, 0)
    assert (repeat["facts_inserted"], repeat["facts_updated"], repeat["facts_deleted"]) == (0, 1, 0)
    night.store_day(history, 3)
    switch = night.reconcile(3)  # phone supersedes email: one row superseded, one inserted
    assert switch["users_folded_incrementally"] == 1
    assert (switch["facts_inserted"], switch["facts_updated"], switch["facts_superseded"]) == (1, 1, 1)
    night.store_day(history, 0)
    late = night.reconcile(0)  # a day before the watermark: folded from scratch
    assert (late["users_folded_incrementally"], late["users_folded_from_scratch"]) == (0, 1)
    night.store_day(history, 2, drop_first=True)  # re-extraction lost a folded candidate: the trigger flags it
    with night.pool.connection() as conn:
        assert night.store.users_to_reconcile(conn, DAYS[4]) == [USERS[0]]
    dropped = night.reconcile(4)  # another day's run picks the flagged user up
    assert dropped["users_folded_from_scratch"] == 1 and dropped["facts_updated"] == 1  # jazz last seen on day 1
    again = night.reconcile(4)
    assert (again["users_reconciled"], again["facts_updated"]) == (0, 0)
    assert night.facts() == night.facts_from_scratch()


def test_a_changed_fold_rule_folds_from_scratch(make_settings):
    night = Night(make_settings())
    history = [(0, 1, 10, FACT_POOL[0]), (0, 2, 10, FACT_POOL[5])]
    night.store_day(history, 1)
    night.reconcile(1)
    with night.pool.connection() as conn:
        conn.execute(sql.SQL("UPDATE {}.fact_folds SET fold_rule = 'v0'").format(night.schema))
    night.store_day(history, 2)
    assert night.reconcile(2)["users_folded_from_scratch"] == 1
    assert night.facts() == night.facts_from_scratch()


def test_new_active_versions_are_labelled_on_insert_as_label_languages_labels_them(make_settings):
    """A fold inserts each new active version with the text search configuration `label_languages` would give
    it (`text_search_config` of its text), and a version inserted already superseded without one (the labelling
    rule covers active facts only); the stage's metadata counts them, and nothing is left for
    `label_languages`."""
    from memory_pipeline.domain.language import text_search_config
    from memory_pipeline.embeddings import label_languages

    night = Night(make_settings())
    french = ("preference", None, None, "L'utilisateur préfère les factures en PDF.")
    history = [(0, 1, 10, FACT_POOL[0]), (0, 1, 20, FACT_POOL[1]), (0, 1, 30, french), (1, 1, 10, FACT_POOL[5])]
    night.store_day(history, 1)
    metadata = night.reconcile(1)
    with night.pool.connection() as conn:
        rows = conn.execute(sql.SQL("SELECT fact, superseded_at, fts_config::text AS config FROM {}.agent_facts")
                            .format(night.schema)).fetchall()
        assert label_languages(night.store, conn) == {}
    labels = {r["fact"]: r["config"] for r in rows}
    assert labels == {FACT_POOL[0][3]: None,  # superseded by phone within the same night
                      FACT_POOL[1][3]: "english", FACT_POOL[5][3]: "english", french[3]: "french"}
    assert all(r["config"] == text_search_config(r["fact"]) for r in rows if r["superseded_at"] is None)
    assert metadata["facts_language_labelled"] == {"english": 2, "french": 1}


def test_a_batch_records_each_users_fold_and_flags_only_the_user_whose_candidate_changed(make_settings,
                                                                                          monkeypatch):
    """Two users folded in one batch (one `record_fold` statement): another process deletes a candidate of the
    first user that the fold read unfolded, before the fold records itself. Only that user is flagged
    `needs_refold`; the other's candidates are marked folded and their watermark moves; the next night folds
    the first from scratch, and both equal a fold from scratch."""
    night = Night(make_settings())
    history = [(0, 1, 10, FACT_POOL[0]), (1, 1, 10, FACT_POOL[3]),
               (0, 2, 10, FACT_POOL[5]), (0, 2, 20, FACT_POOL[7]), (1, 2, 10, FACT_POOL[4])]
    night.store_day(history, 1)
    night.reconcile(1)
    night.store_day(history, 2)
    real = night.store.record_fold

    def record_fold_after_a_concurrent_deletion(conn, folds):
        assert sorted(f.user_key for f in folds) == USERS  # both users in one statement
        with night.pool.connection() as other:  # autocommit: committed before the fold records itself
            other.execute(sql.SQL("DELETE FROM {}.fact_candidates WHERE user_key = %s AND fact = %s").format(
                night.schema), (USERS[0], FACT_POOL[7][3]))
        return real(conn, folds)

    monkeypatch.setattr(night.store, "record_fold", record_fold_after_a_concurrent_deletion)
    assert night.reconcile(2)["users_folded_incrementally"] == 2
    monkeypatch.setattr(night.store, "record_fold", real)
    with night.pool.connection() as conn:
        folds = {r["user_key"]: r for r in conn.execute(sql.SQL(
            "SELECT user_key, needs_refold, said_at FROM {}.fact_folds").format(night.schema))}
        unfolded = conn.execute(sql.SQL("SELECT user_key FROM {}.fact_candidates WHERE folded_at IS NULL").format(
            night.schema)).fetchall()
    assert (folds[USERS[0]]["needs_refold"], folds[USERS[1]]["needs_refold"]) == (True, False)
    assert folds[USERS[1]]["said_at"].date() == DAYS[2] and unfolded == []
    assert night.reconcile(3)["users_folded_from_scratch"] == 1
    assert night.facts() == night.facts_from_scratch()
