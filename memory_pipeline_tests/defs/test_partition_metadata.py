"""Each partition's materialization describes the partition's state (partition_*), apart from what the run did
(run_*); ranged runs (single-run backfills) keep per-partition figures and per-partition check evaluations."""

from collections import Counter
from datetime import date, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import dagster as dg
import pytest

from memory_pipeline.defs.catalog import TABLES
from memory_pipeline.defs.nightly import build_definitions
from memory_pipeline.settings import Settings
from memory_pipeline.store import Store
from memory_pipeline.extractors.base import ExtractorError
from memory_pipeline.extractors.offline import OfflineExtractor
from memory_pipeline.runner import QUIET_RUN_CONFIG, materialization_metadata
from memory_pipeline_tests.test_pipeline_end_to_end import MB_DAYS, N8N_DAYS, Pipeline, mb_slice, pipeline  # noqa: F401 - fixture
import memory_pipeline.stages.extracted_facts as extracted_facts_stage
from memory_pipeline.stages.checks import check_every_conversation_summarised
from memory_pipeline.stages.partition_state import partition_state

ASSETS = ["closed_sessions", "session_summaries", "extracted_facts", "active_facts", "archived_sessions"]
# Figures that count what a run wrote: a re-run of a finished day writes nothing.
RUN_CHANGES = {
    "closed_sessions": ["run_conversations_stored"],
    "session_summaries": ["run_summaries_computed", "run_input_tokens", "run_output_tokens"],
    "extracted_facts": ["run_candidates", "run_accepted", "run_rejected"],
    "active_facts": ["run_facts_inserted", "run_facts_updated", "run_facts_deleted", "run_facts_superseded"],
    "archived_sessions": ["run_rows_archived", "run_rows_purged"],
}
RANGE_TAGS = lambda first, last: {"dagster/asset_partition_range_start": first,
                                  "dagster/asset_partition_range_end": last}


def partition_figures(result, asset, partition=None):
    values = materialization_metadata(result, asset, partition)
    assert values, f"{asset} not materialized"
    return {k: v for k, v in values.items() if k.startswith("partition_") or k == "dagster/row_count"}


def test_rematerializing_a_day_keeps_its_partition_figures_and_reports_no_run_changes(pipeline):
    day = "2026-05-03"
    first = pipeline.run(day)
    again = pipeline.run(day)
    assert first.success and again.success
    for asset in ASSETS:
        assert partition_figures(again, asset) == partition_figures(first, asset), asset
        for key in RUN_CHANGES[asset]:
            assert materialization_metadata(again, asset)[key] == 0, (asset, key)
    # The first run did the work the second one found done.
    assert materialization_metadata(first, "closed_sessions")["run_conversations_stored"] == 7
    assert materialization_metadata(first, "archived_sessions")["run_rows_archived"] > 0
    closed = partition_figures(again, "closed_sessions")
    assert closed["partition_conversations"] == closed["dagster/row_count"] == 7
    assert closed["partition_rows_rejected"] == 4
    extracted = materialization_metadata(again, "extracted_facts")
    assert extracted["partition_candidates_accepted"] == materialization_metadata(first, "extracted_facts")["run_accepted"]
    assert extracted["partition_candidates"] == extracted["partition_candidates_accepted"] + \
        extracted["partition_candidates_rejected"] > 0
    archived = partition_figures(again, "archived_sessions")
    assert archived["partition_rows_archived"] == materialization_metadata(first, "archived_sessions")["run_rows_archived"]
    assert archived["partition_consolidated_rows_in_source"] == 0


def test_active_counts_only_unexpired_facts(pipeline):
    def state(day):
        store = Store(pipeline.settings)
        with pipeline.pool.connection() as conn:
            return partition_state(store, conn, date.fromisoformat(day), "active_facts")

    # MemoryBank's days are from 2023: every fact's time-to-live is over, so only the names (which do not
    # expire) are active; every fact is counted once, as active, expired or superseded.
    results = [pipeline.run(day) for day in MB_DAYS]
    assert all(r.success for r in results)
    per_day = [state(day) for day in MB_DAYS]
    total = lambda key: sum(figures[key] for figures in per_day)
    with pipeline.pool.connection() as conn:
        names = conn.execute(f"SELECT count(*) AS n FROM {pipeline.settings.schema_name}.agent_facts "
                             "WHERE attribute = 'name' AND superseded_at IS NULL").fetchone()["n"]
    assert total("facts") > 0 and names > 0 and total("facts_active") == names
    assert total("facts_active") + total("facts_expired") + total("facts_superseded") == total("facts")
    last = materialization_metadata(results[-1], "active_facts")
    assert last["run_active_facts_of_these_users"] <= names and last["run_expired_facts_of_these_users"] > 0
    # 2026 facts are within their time-to-live; the email preference superseded by the phone one counts apart.
    assert all(pipeline.run(day).success for day in N8N_DAYS)
    may_3, may_4 = state("2026-05-03"), state("2026-05-04")
    assert may_4["facts_active"] > 0 and may_4["facts_expired"] == 0
    assert may_3["facts_superseded"] >= 1


def test_a_ranged_run_records_each_partition_with_its_own_figures(pipeline, make_settings):
    single = Pipeline(make_settings())
    single.load(mb_slice())
    singles = {day: single.run(day) for day in MB_DAYS}
    ranged = pipeline.job.execute_in_process(instance=pipeline.instance, raise_on_error=False,
                                             run_config=QUIET_RUN_CONFIG, tags=RANGE_TAGS(MB_DAYS[0], MB_DAYS[-1]))
    assert ranged.success
    for asset in ASSETS:
        partitions = [e.event_specific_data.materialization.partition
                      for e in ranged.get_asset_materialization_events()
                      if e.event_specific_data.materialization.asset_key.to_user_string() == asset]
        assert sorted(partitions) == MB_DAYS, asset
        for day in MB_DAYS:
            assert partition_figures(ranged, asset, day) == partition_figures(singles[day], asset), (asset, day)
    # Candidates by category and reason, active facts by category: each day's own, counted from its rows.
    candidates = pipeline.rows("SELECT partition_date::text AS day, status, category, reject_reason "
                               "FROM {schema}.fact_candidates")
    active = pipeline.rows("SELECT c.partition_date::text AS day, f.category FROM {schema}.agent_facts f "
                           "JOIN {schema}.conversations c ON c.conversation_id = f.source_session "
                           "WHERE f.superseded_at IS NULL AND (f.expires_at IS NULL OR f.expires_at > now())")
    breakdowns = {}
    for day in MB_DAYS:
        extracted = materialization_metadata(ranged, "extracted_facts", day)
        facts = materialization_metadata(ranged, "active_facts", day)
        expected = (Counter(r["category"] for r in candidates if r["day"] == day and r["status"] == "accepted"),
                    Counter(r["reject_reason"] for r in candidates if r["day"] == day and r["status"] == "rejected"),
                    Counter(r["category"] for r in active if r["day"] == day))
        breakdowns[day] = (extracted.get("partition_candidates_accepted_by_category", {}),
                           extracted.get("partition_candidates_rejected_by_reason", {}),
                           facts.get("partition_facts_active_by_category", {}))
        assert breakdowns[day] == tuple(dict(c) for c in expected), day
        assert sum(breakdowns[day][0].values()) == extracted["partition_candidates_accepted"], day
        # Published flat under short words, e.g. accepted.preference: one figure per category to plot by day.
        assert {f"accepted.{k}" for k in breakdowns[day][0]} <= set(extracted), day
    assert len({repr(b) for b in breakdowns.values()}) > 1 and any(b[0] for b in breakdowns.values())
    # A re-run of a day extracts nothing, and still publishes the day's breakdowns.
    again = pipeline.run(MB_DAYS[0])
    assert materialization_metadata(again, "extracted_facts")["run_candidates"] == 0
    assert materialization_metadata(again, "extracted_facts").get("partition_candidates_accepted_by_category", {}) \
        == breakdowns[MB_DAYS[0]][0]
    # Every partitioned check is recorded per partition of the range, not once without a partition.
    evaluations = [(e.asset_key.to_user_string(), e.check_name, e.partition) for e in ranged.get_asset_check_evaluations()
                   if e.check_name != "freshness_check"]
    assert len(evaluations) == 10 * len(MB_DAYS)  # ten partitioned checks
    assert {p for _, _, p in evaluations} == set(MB_DAYS)
    # Dagster's own partition records: every day of the range is materialized for every asset.
    for asset in ASSETS:
        assert set(pipeline.instance.get_materialized_partitions(dg.AssetKey(asset))) >= set(MB_DAYS)


def test_a_failed_blocking_check_in_a_ranged_run_names_its_day_and_stops_the_assets_after(pipeline, monkeypatch):
    original = extracted_facts_stage.validate_candidate

    def made_up_quote_on_may_4(extracted, conversation, position, *args):
        candidate = original(extracted, conversation, position, *args)
        if conversation.partition_date.isoformat() != "2026-05-04":
            return candidate
        return candidate.__class__(**{**candidate.__dict__, "quote": "never said", "status": "accepted",
                                      "reason": None})

    monkeypatch.setattr(extracted_facts_stage, "validate_candidate", made_up_quote_on_may_4)
    before = pipeline.source_ids()
    result = pipeline.job.execute_in_process(instance=pipeline.instance, raise_on_error=False,
                                             run_config=QUIET_RUN_CONFIG, tags=RANGE_TAGS("2026-05-03", "2026-05-04"))
    assert not result.success
    verdicts = {e.partition: e.passed for e in result.get_asset_check_evaluations()
                if e.check_name == "quotes_found_verbatim"}
    assert verdicts == {"2026-05-03": True, "2026-05-04": False}
    materialized = {e.asset_key.to_user_string() for e in result.get_asset_materialization_events()}
    assert not {"active_facts", "archived_sessions"} & materialized
    assert pipeline.source_ids() == before


def test_a_recorded_failure_makes_the_night_red_after_the_others_are_consolidated(pipeline, monkeypatch):
    original = OfflineExtractor.summarize

    def flaky(self, conversation):
        if conversation.session_key == "tg:500200":
            raise ExtractorError("scripted failure")
        return original(self, conversation)

    monkeypatch.setattr(OfflineExtractor, "summarize", flaky)
    result = pipeline.run("2026-05-03")
    assert not result.success  # red: the blocking every_conversation_consolidated check failed, at the end
    checks = {e.check_name: e for e in result.get_asset_check_evaluations()}
    # The failure is recorded with its reason (and tried again next run); the other conversations went on.
    summarised, consolidated = checks["every_conversation_summarised"], checks["every_conversation_consolidated"]
    assert not summarised.passed and summarised.metadata["summary_failures_recorded"].value == 1
    assert summarised.metadata["conversations_without_summary"].value == 0
    assert not consolidated.passed and consolidated.metadata["conversations_failed"].value == 1
    assert consolidated.metadata["failed_by_reason"].value == {"session_summaries: backend_error": 1}
    assert "archived_sessions" in {e.asset_key.to_user_string() for e in result.get_asset_materialization_events()}
    monkeypatch.setattr(OfflineExtractor, "summarize", original)
    assert pipeline.run("2026-05-03").success
    # A summary lost without a recorded failure (deleted by hand here) is a silent gap: the check fails.
    pipeline.rows("DELETE FROM {schema}.session_summaries WHERE conversation_id = "
                  "(SELECT min(conversation_id) FROM {schema}.conversations WHERE partition_date = '2026-05-03') "
                  "RETURNING conversation_id")
    with pipeline.pool.connection() as conn:
        outcome = check_every_conversation_summarised(Store(pipeline.settings), conn, date(2026, 5, 3))
    assert not outcome.passed and outcome.metadata["conversations_without_summary"] == 1


def test_catalog_column_schema_matches_the_tables(pipeline):
    for asset, (table, columns) in TABLES.items():
        rows = pipeline.rows("SELECT column_name, data_type FROM information_schema.columns "
                             "WHERE table_schema = %(s)s AND table_name = %(t)s ORDER BY ordinal_position",
                             {"s": pipeline.settings.schema_name, "t": table})
        assert [(r["column_name"], r["data_type"]) for r in rows] == [(c, t) for c, t, _ in columns], asset
    node = build_definitions(pipeline.settings).resolve_asset_graph().get(dg.AssetKey("active_facts"))
    assert node.metadata["dagster/table_name"] == f"{pipeline.settings.schema_name}.agent_facts"
    assert [c.name for c in node.metadata["dagster/column_schema"].columns][:3] == ["id", "user_key", "category"]
    assert node.owners == ["team:data"]


def test_owners_come_from_the_setting(make_settings):
    defs = build_definitions(make_settings(asset_owners="ops@example.com, team:ml"))
    assert defs.resolve_asset_graph().get(dg.AssetKey("closed_sessions")).owners == ["ops@example.com", "team:ml"]
    with pytest.raises(ValueError, match="team:NAME"):
        Settings.from_env({"MEMORY_PIPELINE_ASSET_OWNERS": "data team"})


def afternoon_timezone() -> str:
    """A fixed-offset zone where it is now between 12:00 and 19:59, so the 06:00 freshness deadline of today has
    passed and the next one is hours away, whatever the time of the test run."""
    now = datetime.now(timezone.utc)
    for offset in range(-12, 15):
        if 12 <= (now + timedelta(hours=offset)).hour < 20:
            return f"Etc/GMT{-offset:+d}" if offset else "UTC"  # Etc/GMT-2 is UTC+2 (POSIX sign)
    raise AssertionError("no zone in the afternoon")


def test_freshness_check_fails_when_yesterdays_partition_is_missing(make_settings):
    tz = afternoon_timezone()
    today = datetime.now(ZoneInfo(tz)).date()
    yesterday, before = (today - timedelta(days=1)).isoformat(), (today - timedelta(days=2)).isoformat()
    settings = dict(timezone=tz, partitions_start=(today - timedelta(days=10)).isoformat())

    def freshness(result):
        return {e.asset_key.to_user_string(): e.passed for e in result.get_asset_check_evaluations()
                if e.check_name == "freshness_check"}

    missed = Pipeline(make_settings(**settings))
    result = missed.run(before)  # the night before ran, last night did not
    assert result.success  # not blocking: a backfill of old days is not failed by a missing yesterday
    assert freshness(result) == {a: False for a in ASSETS}
    on_time = Pipeline(make_settings(**settings))
    assert freshness(on_time.run(yesterday)) == {a: True for a in ASSETS}
