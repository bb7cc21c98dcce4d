"""The database lost during `materialize --date D --to D+2` (issue 29, case 5), through the installed script on an
embedded PostgreSQL of its own (MEMORY_PIPELINE_DATABASE_URL unset): each day's line printed as it ends, one line
naming the embedded server and the days done and not run, no retry chatter; and a run created but never started is
failed by the next run, not left NOT_STARTED."""

import os
import shutil
import subprocess
import sys
import tempfile
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

import dagster as dg
import pytest

from memory_pipeline import sample
from memory_pipeline.db import dagster_storage_url, get_pool, resolve_database_url, stop_embedded
from memory_pipeline.settings import Settings

BIN = Path(sys.executable).parent / "memory-pipeline"
DAYS = ["2026-05-01", "2026-05-02", "2026-05-03"]


@pytest.fixture
def embedded_home():
    """(environment, settings) of a fresh home whose embedded server holds n8n's table with a conversation on
    each of DAYS; the server is stopped and the home deleted after."""
    home = Path(tempfile.mkdtemp(prefix="mpl"))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MEMORY_PIPELINE_", "DAGSTER_"))}
    env.update({"MEMORY_PIPELINE_HOME": str(home), "MEMORY_PIPELINE_PARTITIONS_START": "2026-01-01"})
    settings = Settings.from_env(env)
    with get_pool(resolve_database_url(settings)).connection() as conn:
        sample.create_n8n_table(conn, settings)
        sample.insert_rows(conn, settings, [
            sample.SampleRow(f"u{n}", {"type": "human", "content": f"I live in City{n}."},
                             datetime.combine(date.fromisoformat(day), datetime.min.time(), timezone.utc)
                             + timedelta(hours=12)) for n, day in enumerate(DAYS)])
    yield env, settings
    stop_embedded(settings)
    shutil.rmtree(home, ignore_errors=True)


def dagster_runs(env, settings):
    """{partition: [status]} of the nightly job's runs in the home's Dagster storage."""
    saved = {k: os.environ.get(k) for k in ("DAGSTER_HOME", "MEMORY_PIPELINE_DAGSTER_STORAGE_URL")}
    os.environ["DAGSTER_HOME"] = str(settings.home_path / "dagster")
    os.environ["MEMORY_PIPELINE_DAGSTER_STORAGE_URL"] = dagster_storage_url(resolve_database_url(settings), "dagster")
    try:
        with dg.DagsterInstance.get() as instance:
            runs = {}
            for run in instance.get_runs():
                runs.setdefault(run.tags.get("dagster/partition"), []).append(run.status)
            return runs
    finally:
        for k, v in saved.items():
            os.environ.pop(k) if v is None else os.environ.__setitem__(k, v)


def test_a_database_lost_mid_range_says_which_days_were_done(embedded_home):
    env, settings = embedded_home
    child = subprocess.Popen([str(BIN), "materialize", "--date", DAYS[0], "--to", DAYS[-1]], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    first = child.stdout.readline()  # printed as the first day ends, while the range goes on
    assert first.startswith(f"{DAYS[0]}: ok (1 conversation closed"), (first, child.stderr.read()[-3000:])
    stop_embedded(settings)  # the server goes away during the next day
    out, err = child.communicate(timeout=300)
    assert child.returncode == 2, (out, err[-3000:])
    lines = err.strip().splitlines()
    assert len(lines) == 1, err[-5000:]  # no retry chatter (psycopg pool, dagster-postgres), no traceback
    message = lines[0]
    assert message.startswith(f"memory-pipeline: cannot reach the embedded PostgreSQL in {settings.home_path}/pgdata")
    assert "MEMORY_PIPELINE_DATABASE_URL" not in message
    done = [line.split(":")[0] for line in [first, *out.splitlines()] if line[:4].isdigit()]
    assert message.endswith(f"days done: {', '.join(done)}; not run: {', '.join(DAYS[len(done):])} "
                            "(run them again with materialize)")
    assert len(done) < len(DAYS)

    # The next command starts the server again; the rest of the range runs; no run is left NOT_STARTED.
    again = subprocess.run([str(BIN), "materialize", "--date", DAYS[0], "--to", DAYS[-1]], env=env,
                           capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr[-3000:]
    assert [line.split(":")[0] for line in again.stdout.splitlines()] == DAYS
    runs = dagster_runs(env, settings)
    assert all(dg.DagsterRunStatus.SUCCESS in runs[day] for day in DAYS)
    assert not [s for statuses in runs.values() for s in statuses if s == dg.DagsterRunStatus.NOT_STARTED]


def test_a_server_restarted_mid_range_lets_the_range_go_on_quietly(embedded_home):
    env, settings = embedded_home
    child = subprocess.Popen([str(BIN), "materialize", "--date", DAYS[0], "--to", DAYS[-1]], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    first = child.stdout.readline()
    assert first.startswith(f"{DAYS[0]}: ok"), (first, child.stderr.read()[-3000:])
    stop_embedded(settings)
    # Started again at once, as `pg_ctl restart` or a service manager would (by another process: this one's
    # pgserver handle is the stopped server's).
    assert subprocess.run([str(BIN), "db", "url"], env=env, capture_output=True, timeout=120).returncode == 0
    out, err = child.communicate(timeout=300)
    lines = [first, *out.splitlines()]
    days = [line.split(":")[0] for line in lines if line[:4].isdigit()]
    # Each day ran (the next day's start waited for the server): ok, or FAILED with its step and error after it.
    assert child.returncode in (0, 1) and days == DAYS and err == "", (out, err[-5000:])
    for line, following in zip(lines, [*lines[1:], ""]):
        if ": FAILED" in line:
            assert following.startswith("  ") and "Error" in following
    assert "Retrying" not in err and "Traceback" not in err and "psycopg" not in err


def test_a_run_created_but_never_started_is_failed_by_the_next_run(embedded_home):
    from memory_pipeline.defs.nightly import JOB_NAME, build_definitions
    from memory_pipeline.defs.run_health import CREATOR_PID_TAG, HOST_TAG, this_host
    from memory_pipeline.runner import code_location_origin, prepare

    env, settings = embedded_home
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    saved = {k: os.environ.get(k) for k in ("DAGSTER_HOME", "MEMORY_PIPELINE_DAGSTER_STORAGE_URL", "MEMORY_PIPELINE_HOME")}
    try:
        prepare(settings)
        job = build_definitions(settings).resolve_job_def(JOB_NAME)
        with dg.DagsterInstance.get() as instance:  # what a CLI process killed between creating and starting leaves
            stale = instance.create_run_for_job(
                job_def=job, remote_job_origin=code_location_origin(job.name),
                tags={**job.get_tags_for_partition_key(DAYS[0], None), HOST_TAG: this_host(),
                      CREATOR_PID_TAG: gone.stdout.strip()})
            assert instance.get_run_by_id(stale.run_id).status == dg.DagsterRunStatus.NOT_STARTED
    finally:
        for k, v in saved.items():
            os.environ.pop(k) if v is None else os.environ.__setitem__(k, v)
    done = subprocess.run([str(BIN), "materialize", "--date", DAYS[1]], env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert f"run {stale.run_id}: created by pid {gone.stdout.strip()} but never started; marked failed" in done.stderr
    runs = dagster_runs(env, settings)
    assert runs[DAYS[0]] == [dg.DagsterRunStatus.FAILURE] and runs[DAYS[1]] == [dg.DagsterRunStatus.SUCCESS]
