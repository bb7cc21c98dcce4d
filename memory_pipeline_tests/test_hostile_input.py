"""Rows and histories that once broke a night's run, reproduced from an adversarial review: each must end in a
recorded rejection or a visible failing check, never a failed day for every user and never lost text."""

from datetime import date, datetime, timedelta, timezone

import psycopg
import pytest

from memory_pipeline import sample
from memory_pipeline.defs.assets import StageDatabaseError, _connection
from memory_pipeline.domain.conversations import build_conversations, split_rows
from memory_pipeline.domain.facts import validate_candidate
from memory_pipeline.domain.messages import SourceRow
from memory_pipeline.domain.reconcile import AcceptedFact, reconcile_user
from memory_pipeline.extractors.offline import OfflineExtractor
from memory_pipeline.defs.resources import MemoryPipelineResource
from memory_pipeline_tests.test_pipeline_end_to_end import Pipeline, metadata
from memory_pipeline.stages.archived_sessions import archived_sessions
from memory_pipeline.stages.closed_sessions import closed_sessions
from memory_pipeline.stages.extracted_facts import extracted_facts
from memory_pipeline.stages.session_summaries import session_summaries

DAY = "2026-05-03"
NOON = datetime(2026, 5, 3, 12, 0, tzinfo=timezone.utc)


def said(key, text, minutes=0, role="human"):
    return sample.SampleRow(key, {"type": role, "content": text}, NOON + timedelta(minutes=minutes))


def active_facts(p, user):
    return sorted(r["fact"] for r in p.rows(
        "SELECT fact FROM {schema}.agent_facts WHERE user_key = %s AND superseded_at IS NULL", (user,)))


def test_one_poisoned_row_does_not_fail_the_day_for_everyone(make_settings):
    p = Pipeline(make_settings())
    p.load([said("alice", "I live in Oslo."), said("bob", "I live in Rome.")])
    with p.pool.connection() as conn:
        conn.execute(psycopg.sql.SQL("INSERT INTO {} (session_id, message, created_at) VALUES (%s, %s::jsonb, %s)")
                     .format(psycopg.sql.Identifier(p.settings.source_schema, p.settings.source_table)),
                     ("alice", "[" * 1500 + "]" * 1500, NOON + timedelta(minutes=1)))
        conn.execute(psycopg.sql.SQL("INSERT INTO {} (session_id, message, created_at) VALUES (%s, %s, '-infinity')")
                     .format(psycopg.sql.Identifier(p.settings.source_schema, p.settings.source_table)),
                     ("carol", psycopg.types.json.Jsonb({"type": "human", "content": "I live in Lima."})))
    result = p.run(DAY)
    assert result.success
    assert metadata(result, "closed_sessions")["rows_rejected_by_reason"] == {"message_not_object": 1}
    assert active_facts(p, "alice") == ["User lives in Oslo."] and active_facts(p, "bob") == ["User lives in Rome."]
    # The -infinity row reads as undated: it waits for the backlog date instead of breaking this day.
    assert p.rows("SELECT count(*) AS n FROM {source} WHERE session_id = 'carol'")[0]["n"] == 1


def test_text_column_with_lone_surrogate_and_nul_in_tool_output(make_settings):
    p = Pipeline(make_settings())
    with p.pool.connection() as conn:
        table = psycopg.sql.Identifier(p.settings.source_schema, p.settings.source_table)
        conn.execute(psycopg.sql.SQL("ALTER TABLE {} ALTER COLUMN message TYPE text").format(table))
        for minutes, raw in enumerate([
            '{"type": "human", "content": "I live in Pa\\ud800ris."}',
            '{"type": "ai", "content": "[Used tools: Tool: crm, Input: x, Result: SECRET\\u0000] Noted."}',
            "not json at all",
        ]):
            conn.execute(psycopg.sql.SQL("INSERT INTO {} (session_id, message, created_at) VALUES (%s, %s, %s)")
                         .format(table), ("dave", raw, NOON + timedelta(minutes=minutes)))
    result = p.run(DAY)
    assert result.success
    assert active_facts(p, "dave") == ["User lives in Pa\ufffdris."]
    assert p.source_ids() == set() and len(p.archive_ids()) == 3  # the raw text is archived as it was


def test_database_errors_reach_dagster_without_row_data(make_settings):
    resource = MemoryPipelineResource.from_settings(make_settings())
    with pytest.raises(StageDatabaseError) as raised:
        with _connection(resource) as conn:
            conn.execute("SELECT %s::jsonb", ['{"card": "SECRET-4111\\u0000"}'])
    assert "SECRET" not in str(raised.value) and "SQLSTATE" in str(raised.value)
    assert raised.value.__cause__ is None and raised.value.__suppress_context__


def test_table_without_created_at_consolidates_and_purges_nothing(make_settings):
    p = Pipeline(make_settings(backlog_date=DAY))
    with p.pool.connection() as conn:
        conn.execute(psycopg.sql.SQL("ALTER TABLE {} DROP COLUMN created_at").format(
            psycopg.sql.Identifier(p.settings.source_schema, p.settings.source_table)))
        sample_rows = [sample.SampleRow("erin", {"type": "human", "content": "I live in Kyiv."}, None)]
        conn.execute(psycopg.sql.SQL("INSERT INTO {} (session_id, message) VALUES (%s, %s)").format(
            psycopg.sql.Identifier(p.settings.source_schema, p.settings.source_table)),
            (sample_rows[0].session_id, psycopg.types.json.Jsonb(sample_rows[0].message)))
    result = p.run(DAY)
    assert result.success
    meta = metadata(result, "closed_sessions")
    assert meta["source_has_created_at"] is False and meta["conversations_deferred"] == 1
    assert "add-time-column" in meta["note"]
    assert len(p.source_ids()) == 1 and p.archive_ids() == set()


def test_ids_reused_after_a_table_reset_fail_the_no_message_lost_check(make_settings):
    p = Pipeline(make_settings())
    p.load([said("frank", "I live in Bern.")])
    assert p.run(DAY).success
    with p.pool.connection() as conn:
        conn.execute(psycopg.sql.SQL("TRUNCATE {} RESTART IDENTITY").format(
            psycopg.sql.Identifier(p.settings.source_schema, p.settings.source_table)))
    p.load([sample.SampleRow("gina", {"type": "human", "content": "I live in Faro."}, NOON + timedelta(days=1))])
    result = p.run("2026-05-04")
    checks = {e.check_name: e for e in result.get_asset_check_evaluations()}
    assert checks["no_message_lost"].passed is False
    assert checks["no_message_lost"].metadata["consolidated_rows_left_in_source"].value == 1
    assert len(p.source_ids()) == 1  # the new row is kept, not lost
    # The old user's conversation shares the reused id but is never replaced by the new one: their facts stay.
    p.load([sample.SampleRow("frank", {"type": "human", "content": "I love jazz."}, NOON + timedelta(days=2))])
    p.run("2026-05-05")
    assert active_facts(p, "frank") == ["User lives in Bern.", "User loves jazz."]


def test_a_late_row_before_a_conversation_replaces_it_instead_of_doubling_it(make_settings):
    p = Pipeline(make_settings())
    p.load([said("hana", "I live in Graz.", 10), said("hana", "Ok.", 11, "ai")])
    assert p.run(DAY).success
    p.load([said("hana", "Hello!", 0)])  # arrives late, timed before the stored conversation's first message
    rerun = p.run(DAY)
    assert rerun.success
    conversations = p.rows("SELECT message_ids FROM {schema}.conversations")
    assert len(conversations) == 1 and len(conversations[0]["message_ids"]) == 3
    assert len(p.rows("SELECT * FROM {schema}.fact_candidates")) == 1
    assert active_facts(p, "hana") == ["User lives in Graz."]


def test_rerun_does_not_extract_again(make_settings):
    p = Pipeline(make_settings())
    p.load([said("ivan", "I live in Split.")])
    assert metadata(p.run(DAY), "extracted_facts")["candidates"] == 1
    again = metadata(p.run(DAY), "extracted_facts")
    assert again["conversations_already_extracted"] == 1 and again["candidates"] == 0


# -- reconciliation with the offline extractor, in memory ---------------------------------------------------
def consolidate(messages):
    """[(session, text, time or None)] -> reconciled versions, through the real extractor and validation."""
    rows = [SourceRow(i + 1, key, {"type": "human", "content": text}, at) for i, (key, text, at) in
            enumerate(messages)]
    backlog = datetime(2026, 1, 1, tzinfo=timezone.utc)
    conversations = build_conversations(rows, idle_gap=timedelta(hours=3), timezone="UTC",
                                        backlog_date=date(2026, 1, 1), user_key=lambda k: "u")
    accepted = []
    for conv in conversations:
        for i, fact in enumerate(OfflineExtractor().extract(conv, "").facts):
            c = validate_candidate(fact, conv, i, backlog if conv.is_legacy else None)
            accepted.append(AcceptedFact(c.candidate_id, "u", c.category, c.attribute, c.value, c.fact, c.quote,
                                         c.quote_message_id, c.quote_speaker, c.conversation_id, c.said_at,
                                         c.position))
    return reconcile_user(accepted, {"preference": 730, "client_info": 1095, "decision": 365})


def active(versions):
    return sorted(v.fact for v in versions if v.is_active)


def test_love_then_hate_supersedes():
    versions = consolidate([("u", "I love jazz.", NOON), ("u", "I hate jazz now.", NOON + timedelta(days=1))])
    assert active(versions) == ["User hates jazz."]


def test_correction_in_one_message_keeps_the_last_statement():
    for k in range(10):  # the order must not depend on hashes
        versions = consolidate([("u", f"I live in Paris{k}. Sorry, correction: I live in London{k}.", NOON)])
        assert active(versions) == [f"User lives in London{k}."]


def test_legacy_rows_reconcile_in_id_order():
    for k in range(10):
        versions = consolidate([("u", f"I live in Paris{k}.", None), ("u", f"I live in London{k} now.", None)])
        assert active(versions) == [f"User lives in London{k}."]


def test_email_and_phone_or_job_and_employer_do_not_supersede_each_other():
    versions = consolidate([("u", "My email is ann@example.org.", NOON),
                            ("u", "My phone number is +44-20-5555-0101.", NOON + timedelta(days=1)),
                            ("u", "I work as a nurse.", NOON + timedelta(days=2)),
                            ("u", "I work at St Mary's Hospital.", NOON + timedelta(days=3))])
    assert len(active(versions)) == 4


def test_a_conversation_that_never_pauses_is_cut_so_it_can_close():
    rows = [SourceRow(i, "group", {"type": "human", "content": "x"}, NOON + timedelta(hours=2 * i))
            for i in range(30)]  # a message every 2 hours for 2.5 days: never a 3-hour silence
    groups = split_rows(rows, timedelta(hours=3), timedelta(hours=24))
    assert len(groups) == 3 and all(g[-1].created_at - g[0].created_at <= timedelta(hours=24) for g in groups)
    assert split_rows(rows, timedelta(hours=3)) == [rows]


def test_transcript_changed_during_extraction_is_not_marked_extracted(make_settings):
    from memory_pipeline.store import Store

    p = Pipeline(make_settings())
    p.load([said("jan", "I live in Riga.", 0)])
    store, day = Store(p.settings), date(2026, 5, 3)

    class ConcurrentResplit(OfflineExtractor):
        def extract(self, conversation, summary=""):
            # Meanwhile another run of the same day sees a late row and re-splits the conversation.
            p.load([said("jan", "My email is jan@example.org.", 1)])
            with p.pool.connection() as other:
                closed_sessions(store, other, day)
            return super().extract(conversation, summary)

    with p.pool.connection() as conn:
        closed_sessions(store, conn, day)
        session_summaries(store, conn, day, OfflineExtractor())
        extracted_facts(store, conn, day, ConcurrentResplit())
        (record,) = store.conversations_of_partition(conn, day)
        assert record["facts_extracted_at"] is None  # extracted from the old transcript: must be done again
        assert archived_sessions(store, conn, day).metadata["rows_purged"] == 0
    assert p.run(DAY).success
    assert active_facts(p, "jan") == ["User lives in Riga.", "User's email address is jan@example.org."]


def test_text_created_at_with_unreadable_values(make_settings):
    p = Pipeline(make_settings())
    with p.pool.connection() as conn:
        table = psycopg.sql.Identifier(p.settings.source_schema, p.settings.source_table)
        conn.execute(psycopg.sql.SQL("ALTER TABLE {} ALTER COLUMN created_at TYPE text").format(table))
        for key, at in [("kim", "2026-05-03 10:00:00+00"), ("lea", "yesterday-ish"), ("max", "")]:
            conn.execute(psycopg.sql.SQL("INSERT INTO {} (session_id, message, created_at) VALUES (%s, %s, %s)")
                         .format(table), (key, psycopg.types.json.Jsonb({"type": "human", "content": "I live in Oslo."}), at))
    result = p.run(DAY)
    assert result.success
    assert active_facts(p, "kim") == ["User lives in Oslo."]
    assert {r["session_id"] for r in p.rows("SELECT session_id FROM {source}")} == {"lea", "max"}  # undated: kept


def test_add_time_column_keeps_old_rows_undated_and_dates_new_ones(make_settings):
    from memory_pipeline.store import Store

    p = Pipeline(make_settings())
    table = psycopg.sql.Identifier(p.settings.source_schema, p.settings.source_table)
    store = Store(p.settings)
    with p.pool.connection() as conn:
        conn.execute(psycopg.sql.SQL("ALTER TABLE {} DROP COLUMN created_at").format(table))
        conn.execute(psycopg.sql.SQL("INSERT INTO {} (session_id, message) VALUES ('old', '{{}}')").format(table))
        assert not store.has_created_at(conn)
        store.add_time_column(conn)
        store.add_time_column(conn)  # a second run changes nothing
        conn.execute(psycopg.sql.SQL("INSERT INTO {} (session_id, message) VALUES ('new', '{{}}')").format(table))
        rows = conn.execute(psycopg.sql.SQL("SELECT session_id, created_at FROM {}").format(table)).fetchall()
        times = {r["session_id"]: r["created_at"] for r in rows}
        indexes = {r["indexname"] for r in conn.execute(
            "SELECT indexname FROM pg_indexes WHERE schemaname = %s AND tablename = %s",
            (p.settings.source_schema, p.settings.source_table)).fetchall()}
    assert times["old"] is None and times["new"] is not None
    assert {f"{p.settings.source_table}_session_created_idx", f"{p.settings.source_table}_created_idx"} <= indexes
