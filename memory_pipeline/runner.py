"""Start-up shared by the CLI commands: database URL, Dagster home and instance, materializing partitions."""

from __future__ import annotations

import os
import shutil
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import dagster as dg
import psycopg
# Private, for want of a public way (Dagster 1.13.27): a run of this process recorded with its code location's
# origin (execute_in_code_location); `execute_in_process` and `execute_job` record none
# (memory_pipeline_tests/test_public_dagster_api.py lists them).
from dagster._core.definitions.job_base import InMemoryJob
from dagster._core.execution.api import execute_run
from dagster._core.remote_origin import InProcessCodeLocationOrigin, RemoteJobOrigin, RemoteRepositoryOrigin
from dagster._core.types.loadable_target_origin import LoadableTargetOrigin

from memory_pipeline.defs.assets import LLM_POOL
from memory_pipeline.db import (
    SQL_DIR, connection_error, dagster_storage_url, ensure_schema, get_pool, resolve_database_url,
)
from memory_pipeline.defs.nightly import JOB_NAME, build_definitions
from memory_pipeline.defs.metadata import stage_figures
from memory_pipeline.defs.run_health import (
    CREATOR_PID_TAG, HOST_TAG, ensure_pool_limits, fail_dead_runs, pool_holders, pool_is_full, this_host,
)
from memory_pipeline.services import LOCATION_NAME, REPOSITORY_NAME
from memory_pipeline.settings import Settings

REPO_ROOT = SQL_DIR.parent
# Without --verbose the terminal gets one line per day (`failure_reason` for a failed one), not Dagster's event
# log: a step failure's stack trace stays in the run's event log (the UI, `--verbose`).
QUIET_RUN_CONFIG = {"loggers": {"console": {"config": {"log_level": "CRITICAL"}}}}


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
    shutil.copyfile(REPO_ROOT / "deploy" / "dagster.yaml", home / "dagster.yaml")
    os.environ["DAGSTER_HOME"] = str(home)
    os.environ["MEMORY_PIPELINE_DAGSTER_STORAGE_URL"] = dagster_storage_url(url, settings.dagster_schema)
    if settings.database_url is None:
        # Run workers resolve the same embedded server from MEMORY_PIPELINE_HOME.
        os.environ["MEMORY_PIPELINE_HOME"] = str(settings.home_path)
    # Everything the Dagster instance needs exists before the first run: its tables and the `llm` pool's limit
    # record. Two first commands would race to create them (UniqueViolation), so one process at a time does it.
    with get_pool(url).connection() as conn:
        conn.execute("SELECT pg_advisory_lock(hashtext('memory_pipeline.dagster_instance'))")
        try:
            with dg.DagsterInstance.get() as instance:
                ensure_pool_limits(instance, [LLM_POOL])
        finally:
            conn.execute("SELECT pg_advisory_unlock(hashtext('memory_pipeline.dagster_instance'))")
    return Environment(settings, url, home)


PARTITION_POLL_SECONDS = 2.0
# Runs that hold or may soon hold the partition (a QUEUED run waits for the daemon, which may not run: not waited on).
_IN_PROGRESS = [dg.DagsterRunStatus.STARTING, dg.DagsterRunStatus.STARTED, dg.DagsterRunStatus.CANCELING]


def materialize_days(
    env: Environment, days: Iterable[str], quiet: bool = True, notify: Callable[[str], None] = lambda _: None,
    on_result: Callable[[str, dg.JobExecutionResult], None] = lambda _day, _result: None,
) -> list[dg.JobExecutionResult]:
    """Run the nightly job for each partition key (YYYY-MM-DD) in this process, recorded in the Dagster
    instance of `env` as runs of the job in its code location (`execute_in_code_location`); `on_result(day,
    result)` is called as each run ends. Raises dagster's error for a key outside the partitions, and the
    driver's or Dagster's storage error when the database is lost between runs (the days before are done).

    Before each run: runs of the job whose worker is gone, or that were created here and never started, are
    failed and their pool slots freed (`run_health.fail_dead_runs`); runs of the same partition queue one after
    the other, as dagster.yaml's `tag_concurrency_limits` make the UI's runs do (an advisory lock between CLI
    processes, then a wait for runs launched by the daemon); and a full `llm` pool is announced with the run
    holding it. `notify` receives those one-line messages (run ids and pids only)."""
    job = build_definitions(env.settings).resolve_job_def(JOB_NAME)
    results = []
    pool = get_pool(env.database_url)
    tags = {HOST_TAG: this_host(), CREATOR_PID_TAG: str(os.getpid())}
    run_config = QUIET_RUN_CONFIG if quiet else {}
    with dg.DagsterInstance.get() as instance:
        for day in days:
            result = _materialize_day(job, instance, pool, day, run_config, tags, notify)
            results.append(result)
            on_result(day, result)
    return results


# Seconds a day may wait for the database to come back before its run starts (a server restart takes a few).
RECONNECT_SECONDS = 30.0


def _materialize_day(job: dg.JobDefinition, instance: dg.DagsterInstance, pool, day: str, run_config: dict,
                     tags: dict[str, str], notify: Callable[[str], None]) -> dg.JobExecutionResult:
    """One day of `materialize_days`, holding the partition's advisory lock on a connection of its own (one that
    a server restart broke is replaced by the pool's check). What comes before the run starts is tried again
    for RECONNECT_SECONDS while the database is out of reach (`db.connection_error`): nothing has run yet, and a
    run created by a failed try is failed by the next (`fail_dead_runs`). A run that started is not retried."""
    deadline = time.monotonic() + RECONNECT_SECONDS
    while True:
        with pool.connection() as lock_conn:
            try:
                run = _start_day(job, instance, lock_conn, day, run_config, tags, notify)
            except Exception as exc:
                _unlock_partition(lock_conn, day)
                if connection_error(exc) is None or time.monotonic() > deadline:
                    raise
                time.sleep(1.0)
                continue
            try:
                return execute_run(InMemoryJob(job), run, instance, raise_on_error=False)
            finally:
                _unlock_partition(lock_conn, day)


def _start_day(job: dg.JobDefinition, instance: dg.DagsterInstance, lock_conn, day: str, run_config: dict,
               tags: dict[str, str], notify: Callable[[str], None]) -> dg.DagsterRun:
    """Fail dead runs, take the partition's lock (waiting for another CLI process), wait for runs of the day
    launched elsewhere, announce a full `llm` pool, and create the day's run (NOT_STARTED)."""
    _fail_dead_runs(instance, notify)
    lock = "SELECT pg_{}advisory_lock(hashtext('memory_pipeline.partition'), hashtext(%s)) AS ok"
    if not lock_conn.execute(lock.format("try_"), (day,)).fetchone()["ok"]:
        notify(f"{day}: another memory-pipeline process is materializing this partition "
               f"({_runs_of(instance, day) or 'starting'}); waiting for it")
        lock_conn.execute(lock.format(""), (day,))
    _wait_for_other_runs(instance, day, notify)
    if pool_is_full(instance, LLM_POOL):
        holders = ", ".join(f"run {run} ({step})" for run, step in pool_holders(instance, LLM_POOL))
        notify(f"{day}: pool {LLM_POOL} is full, held by {holders}: this run's {LLM_POOL} steps wait")
    return create_partition_run(job, instance, day, run_config, tags)


def _unlock_partition(conn, day: str) -> None:
    try:
        conn.execute("SELECT pg_advisory_unlock(hashtext('memory_pipeline.partition'), hashtext(%s))", (day,))
    except psycopg.OperationalError:
        pass  # the connection is gone, and its session's lock with it (the run's outcome is what matters)


def code_location_origin(job_name: str) -> RemoteJobOrigin:
    """The origin of `job_name` in the code location `workspace.yaml` (and deploy/) load: repository
    `__repository__` in location `memory_pipeline`. Dagster's UI lists a job's runs by this origin (job page,
    Overview timeline) and a run status sensor only sees runs of its own code location."""
    location = InProcessCodeLocationOrigin(LoadableTargetOrigin(module_name="memory_pipeline.definitions"),
                                           location_name=LOCATION_NAME)
    return RemoteJobOrigin(RemoteRepositoryOrigin(location, REPOSITORY_NAME), job_name)


def execute_in_code_location(
    job: dg.JobDefinition, instance: dg.DagsterInstance, partition_key: str, run_config: dict, tags: dict[str, str],
) -> dg.JobExecutionResult:
    """Run one partition of `job` in this process, recorded as a run of the job in its code location, as a run
    launched from the UI or the schedule is. `execute_in_process` records runs without an origin: they show
    in the Runs list only, not on the job's page nor the Overview timeline, and no run status sensor (the
    failure alert) sees them. Raises dagster's error for a key outside the partitions."""
    run = create_partition_run(job, instance, partition_key, run_config, tags)
    return execute_run(InMemoryJob(job), run, instance, raise_on_error=False)


def create_partition_run(job: dg.JobDefinition, instance: dg.DagsterInstance, partition_key: str, run_config: dict,
                         tags: dict[str, str]) -> dg.DagsterRun:
    """The NOT_STARTED run of one partition of `job` in its code location (`execute_in_code_location`). Raises
    dagster's error for a key outside the partitions."""
    if not job.partitions_def.has_partition_key(partition_key):
        raise dg.DagsterUnknownPartitionError(f"Could not find a partition with key `{partition_key}`.")
    return instance.create_run_for_job(
        job_def=job, run_config=run_config, remote_job_origin=code_location_origin(job.name),
        tags={**job.run_tags, **job.get_tags_for_partition_key(partition_key, None), **tags},
    )


def _fail_dead_runs(instance: dg.DagsterInstance, notify: Callable[[str], None]) -> None:
    for dead in fail_dead_runs(instance, JOB_NAME, [LLM_POOL]):
        if dead.never_started:
            notify(f"run {dead.run_id}: created by pid {dead.pid} but never started; marked failed")
            continue
        # A run that had ended (failed by the code server that started it) only had its slots freed.
        failed = "" if dead.already_ended else "; marked failed"
        if dead.pools:
            freed = f"; freed its {', '.join(dead.pools)} slot"
        else:
            freed = "; freed its pool slots" if dead.already_ended else ""
        notify(f"run {dead.run_id}: its worker (pid {dead.pid}) is gone{failed}{freed}")


def _runs_of(instance: dg.DagsterInstance, day: str) -> str:
    runs = instance.get_runs(filters=dg.RunsFilter(job_name=JOB_NAME, statuses=_IN_PROGRESS,
                                                   tags={"dagster/partition": day}))
    return ", ".join(f"run {r.run_id}" for r in runs)


def _wait_for_other_runs(instance: dg.DagsterInstance, day: str, notify: Callable[[str], None]) -> None:
    """Wait while a run of partition `day` launched elsewhere (the UI, the schedule) is in progress."""
    announced = False
    while True:
        _fail_dead_runs(instance, notify)
        others = _runs_of(instance, day)
        if not others:
            return
        if not announced:
            notify(f"{day}: waiting for {others} of the same partition to end")
            announced = True
        time.sleep(PARTITION_POLL_SECONDS)


def materialization_metadata(result: dg.JobExecutionResult, asset: str, partition: str | None = None) -> dict:
    """Metadata values of `asset`'s materialization (of `partition`, default the first) in an in-process run ({}
    when it did not materialize). Published keys as they are, plus the stage's figures under their stage names
    (`run_rows_archived` also as `rows_archived`: `metadata.stage_figures`)."""
    for event in result.get_asset_materialization_events():
        materialization = event.event_specific_data.materialization
        if materialization.asset_key.to_user_string() == asset and partition in (None, materialization.partition):
            return stage_figures({key: entry.value for key, entry in materialization.metadata.items()}, asset)
    return {}


def failure_reason(result: dg.JobExecutionResult) -> str | None:
    """One line on why a run failed: the first failed step and its innermost error's type and first line
    ("archived_sessions: OperationalError: server closed the connection unexpectedly"), or the run's own failure
    message; None for a run that succeeded or failed only through a failed check (`failed_conversations`)."""
    for event in result.all_events:
        if event.event_type == dg.DagsterEventType.STEP_FAILURE:
            error = event.event_specific_data.error
            while error is not None and error.cause is not None:
                error = error.cause
            text = (error.message.strip().splitlines() or [""])[0] if error else ""
            return f"{event.step_key}: {error.cls_name if error else 'error'}: {text}".rstrip(": ")
    for event in result.all_events:
        if event.event_type == dg.DagsterEventType.RUN_FAILURE and event.message:
            return event.message.strip().splitlines()[0]
    return None


def rows_left_behind(result: dg.JobExecutionResult) -> str | None:
    """One line on the rows of n8n's table no night will consolidate (the check `no_row_left_behind`): "2 rows
    dated 2026-05-01, 2026-05-02: materialize those days again", or None when there are none."""
    for evaluation in result.get_asset_check_evaluations():
        if evaluation.check_name == "no_row_left_behind" and not evaluation.passed:
            n, days = evaluation.metadata["rows_left_behind"].value, evaluation.metadata["days_to_rerun"].value
            return (f"{n} row{'' if n == 1 else 's'} of n8n's table left behind, dated {', '.join(days)}: "
                    "materialize those days again")
    return None


def failed_conversations(result: dg.ExecuteInProcessResult) -> str | None:
    """One line on the conversations a run left unconsolidated after a failed LLM call (the blocking check
    `every_conversation_consolidated`, summed over the run's partitions): "3 conversations (session_summaries:
    timeout 2, session_summaries: llm_unavailable 1)", or None when there were none."""
    total, reasons = 0, Counter()
    for evaluation in result.get_asset_check_evaluations():
        if evaluation.check_name == "every_conversation_consolidated" and not evaluation.passed:
            total += evaluation.metadata["conversations_failed"].value
            reasons.update(evaluation.metadata["failed_by_reason"].value)
    if not total:
        return None
    return (f"{total} conversation{'' if total == 1 else 's'} ("
            + ", ".join(f"{reason} {n}" for reason, n in sorted(reasons.items())) + ")")
