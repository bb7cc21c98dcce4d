"""The nightly pipeline's definitions: five assets on one daily partitions definition, their checks, the nightly
job and its 03:00 schedule (running by default), the sensors, the erasure job and the resource. Loaded with the
rest of this folder by `memory_pipeline.definitions` (`dg.load_from_defs_folder`); `build_definitions(settings)`
builds them for other settings (tests, `runner`)."""

from __future__ import annotations

import warnings
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import dagster as dg

from memory_pipeline.defs.alerts import check_failure_alert, run_failure_alert
from memory_pipeline.defs.assets import build_assets
from memory_pipeline.defs.erasure_job import (
    erase_user_job, erasure_canceled_run_cleanup, erasure_failed_run_cleanup, erasure_run_cleanup,
)
from memory_pipeline.defs.resources import MemoryPipelineResource
from memory_pipeline.domain.shards import SHARD_TAG, shards_of_night
from memory_pipeline.settings import Settings
from memory_pipeline.stages.common import SCHEDULE_HOUR

JOB_NAME = "nightly_consolidation"
# Tag of a shard's run: "DAY INDEX/COUNT". dagster.yaml limits runs to one per value, so a shard of a day never runs
# twice at once (the schedule next to a backfill), while the shards of a day run side by side.
PARTITION_SHARD_TAG = "memory_pipeline/partition_shard"


def nightly_partitions(tick_local_date: date, partitions_start: date, partitions_end: date | None = None) -> list[str]:
    """Partition keys one tick requests: yesterday, and the day before as a catch-up.

    The catch-up picks up conversations that were still open at the previous tick (a late-evening chat longer
    than the idle gap, the night clocks spring forward and 03:00 comes an hour early); re-running a finished day
    changes nothing and costs nothing (summaries cached, extraction skipped)."""
    days = [tick_local_date - timedelta(days=2), tick_local_date - timedelta(days=1)]
    return [d.isoformat() for d in days if partitions_start <= d <= (partitions_end or d)]


def night_run_requests(keys: list[str], tick_day: str, shard_count: int) -> list[dg.RunRequest]:
    """One run per partition key and shard of the night (`shard_count`, MEMORY_PIPELINE_SHARDS), each tagged with
    its shard (`memory_pipeline/shard` = INDEX/COUNT) and its day's shard (PARTITION_SHARD_TAG). The run key names
    the tick (and the shard when there are several), so a tick evaluated twice launches nothing twice."""
    return [
        dg.RunRequest(run_key=f"{key}@{tick_day}" + (f"#{shard}" if shard_count > 1 else ""), partition_key=key,
                      tags={SHARD_TAG: str(shard), PARTITION_SHARD_TAG: f"{key} {shard}"})
        for key in keys for shard in shards_of_night(shard_count)
    ]


def nightly_schedule(job: dg.UnresolvedAssetJobDefinition, settings: Settings) -> dg.ScheduleDefinition:
    """03:00 in the partitions' timezone, running by default: a nightly job that nobody has to switch on. Each
    tick launches every shard of each day it requests (`night_run_requests`)."""

    @dg.schedule(
        job=job,
        cron_schedule=f"0 {SCHEDULE_HOUR} * * *",
        execution_timezone=settings.timezone,
        default_status=dg.DefaultScheduleStatus.RUNNING,
        name="nightly_consolidation_schedule",
        description=f"At {SCHEDULE_HOUR:02d}:00 {settings.timezone}: yesterday's partition, and the day before "
        "again to catch conversations that were still open at the previous run; one run per shard "
        f"({settings.shards}, MEMORY_PIPELINE_SHARDS).",
    )
    def nightly_consolidation_schedule(context: dg.ScheduleEvaluationContext):
        from memory_pipeline.defs.assets import LLM_POOL
        from memory_pipeline.defs.run_health import fail_dead_runs

        if context.instance_ref is not None:  # a real tick: a dead run must not hold the slot tonight's runs need
            fail_dead_runs(context.instance, JOB_NAME, [LLM_POOL])
        tick = context.scheduled_execution_time.astimezone(ZoneInfo(settings.timezone))
        keys = nightly_partitions(tick.date(), settings.partitions_start, settings.partitions_end)
        yield from night_run_requests(keys, tick.date().isoformat(), settings.shards)

    return nightly_consolidation_schedule


# How often the daemon looks for runs whose worker is gone. Under the daemon the code server fails such a run at
# once and it is retried at once, but its `llm` slot stays claimed until this sensor frees it: every shard's LLM
# steps (the retry's too) wait up to this long. Each tick is two small queries.
DEAD_RUN_CHECK_SECONDS = 15


def dead_run_sensor() -> dg.SensorDefinition:
    """The daemon's side of `run_health.fail_dead_runs`: every DEAD_RUN_CHECK_SECONDS, runs of the five assets
    (the nightly job's, a backfill's) whose worker is gone are failed and their pool slots freed (also those of a
    run the code server already failed), so a backfill, a retry or the schedule does not wait on a dead run for
    run monitoring's 12 hours, or for its freeing of an ended run's slots (`free_slots_after_run_end_seconds`
    after the end, at its next poll). Running by default."""

    @dg.sensor(name="dead_run_sensor", minimum_interval_seconds=DEAD_RUN_CHECK_SECONDS,
               default_status=dg.DefaultSensorStatus.RUNNING,
               description="Fails runs of this project's assets whose worker process is gone and frees their pool "
               "slots.")
    def _sensor(context: dg.SensorEvaluationContext):
        from memory_pipeline.defs.assets import LLM_POOL
        from memory_pipeline.defs.run_health import fail_dead_runs

        dead = fail_dead_runs(context.instance, JOB_NAME, [LLM_POOL])
        failed = [d.run_id for d in dead if not d.already_ended]
        freed = [d.run_id for d in dead if d.already_ended]
        return dg.SkipReason(f"{len(failed)} dead run(s) failed: {', '.join(failed) or 'none'}"
                             + (f"; slots of ended run(s) freed: {', '.join(freed)}" if freed else ""))

    return _sensor


def freshness_checks(assets: list[dg.AssetsDefinition], settings: Settings) -> list[dg.AssetChecksDefinition]:
    """One freshness check over the five assets: at `freshness_deadline_hour` (partitions' timezone) yesterday's
    partition must be materialized, else the check fails (red in the UI): a night that did not run or failed.

    Dagster's time-partition freshness check looks at the latest *partition*; a FreshnessPolicy would look at the
    latest materialization of any partition, and the 03:00 catch-up of the day before would make a failed night
    look fresh. The sensor `freshness_checks_sensor` (running by default, needs the daemon) evaluates it."""
    return list(dg.build_time_partition_freshness_checks(
        assets=assets, deadline_cron=f"0 {settings.freshness_deadline_hour} * * *", timezone=settings.timezone,
        severity=dg.AssetCheckSeverity.ERROR))  # Dagster's default is WARN (yellow): a missed night is red


def daily_partitions(settings: Settings, today: date | None = None) -> dg.DailyPartitionsDefinition:
    """The one daily partitions definition of the five assets: `partitions_start` to `partitions_end` (inclusive;
    unset: to yesterday) in the partitions' timezone. `today` (default: now, in that timezone) is for tests.

    A past `partitions_end` (the demo's 2023 sample) is given twice: as `end_date` (Dagster's first day left out),
    which bounds the partition set, and as a negative `end_offset`, the days from it to yesterday. The offset is
    for the UI: the asset's Plots view in *Partitions* mode asks for the last 120 partitions with
    `get_paginated_partition_keys(ascending=False)`, which in Dagster 1.13.27 counts back from today and ignores
    `end_date` (it honours `end_offset`), so without the offset it looks only at days after the end, which do not
    exist, and shows nothing. The offset is fixed when the code location loads: a code location left running for
    k more days shows k empty days at the plots' right end until it is reloaded; the partition set itself
    (`end_date`) never moves. A future or unset end needs no offset."""
    end = settings.partitions_end
    if today is None:
        today = datetime.now(ZoneInfo(settings.timezone)).date()
    days_past_end = (today - timedelta(days=1) - end).days if end else 0
    return dg.DailyPartitionsDefinition(
        start_date=settings.partitions_start.isoformat(), timezone=settings.timezone,
        end_date=(end + timedelta(days=1)).isoformat() if end else None,
        end_offset=-max(0, days_past_end),
    )


def nightly_definitions(settings: Settings | None = None) -> dg.Definitions:
    """This module's definitions for `settings` (default: from the environment): all but the erasure job and its
    sensors (`erasure_job`, which the defs folder loads from that module). Raises pydantic.ValidationError on a
    bad setting, so a misconfigured code location fails to load with the variable's name in the error."""
    settings = settings or Settings.from_env()
    partitions = daily_partitions(settings)
    with warnings.catch_warnings():
        # Chosen on purpose and documented in the README (section "The Dagster UI"), so not repeated in every
        # process's log: the single-run backfill policy (beta), partitioned checks (preview), and the
        # time-partition freshness check and its sensor (superseded by FreshnessPolicy, which cannot tell a
        # missed partition from a late catch-up).
        warnings.filterwarnings("ignore", category=dg.BetaWarning, message=".*backfill_policy")
        warnings.filterwarnings("ignore", category=dg.PreviewWarning, message=".*partitions_def on an AssetCheckSpec")
        warnings.filterwarnings("ignore", category=dg.SupersessionWarning, message=".*freshness_check")
        assets, checks = build_assets(partitions, settings)
        freshness = freshness_checks(assets, settings)
        sensor = dg.build_sensor_for_freshness_checks(
            freshness_checks=freshness, default_status=dg.DefaultSensorStatus.RUNNING)
    job = dg.define_asset_job(
        JOB_NAME,
        selection=dg.AssetSelection.groups("memory_consolidation"),
        partitions_def=partitions,
        description="Consolidate one day of chat memory: the five assets and their checks.",
    )
    schedule = nightly_schedule(job, settings)
    return dg.Definitions(
        assets=assets,
        asset_checks=checks + freshness,
        jobs=[job],
        schedules=[schedule],
        sensors=[dead_run_sensor(), sensor, run_failure_alert(), check_failure_alert(checks + freshness)],
        resources={"memory": MemoryPipelineResource.from_settings(settings)},
        # The five steps are short and run one after the other: one process per run, not one per step (the
        # multiprocess default starts a Python process, importing Dagster and this code, for each step).
        executor=dg.in_process_executor,
    )



def build_definitions(settings: Settings | None = None) -> dg.Definitions:
    """Everything the defs folder loads, for `settings` (default: from the environment): `nightly_definitions`
    and the erasure job with its sensors. For the CLI's in-process runs and the tests."""
    return dg.Definitions.merge(nightly_definitions(settings), dg.Definitions(
        jobs=[erase_user_job],
        sensors=[erasure_run_cleanup, erasure_failed_run_cleanup, erasure_canceled_run_cleanup]))


@dg.definitions
def defs() -> dg.Definitions:
    """What the defs folder loads from this module: `nightly_definitions` with the settings of the environment."""
    return nightly_definitions()
