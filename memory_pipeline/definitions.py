"""The code location: five assets on one daily partitions definition, their checks, the nightly job and its
03:00 schedule (running by default). `dagster dev -m memory_pipeline.definitions` or `memory-pipeline ui`."""

from __future__ import annotations

import dagster as dg

from memory_pipeline.assets import build_assets
from memory_pipeline.resources import MemoryPipelineResource
from memory_pipeline.settings import Settings
from memory_pipeline.stages import SCHEDULE_HOUR

JOB_NAME = "nightly_consolidation"


def build_definitions(settings: Settings | None = None) -> dg.Definitions:
    """Definitions for `settings` (default: from the environment). Raises pydantic.ValidationError on a bad
    setting, so a misconfigured code location fails to load with the variable's name in the error."""
    settings = settings or Settings.from_env()
    partitions = dg.DailyPartitionsDefinition(
        start_date=settings.partitions_start.isoformat(), timezone=settings.timezone
    )
    assets, checks = build_assets(partitions)
    job = dg.define_asset_job(
        JOB_NAME,
        selection=dg.AssetSelection.groups("memory_consolidation"),
        partitions_def=partitions,
        description="Consolidate one day of chat memory: the five assets and their checks.",
    )
    # The timezone comes from the partitions definition (build_schedule_from_partitioned_job refuses one).
    schedule = dg.build_schedule_from_partitioned_job(
        job,
        hour_of_day=SCHEDULE_HOUR,
        minute_of_hour=0,
        default_status=dg.DefaultScheduleStatus.RUNNING,
        name="nightly_consolidation_schedule",
        description=f"Last night's partition at {SCHEDULE_HOUR:02d}:00 {settings.timezone}.",
    )
    return dg.Definitions(
        assets=assets,
        asset_checks=checks,
        jobs=[job],
        schedules=[schedule],
        resources={"memory": MemoryPipelineResource.from_settings(settings)},
    )


defs = build_definitions()
