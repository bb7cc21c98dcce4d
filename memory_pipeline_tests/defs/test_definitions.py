"""The code location loads with the five assets, the checks and a running schedule that picks yesterday."""

import os
import shutil
import subprocess
import sys
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import dagster as dg
import pytest

from memory_pipeline.db import dagster_storage_url
from memory_pipeline.defs.nightly import JOB_NAME, PARTITION_SHARD_TAG, build_definitions
from memory_pipeline.domain.shards import SHARD_TAG
from memory_pipeline.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
ASSETS = {"closed_sessions", "session_summaries", "extracted_facts", "active_facts", "archived_sessions"}
CHECKS = {("closed_sessions", "no_open_conversation_consolidated"), ("extracted_facts", "quotes_found_verbatim"),
          ("active_facts", "no_duplicate_active_facts"), ("archived_sessions", "no_message_lost"),
          ("session_summaries", "every_conversation_summarised"), ("session_summaries", "summaries_grounded"),
          ("extracted_facts", "every_conversation_extracted"),
          ("archived_sessions", "every_conversation_consolidated"), ("archived_sessions", "no_row_left_behind"),
          ("archived_sessions", "every_shard_consolidated")}
FRESHNESS = {(a, "freshness_check") for a in ASSETS}


def test_module_defs_have_five_assets_checks_and_running_schedule():
    from memory_pipeline.definitions import defs

    graph = defs.resolve_asset_graph()
    assert {k.to_user_string() for k in graph.get_all_asset_keys()} == ASSETS
    assert {(k.asset_key.to_user_string(), k.name) for k in graph.asset_check_keys} == CHECKS | FRESHNESS
    schedule = defs.resolve_schedule_def("nightly_consolidation_schedule")
    assert schedule.default_status == dg.DefaultScheduleStatus.RUNNING
    assert schedule.cron_schedule == "0 3 * * *"
    partitions = defs.resolve_job_def(JOB_NAME).partitions_def
    assert all(graph.get(dg.AssetKey(a)).partitions_def == partitions for a in ASSETS)


@pytest.mark.parametrize("tz", ["UTC", "Europe/Paris"])
def test_schedule_tick_picks_yesterdays_partition(tz):
    defs = build_definitions(Settings(timezone=tz, partitions_start="2026-01-01"))
    schedule = defs.resolve_schedule_def("nightly_consolidation_schedule")
    assert schedule.execution_timezone == tz
    tick = datetime(2026, 5, 4, 3, 0, tzinfo=ZoneInfo(tz))
    context = dg.build_schedule_context(scheduled_execution_time=tick, repository_def=defs.get_repository_def())
    requests = schedule.evaluate_tick(context).run_requests
    # Yesterday, plus the day before again as a catch-up for conversations still open at the last tick.
    assert [r.partition_key for r in requests] == ["2026-05-02", "2026-05-03"]
    assert len({r.run_key for r in requests}) == 2
    assert [r.tags[SHARD_TAG] for r in requests] == ["0/1", "0/1"]  # one run for the whole night


def test_schedule_tick_launches_every_shard_of_both_days():
    defs = build_definitions(Settings(partitions_start="2026-01-01", shards=3))
    schedule = defs.resolve_schedule_def("nightly_consolidation_schedule")
    tick = datetime(2026, 5, 4, 3, 0, tzinfo=ZoneInfo("UTC"))
    context = dg.build_schedule_context(scheduled_execution_time=tick, repository_def=defs.get_repository_def())
    requests = schedule.evaluate_tick(context).run_requests
    assert [(r.partition_key, r.tags[SHARD_TAG]) for r in requests] == [
        (day, f"{i}/3") for day in ("2026-05-02", "2026-05-03") for i in range(3)]
    assert len({r.run_key for r in requests}) == 6
    assert len({r.tags[PARTITION_SHARD_TAG] for r in requests}) == 6  # dagster.yaml's limit: one run per value


def test_schedule_never_requests_a_day_before_the_partitions_start():
    defs = build_definitions(Settings(partitions_start="2026-05-03"))
    schedule = defs.resolve_schedule_def("nightly_consolidation_schedule")
    tick = datetime(2026, 5, 4, 3, 0, tzinfo=ZoneInfo("UTC"))
    context = dg.build_schedule_context(scheduled_execution_time=tick, repository_def=defs.get_repository_def())
    requests = schedule.evaluate_tick(context).run_requests
    assert [r.partition_key for r in requests] == ["2026-05-03"]


def test_bad_setting_fails_loading_with_the_setting_name():
    with pytest.raises(ValueError, match="timezone"):
        build_definitions(Settings.from_env({"MEMORY_PIPELINE_TIMEZONE": "Mars/Olympus"}))
    with pytest.raises(ValueError, match="user_key_regex"):
        Settings.from_env({"MEMORY_PIPELINE_USER_KEY_REGEX": "^(.+)$"})


def test_workspace_loads_with_the_projects_dagster_yaml(pg_url, make_settings, tmp_path):
    """`dagster definitions validate` on workspace.yaml, with dagster.yaml's postgres storage on the test server."""
    make_settings()  # applies sql/schema.sql, which creates the `dagster` schema
    shutil.copyfile(ROOT / "deploy" / "dagster.yaml", tmp_path / "dagster.yaml")
    env = {**os.environ, "DAGSTER_HOME": str(tmp_path),
           "MEMORY_PIPELINE_DAGSTER_STORAGE_URL": dagster_storage_url(pg_url, "dagster")}
    dagster = Path(sys.executable).parent / "dagster"
    done = subprocess.run([str(dagster), "definitions", "validate", "-w", str(ROOT / "workspace.yaml")],
                          env=env, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "All code locations passed validation" in done.stdout + done.stderr


def test_dagster_storage_url_uses_psycopg2_dialect_and_its_own_schema():
    assert dagster_storage_url("postgresql://u:p@h/db", "dagster") == \
        "postgresql+psycopg2://u:p@h/db?options=-csearch_path%3Ddagster"
    assert dagster_storage_url("postgresql://u@/db?host=/s", "dg") == \
        "postgresql+psycopg2://u@/db?host=/s&options=-csearch_path%3Ddg"
    assert dagster_storage_url("postgresql://u@h/db?options=-cx%3Dy", "dg") == "postgresql+psycopg2://u@h/db?options=-cx%3Dy"
    assert dagster_storage_url("postgresql://u:p@h/db") == "postgresql+psycopg2://u:p@h/db"
    assert dagster_storage_url("postgres://u@/db?host=/s") == "postgresql+psycopg2://u@/db?host=/s"
    assert dagster_storage_url("postgresql+psycopg://u@h/db") == "postgresql+psycopg2://u@h/db"


def test_resource_carries_every_setting(monkeypatch):
    from memory_pipeline.defs.resources import MemoryPipelineResource

    monkeypatch.setenv("MEMORY_PIPELINE_DATABASE_URL", "postgresql://u@h/db")
    settings = Settings(dagster_schema="dgx", max_conversation_hours=5, idle_gap_minutes=90, timezone="Asia/Kolkata",
                        user_key_regex=r"^t:(?P<user>.+)$", backlog_date="2024-02-01", database_url="postgresql://u@h/db")
    assert MemoryPipelineResource.from_settings(settings).get_settings() == settings


def test_backfills_run_a_range_in_one_run_and_one_process():
    from memory_pipeline.definitions import defs

    graph = defs.resolve_asset_graph()
    for asset in ASSETS:
        assert graph.get(dg.AssetKey(asset)).backfill_policy == dg.BackfillPolicy.single_run()
    assert defs.resolve_job_def(JOB_NAME).executor_def is dg.in_process_executor
    assert defs.resolve_implicit_global_asset_job_def().executor_def is dg.in_process_executor  # UI backfills
    sensor = defs.resolve_sensor_def("freshness_checks_sensor")
    assert sensor.default_status == dg.DefaultSensorStatus.RUNNING
