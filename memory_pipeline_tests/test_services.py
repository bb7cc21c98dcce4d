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
from memory_pipeline.settings import ENV_PREFIX
from memory_pipeline_tests.conftest import fixture_lines
from memory_pipeline_tests.test_pipeline_end_to_end import Pipeline

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
    settings = make_settings(dagster_schema=f"dg_{tmp_path.name[-12:].lower()}", backlog_date="2026-05-01")
    pipeline = Pipeline(settings)
    pipeline.load(sample.fixture_rows(fixture_lines("message_shapes.jsonl")))
    settings_env = {ENV_PREFIX + k.upper(): str(v) for k, v in settings.model_dump(mode="json").items()
                    if v is not None}
    env = services.services_environment(settings_env, pg_url, tmp_path / "dagster", settings.dagster_schema)
    with services.production_services(env, tmp_path, READY_TIMEOUT) as url:
        # The default run coordinator queues the run: only the daemon (a separate process) dequeues it.
        run_id = services.launch_partition_run(url, JOB_NAME, "2026-05-03")
        assert services.wait_for_run(url, run_id, timeout=120) == "SUCCESS"
    closed = pipeline.rows("SELECT count(*) AS n FROM {schema}.conversations WHERE partition_date = '2026-05-03'")
    assert closed[0]["n"] == 7
    archived = pipeline.rows("SELECT count(*) AS n FROM {schema}.chat_archive WHERE partition_date = '2026-05-03'")
    assert archived[0]["n"] > 0 and not pipeline.source_ids() & pipeline.archive_ids()


def test_ui_stops_with_all_its_children_on_sigterm(pg_url, tmp_path):
    stop_signal = signal.SIGTERM
    port = services.free_port()
    home = Path(tempfile.mkdtemp(prefix="mpu"))  # short: holds nothing but DAGSTER_HOME here
    env = {k: v for k, v in os.environ.items() if not k.startswith((ENV_PREFIX, "DAGSTER_"))}
    env.update({"MEMORY_PIPELINE_HOME": str(home), "MEMORY_PIPELINE_DATABASE_URL": pg_url,
                "MEMORY_PIPELINE_DAGSTER_SCHEMA": f"dgui_{stop_signal.name.lower()}"})
    # Started as a non-interactive shell starts a background job (`memory-pipeline ui &`): SIGINT ignored, which
    # the command and its children inherit unless it sets its own handlers.
    ui = subprocess.Popen([str(Path(sys.executable).parent / "memory-pipeline"), "ui", "--port", str(port)],
                          env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                          preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    try:
        wait_for_port(port, READY_TIMEOUT, ui)
        children = descendants(ui.pid)
        assert len(children) >= 3  # dagster dev, its webserver, its daemon (and code servers)
        ui.send_signal(stop_signal)
        ui.wait(timeout=60)  # bounded: the ui gives its group 20 s, then kills it
        deadline = time.monotonic() + 30
        while alive(children) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert alive(children) == set()
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
