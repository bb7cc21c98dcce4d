"""A run killed inside an `llm` step, and two first runs at once: the CLI neither hangs nor fails (issue 6,
items 7 and 8). Real CLI processes on the embedded PostgreSQL, each test with a Dagster schema of its own."""

import os
import signal
import subprocess
import sys
import time

from psycopg import sql

from memory_pipeline.db import get_pool
from memory_pipeline_tests.test_faults import fault_rows, facts
from memory_pipeline_tests.test_pipeline_end_to_end import Pipeline

DAY = "2026-05-01"
SLOW_SUMMARY = """
import sys, time
from memory_pipeline.extractors.offline import OfflineExtractor
OfflineExtractor.summarize = lambda self, conversation: time.sleep(600)  # stays inside the llm step
from memory_pipeline import cli
sys.exit(cli.main(["materialize", "--date", sys.argv[1], "--verbose"]))
"""


def cli_env(settings, dagster_schema, home):
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMORY_PIPELINE_") and k != "DAGSTER_HOME"}
    env.update({
        "MEMORY_PIPELINE_DATABASE_URL": settings.database_url, "MEMORY_PIPELINE_HOME": str(home),
        "MEMORY_PIPELINE_SCHEMA_NAME": settings.schema_name, "MEMORY_PIPELINE_SOURCE_TABLE": settings.source_table,
        "MEMORY_PIPELINE_DAGSTER_SCHEMA": dagster_schema,
    })
    return env


def materialize(env, day=DAY):
    return subprocess.Popen([sys.executable, "-m", "memory_pipeline.cli", "materialize", "--date", day], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)


def loaded_pipeline(make_settings):
    p = Pipeline(make_settings())
    p.load(fault_rows("retraction_no_longer"))  # two days of one user; DAY holds "I like Vim." and two more
    return p


def test_a_run_killed_inside_an_llm_step_does_not_block_the_next_one(make_settings, tmp_path):
    p = loaded_pipeline(make_settings)
    env = cli_env(p.settings, "dg_killed_run", tmp_path / "home")
    victim = subprocess.Popen([sys.executable, "-c", SLOW_SUMMARY, DAY], env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, start_new_session=True)
    slots = sql.SQL("SELECT run_id FROM dg_killed_run.concurrency_slots WHERE concurrency_key = 'llm' "
                    "AND run_id IS NOT NULL")
    deadline, held = time.monotonic() + 240, []
    with get_pool(p.settings.database_url).connection() as conn:
        while not held and victim.poll() is None and time.monotonic() < deadline:
            time.sleep(0.5)
            exists = conn.execute("SELECT to_regclass('dg_killed_run.concurrency_slots') AS t").fetchone()["t"]
            held = [r["run_id"] for r in conn.execute(slots).fetchall()] if exists else []
    assert held, "the victim never took the llm slot"
    os.killpg(victim.pid, signal.SIGKILL)  # the whole process group, as a reboot or OOM kill would
    victim.wait()

    again = materialize(env)
    try:
        out, err = again.communicate(timeout=300)
    except subprocess.TimeoutExpired:
        os.killpg(again.pid, signal.SIGKILL)
        raise AssertionError("the next run waited on the dead run's slot")
    assert again.returncode == 0, err[-2000:]
    assert f"run {held[0]}: its worker (pid {victim.pid}) is gone; marked failed; freed its llm slot" in err
    assert "Traceback" not in err and f"{DAY}: ok" in out
    with get_pool(p.settings.database_url).connection() as conn:
        status = conn.execute("SELECT status FROM dg_killed_run.runs WHERE run_id = %s", (held[0],)).fetchone()
        assert status["status"] == "FAILURE"
        assert conn.execute(slots).fetchall() == []
    assert sorted(f["fact"] for f in facts(p, "u:vim")) == ["User is vegetarian.", "User likes Vim.", "User lives in Paris."]


def test_two_first_runs_of_one_partition_at_once_both_succeed(make_settings, tmp_path):
    p = loaded_pipeline(make_settings)
    env = cli_env(p.settings, "dg_first_race", tmp_path / "home")  # a fresh Dagster schema: a first install
    runs = [materialize(env), materialize(env)]
    outcomes = [run.communicate(timeout=300) for run in runs]
    for run, (out, err) in zip(runs, outcomes):
        assert run.returncode == 0, err[-2000:]
        assert f"{DAY}: ok" in out and "UniqueViolation" not in err
    with get_pool(p.settings.database_url).connection() as conn:
        limits = conn.execute("SELECT concurrency_key, \"limit\" FROM dg_first_race.concurrency_limits").fetchall()
        spans = conn.execute("SELECT status, start_time, end_time FROM dg_first_race.runs ORDER BY start_time").fetchall()
    assert [r["status"] for r in spans] == ["SUCCESS", "SUCCESS"]
    assert spans[1]["start_time"] >= spans[0]["end_time"]  # they queued: one after the other
    assert [(r["concurrency_key"], r["limit"]) for r in limits] == [("llm", 1)]
    assert len(facts(p, "u:vim")) == 3


def test_the_pool_limit_record_exists_before_any_run(make_settings, tmp_path, monkeypatch):
    """What `runner.prepare` (every command, init-db included) does, in process on a fresh Dagster schema."""
    import shutil

    import dagster as dg

    from memory_pipeline.defs.assets import LLM_POOL
    from memory_pipeline.db import dagster_storage_url
    from memory_pipeline.defs.run_health import ensure_pool_limits
    from memory_pipeline.runner import REPO_ROOT

    settings = make_settings(dagster_schema="dg_init_only")  # make_settings applies the schema: creates it
    shutil.copyfile(REPO_ROOT / "deploy" / "dagster.yaml", tmp_path / "dagster.yaml")
    monkeypatch.setenv("MEMORY_PIPELINE_DAGSTER_STORAGE_URL", dagster_storage_url(settings.database_url, "dg_init_only"))
    with dg.DagsterInstance.from_config(str(tmp_path)) as instance:
        assert instance.event_log_storage.get_pool_limits() == []
        ensure_pool_limits(instance, [LLM_POOL])
        ensure_pool_limits(instance, [LLM_POOL])  # idempotent: the second call finds the record
        limits = [(p.name, p.limit, p.from_default) for p in instance.event_log_storage.get_pool_limits()]
        assert limits == [("llm", 1, True)]
        assert instance.get_runs() == []


def test_a_worker_is_gone_only_when_its_process_is():
    import psutil

    from memory_pipeline.defs.run_health import process_is_gone

    me = psutil.Process(os.getpid())
    assert not process_is_gone(me.pid, me.create_time() + 1)  # alive, started before the run
    assert process_is_gone(me.pid, me.create_time() - 3600)  # this pid now belongs to a younger process
    ended = subprocess.Popen([sys.executable, "-c", "pass"])
    ended.wait()
    assert process_is_gone(ended.pid, time.time())


def test_the_daemon_side_runs_by_default_and_reports_what_it_failed():
    import dagster as dg

    from memory_pipeline.defs.nightly import build_definitions
    from memory_pipeline.settings import Settings

    sensor = build_definitions(Settings()).resolve_sensor_def("dead_run_sensor")
    assert sensor.default_status == dg.DefaultSensorStatus.RUNNING
    with dg.DagsterInstance.ephemeral() as instance:
        result = sensor(dg.build_sensor_context(instance=instance))
    assert isinstance(result, dg.SkipReason) and result.skip_message.startswith("0 dead run(s) failed")


def worker_run(instance, worker_pid: int, status, job_name: str = "__ASSET_JOB") -> str:
    """A run as one started on this host records itself: the host tag (the assets set it), a RUN_START event
    written by `worker_pid`, an `llm` slot claimed by its session_summaries step; `status` as it is now. By default
    a run of Dagster's asset job, as a backfill's or *Materialize selected*'s runs are (not the nightly job)."""
    import dagster as dg
    from dagster._core.events import DagsterEvent

    from memory_pipeline.defs.assets import LLM_POOL
    from memory_pipeline.defs.run_health import HOST_TAG, this_host
    from memory_pipeline.domain.shards import SHARD_TAG

    run = instance.add_run(dg.DagsterRun(job_name=job_name, status=dg.DagsterRunStatus.STARTED,
                                         tags={HOST_TAG: this_host(), SHARD_TAG: "0/2"}))
    instance.report_dagster_event(DagsterEvent(dg.DagsterEventType.RUN_START.value, job_name, pid=worker_pid),
                                  run.run_id)
    assert instance.event_log_storage.claim_concurrency_slot(LLM_POOL, run.run_id, "session_summaries").is_claimed
    if status == dg.DagsterRunStatus.FAILURE:
        instance.report_run_failed(run)  # what the gRPC code server does when it sees its run worker die
    return run.run_id


def test_a_dead_workers_slot_is_freed_whatever_the_job_and_also_once_the_code_server_failed_the_run(
        make_settings, tmp_path, monkeypatch):
    """Under the daemon the code server fails a run whose worker died, and the daemon retries it, but its `llm`
    slot stays claimed until Dagster frees it (`free_slots_after_run_end_seconds` after the end, at run
    monitoring's next poll): every shard's LLM step, the retry's too, waited on it (issue 28). The runs of a
    backfill are of Dagster's asset job, which fail_dead_runs used to skip. A live worker's run is left alone."""
    import shutil

    import dagster as dg

    from memory_pipeline.db import dagster_storage_url
    from memory_pipeline.defs.assets import LLM_POOL
    from memory_pipeline.defs.nightly import JOB_NAME
    from memory_pipeline.defs.run_health import fail_dead_runs, pool_holders
    from memory_pipeline.runner import REPO_ROOT

    settings = make_settings(dagster_schema="dg_dead_slots")
    shutil.copyfile(REPO_ROOT / "deploy" / "dagster.yaml", tmp_path / "dagster.yaml")
    monkeypatch.setenv("MEMORY_PIPELINE_DAGSTER_STORAGE_URL",
                       dagster_storage_url(settings.database_url, "dg_dead_slots"))
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    with dg.DagsterInstance.from_config(str(tmp_path)) as instance:
        instance.event_log_storage.set_concurrency_slots(LLM_POOL, 4)
        still_going = worker_run(instance, gone.pid, dg.DagsterRunStatus.STARTED)
        failed_by_code_server = worker_run(instance, gone.pid, dg.DagsterRunStatus.FAILURE)
        alive = worker_run(instance, os.getpid(), dg.DagsterRunStatus.FAILURE)  # may still be ending a step
        alive_nightly = worker_run(instance, os.getpid(), dg.DagsterRunStatus.STARTED, JOB_NAME)

        dead = fail_dead_runs(instance, JOB_NAME, [LLM_POOL])

        assert sorted((d.run_id, d.pid, d.pools, d.already_ended) for d in dead) == sorted([
            (still_going, gone.pid, (LLM_POOL,), False), (failed_by_code_server, gone.pid, (LLM_POOL,), True)])
        assert instance.get_run_by_id(still_going).status == dg.DagsterRunStatus.FAILURE
        assert sorted(run for run, _ in pool_holders(instance, LLM_POOL)) == sorted([alive, alive_nightly])
        freed = [e.dagster_event.message for e in instance.all_logs(
            failed_by_code_server, of_type=dg.DagsterEventType.ENGINE_EVENT)]
        assert any(f"Run worker (pid {gone.pid} on " in m and "were freed by memory_pipeline" in m for m in freed)
        assert fail_dead_runs(instance, JOB_NAME, [LLM_POOL]) == []  # nothing twice
