"""CPU seconds a benchmark stage costs, on both sides of the connection, read with psutil (Linux /proc).

Wall time hides what concurrency costs: two processes on two cores finish sooner and may burn as much or more.
`CpuMeter.read()` returns (client, server) CPU seconds (user + system) used so far:
- client: this process (every thread: the LLM stages' request threads, the page read-ahead) and every process it
  started, with the CPU of any that exited and were reaped;
- server: every process of the PostgreSQL server the connection is on (its backends, the read-ahead
  connection's, the WAL writer, checkpointer and autovacuum), found as the parent of
  `conn.info.backend_pid`; None when that server is not a local process this user may read (a remote database).
The server's figure counts whatever else uses that server meanwhile: run it on a server of its own.
"""

from __future__ import annotations

from typing import Any

import psutil


def _tree_seconds(root: psutil.Process, skip: int | None = None) -> float:
    """CPU seconds of `root` and its live descendants, with their reaped children's (not the subtree of `skip`)."""
    total = 0.0
    processes = [root]
    try:
        processes += root.children(recursive=True)
    except psutil.Error:
        pass
    skipped: set[int] = set()
    if skip is not None and any(p.pid == skip for p in processes):
        try:
            skipped = {skip} | {p.pid for p in psutil.Process(skip).children(recursive=True)}
        except psutil.Error:
            skipped = {skip}
    for p in processes:
        if p.pid in skipped:
            continue
        try:
            t = p.cpu_times()
        except psutil.Error:  # exited meanwhile: its parent's children_* counts it once reaped
            continue
        total += t.user + t.system + t.children_user + t.children_system
    return total


class CpuMeter:
    """(client, server) CPU seconds so far; subtract two readings for a stage's cost. `conn` is a psycopg
    connection to the server to measure."""

    def __init__(self, conn: Any):
        self._client = psutil.Process()
        self._server: psutil.Process | None = None
        try:
            backend = psutil.Process(conn.info.backend_pid)
            parent = backend.parent()
            if parent is not None and "postgres" in " ".join(parent.cmdline() + [parent.name()]).lower():
                parent.cpu_times()  # readable (root, or the server's own user)
                self._server = parent
        except psutil.Error:
            self._server = None

    def read(self) -> tuple[float, float | None]:
        server_pid = self._server.pid if self._server is not None else None
        client = _tree_seconds(self._client, skip=server_pid)  # a server this process started is the server's
        server = _tree_seconds(self._server) if self._server is not None else None
        return client, server
