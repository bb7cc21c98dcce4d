"""A night in shards (issue 28): the facts, the archive and the checks of a night run as N = 1, 2 or 4 shards, in
any order of shards and with a backfill of two days in reverse order, are those of one run of the night; a shard's
run writes only its own users' conversations and facts, and purges only their rows; a group chat's sender whose
shard is not the group's gets their facts from the next run of their shard."""

from datetime import date

import pytest
from psycopg import sql

from memory_pipeline import sample
from memory_pipeline.db import get_pool
from memory_pipeline.domain.shards import Shard, shard_of
from memory_pipeline.stages import checks as stage_checks
from memory_pipeline.store import Store
from memory_pipeline_tests.conftest import run_stages
from memory_pipeline_tests.test_hostile_input import DAY as SAID_DAY, said
from memory_pipeline_tests.test_pipeline_end_to_end import Pipeline

DAYS = [date(2023, 4, 27), date(2023, 4, 28)]
SALT = "night-shards-test"  # one salt for every schema, so conversation ids compare across nights
CHECKS = {
    "no_open_conversation_consolidated": stage_checks.check_no_open_conversation,
    "every_conversation_summarised": stage_checks.check_every_conversation_summarised,
    "summaries_grounded": stage_checks.check_summaries_grounded,
    "every_conversation_extracted": stage_checks.check_every_conversation_extracted,
    "quotes_found_verbatim": stage_checks.check_quotes_verbatim,
    "no_duplicate_active_facts": lambda store, conn, day: stage_checks.check_no_duplicate_active_facts(store, conn),
    "every_conversation_consolidated": stage_checks.check_every_conversation_consolidated,
    "no_row_left_behind": stage_checks.check_no_row_left_behind,
    "no_message_lost": stage_checks.check_no_message_lost,
}


def memory_bank_night(make_settings) -> Pipeline:
    """Every MemoryBank user's first two days in n8n's table of a fresh schema."""
    p = Pipeline(make_settings())
    p.rows("UPDATE {schema}.installation SET id_salt = %(salt)s RETURNING id_salt", {"salt": SALT})
    data = sample.load_memory_bank()
    p.load([r for r in sample.memory_bank_rows(data) if r.created_at.date() in DAYS])
    return p


def run_shard(p: Pipeline, day: date, shard: Shard) -> dict:
    """The five stages of `day` as the run of `shard` does them, then its checks: {check: (passed, metadata)}."""
    store = Store(p.settings, shard)
    with get_pool(p.settings.database_url).connection() as conn:
        run_stages(store, conn, day)
        outcomes = {name: check(store, conn, day) for name, check in CHECKS.items()}
    return {name: (o.passed, o.metadata) for name, o in outcomes.items()}


def night_state(p: Pipeline) -> dict:
    """What a night leaves: facts (the superseding fact by content, not by id), candidates, conversations, the
    archive, n8n's rows, and every check of each day evaluated over the whole night."""
    facts = p.rows("""
        SELECT f.user_key, f.category, f.attribute, f.value, f.fact, f.quote, f.quote_message_id, f.source_session,
               f.valid_from, f.last_seen_at, f.expires_at, f.superseded_at, f.candidate_id, f.fts_config::text,
               s.candidate_id AS superseded_by
        FROM {schema}.agent_facts AS f LEFT JOIN {schema}.agent_facts AS s ON s.id = f.superseded_by
        ORDER BY f.user_key, f.candidate_id, f.valid_from""")
    whole_night = Store(p.settings)
    with get_pool(p.settings.database_url).connection() as conn:
        checks = {(day, name): (o.passed, o.metadata) for day in DAYS
                  for name, o in ((n, c(whole_night, conn, day)) for n, c in CHECKS.items())}
    return {
        "facts": facts,
        "candidates": p.rows("SELECT candidate_id, user_key, status, reject_reason, fact, quote, folded_at IS NOT NULL"
                             " AS folded FROM {schema}.fact_candidates ORDER BY candidate_id"),
        "conversations": p.rows("SELECT conversation_id, user_key, partition_date, message_ids, transcript_hash,"
                                " facts_extracted_at IS NOT NULL AS extracted FROM {schema}.conversations ORDER BY 1"),
        "summaries": p.rows("SELECT conversation_id, summary, rejected_reason FROM {schema}.session_summaries"
                            " ORDER BY 1"),
        "archive": p.rows("SELECT id, session_id, message, created_at, conversation_id, partition_date"
                          " FROM {schema}.chat_archive ORDER BY id"),
        "source": p.rows("SELECT id FROM {source} ORDER BY id"),
        "checks": checks,
    }



_BASELINE: dict = {}  # the night as one run per day (no shard tag: shard 0/1), days in order; once per process


def baseline(make_settings) -> dict:
    if not _BASELINE:
        p = memory_bank_night(make_settings)
        for day in DAYS:
            assert all(passed for passed, _ in run_shard(p, day, Shard()).values())
        _BASELINE.update(night_state(p))
    return _BASELINE


@pytest.mark.parametrize("count, order, days", [
    (1, [0], DAYS[::-1]),                # a backfill of the two days, newest first
    (2, [1, 0], DAYS),
    (4, [2, 0, 3, 1], DAYS),
    (4, [3, 1, 0, 2], DAYS[::-1]),       # a backfill in reverse order, shards in another order
])
def test_a_night_in_shards_leaves_the_facts_archive_and_checks_of_one_run(make_settings, count, order, days):
    expected = baseline(make_settings)
    assert len({f["user_key"] for f in expected["facts"]}) == 15 and expected["archive"] and not expected["source"]
    p = memory_bank_night(make_settings)
    for day in days:
        for index in order:
            shard_checks = run_shard(p, day, Shard(index, count))
            assert all(passed for passed, _ in shard_checks.values()), (day, index, shard_checks)
    got = night_state(p)
    for part in expected:
        assert got[part] == expected[part], part


def test_a_shards_run_writes_and_purges_only_its_own_users(make_settings):
    p = memory_bank_night(make_settings)
    users = {r["session_id"] for r in p.rows("SELECT DISTINCT session_id FROM {source}")}
    mine = {u for u in users if shard_of(u, 2) == 1}
    assert mine and mine != users  # the sample's 15 users fall in both shards
    run_shard(p, DAYS[0], Shard(1, 2))
    assert {r["user_key"] for r in p.rows("SELECT DISTINCT user_key FROM {schema}.conversations")} == mine
    assert {r["user_key"] for r in p.rows("SELECT DISTINCT user_key FROM {schema}.agent_facts")} == mine
    assert {r["user_key"] for r in p.rows("SELECT DISTINCT user_key FROM {schema}.fact_candidates")} <= mine
    assert {r["session_id"] for r in p.rows("SELECT DISTINCT session_id FROM {schema}.chat_archive")} == mine
    left = p.rows("SELECT DISTINCT session_id FROM {source} WHERE created_at < %(end)s", {"end": DAYS[1]})
    assert {r["session_id"] for r in left} == users - mine  # the other shard's rows of the day are still there


def test_the_store_filters_a_user_key_by_the_same_shard_in_sql_and_in_python(make_settings):
    settings = make_settings()
    keys = ["memorybank:emily", "", "  ", "ü-ключ", "tg:500300#Camille", "whatsapp:+4917012345678"]
    store = Store(settings, Shard(1, 3))
    with get_pool(settings.database_url).connection() as conn:
        in_shard = store.shard_filter("k")
        rows = conn.execute(sql.SQL("SELECT k, {} AS mine FROM unnest(%(keys)s::text[]) AS u (k)").format(in_shard),
                            {"keys": keys}).fetchall()
        assert {r["k"]: r["mine"] for r in rows} == {k: shard_of(k, 3) == 1 for k in keys}
        assert Store(settings).shard_filter("k").as_string(conn) == "true"


def test_a_group_chat_sender_in_another_shard_gets_their_facts_from_the_next_run_of_their_shard(make_settings):
    # tg:2 is in shard 0 of 2, its sender's key tg:2#Camille in shard 1 (domain.shards.shard_of).
    assert (shard_of("tg:2", 2), shard_of("tg:2#Camille", 2)) == (0, 1)
    rows = [said("tg:2", "## Message from Camille\nI live in Lyon."), said("tg:2", "Noted!", minutes=1, role="ai")]

    def camille(p):
        return p.rows("SELECT fact, superseded_at FROM {schema}.agent_facts WHERE user_key = 'tg:2#Camille'")

    one = Pipeline(make_settings(group_chat_session_keys=r"tg:\d+"))
    one.load(rows)
    run_shard(one, date.fromisoformat(SAID_DAY), Shard())
    assert camille(one)
    p = Pipeline(make_settings(group_chat_session_keys=r"tg:\d+"))
    p.load(rows)
    run_shard(p, date.fromisoformat(SAID_DAY), Shard(1, 2))  # the sender's shard first: the group's conversation is not stored yet
    run_shard(p, date.fromisoformat(SAID_DAY), Shard(0, 2))  # the group's shard extracts the sender's candidate
    assert camille(p) == []
    run_shard(p, date.fromisoformat(SAID_DAY), Shard(1, 2))  # the catch-up run of the sender's shard folds it
    assert camille(p) == camille(one)
