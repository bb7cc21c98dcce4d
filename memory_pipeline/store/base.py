"""The store's common part: named queries of sql/ composed with the settings' identifiers, the n8n table's
time column, the erasure lock every stage holds, `Pending` statements."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Any, Generic, TypeVar

import psycopg
from psycopg import sql

from memory_pipeline.db import named_queries
from memory_pipeline.domain.shards import Shard
from memory_pipeline.settings import Settings

T = TypeVar("T")

# The files of named queries `Store.query` reads by default (sql/<file>, one per concern); a name is unique across
# them. erasure.sql holds the erasure's own (`store.erasure`), recall.sql the SQL functions recall calls.
QUERY_FILES = ("conversations.sql", "summaries.sql", "facts.sql", "archive.sql", "embeddings.sql", "checks.sql",
               "samples.sql", "erasure.sql", "shards.sql")
# `{in_shard COLUMN}` in a named query: true for the rows whose user key (COLUMN, `col` or `alias.col`) belongs to
# the store's shard (sql/shards.sql, `in_shard`).
IN_SHARD = re.compile(r"\{in_shard ([a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)?)\}")


@lru_cache(maxsize=None)
def store_queries() -> dict[str, str]:
    """{name: text} of every named query of QUERY_FILES. Raises ValueError when two files share a name."""
    merged: dict[str, str] = {}
    for filename in QUERY_FILES:
        for name, text in named_queries(filename).items():
            if name in merged:
                raise ValueError(f"named query {name} is in two files of sql/ ({filename})")
            merged[name] = text
    return merged


class Pending(Generic[T]):
    """A statement sent to the server whose rows are parsed on `result()` (None: no statement, nothing to read).
    In pipeline mode it travels at once and its rows come back with the next read, so reads sent one after the
    other share one round trip, and a write's result is waited for only when it is needed."""

    def __init__(self, cursor: psycopg.Cursor | None, parse: Callable[[Iterable[dict[str, Any]]], T]):
        self._cursor = cursor
        self._parse = parse

    def result(self) -> T:
        """The parsed rows (read once)."""
        return self._parse(self._cursor if self._cursor is not None else ())


class SourceTableMissing(RuntimeError):
    """The configured n8n table does not exist; the message names it and the settings that point at it."""


class StoreBase:
    """Query access for one settings object: composing named queries, the n8n table's catalog (`has_created_at`
    is read on first use), the locks every stage takes, one-number queries. The concern classes extend it."""

    def __init__(self, settings: Settings, shard: Shard | None = None):
        self.settings = settings
        self.shard = shard or Shard()  # the run's shard of the night (default: the whole night)
        self._created_at_expr: sql.Composable | None = None
        self._created_at_filter: sql.Composable | None = None
        self._server_version = 0

    # -- composition -------------------------------------------------------------------------------------
    @property
    def source(self) -> sql.Identifier:
        """The n8n table as a schema-qualified identifier."""
        return sql.Identifier(self.settings.source_schema, self.settings.source_table)

    def query(self, conn: psycopg.Connection, name: str, filename: str | None = None) -> sql.Composed:
        """Named query `name` of `sql/<filename>` (default: of QUERY_FILES, `store_queries`) with {schema},
        {source}, {created_at}, {created_at_filter} and every `{in_shard COLUMN}` (`shard_filter`) filled in. The
        n8n table's catalog is read only for queries that use {created_at} or {created_at_filter}."""
        text = (named_queries(filename) if filename else store_queries())[name]
        created_at = self.created_at_expr(conn) if "{created_at}" in text else sql.SQL("")
        created_at_filter = self.created_at_filter(conn) if "{created_at_filter}" in text else sql.SQL("")
        filters: dict[str, sql.Composable] = {}

        def placeholder(match: re.Match) -> str:
            field = "in_shard_" + match.group(1).replace(".", "__")
            filters[field] = self.shard_filter(match.group(1))
            return "{" + field + "}"

        return sql.SQL(IN_SHARD.sub(placeholder, text)).format(
            schema=sql.Identifier(self.settings.schema_name), source=self.source, created_at=created_at,
            created_at_filter=created_at_filter, **filters,
        )

    def shard_filter(self, column: str) -> sql.Composable:
        """The condition that `column` (a user key: `col` or `alias.col`) belongs to this store's shard: `true`
        for the whole night, else sql/shards.sql's `in_shard` (the SQL form of `domain.shards.shard_of`)."""
        if self.shard.whole_night:
            return sql.SQL("true")
        text = "\n".join(line for line in store_queries()["in_shard"].splitlines() if not line.startswith("--"))
        return sql.SQL(text).format(column=sql.Identifier(*column.split(".")),
                                    count=sql.Literal(self.shard.count), index=sql.Literal(self.shard.index))

    def source_columns(self, conn: psycopg.Connection) -> dict[str, str]:
        """{column name: data type} of the n8n table. Raises SourceTableMissing when it does not exist."""
        rows = conn.execute(
            named_queries("conversations.sql")["source_columns"],
            {"schema": self.settings.source_schema, "table": self.settings.source_table},
        ).fetchall()
        if not rows:
            raise SourceTableMissing(
                f"n8n's chat memory table {self.settings.source_schema}.{self.settings.source_table} does not exist: "
                "point MEMORY_PIPELINE_SOURCE_SCHEMA / MEMORY_PIPELINE_SOURCE_TABLE at the table n8n's Postgres Chat "
                "Memory node writes (its Table Name), or create it: n8n does on the node's first message, and "
                "`memory-pipeline db n8n-credential` does in the embedded server"
            )
        self._server_version = rows[0]["server_version"]
        return {row["column_name"]: row["data_type"] for row in rows}

    def id_salt(self, conn: psycopg.Connection) -> str:
        """This installation's random salt for conversation ids (created with the schema)."""
        return conn.execute(self.query(conn, "id_salt")).fetchone()["id_salt"]

    def has_created_at(self, conn: psycopg.Connection) -> bool:
        """True when the n8n table has a `created_at` column (raises SourceTableMissing when no table)."""
        return "created_at" in self.source_columns(conn)

    def created_at_expr(self, conn: psycopg.Connection) -> sql.Composable:
        """`created_at::timestamptz` when the column exists (a timestamp without zone is read in the server's
        TimeZone, which is how now() wrote it), else NULL: every row is then legacy backlog. Infinite and
        out-of-range times (before year 1 or after 9999, which Python cannot hold) read as NULL too, and so do
        unreadable values of a text column (PostgreSQL 16+)."""
        if self._created_at_expr is None:
            columns = self.source_columns(conn)
            if "created_at" in columns:
                column = sql.SQL("{}::timestamptz").format(sql.Identifier("created_at"))
                in_range = sql.SQL(
                    "(CASE WHEN {c} BETWEEN '0001-01-02'::timestamptz AND '9999-12-30'::timestamptz THEN {c} END)"
                ).format(c=column)
                if not columns["created_at"].startswith(("timestamp", "date")) and self._server_version >= 160000:
                    # A text column may hold anything: an unreadable value reads as NULL instead of failing the
                    # whole query (pg_input_is_valid exists from PostgreSQL 16; CASE keeps the cast behind it).
                    in_range = sql.SQL(
                        "(CASE WHEN pg_input_is_valid({t}::text, 'timestamptz') THEN {r} END)"
                    ).format(t=sql.Identifier("created_at"), r=in_range)
                self._created_at_expr = in_range
            else:
                self._created_at_expr = sql.SQL("NULL::timestamptz")
        return self._created_at_expr

    def created_at_filter(self, conn: psycopg.Connection) -> sql.Composable:
        """The source's time for WHERE clauses: the bare `created_at` column when it is a timestamp (with or
        without zone) or a date, so the (session_id, created_at) and (created_at) indexes that
        `add-time-column` builds serve the query (a CASE around it would hide the column from the planner);
        comparing it with a timestamptz reads a zone-less value in the server's TimeZone, as the cast of
        `created_at_expr` does. For a text column (or none) it is `created_at_expr` itself. It reads the same as
        `created_at_expr` for every time in range: use it only in conditions that keep out-of-range times out
        (bounded on both sides, e.g. `>= '0001-01-02'` and `< %(until)s`)."""
        if self._created_at_filter is None:
            columns = self.source_columns(conn)
            if columns.get("created_at", "").startswith(("timestamp", "date")):
                self._created_at_filter = sql.Identifier("created_at")
            else:
                self._created_at_filter = self.created_at_expr(conn)
        return self._created_at_filter


    def hold_off_erasure(self, conn) -> None:
        """Take the erasure lock shared until the transaction ends: an erasure (which takes it exclusive) waits
        for this write to commit, and a write that starts during an erasure waits for it, then re-reads. Take it
        first in every stage transaction that writes a user's data."""
        conn.execute(self.query(conn, "lock_erasure_shared"))


    # -- one-number queries ---------------------------------------------------------------------------------
    def scalar(self, conn, name: str, params: dict[str, Any] | None = None) -> int:
        """First column of the first row of a named query, as int."""
        row = conn.execute(self.query(conn, name), params or {}).fetchone()
        return int(next(iter(row.values())))
