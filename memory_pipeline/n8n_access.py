"""How n8n reaches the pipeline's database: the role n8n connects as, and the fields n8n's Postgres credential
asks for (the embedded server's TCP listener is `embedded_tcp`)."""

from __future__ import annotations

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

from memory_pipeline.db import named_queries, sql_text
from memory_pipeline.sample import create_n8n_table
from memory_pipeline.settings import Settings
from memory_pipeline.store import Store

N8N_ROLE = "n8n"
PASSWORD_FILE = "n8n-db-password"  # in MEMORY_PIPELINE_HOME, mode 0600
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

    with conn.cursor(row_factory=tuple_row) as cursor:
        (vector_schema,) = cursor.execute(named_queries("embeddings.sql")["vector_extension_schema"]).fetchone()
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
