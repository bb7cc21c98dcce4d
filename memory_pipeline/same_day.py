"""The same-day trial: consolidate today's conversations that are already closed, before the day is over, so a
builder sees the whole loop (chat, consolidate, recall) in one sitting.

Today is not a partition yet (the daily partitions end yesterday, and the nightly schedule must keep picking
yesterday), so the trial runs the nightly job's own assets and checks on a partitions definition that reaches
today (`end_offset=1`), in this process, on an ephemeral Dagster instance: nothing is recorded in the Dagster
storage, so the UI, the freshness check and tonight's schedule judge only real nights. It is the run a
night's catch-up already is: open conversations are deferred, closed ones are stored, archived and purged, and
tonight's run of the same day reads them back from the archive unchanged (same conversation ids, same
transcripts: nothing extracted twice) next to the conversations that closed since.
"""

from __future__ import annotations

from datetime import date

import dagster as dg

from memory_pipeline.defs.assets import GROUP, build_assets
from memory_pipeline.db import get_pool
from memory_pipeline.defs.resources import MemoryPipelineResource
from memory_pipeline.runner import QUIET_RUN_CONFIG, Environment

TRIAL_JOB = "same_day_trial"


def trial_job(env: Environment) -> dg.JobDefinition:
    """The nightly job's five assets and checks on daily partitions that include today."""
    settings = env.settings
    partitions = dg.DailyPartitionsDefinition(start_date=settings.partitions_start.isoformat(),
                                              timezone=settings.timezone, end_offset=1)
    assets, checks = build_assets(partitions, settings)
    job = dg.define_asset_job(TRIAL_JOB, selection=dg.AssetSelection.groups(GROUP), partitions_def=partitions)
    definitions = dg.Definitions(assets=assets, asset_checks=checks, jobs=[job],
                                 resources={"memory": MemoryPipelineResource.from_settings(settings)},
                                 executor=dg.in_process_executor)
    return definitions.resolve_job_def(TRIAL_JOB)


def run_today(env: Environment, today: date, quiet: bool = True) -> dg.ExecuteInProcessResult:
    """Run the trial job for `today` (a date in the partitions' timezone) on an ephemeral instance. Holds the
    partition's advisory lock the CLI's runs take (runner.materialize_days), so it never overlaps another
    `materialize` of the same day."""
    key = today.isoformat()
    with get_pool(env.database_url).connection() as lock_conn:
        lock_conn.execute("SELECT pg_advisory_lock(hashtext('memory_pipeline.partition'), hashtext(%s))", (key,))
        try:
            return trial_job(env).execute_in_process(
                partition_key=key, instance=dg.DagsterInstance.ephemeral(), raise_on_error=False,
                run_config=QUIET_RUN_CONFIG if quiet else None)
        finally:
            lock_conn.execute("SELECT pg_advisory_unlock(hashtext('memory_pipeline.partition'), hashtext(%s))",
                              (key,))
