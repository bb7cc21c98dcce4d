"""Start-up shared by the CLI commands: database URL, Dagster home and instance, materializing partitions."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import dagster as dg

from memory_pipeline.db import SQL_DIR, dagster_storage_url, ensure_schema, get_pool, resolve_database_url
from memory_pipeline.definitions import JOB_NAME, build_definitions
from memory_pipeline.metadata import stage_figures
from memory_pipeline.settings import Settings

REPO_ROOT = SQL_DIR.parent
QUIET_RUN_CONFIG = {"loggers": {"console": {"config": {"log_level": "WARNING"}}}}


@dataclass(frozen=True)
class Environment:
    """What a command needs: settings, the database URL, and the Dagster home holding dagster.yaml."""

    settings: Settings
    database_url: str
    dagster_home: Path


def prepare(settings: Settings | None = None) -> Environment:
    """Resolve the database (starting the embedded one if needed), apply the schema, and point Dagster at the
    same database: DAGSTER_HOME=<home>/dagster with the repository's dagster.yaml, and
    MEMORY_PIPELINE_DAGSTER_STORAGE_URL in the psycopg2 dialect. Sets those variables in os.environ so that
    child processes (dagster dev, run workers) inherit them."""
    settings = settings or Settings.from_env()
    url = resolve_database_url(settings)
    with get_pool(url).connection() as conn:
        ensure_schema(conn, settings)
    home = settings.home_path / "dagster"
    home.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(REPO_ROOT / "dagster.yaml", home / "dagster.yaml")
    os.environ["DAGSTER_HOME"] = str(home)
    os.environ["MEMORY_PIPELINE_DAGSTER_STORAGE_URL"] = dagster_storage_url(url, settings.dagster_schema)
    if settings.database_url is None:
        # Run workers resolve the same embedded server from MEMORY_PIPELINE_HOME.
        os.environ["MEMORY_PIPELINE_HOME"] = str(settings.home_path)
    return Environment(settings, url, home)


def materialize_days(env: Environment, days: Iterable[str], quiet: bool = True) -> list[dg.ExecuteInProcessResult]:
    """Run the nightly job for each partition key (YYYY-MM-DD) in this process, recorded in the Dagster
    instance of `env` (so the runs show in the UI). Raises dagster's error for a key outside the partitions."""
    job = build_definitions(env.settings).resolve_job_def(JOB_NAME)
    results = []
    with dg.DagsterInstance.get() as instance:
        for day in days:
            results.append(job.execute_in_process(
                partition_key=day, instance=instance, raise_on_error=False,
                run_config=QUIET_RUN_CONFIG if quiet else None,
            ))
    return results


def materialization_metadata(result: dg.ExecuteInProcessResult, asset: str, partition: str | None = None) -> dict:
    """Metadata values of `asset`'s materialization (of `partition`, default the first) in an in-process run ({}
    when it did not materialize). Published keys as they are, plus the stage's figures under their stage names
    (`run_rows_archived` also as `rows_archived`: `metadata.stage_figures`)."""
    for event in result.get_asset_materialization_events():
        materialization = event.event_specific_data.materialization
        if materialization.asset_key.to_user_string() == asset and partition in (None, materialization.partition):
            return stage_figures({key: entry.value for key, entry in materialization.metadata.items()})
    return {}
