"""The whole job through Dagster on the embedded PostgreSQL: n8n row shapes + a MemoryBank slice."""

import json
from datetime import datetime, timedelta, timezone

import dagster as dg
import pytest
from psycopg import sql

from memory_pipeline import sample
from memory_pipeline.db import get_pool
from memory_pipeline.defs.nightly import JOB_NAME, build_definitions
from memory_pipeline.domain.quotes import normalize_whitespace
from memory_pipeline.domain.messages import SourceRow, parse_row
from memory_pipeline.extractors.base import ExtractorError
from memory_pipeline.extractors.offline import OfflineExtractor
from memory_pipeline.runner import QUIET_RUN_CONFIG, materialization_metadata
from memory_pipeline_tests.conftest import fixture_lines
import memory_pipeline.stages.extracted_facts as extracted_facts_stage

MB_USERS = ["Emily", "Frank", "Lucy"]
GROUP_CHATS = "tg:500300"  # message_shapes.jsonl's Telegram group (its rows carry `## Message from NAME`)
MB_DAYS = ["2023-04-27", "2023-04-28", "2023-04-29"]
N8N_DAYS = ["2026-05-01", "2026-05-03", "2026-05-04"]  # 2026-05-01 is the backlog date for legacy rows
TABLES = ["conversations", "message_rejections", "session_summaries", "summary_cache", "fact_candidates",
          "agent_facts", "chat_archive"]


class Pipeline:
    """One isolated pipeline (own schema and n8n table) with helpers to run days and read tables."""

    def __init__(self, settings):
        self.settings = settings
        self.pool = get_pool(settings.database_url)
        self.job = build_definitions(settings).resolve_job_def(JOB_NAME)
        self.instance = dg.DagsterInstance.ephemeral()
        with self.pool.connection() as conn:
            sample.create_n8n_table(conn, settings)

    def load(self, rows):
        with self.pool.connection() as conn:
            sample.insert_rows(conn, self.settings, rows)

    def run(self, day) -> dg.ExecuteInProcessResult:
        return self.job.execute_in_process(partition_key=day, instance=self.instance, raise_on_error=False,
                                           run_config=QUIET_RUN_CONFIG)

    def rows(self, query, params=None):
        with self.pool.connection() as conn:
            return conn.execute(sql.SQL(query).format(
                schema=sql.Identifier(self.settings.schema_name),
                source=sql.Identifier(self.settings.source_schema, self.settings.source_table)), params).fetchall()

    def snapshot(self):
        tables = {t: self.rows(f"SELECT * FROM {{schema}}.{t} ORDER BY 1") for t in TABLES}
        tables["source"] = self.rows("SELECT * FROM {source} ORDER BY id")
        return tables

    def source_ids(self):
        return {r["id"] for r in self.rows("SELECT id FROM {source}")}

    def archive_ids(self):
        return {r["id"] for r in self.rows("SELECT id FROM {schema}.chat_archive")}


def metadata(result, asset):
    values = materialization_metadata(result, asset)
    assert values, f"{asset} not materialized"
    return values


def mb_slice():
    data = sample.load_memory_bank()
    return [r for r in sample.memory_bank_rows(data, MB_USERS) if r.created_at.date().isoformat() in MB_DAYS]


@pytest.fixture
def pipeline(make_settings):
    p = Pipeline(make_settings(backlog_date="2026-05-01", group_chat_session_keys=GROUP_CHATS))
    p.load(sample.fixture_rows(fixture_lines("message_shapes.jsonl")))
    p.load(mb_slice())
    return p


def test_consolidates_archives_and_is_idempotent(pipeline):
    all_ids = pipeline.source_ids()
    results = {day: pipeline.run(day) for day in N8N_DAYS + MB_DAYS}
    assert all(r.success for r in results.values())

    # Facts exist, each with a quote found verbatim in that user's own messages.
    facts = pipeline.rows("SELECT * FROM {schema}.agent_facts")
    users = {f["user_key"] for f in facts}
    assert {"memorybank:emily", "memorybank:frank", "memorybank:lucy", "tg:500100"} <= users
    human_text = {}
    for r in pipeline.rows("SELECT id, session_id, message, created_at FROM {schema}.chat_archive"):
        parsed = parse_row(SourceRow(r["id"], r["session_id"], json.loads(r["message"]), r["created_at"]))
        if parsed.role == "human":
            human_text.setdefault(r["session_id"], []).append(normalize_whitespace(parsed.text))
    session_of = {r["conversation_id"]: r["session_key"]
                  for r in pipeline.rows("SELECT conversation_id, session_key FROM {schema}.conversations")}
    for f in facts:  # a group chat's sender ("tg:500300#Camille") quotes a message of the session key
        quote = normalize_whitespace(f["quote"])
        assert any(quote in message for message in human_text[session_of[f["source_session"]]]), f["fact"]

    # No duplicate active fact; the 4 May phone preference superseded the 3 May email-only one.
    active = [(f["user_key"], f["category"], f["fact"]) for f in facts if f["superseded_at"] is None]
    assert len(active) == len(set(active))
    channel = {f["value"]: f for f in facts if f["user_key"] == "tg:500100" and f["attribute"] == "contact_channel"}
    assert channel["email"]["superseded_at"] == channel["phone"]["valid_from"]
    assert channel["email"]["superseded_by"] == channel["phone"]["id"] and channel["phone"]["superseded_at"] is None
    assert channel["phone"]["valid_from"] == datetime(2026, 5, 4, 15, 2, tzinfo=timezone.utc)  # when it was said

    # Every consolidated row left n8n's table and is in the archive; nothing is in neither.
    assert pipeline.source_ids() == set()
    assert pipeline.archive_ids() == all_ids

    # Malformed rows were recorded with their reason, not lost.
    reasons = {r["message_id"]: r["reason"] for r in pipeline.rows("SELECT * FROM {schema}.message_rejections")}
    assert reasons[131] == "message_not_object" and reasons[133] == "missing_type"
    assert metadata(results["2026-05-03"], "closed_sessions")["rows_rejected"] == 4

    # Re-materializing every partition changes nothing in any table.
    before = pipeline.snapshot()
    again = {day: pipeline.run(day) for day in N8N_DAYS + MB_DAYS}
    assert all(r.success for r in again.values())
    assert pipeline.snapshot() == before
    assert metadata(again["2026-05-03"], "session_summaries")["cache_hits"] == 7


def test_out_of_order_backfill_gives_the_same_facts(pipeline, make_settings):
    reverse = Pipeline(make_settings(backlog_date="2026-05-01", group_chat_session_keys=GROUP_CHATS))
    reverse.load(sample.fixture_rows(fixture_lines("message_shapes.jsonl")))
    for day in N8N_DAYS:
        assert pipeline.run(day).success
    for day in reversed(N8N_DAYS):
        assert reverse.run(day).success

    def comparable(p):
        rows = p.rows("SELECT f.*, s.fact AS superseded_by_fact FROM {schema}.agent_facts f "
                      "LEFT JOIN {schema}.agent_facts s ON s.id = f.superseded_by")
        return sorted((r["user_key"], r["category"], r["fact"], r["valid_from"], r["superseded_at"],
                       r["superseded_by_fact"], r["last_seen_at"]) for r in rows)

    assert comparable(reverse) == comparable(pipeline)
    # Each installation salts its conversation ids: same conversations, ids that cannot be matched across them.
    ids = lambda p: {r["conversation_id"] for r in p.rows("SELECT conversation_id FROM {schema}.conversations")}
    assert len(ids(reverse)) == len(ids(pipeline)) and not ids(reverse) & ids(pipeline)
    phone = [r for r in comparable(reverse) if "phone" in r[2]]
    assert phone and phone[0][4] is None  # the newer statement stays active after the older day ran last


def test_open_conversations_are_deferred_and_untouched(make_settings):
    # A 3-day idle gap keeps yesterday's conversation open whatever the clock says.
    p = Pipeline(make_settings(idle_gap_minutes=3 * 24 * 60))
    yesterday = datetime.now(timezone.utc).date() - timedelta(days=1)
    noon = datetime.combine(yesterday, datetime.min.time(), tzinfo=timezone.utc) + timedelta(hours=12)
    p.load([sample.SampleRow("open:1", {"type": "human", "content": "I live in Oslo."}, noon),
            sample.SampleRow("open:1", {"type": "ai", "content": "Nice."}, noon + timedelta(minutes=1))])
    before = p.source_ids()
    result = p.run(yesterday.isoformat())
    assert result.success
    assert metadata(result, "closed_sessions")["conversations_deferred"] == 1
    assert metadata(result, "closed_sessions")["conversations_closed"] == 0
    assert p.source_ids() == before and p.archive_ids() == set()
    assert p.rows("SELECT * FROM {schema}.conversations") == []


def test_failing_extraction_keeps_that_conversations_rows(pipeline, monkeypatch):
    original = OfflineExtractor.extract

    def flaky(self, conversation, summary):
        if conversation.session_key == "tg:500200":
            raise ExtractorError("scripted failure")
        return original(self, conversation, summary)

    monkeypatch.setattr(OfflineExtractor, "extract", flaky)
    ids_500200 = {r["id"] for r in pipeline.rows("SELECT id FROM {source} WHERE session_id = 'tg:500200'")}
    result = pipeline.run("2026-05-03")
    assert not result.success  # red, after the other conversations were consolidated
    assert metadata(result, "extracted_facts")["conversations_failed"] == 1
    assert metadata(result, "archived_sessions")["conversations_kept_unconsolidated"] == 1
    assert ids_500200 <= pipeline.source_ids()  # not consolidated, so not purged
    assert not ids_500200 & pipeline.archive_ids()
    monkeypatch.setattr(OfflineExtractor, "extract", original)
    assert pipeline.run("2026-05-03").success  # the next run picks it up
    assert not ids_500200 & pipeline.source_ids()


def test_failing_quote_check_blocks_the_stages_after_it(pipeline, monkeypatch):
    original = extracted_facts_stage.validate_candidate

    def accepts_a_made_up_quote(extracted, conversation, position, *args):
        candidate = original(extracted, conversation, position, *args)
        return candidate.__class__(**{**candidate.__dict__, "quote": "something never said", "status": "accepted",
                                      "reason": None})

    monkeypatch.setattr(extracted_facts_stage, "validate_candidate", accepts_a_made_up_quote)
    before = pipeline.source_ids()
    result = pipeline.run("2026-05-03")
    assert not result.success
    checks = {e.check_name: e.passed for e in result.get_asset_check_evaluations()}
    assert checks["quotes_found_verbatim"] is False
    materialized = {e.asset_key.to_user_string() for e in result.get_asset_materialization_events()}
    assert "extracted_facts" in materialized
    assert not {"active_facts", "archived_sessions"} & materialized
    assert pipeline.rows("SELECT * FROM {schema}.agent_facts") == []
    assert pipeline.source_ids() == before  # nothing purged


def test_empty_partition_materializes_with_zero_counts(pipeline):
    result = pipeline.run("2024-02-29")
    assert result.success
    assert metadata(result, "closed_sessions")["conversations_closed"] == 0
    assert metadata(result, "archived_sessions")["rows_purged"] == 0


def test_missing_source_table_fails_with_its_name(make_settings):
    settings = make_settings(source_table="no_such_table")
    job = build_definitions(settings).resolve_job_def(JOB_NAME)
    result = job.execute_in_process(partition_key="2026-05-03", instance=dg.DagsterInstance.ephemeral(),
                                    raise_on_error=False, run_config=QUIET_RUN_CONFIG)
    assert not result.success
    failure = [e for e in result.all_events if e.event_type_value == "STEP_FAILURE"][0]
    cause = failure.event_specific_data.error.cause
    assert cause.cls_name == "SourceTableMissing" and "no_such_table" in cause.message
