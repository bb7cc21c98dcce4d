"""The production shape: a gRPC code server, `dagster-daemon` and `dagster-webserver` as separate processes on
one instance (the project's dagster.yaml, PostgreSQL storage in the embedded test server); a run launched
through the webserver's GraphQL API completes. And `memory-pipeline ui` stops with its children on SIGTERM
and SIGINT."""

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from memory_pipeline import sample, services
from memory_pipeline.defs.nightly import JOB_NAME
from memory_pipeline.domain.shards import SHARD_TAG, shard_of
from memory_pipeline.settings import ENV_PREFIX
from memory_pipeline_tests.conftest import fixture_lines
from memory_pipeline_tests.test_pipeline_end_to_end import Pipeline

ASSETS = ["closed_sessions", "session_summaries", "extracted_facts", "active_facts", "archived_sessions"]
READY_TIMEOUT = 90  # bounds, not timings: a loaded 2-core machine starts each process in 5-20 s


def wait_for_port(port: int, timeout: float, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert process.poll() is None, f"{process.args[:3]} exited with {process.returncode}"
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.3)
    raise TimeoutError(f"port {port} not open after {timeout} s")


def descendants(pid: int) -> set[int]:
    """Every live process below `pid` (from /proc), so a test can see that none is left behind."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if fields[0] != "Z":
                children.setdefault(int(fields[1]), []).append(int(entry.name))
    found, todo = set(), [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def alive(pids: set[int]) -> set[int]:
    left = set()
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            left.add(pid)
    return left


def test_webserver_and_daemon_as_separate_services_complete_a_launched_run(make_settings, pg_url, tmp_path):
    """Also a night in two shards (issue 28): one backfill per shard, each tagged with it, taken from the queue by
    the daemon and run in its own run process: both complete, each shard recorded (the only test of shards through
    the daemon, so it shares this test's services rather than starting its own)."""
    settings = make_settings(dagster_schema=f"dg_{tmp_path.name[-12:].lower()}", backlog_date="2026-05-01",
                             shards=2)
    pipeline = Pipeline(settings)
    pipeline.load(sample.fixture_rows(fixture_lines("message_shapes.jsonl")))
    settings_env = {ENV_PREFIX + k.upper(): str(v) for k, v in settings.model_dump(mode="json").items()
                    if v is not None}
    env = services.services_environment(settings_env, pg_url, tmp_path / "dagster", settings.dagster_schema)
    with services.production_services(env, tmp_path, READY_TIMEOUT) as url:
        # The default run coordinator queues the run: only the daemon (a separate process) dequeues it.
        run_id = services.launch_partition_run(url, JOB_NAME, "2026-05-03")
        assert services.wait_for_run(url, run_id, timeout=120) == "SUCCESS"
        backfills = [services.launch_asset_backfill(url, ASSETS, ["2026-05-04"], {SHARD_TAG: f"{i}/2"})
                     for i in range(2)]
        assert [services.wait_for_backfill(url, b, timeout=240) for b in backfills] == ["COMPLETED_SUCCESS"] * 2
    shards = pipeline.rows("SELECT shard_index, shard_count FROM {schema}.night_shards"
                           " WHERE partition_date = '2026-05-04' ORDER BY 1")
    assert [(r["shard_index"], r["shard_count"]) for r in shards] == [(0, 2), (1, 2)]
    users = {r["user_key"] for r in pipeline.rows(
        "SELECT user_key FROM {schema}.conversations WHERE partition_date = '2026-05-04'")}
    assert users == {"tg:500100"} and shard_of("tg:500100", 2) == 1  # the day's one user, stored by its shard
    assert not pipeline.source_ids() & pipeline.archive_ids()
    closed = pipeline.rows("SELECT count(*) AS n FROM {schema}.conversations WHERE partition_date = '2026-05-03'")
    assert closed[0]["n"] == 7
    archived = pipeline.rows("SELECT count(*) AS n FROM {schema}.chat_archive WHERE partition_date = '2026-05-03'")
    assert archived[0]["n"] > 0 and not pipeline.source_ids() & pipeline.archive_ids()


def cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


UI_START_TIMEOUT = 240  # a bound, not a timing: dagster dev starts three Pythons and a code server on 2 loaded cores


@pytest.mark.parametrize("stop_signal", [signal.SIGTERM, signal.SIGINT])
def test_ui_stops_with_all_its_children_and_no_failed_sensor_tick(stop_signal, pg_url, tmp_path):
    """`memory-pipeline ui` stops on SIGTERM (kill, a supervisor) and SIGINT (Ctrl-C) with every child, in
    `dagster dev`'s order: the daemon ends while the code server still answers, so no sensor tick fails with
    DagsterUserCodeUnreachableError (red in Automation). ~40-60 s each: a real dagster dev, up until its daemon
    has ticked the sensors once."""
    import psycopg

    port = services.free_port()
    schema = f"dgui_{stop_signal.name.lower()}_{tmp_path.name[-6:].lower()}"
    home = Path(tempfile.mkdtemp(prefix="mpu"))  # short: holds nothing but DAGSTER_HOME here
    env = {k: v for k, v in os.environ.items() if not k.startswith((ENV_PREFIX, "DAGSTER_"))}
    env.update({"MEMORY_PIPELINE_HOME": str(home), "MEMORY_PIPELINE_DATABASE_URL": pg_url,
                "MEMORY_PIPELINE_DAGSTER_SCHEMA": schema})
    # Started as a non-interactive shell starts a background job (`memory-pipeline ui &`): SIGINT ignored, which
    # the command and its children inherit unless it sets its own handlers.
    ui = subprocess.Popen([str(Path(sys.executable).parent / "memory-pipeline"), "ui", "--port", str(port)],
                          env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                          preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))

    def ticks(status: str | None = None) -> int:
        try:
            with psycopg.connect(pg_url, autocommit=True) as conn:
                return conn.execute(f"SELECT count(*) FROM {schema}.job_ticks WHERE %s::text IS NULL OR status = %s",
                                    (status, status)).fetchone()[0]
        except psycopg.errors.UndefinedTable:
            return 0

    try:
        wait_for_port(port, UI_START_TIMEOUT, ui)
        deadline = time.monotonic() + UI_START_TIMEOUT
        while ticks() == 0 and time.monotonic() < deadline:  # the daemon ticks its sensors: it talks to the code
            assert ui.poll() is None                          # server, the moment a stop could break
            time.sleep(1)
        assert ticks() > 0
        children = descendants(ui.pid)
        daemons = {p for p in children if "dagster._daemon" in cmdline(p)}
        code_servers = {p for p in children if " grpc" in cmdline(p) or "dagster._grpc" in cmdline(p)}
        assert len(children) >= 4 and daemons and code_servers, [cmdline(p) for p in children]
        ui.send_signal(stop_signal)
        ended: dict[int, float] = {}
        deadline = time.monotonic() + 90  # bounded: the ui gives dagster dev 20 s, then kills its group
        while alive(children) and time.monotonic() < deadline:
            now = time.monotonic()
            ended.update({p: now for p in children - alive(children) if p not in ended})
            time.sleep(0.05)
        assert ui.wait(timeout=30) == 0
        assert alive(children) == set()
        ended.update({p: time.monotonic() for p in children if p not in ended})
        # The daemon stopped before any code server went away.
        assert max(ended[p] for p in daemons) <= min(ended[p] for p in code_servers)
        assert ticks("FAILURE") == 0
    finally:
        if ui.poll() is None:
            ui.kill()
        shutil.rmtree(home, ignore_errors=True)


TREE = """
import signal, subprocess, sys, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)  # like a Dagster process: only SIGINT stops it
if len(sys.argv) == 1:
    children = [subprocess.Popen([sys.executable, __file__, "child"]) for _ in range(2)]
try:
    time.sleep(600)
except KeyboardInterrupt:
    sys.exit(0)
"""


@pytest.mark.parametrize("stop_signal", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_supervised_process_tree_stops_on_each_signal(stop_signal, tmp_path):
    """`ui`'s supervision with a tree that, like Dagster's processes, ignores SIGTERM and stops on SIGINT; the
    supervisor is started with SIGINT ignored, as a background job of a non-interactive shell is."""
    script = tmp_path / "tree.py"
    script.write_text(TREE)
    supervisor = subprocess.Popen(
        [sys.executable, "-c", "import sys; from memory_pipeline.services import run_supervised; "
         f"sys.exit(run_supervised([sys.executable, {str(script)!r}]))"],
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    deadline = time.monotonic() + 60
    while len(descendants(supervisor.pid)) < 3 and time.monotonic() < deadline:  # tree.py and its 2 children
        time.sleep(0.1)
    tree = descendants(supervisor.pid)
    assert len(tree) >= 3
    time.sleep(0.5)  # let the children install their SIGTERM disposition
    supervisor.send_signal(stop_signal)
    assert supervisor.wait(timeout=30) == 0  # the tree stopped by itself on SIGINT, nothing had to be killed
    assert alive(tree) == set()
