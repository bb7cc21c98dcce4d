"""Dagster's processes as services: supervising `dagster dev` for `memory-pipeline ui`, and a small client of
the webserver's GraphQL API (launch a run or a backfill, wait for it) used by the production test and the
backfill benchmark.

`dagster dev` is run as a child in its own process group: SIGTERM, SIGINT and SIGHUP sent to `memory-pipeline
ui` are forwarded to `dagster dev` alone as SIGINT, which stops its webserver and daemon first and its code servers
last; whatever of the group is still alive once it exited, or after a grace period, is stopped, then killed, so a
backgrounded or supervised `ui` stops cleanly with its children. Signalling the whole group at once stopped the
code server under a daemon still ticking: a sensor tick failed, red, with DagsterUserCodeUnreachableError.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from memory_pipeline.db import SQL_DIR, dagster_storage_url

FORWARDED_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
STOP_GRACE_SECONDS = 20  # dagster dev stops its webserver, daemon and code server within a few seconds
LOCATION_NAME = "memory_pipeline"  # workspace.yaml's location_name
REPOSITORY_NAME = "__repository__"  # the repository Dagster makes of a Definitions object


def dagster_command(name: str) -> str:
    """Path of a Dagster console script (`dagster`, `dagster-webserver`, `dagster-daemon`) installed beside this
    Python, so it works without an activated virtualenv; else the bare name, looked up on PATH."""
    local = Path(sys.executable).parent / name
    return str(local) if local.exists() else name


def _group_alive(pgid: int) -> bool:
    """True while a process of the group runs. Zombies do not count: where PID 1 does not reap orphans (some
    containers), a dead code server stays a zombie in the group for good."""
    proc = Path("/proc")
    if not proc.is_dir():  # not Linux: ask the kernel, zombies included
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return False
        return True
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            state, _ppid, group = (entry / "stat").read_text().rsplit(")", 1)[1].split()[:3]
        except (OSError, ValueError):
            continue
        if int(group) == pgid and state not in ("Z", "X"):
            return True
    return False


def _signal_group(pgid: int, signum: int) -> None:
    try:
        os.killpg(pgid, signum)
    except ProcessLookupError:
        pass


def _signal_leader(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGINT)
    except ProcessLookupError:
        pass


def run_supervised(argv: Sequence[str], grace_seconds: float = STOP_GRACE_SECONDS) -> int:
    """Run `argv` in its own process group until it exits; SIGTERM/SIGINT/SIGHUP become a SIGINT to the child
    alone (it stops its own children in its order).
    Once it exits, the group's remaining processes get SIGINT, then SIGKILL after `grace_seconds`; the group is
    killed too when it has not stopped `grace_seconds` after the first signal. Returns the child's exit status (128 + signal number when killed)."""
    stop_requested_at: list[float] = []
    pgid = 0

    def forward(signum, _frame):
        # Dagster's processes stop on SIGINT (what Ctrl-C sends to a terminal's foreground process group);
        # `dagster dev` maps SIGTERM to its SIGINT handler.
        stop_requested_at.append(time.monotonic())
        if pgid:
            _signal_leader(pgid)

    # Handlers first: a command started in the background by a non-interactive shell inherits SIGINT ignored,
    # and an ignored signal stays ignored across exec, so `dagster dev` would ignore SIGINT, and SIGTERM with it
    # (the reason a backgrounded `dagster dev` only stopped on SIGKILL). A handled signal is reset to its
    # default on exec: the child gets Python's KeyboardInterrupt back.
    previous = {s: signal.signal(s, forward) for s in FORWARDED_SIGNALS}
    try:
        child = subprocess.Popen(list(argv), start_new_session=True)
        pgid = child.pid  # start_new_session: the child leads its own session and process group
        if stop_requested_at:
            _signal_leader(pgid)
        while True:
            try:
                status = child.wait(timeout=0.5)
                break
            except subprocess.TimeoutExpired:
                if stop_requested_at and time.monotonic() - stop_requested_at[0] > grace_seconds:
                    _signal_group(pgid, signal.SIGKILL)
        deadline = time.monotonic() + grace_seconds
        if _group_alive(pgid):
            _signal_group(pgid, signal.SIGINT)  # a code server or run worker the child left behind
        while _group_alive(pgid) and time.monotonic() < deadline:
            time.sleep(0.2)
        if _group_alive(pgid):
            _signal_group(pgid, signal.SIGKILL)
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
    return 128 - status if status < 0 else status


class GraphQLError(RuntimeError):
    """The webserver answered a GraphQL request with errors or an unexpected result type."""


def graphql(url: str, query: str, variables: dict[str, Any] | None = None, timeout: float = 30) -> dict[str, Any]:
    """POST a GraphQL request to the webserver (`url` like http://127.0.0.1:3000); returns `data`. Raises
    GraphQLError when the answer holds errors, urllib.error.URLError when the webserver cannot be reached."""
    request = urllib.request.Request(
        url.rstrip("/") + "/graphql", data=json.dumps({"query": query, "variables": variables or {}}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=timeout) as response:
        answer = json.loads(response.read())
    if answer.get("errors"):
        raise GraphQLError(json.dumps(answer["errors"])[:2000])
    return answer["data"]


LAUNCH_RUN = """
mutation LaunchRun($params: ExecutionParams!) {
  launchRun(executionParams: $params) {
    __typename
    ... on LaunchRunSuccess { run { runId } }
    ... on PythonError { message }
    ... on Error { message }
  }
}"""
RUN_STATUS = """
query RunStatus($runId: ID!) { runOrError(runId: $runId) { __typename ... on Run { status } } }"""
LAUNCH_BACKFILL = """
mutation LaunchBackfill($params: LaunchBackfillParams!) {
  launchPartitionBackfill(backfillParams: $params) {
    __typename
    ... on LaunchBackfillSuccess { backfillId }
    ... on PythonError { message }
    ... on Error { message }
  }
}"""
BACKFILL_STATUS = """
query BackfillStatus($id: String!) {
  partitionBackfillOrError(backfillId: $id) { __typename ... on PartitionBackfill { status numCancelable } }
}"""
FINISHED_RUN = {"SUCCESS", "FAILURE", "CANCELED"}
FINISHED_BACKFILL = {"COMPLETED", "COMPLETED_SUCCESS", "COMPLETED_FAILED", "FAILED", "CANCELED"}


def launch_partition_run(url: str, job: str, partition: str, tags: dict[str, str] | None = None) -> str:
    """Launch `job` for one partition through the webserver (GraphQL launchRun), tagged with `tags` as well (e.g.
    a shard's, as the schedule tags it); returns the run id."""
    tags = {"dagster/partition": partition, **(tags or {})}
    params = {
        "selector": {"repositoryLocationName": LOCATION_NAME, "repositoryName": REPOSITORY_NAME, "jobName": job},
        "runConfigData": {},
        "executionMetadata": {"tags": [{"key": key, "value": value} for key, value in tags.items()]},
    }
    result = graphql(url, LAUNCH_RUN, {"params": params})["launchRun"]
    if result["__typename"] != "LaunchRunSuccess":
        raise GraphQLError(f"{result['__typename']}: {result.get('message', '')}")
    return result["run"]["runId"]


def launch_asset_backfill(url: str, asset_keys: Sequence[str], partitions: Sequence[str],
                          tags: dict[str, str] | None = None) -> str:
    """Launch a backfill of these assets over these partitions, as the UI's *Materialize selected* -> *Launch
    backfill* does (GraphQL launchPartitionBackfill), its runs tagged with `tags` (e.g. a shard of the night:
    {"memory_pipeline/shard": "0/2"}); returns the backfill id."""
    params = {"assetSelection": [{"path": [key]} for key in asset_keys], "partitionNames": list(partitions),
              "tags": [{"key": key, "value": value} for key, value in (tags or {}).items()]}
    result = graphql(url, LAUNCH_BACKFILL, {"params": params})["launchPartitionBackfill"]
    if result["__typename"] != "LaunchBackfillSuccess":
        raise GraphQLError(f"{result['__typename']}: {result.get('message', '')}")
    return result["backfillId"]


def _poll_until_finished(fetch_status, finished, what: str, timeout: float, poll_seconds: float) -> str:
    """Call `fetch_status()` every `poll_seconds` until it returns one of `finished`; returns it. Raises
    TimeoutError naming `what` after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        status = fetch_status()
        if status in finished:
            return status
        time.sleep(poll_seconds)
    raise TimeoutError(f"{what} not finished after {timeout:.0f} s")


def wait_for_run(url: str, run_id: str, timeout: float, poll_seconds: float = 0.5) -> str:
    """Poll the run's status until it has finished; returns SUCCESS, FAILURE or CANCELED. Raises TimeoutError
    after `timeout` seconds."""
    return _poll_until_finished(
        lambda: graphql(url, RUN_STATUS, {"runId": run_id})["runOrError"].get("status"),
        FINISHED_RUN, f"run {run_id}", timeout, poll_seconds)


def wait_for_backfill(url: str, backfill_id: str, timeout: float, poll_seconds: float = 0.5) -> str:
    """Poll a backfill until it has finished; returns its final status (e.g. COMPLETED_SUCCESS). Raises
    TimeoutError after `timeout` seconds."""
    return _poll_until_finished(
        lambda: graphql(url, BACKFILL_STATUS, {"id": backfill_id})["partitionBackfillOrError"].get("status"),
        FINISHED_BACKFILL, f"backfill {backfill_id}", timeout, poll_seconds)


def wait_for_webserver(url: str, timeout: float, process: subprocess.Popen | None = None) -> None:
    """Wait until the webserver answers GraphQL and has loaded the code location. Raises TimeoutError, or
    RuntimeError when `process` exits first."""
    query = "{ workspaceOrError { __typename ... on Workspace { locationEntries { name loadStatus } } } }"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"{process.args[0]} exited with status {process.returncode}")
        try:
            entries = graphql(url, query, timeout=5)["workspaceOrError"].get("locationEntries") or []
            if entries and all(e["loadStatus"] == "LOADED" for e in entries):
                return
        except OSError:
            pass
        time.sleep(0.5)
    raise TimeoutError(f"webserver at {url} not ready after {timeout:.0f} s")


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_for_port(port: int, timeout: float, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{process.args[0]} {process.args[1]} exited with status {process.returncode}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.3)
    raise TimeoutError(f"port {port} not open after {timeout:.0f} s")


@contextmanager
def production_services(env: dict[str, str], workdir: Path, ready_timeout: float = 120,
                        log_dir: Path | None = None) -> Iterator[str]:
    """Start the production shape on this host: `dagster api grpc` (the code location), then `dagster-daemon run`
    and `dagster-webserver`, three separate processes sharing the instance of env's DAGSTER_HOME, with a
    workspace file in `workdir` pointing both at the gRPC server. Yields the webserver's URL; on exit stops the
    three (SIGINT, then SIGKILL after STOP_GRACE_SECONDS). Raises TimeoutError when one is not ready in time.
    With `log_dir`, each process's output goes to `<log_dir>/<name>.log` (code, daemon, webserver), else nowhere."""
    grpc_port, web_port = free_port(), free_port()
    workspace = workdir / "workspace.yaml"
    workspace.write_text(
        f"load_from:\n  - grpc_server:\n      host: 127.0.0.1\n      port: {grpc_port}\n"
        f"      location_name: {LOCATION_NAME}\n")
    started: list[subprocess.Popen] = []

    def start(name: str, argv: list[str]) -> subprocess.Popen:
        output = open(log_dir / f"{name}.log", "ab") if log_dir else subprocess.DEVNULL
        try:
            process = subprocess.Popen(argv, env=env, cwd=workdir, stdout=output, stderr=subprocess.STDOUT,
                                       start_new_session=True)
        finally:
            if log_dir:
                output.close()  # the child holds its own descriptor
        started.append(process)
        return process

    try:
        code = start("code", [dagster_command("dagster"), "api", "grpc", "-m", "memory_pipeline.definitions",
                              "-h", "127.0.0.1", "-p", str(grpc_port)])
        _wait_for_port(grpc_port, ready_timeout, code)
        start("daemon", [dagster_command("dagster-daemon"), "run", "-w", str(workspace)])
        web = start("webserver", [dagster_command("dagster-webserver"), "-w", str(workspace), "-h", "127.0.0.1",
                                  "-p", str(web_port)])
        url = f"http://127.0.0.1:{web_port}"
        wait_for_webserver(url, ready_timeout, web)
        yield url
    finally:
        for process in started:
            _signal_group(process.pid, signal.SIGINT)
        deadline = time.monotonic() + STOP_GRACE_SECONDS
        for process in started:
            try:
                process.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                pass
            _signal_group(process.pid, signal.SIGKILL)
            process.wait()


def services_environment(settings_env: dict[str, str], database_url: str, dagster_home: Path,
                         dagster_schema: str) -> dict[str, str]:
    """Environment for Dagster processes outside `memory-pipeline`: the caller's MEMORY_PIPELINE_* settings
    (`settings_env`), the database URL, DAGSTER_HOME holding a copy of the project's dagster.yaml, and Dagster's
    storage URL in `dagster_schema` of the same database (what runner.prepare sets for `memory-pipeline`)."""

    dagster_home.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(SQL_DIR.parent / "deploy" / "dagster.yaml", dagster_home / "dagster.yaml")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MEMORY_PIPELINE_", "DAGSTER_"))}
    env.update(settings_env)
    env.update({"MEMORY_PIPELINE_DATABASE_URL": database_url, "DAGSTER_HOME": str(dagster_home),
                "MEMORY_PIPELINE_DAGSTER_SCHEMA": dagster_schema,
                "MEMORY_PIPELINE_DAGSTER_STORAGE_URL": dagster_storage_url(database_url, dagster_schema)})
    return env
