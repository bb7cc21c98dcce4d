"""Reads and writes of the pipeline, one method per named query of sql/queries.sql.

Identifiers (pipeline schema, n8n table) come from settings and are composed with `psycopg.sql.Identifier`;
values are bound parameters. Methods take an open connection so that the caller decides the transaction.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any, Generic, TypeVar

import psycopg
from psycopg import sql
from psycopg.rows import tuple_row
from psycopg.types.json import Jsonb

from memory_pipeline import json_codec
from memory_pipeline.db import named_queries, sql_text
from memory_pipeline.domain.conversations import Conversation
from memory_pipeline.domain.facts import Candidate, fact_key
from memory_pipeline.domain.language import text_search_config
from memory_pipeline.domain.messages import ParsedRow, SourceRow
from memory_pipeline.domain.reconcile import AcceptedFact, FactVersion
from memory_pipeline.settings import Settings


T = TypeVar("T")

# Rows a server-side cursor of `closed_sessions` fetches per round trip: a few thousand keeps round trips few
# (one per batch) while the client holds one batch, a few MiB, at a time.
WINDOW_CURSOR_ITERSIZE = 2000
# application_name of the connection `Store.pages_read_ahead` reads the next page on (pg_stat_activity shows it).
READ_AHEAD_APPLICATION = "memory_pipeline_pages"
# work_mem of the archive-and-purge transaction (`SET LOCAL`, that transaction only; PostgreSQL's default is 4 MB):
# the purge hashes the partition's source rows (id, session key, message) and at 4 MB that hash spilled to disk
# in 8 batches at 100k messages.
ARCHIVE_WORK_MEM = "64MB"


def _by_user(items: Iterable[Any]) -> dict[str, list[Any]]:
    """Group rows or AcceptedFacts by their `user_key` (key or attribute), keeping their order."""
    grouped: dict[str, list[Any]] = {}
    for item in items:
        grouped.setdefault(item["user_key"] if isinstance(item, dict) else item.user_key, []).append(item)
    return grouped


def _accepted_facts(rows: Iterable[dict[str, Any]], versions: dict[str, str] | None) -> Iterator[AcceptedFact]:
    """Rows with a `row_version` column as AcceptedFacts; the versions of unfolded ones go to `versions`."""
    for r in rows:
        version = r.pop("row_version")
        if versions is not None and version is not None:
            versions[r["candidate_id"]] = version
        yield AcceptedFact(**r)


# The columns of a fact version that an update rewrites (`update_facts`), compared to decide whether a row changed.
_VERSION_FIELDS = ("attribute", "value", "quote", "quote_message_id", "quote_speaker", "source_session",
                   "candidate_id", "last_seen_at", "expires_at", "superseded_at")


def _version_columns(rows: Sequence[tuple[int | None, FactVersion]]) -> dict[str, list[Any]]:
    """(row id, version) pairs as one parallel array per column (`ids` and `_VERSION_FIELDS`), the parameters of
    `update_facts` and `insert_facts` (unnest)."""
    columns: dict[str, list[Any]] = {"ids": [row_id for row_id, _ in rows]}
    for name in _VERSION_FIELDS:
        columns[name] = [getattr(v, name) for _, v in rows]
    return columns


@dataclass(frozen=True)
class FactChange:
    """One user's part of `Store.apply_fact_versions_of_users`: the versions `desired`, compared with `existing`
    rows (None: every row of the user, read then) and `full` (delete rows `desired` lacks; None: when `existing`
    is None)."""

    user_key: str
    desired: Sequence[FactVersion]
    existing: Sequence[dict[str, Any]] | None = None
    full: bool | None = None


@dataclass(frozen=True)
class FoldRecord:
    """One user's part of `Store.record_fold`: {candidate_id: row version read} of the candidates folded now,
    the last candidate folded in said order (None: none ever was), the fold's rule, and the ids of the
    user's `fold_requests` rows the fold read."""

    user_key: str
    row_versions: Mapping[str, str]
    last: AcceptedFact | None
    fold_rule: str
    fold_requests: Sequence[int] = ()


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


def _bigint_array(values: Sequence[int]) -> str:
    """PostgreSQL's array literal of integers ("{1,2,3}"), as a text COPY reads a bigint[] column: integers need no
    quoting, so this join is the whole of what psycopg's list dumper (a regex test per element) would write."""
    return "{" + ",".join(map(str, values)) + "}"


class SourceTableMissing(RuntimeError):
    """The configured n8n table does not exist; the message names it and the settings that point at it."""


class Store:
    """Query access for one settings object. `has_created_at` is read from the catalog on first use."""

    def __init__(self, settings: Settings):
        self.settings = settings
        self._created_at_expr: sql.Composable | None = None
        self._created_at_filter: sql.Composable | None = None
        self._server_version = 0

    # -- composition -------------------------------------------------------------------------------------
    @property
    def source(self) -> sql.Identifier:
        """The n8n table as a schema-qualified identifier."""
        return sql.Identifier(self.settings.source_schema, self.settings.source_table)

    def query(self, conn: psycopg.Connection, name: str, filename: str = "queries.sql") -> sql.Composed:
        """Named query `name` of `sql/<filename>` with {schema}, {source}, {created_at} and {created_at_filter}
        filled in. The n8n table's catalog is read only for queries that use the last two."""
        text = named_queries(filename)[name]
        created_at = self.created_at_expr(conn) if "{created_at}" in text else sql.SQL("")
        created_at_filter = self.created_at_filter(conn) if "{created_at_filter}" in text else sql.SQL("")
        return sql.SQL(text).format(
            schema=sql.Identifier(self.settings.schema_name), source=self.source, created_at=created_at,
            created_at_filter=created_at_filter,
        )

    def source_columns(self, conn: psycopg.Connection) -> dict[str, str]:
        """{column name: data type} of the n8n table. Raises SourceTableMissing when it does not exist."""
        rows = conn.execute(
            named_queries()["source_columns"],
            {"schema": self.settings.source_schema, "table": self.settings.source_table},
        ).fetchall()
        if not rows:
            raise SourceTableMissing(
                f"table {self.settings.source_schema}.{self.settings.source_table} not found: set "
                "MEMORY_PIPELINE_SOURCE_SCHEMA / MEMORY_PIPELINE_SOURCE_TABLE to n8n's chat memory table"
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

    # -- source ------------------------------------------------------------------------------------------
    @staticmethod
    def _source_row(row_id: int, session_id: str, message_text: str, created_at: datetime | None) -> SourceRow:
        try:
            message = json_codec.loads(message_text)
        except (TypeError, ValueError, RecursionError):
            message = message_text  # not JSON (or too deep): parse_row rejects it with a reason
        return SourceRow(row_id, session_id, message, created_at)

    def _stream(self, conn: psycopg.Connection, name: str, params: dict[str, Any]) -> Iterator[SourceRow]:
        # A server-side (named) cursor: PostgreSQL keeps the result and hands it over WINDOW_CURSOR_ITERSIZE rows
        # per round trip, so the client holds one batch at a time. Needs the caller's open transaction.
        with conn.cursor(name=f"closed_sessions_{name}", row_factory=tuple_row) as cursor:
            cursor.itersize = WINDOW_CURSOR_ITERSIZE
            cursor.execute(self.query(conn, name), params, binary=True)  # binary: cheaper to load times and ids
            for row_id, session_id, message_text, created_at in cursor:
                yield self._source_row(row_id, session_id, message_text, created_at)

    def stream_window_rows(
        self, conn: psycopg.Connection, start: datetime, end: datetime, until: datetime, idle_gap: timedelta,
        shard: int = 0, shards: int = 1,
    ) -> Iterator[SourceRow]:
        """Rows (n8n table + archive, a row in both read once) of the session keys with a message in
        [start, end), each key's from the start of the chain (run of rows with no gap over `idle_gap`) its first
        message of the window belongs to (every row of the key when `can_walk_back` is False), up to `until`;
        ordered by session key (code point order), time, id. Only the keys of shard `shard` of `shards`
        (`(hashtext(key) + 2^31) % shards == shard`: a key's rows of both tables fall in one shard).
        Streamed with a server-side cursor: call inside a transaction and consume before it ends."""
        name = "window_rows" if self.can_walk_back(conn) else "window_rows_every_row"
        return self._stream(conn, name, {"start": start, "end": end, "until": until, "idle_gap": idle_gap,
                                         "shard": shard, "shards": shards})

    def can_walk_back(self, conn: psycopg.Connection) -> bool:
        """True when `window_rows` can find chain starts through indexes: the time column is a timestamp (the
        bare column in WHERE, `created_at_filter`) and n8n's table has an index led by (session_id, created_at).
        Otherwise `window_rows_every_row` reads every row of an active key (one scan of the table instead of
        one per step back)."""
        if not isinstance(self.created_at_filter(conn), sql.Identifier):
            return False
        return conn.execute(self.query(conn, "source_has_session_time_index"),
                            {"table": self.source.as_string(conn)}).fetchone()["present"]

    def stream_legacy_rows(self, conn: psycopg.Connection, shard: int = 0, shards: int = 1) -> Iterator[SourceRow]:
        """Rows without a timestamp, from the n8n table and the archive (a row in both read once), ordered by
        session key (code point order) then id; only the keys of shard `shard` of `shards` (as
        `stream_window_rows`). Streamed like `stream_window_rows`."""
        return self._stream(conn, "legacy_rows", {"shard": shard, "shards": shards})

    def add_time_column(self, conn: psycopg.Connection) -> None:
        """Run sql/add_time_column.sql on the n8n table (the one opt-in schema change to it). `conn` must be in
        autocommit mode (the pool's connections are)."""
        script = sql.SQL(sql_text("add_time_column.sql")).format(
            source=self.source,
            index=sql.Identifier(f"{self.settings.source_table}_session_created_idx"),
            time_index=sql.Identifier(f"{self.settings.source_table}_created_idx"),
        ).as_string(conn)
        # One statement at a time: CREATE INDEX CONCURRENTLY refuses to run inside a transaction block.
        for statement in script.split(";\n"):
            if statement.strip() and not all(line.startswith("--") for line in statement.strip().splitlines()):
                conn.execute(statement)
        self._created_at_expr = self._created_at_filter = None

    # -- conversations -----------------------------------------------------------------------------------
    def save_conversations(
        self, conn: psycopg.Connection, conversations: Sequence[Conversation], closed_as_of: datetime
    ) -> int:
        """Upsert conversations and their skipped/rejected rows; unchanged rows are not rewritten. Returns how
        many conversations were inserted or changed (0 when a re-run finds them as they were). Call inside a
        transaction (the batch's scratch table lives until it ends).

        Set-based: the batch is COPYed into a temporary table, then one statement deletes the stored
        conversations it overlaps and one upserts it; the rejections follow in one batched `executemany`.
        Every overlap deletion runs before the upserts: the new conversations never share a message, so a
        deletion can only remove a stored conversation that a new one replaces. Two conversations of the batch
        with one id (possible only when ids were reused after a table reset) keep the last, as writing them one
        after the other did."""
        if not conversations:
            return 0
        by_id = {conv.conversation_id: conv for conv in conversations}
        with conn.cursor() as cur:
            cur.execute(self.query(conn, "create_conversation_batch"))
            cur.execute(self.query(conn, "clear_conversation_batch"))
            with cur.copy(self.query(conn, "copy_conversation_batch")) as copy:
                for conv in by_id.values():
                    turns = conv.turns
                    copy.write_row((
                        conv.conversation_id, conv.partition_date, conv.session_key, conv.user_key, conv.started_at,
                        conv.ended_at, conv.is_legacy, _bigint_array(conv.message_ids), len(turns),
                        # turn records hold str, int and None only: orjson writes them as json would
                        Jsonb([self._turn_record(t) for t in turns], dumps=json_codec.dumps_json_types),
                        conv.transcript_hash, closed_as_of,
                        self.settings.idle_gap_minutes))
            cur.execute(self.query(conn, "delete_overlapping_conversations_of_batch"))
            written = cur.execute(self.query(conn, "upsert_conversations_of_batch")).rowcount
        self.save_rejections(conn, conversations)
        return written

    @staticmethod
    def _turn_record(t: ParsedRow) -> dict[str, Any]:
        # A turn as stored in `conversations.transcript` (read back by `stages.conversation_from_record`).
        record = {"message_id": t.message_id, "role": t.role, "text": t.text,
                  "at": t.at.isoformat() if t.at else None, "tool_evidence": t.tool_evidence}
        if t.sender:
            record["sender"] = t.sender
            record["user_key"] = t.user_key
        if t.machine_text:
            record["machine_text"] = t.machine_text
        if t.quotable_chars is not None:
            record["quotable_chars"] = t.quotable_chars
        return record

    def save_rejections(self, conn: psycopg.Connection, conversations: Sequence[Conversation]) -> None:
        """Upsert the skipped/rejected rows of these conversations into message_rejections (with their reason),
        in one batched `executemany`."""
        rows = [{"message_id": row.message_id, "conversation_id": conv.conversation_id,
                 "partition_date": conv.partition_date, "user_key": conv.user_key,
                 "status": row.status, "reason": row.reason}
                for conv in conversations for row in conv.rows if row.status != "turn"]
        if rows:
            with conn.cursor() as cur:
                cur.executemany(self.query(conn, "upsert_rejection"), rows)

    def conversations_of_partition(self, conn: psycopg.Connection, day: date) -> list[dict[str, Any]]:
        """Stored conversations of a partition: dict rows with `transcript` as a list of turn dicts."""
        return conn.execute(self.query(conn, "conversations_of_partition"), {"partition_date": day}).fetchall()

    def pages(self, conn: psycopg.Connection, name: str, params: dict[str, Any], page_size: int,
              key: str = "conversation_id") -> Iterator[list[dict[str, Any]]]:
        """Rows of named query `name` a page of at most `page_size` at a time, by keyset pagination: the query
        takes %(after)s and %(limit)s and returns rows ordered by the text column `key`, strictly after %(after)s.
        Each page is one statement of its own (in an autocommit connection, its own short transaction), so a
        stage that runs for hours holds no snapshot, lock nor row between pages; a row inserted meanwhile after
        the last key read is read too, one deleted meanwhile is not. Raises ValueError for `page_size` < 1."""
        if page_size < 1:
            raise ValueError("page_size must be at least 1")
        statement, after = self.query(conn, name), ""  # '' sorts before every non-empty id
        while True:
            page = conn.execute(statement, {**params, "after": after, "limit": page_size}).fetchall()
            if page:
                yield page
            if len(page) < page_size:
                return
            after = page[-1][key]

    def pages_read_ahead(self, conn: psycopg.Connection, name: str, params: dict[str, Any], page_size: int,
                         key: str = "conversation_id") -> Iterator[list[dict[str, Any]]]:
        """The pages `pages` gives, each read while the caller works on the one before: a background thread reads
        them on a second connection (same server, user, row factory and adapters as `conn`, autocommit), so the
        server's work for a page (reading and serialising its transcripts) overlaps with the caller's. At most
        one page is held beyond the caller's. `conn` stays free for the caller's writes; the second connection
        (application_name READ_AHEAD_APPLICATION) is closed when the iteration ends or is abandoned. Raises what
        `pages` raises."""
        with psycopg.connect(conn.info.dsn, password=conn.info.password, autocommit=True,
                             application_name=READ_AHEAD_APPLICATION, row_factory=conn.row_factory,
                             context=conn) as reader, \
                ThreadPoolExecutor(max_workers=1, thread_name_prefix="pages") as ahead:
            source = self.pages(reader, name, params, page_size, key)
            following = ahead.submit(next, source, None)
            while (page := following.result()) is not None:
                following = ahead.submit(next, source, None)
                yield page

    def lock_conversations(self, conn: psycopg.Connection, conversation_ids: Sequence[str]) -> dict[str, str]:
        """Lock these conversation rows until the transaction ends (in conversation_id order) and return
        {conversation_id: current transcript hash}; a conversation that is gone has no entry."""
        if not conversation_ids:
            return {}
        rows = conn.execute(self.query(conn, "lock_conversations"),
                            {"conversation_ids": list(conversation_ids)}).fetchall()
        return {r["conversation_id"]: r["transcript_hash"] for r in rows}

    def mark_facts_extracted(self, conn: psycopg.Connection, records: Sequence[dict[str, Any]],
                             extracted_with: str) -> None:
        """Mark these conversations (dicts with conversation_id and the transcript_hash they were extracted
        from) extracted by `extracted_with`, in one statement; one whose transcript changed meanwhile is not."""
        if records:
            conn.execute(self.query(conn, "mark_facts_extracted_batch"), {
                "conversation_ids": [r["conversation_id"] for r in records],
                "transcript_hashes": [r["transcript_hash"] for r in records], "extracted_with": extracted_with})

    # -- summaries ---------------------------------------------------------------------------------------
    def save_summaries(self, conn, rows: Sequence[dict[str, Any]], *, partition_date: date, extractor: str,
                       model: str, prompt_version: str, cache_hit: bool) -> None:
        """Write conversations' summaries of one partition and backend (and fill the cache unless they came from
        it): one statement per table over arrays of the rows' columns, whatever their number. `rows`: dicts of
        conversation_id, user_key, summary, transcript_hash, input_tokens, output_tokens; conversation ids
        distinct."""
        if not rows:
            return
        columns = {plural: [row[name] for row in rows] for name, plural in (
            ("conversation_id", "conversation_ids"), ("user_key", "user_keys"), ("summary", "summaries"),
            ("transcript_hash", "transcript_hashes"), ("input_tokens", "input_tokens"),
            ("output_tokens", "output_tokens"))}
        columns.update(partition_date=partition_date, extractor=extractor, model=model, prompt_version=prompt_version)
        if not cache_hit:
            conn.execute(self.query(conn, "insert_cached_summaries"), columns)
        conn.execute(self.query(conn, "upsert_summaries"), columns)

    def clear_llm_failures(self, conn, conversation_ids: Sequence[str], stage: str) -> None:
        """Forget the recorded failures in `stage` of these conversations (they succeeded): one statement."""
        if conversation_ids:
            conn.execute(self.query(conn, "clear_llm_failures"),
                         {"conversation_ids": list(conversation_ids), "stage": stage})

    # -- LLM answers and failures ------------------------------------------------------------------------
    def save_cached_extractions(self, conn, rows: Sequence[dict[str, Any]], *, prompt_version: str,
                                model: str) -> None:
        """Cache backends' facts per transcript for this prompt version and model (first answer wins), in one
        statement. `rows`: dicts of transcript_hash, facts (ExtractedFact list), input_tokens, output_tokens."""
        if rows:
            conn.execute(self.query(conn, "insert_cached_extractions"), {
                "prompt_version": prompt_version, "model": model,
                "transcript_hashes": [r["transcript_hash"] for r in rows],
                "facts": [Jsonb([f.model_dump(mode="json") for f in r["facts"]]) for r in rows],
                "input_tokens": [r["input_tokens"] for r in rows], "output_tokens": [r["output_tokens"] for r in rows]})

    def record_llm_failures(self, conn, rows: Sequence[dict[str, Any]], *, stage: str, partition_date: date,
                            model: str, prompt_version: str) -> None:
        """Record (or count again) conversations' failed LLM calls in `stage`, each with its reason code, in one
        statement. `rows`: dicts of conversation_id and reason, conversation ids distinct."""
        if rows:
            conn.execute(self.query(conn, "record_llm_failures"), {
                "conversation_ids": [r["conversation_id"] for r in rows], "reasons": [r["reason"] for r in rows],
                "stage": stage, "partition_date": partition_date, "model": model, "prompt_version": prompt_version})

    def llm_tokens_of_partition(self, conn, day: date, stage: str, prompt_version: str, model: str) -> tuple[int, int]:
        """(input, output) tokens the partition's stored answers of `stage` cost when they were computed."""
        name = "summary_tokens_of_partition" if stage == "session_summaries" else "extraction_tokens_of_partition"
        row = conn.execute(self.query(conn, name), {"partition_date": day, "prompt_version": prompt_version,
                                                     "model": model}).fetchone()
        return int(row["input_tokens"]), int(row["output_tokens"])

    def llm_failures_of_partition(self, conn, day: date, stage: str) -> dict[str, int]:
        """{reason: conversations} of the partition's recorded failures in `stage`."""
        rows = conn.execute(self.query(conn, "llm_failures_of_partition"),
                            {"partition_date": day, "stage": stage}).fetchall()
        return {r["reason"]: r["n"] for r in rows}

    # -- candidates --------------------------------------------------------------------------------------
    def replace_candidates(
        self, conn, day: date, conversation_ids: Sequence[str], candidates: Sequence[Candidate],
        extractor: str, model: str, prompt_version: str,
    ) -> None:
        """Make the candidates of these conversations exactly `candidates` (delete the rest, then one upsert of
        all of them over arrays of their columns: a statement per step, not per candidate)."""
        ids = [c.candidate_id for c in candidates]
        conn.execute(self.query(conn, "delete_stale_candidates"), {
            "conversation_ids": list(conversation_ids), "keep": ids})
        if candidates:
            conn.execute(self.query(conn, "upsert_candidates"), {
                "partition_date": day, "extractor": extractor, "model": model, "prompt_version": prompt_version,
                "candidate_ids": ids,
                "conversation_ids": [c.conversation_id for c in candidates],
                "user_keys": [c.user_key for c in candidates], "positions": [c.position for c in candidates],
                "categories": [c.category for c in candidates], "attributes": [c.attribute for c in candidates],
                "values": [c.value for c in candidates], "facts": [c.fact for c in candidates],
                "quotes": [c.quote for c in candidates], "statuses": [c.status for c in candidates],
                "reject_reasons": [c.reason for c in candidates],
                "quote_message_ids": [c.quote_message_id for c in candidates],
                "quote_speakers": [c.quote_speaker for c in candidates], "said_ats": [c.said_at for c in candidates],
                "retractions": [c.retraction for c in candidates]})


    # -- facts -------------------------------------------------------------------------------------------
    def hold_off_erasure(self, conn) -> None:
        """Take the erasure lock shared until the transaction ends: an erasure (which takes it exclusive) waits
        for this write to commit, and a write that starts during an erasure waits for it, then re-reads. Take it
        first in every stage transaction that writes a user's data."""
        conn.execute(self.query(conn, "lock_erasure_shared"))

    def lock_user(self, conn, user_key: str) -> None:
        """Serialise reconciliation of one user across processes until the transaction ends. Take it before
        reading the user's candidates, or a concurrent partition's newer facts can be overwritten."""
        conn.execute(self.query(conn, "lock_user"), {"user_key": user_key})

    def apply_fact_versions(self, conn, user_key: str, desired: Sequence[FactVersion],
                            existing: Sequence[dict[str, Any]] | None = None,
                            full: bool | None = None) -> dict[str, int]:
        """`apply_fact_versions_of_users` for one user: make `agent_facts` of `user_key` equal `desired`. Returns
        counts: inserted, updated, deleted, newly_superseded, and `language:<configuration>` per new active
        version labelled on insert."""
        return self.apply_fact_versions_of_users(conn, [FactChange(user_key, desired, existing, full)])

    def apply_fact_versions_of_users(self, conn, changes: Sequence[FactChange]) -> dict[str, int]:
        """`send_fact_versions_of_users` waited for: returns its counts once every statement is sent."""
        return self.send_fact_versions_of_users(conn, changes).result()

    def send_fact_versions_of_users(self, conn, changes: Sequence[FactChange]) -> Pending[dict[str, int]]:
        """Make `agent_facts` of each change's user equal its `desired` versions, keeping ids of versions that
        stay, writing only rows that change: one statement per kind (delete, update, insert, link) for all these
        users together, whatever their number. Call inside the transaction that took their `lock_user` locks
        before computing `desired`. In pipeline mode every statement but the links is sent without waiting; the
        links need the new rows' ids, and are sent by `result()`, which returns the summed counts: inserted,
        updated, deleted, newly_superseded, and `language:<configuration>` (new active versions whose text
        search configuration was set on insert, by `domain.language.text_search_config`, the rule
        `embeddings.label_languages` applies to the others). Call `result()` before the transaction ends.

        A change's `existing`: None compares with every row of the user and deletes rows `desired` lacks (a full
        fold); rows of `facts_of_users` shape (an incremental fold's active rows, each in `desired`) compare with
        those only and delete nothing. `full=True` with `existing` = every row of the user (read beforehand,
        under the user's lock) is the full fold without reading them again. Order matters for the partial unique
        index on active facts (keyed by user, so users do not interfere): delete stale rows, mark rows that
        become superseded, insert new rows, then update rows that stay or become active, then link superseded_by
        where it changed."""
        unread = [c.user_key for c in changes if c.existing is None]
        read = self.fact_rows_of_users(conn, unread).result() if unread else {}
        counts: Counter[str] = Counter(inserted=0, updated=0, deleted=0, newly_superseded=0)
        stale: list[int] = []
        becoming_superseded: list[tuple[int, FactVersion]] = []
        staying_active: list[tuple[int, FactVersion]] = []
        inserts: list[FactVersion] = []
        plans = []
        for change in changes:
            existing = read.get(change.user_key, []) if change.existing is None else change.existing
            full = change.existing is None if change.full is None else change.full
            by_key = {(r["category"], fact_key(r["fact"]), r["valid_from"]): r for r in existing}
            wanted = {v.version_key: v for v in change.desired}
            if full:  # the user's lock holds them: all are deleted (rowcount is unknown yet in pipeline mode)
                stale.extend(row["id"] for key, row in by_key.items() if key not in wanted)
            for key, v in wanted.items():
                row = by_key.get(key)
                if row is None:
                    inserts.append(v)
                    counts["newly_superseded"] += v.superseded_at is not None
                elif any(row[k] != getattr(v, k) for k in _VERSION_FIELDS):
                    counts["newly_superseded"] += row["superseded_at"] is None and v.superseded_at is not None
                    (staying_active if v.superseded_at is None else becoming_superseded).append((row["id"], v))
            plans.append((by_key, wanted))
        counts["deleted"] = len(stale)
        counts["updated"] = len(becoming_superseded) + len(staying_active)
        counts["inserted"] = len(inserts)
        with conn.cursor() as cur:
            if stale:
                cur.execute(self.query(conn, "delete_facts"), {"ids": stale})
            if becoming_superseded:
                cur.execute(self.query(conn, "update_facts"), _version_columns(becoming_superseded))
        inserting = None
        if inserts:
            configs = [text_search_config(v.fact) if v.superseded_at is None else None for v in inserts]
            counts.update(f"language:{c}" for c in configs if c is not None)
            inserting = conn.execute(self.query(conn, "insert_facts"), {
                **_version_columns([(None, v) for v in inserts]),
                "user_key": [v.user_key for v in inserts], "category": [v.category for v in inserts],
                "fact": [v.fact for v in inserts], "valid_from": [v.valid_from for v in inserts],
                "fts_config": configs}, binary=True)
        if staying_active:
            conn.execute(self.query(conn, "update_facts"), _version_columns(staying_active))

        def link(rows: Iterable[dict[str, Any]]) -> dict[str, int]:
            # Rows come back by their natural key: one insert per (user, category, fact, valid_from).
            new_ids = {(r["user_key"], r["category"], r["fact"], r["valid_from"]): r["id"] for r in rows}
            link_ids, link_targets = [], []
            for by_key, wanted in plans:
                def id_of(key: tuple) -> int | None:  # the id of a version in `wanted` (None: not one of them)
                    if key not in wanted:
                        return None
                    row = by_key.get(key)
                    if row is not None:
                        return row["id"]
                    v = wanted[key]
                    return new_ids[(v.user_key, v.category, v.fact, v.valid_from)]

                for key, v in wanted.items():
                    target = id_of(v.superseded_by_key) if v.superseded_by_key else None
                    current = by_key[key]["superseded_by"] if key in by_key else None
                    if target != current:
                        link_ids.append(id_of(key))
                        link_targets.append(target)
            if link_ids:
                conn.execute(self.query(conn, "link_superseded_by"), {"ids": link_ids, "superseded_by": link_targets})
            return dict(counts)

        return Pending(inserting, link)

    # -- incremental reconciliation -----------------------------------------------------------------------
    def users_to_reconcile(self, conn, day: date) -> list[str]:
        """User keys a partition's active_facts reconciles (query `users_to_reconcile`), sorted."""
        rows = conn.execute(self.query(conn, "users_to_reconcile"), {"partition_date": day}).fetchall()
        return [r["user_key"] for r in rows]

    def _send(self, conn, name: str, user_keys: Sequence[str], parse: Callable[[Iterable[dict[str, Any]]], T]
              ) -> Pending[T]:
        """Send the named query over `user_keys` now; its rows (binary format: timestamps load faster) are
        parsed by `parse` on `Pending.result()`."""
        return Pending(conn.execute(self.query(conn, name), {"user_keys": list(user_keys)}, binary=True), parse)

    def folds_of_users(self, conn, user_keys: Sequence[str]) -> Pending[dict[str, dict[str, Any]]]:
        """{user key: fold watermark row (`fact_folds`, plus `has_forgotten`: a forget request covers some of
        their slots)}, locked until the transaction ends; users never folded are absent."""
        return self._send(conn, "folds_of_users", user_keys, lambda rows: {r["user_key"]: r for r in rows})

    def unfolded_facts_of_users(self, conn, user_keys: Sequence[str],
                                versions: dict[str, str] | None = None) -> Pending[dict[str, list[AcceptedFact]]]:
        """{user key: the user's accepted candidates not folded yet (`folded_at` NULL), from every partition}.
        `versions`, when given, receives {candidate_id: row version (xmin)} of each (for `record_fold`) when
        the result is read."""
        return self._send(conn, "unfolded_candidates_of_users", user_keys,
                          lambda rows: _by_user(_accepted_facts(rows, versions)))

    def folded_facts_of_users(self, conn, user_keys: Sequence[str]) -> Pending[dict[str, list[AcceptedFact]]]:
        """{user key: the user's accepted candidates already folded (`folded_at` set), from every partition}; with
        `unfolded_facts_of_users`, every accepted candidate of the user (a full fold's input)."""
        return self._send(conn, "folded_candidates_of_users", user_keys,
                          lambda rows: _by_user(_accepted_facts(rows, None)))

    def active_fact_rows_of_users(self, conn, user_keys: Sequence[str]) -> Pending[dict[str, list[dict[str, Any]]]]:
        """{user key: the user's active versions (`facts_of_users` columns plus `position`, the creating
        candidate's), in the order a fold created them: their candidates' said order (AcceptedFact.said_order)}."""
        def in_said_order(rows: Iterable[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
            return {user: sorted(rows, key=lambda r: (r["valid_from"], r["quote_message_id"] or 0,
                                                      r["source_session"], r["position"], r["candidate_id"]))
                    for user, rows in _by_user(rows).items()}
        return self._send(conn, "active_facts_of_users", user_keys, in_said_order)

    def fact_rows_of_users(self, conn, user_keys: Sequence[str]) -> Pending[dict[str, list[dict[str, Any]]]]:
        """{user key: every `agent_facts` row of the user (`facts_of_users` columns)}."""
        return self._send(conn, "facts_of_users", user_keys, _by_user)

    def record_fold(self, conn, folds: Sequence[FoldRecord]) -> None:
        """Record a batch of users' folds in one statement: mark the candidates each folded now
        (`FoldRecord.row_versions`, as `unfolded_facts_of_users` gives them) and set each user's watermark to
        `last` (the last candidate folded, in said order; None when none ever was) under `fold_rule`.
        `needs_refold` is cleared, unless one of the user's rows was deleted or changed since it was read (another
        process's re-extraction or re-split): then the fold used a stale candidate and the user's next
        reconciliation starts from scratch. The `fold_requests` rows each fold read (`folds_of_users`) are served
        by it and deleted. Users must be distinct."""
        if not folds:
            return
        read = [(f.user_key, candidate_id, version) for f in folds for candidate_id, version in f.row_versions.items()]
        conn.execute(self.query(conn, "record_fold"), {
            "read_user_keys": [r[0] for r in read], "candidate_ids": [r[1] for r in read],
            "row_versions": [r[2] for r in read],
            "fold_requests": [request for f in folds for request in f.fold_requests],
            "user_keys": [f.user_key for f in folds], "fold_rules": [f.fold_rule for f in folds],
            "said_at": [f.last.said_at if f.last else None for f in folds],
            "quote_message_ids": [(f.last.quote_message_id or 0) if f.last else None for f in folds],
            "conversation_ids": [f.last.conversation_id if f.last else None for f in folds],
            "positions": [f.last.position if f.last else None for f in folds],
            "last_candidate_ids": [f.last.candidate_id if f.last else None for f in folds]})

    def fact_totals(self, conn, user_keys: Sequence[str]) -> dict[str, int]:
        """Counts over these users: active (not superseded, time-to-live not over), expired (not superseded,
        time-to-live over), superseded."""
        return dict(conn.execute(self.query(conn, "active_facts_summary"), {"user_keys": list(user_keys)}).fetchone())

    def facts_for_display(self, conn, user_keys: Sequence[str]) -> list[dict[str, Any]]:
        """All fact versions of these users, active first, oldest first within each user."""
        return conn.execute(self.query(conn, "facts_for_display"), {"user_keys": list(user_keys)}).fetchall()

    # -- archive -----------------------------------------------------------------------------------------
    def analyze_conversations_if_stale(self, conn, changed_rows: int, query: str) -> bool:
        """Run the named ANALYZE `query` (statistics of some `conversations` columns) when a stage changed more
        rows than autovacuum's default analyze threshold (50 rows plus 10% of the table's row count at its last
        ANALYZE; PostgreSQL docs, "The Autovacuum Daemon", autovacuum_analyze_threshold/scale_factor), or the
        table was never analyzed. Autovacuum would analyze later; the next stage plans its statements now, and
        with the statistics of before a bulk write it chose, at 100k-1M messages, a nested loop of one
        primary-key probe per message or sorted a whole partition per page. ANALYZE reads a sample of at most
        300 x default_statistics_target rows, so its cost stays bounded however long the history; it skips the
        table when another ANALYZE or VACUUM holds it (SKIP_LOCKED). Returns whether it was asked for."""
        reltuples = self.scalar(conn, "conversations_row_estimate", {"schema": self.settings.schema_name})
        if reltuples >= 0 and changed_rows <= 50 + 0.1 * reltuples:
            return False
        conn.execute(self.query(conn, query))
        return True

    def archive_and_purge_partition(self, conn, day: date, shard: int = 0, shards: int = 1) -> tuple[int, int]:
        """Copy the rows of the partition's consolidated conversations (facts extracted) whose session key is in
        `shard` of `shards` (`hashtext`, as every sharded query) to the archive and delete from the n8n table
        those whose identical copy is archived: two set-based statements, whatever the partition's size. Call
        inside a transaction. Returns (rows archived now, rows purged now).

        Raises the transaction's work_mem to ARCHIVE_WORK_MEM (until it ends) so the purge's hash stays in memory."""
        conn.execute(self.query(conn, "archive_work_mem"), {"work_mem": ARCHIVE_WORK_MEM})
        params = {"partition_date": day, "shard": shard, "shards": shards}
        archived = conn.execute(self.query(conn, "archive_partition_rows"), params).rowcount
        purged = conn.execute(self.query(conn, "purge_partition_archived_rows"), params).rowcount
        return archived, purged

    def drop_expired_archive(self, conn) -> int:
        """Delete archive rows archived more than `archive_retention_days` ago; returns how many."""
        return conn.execute(self.query(conn, "drop_expired_archive_rows"),
                            {"retention_days": self.settings.archive_retention_days}).rowcount

    def prune_text(self, conn) -> dict[str, int]:
        """Drop conversation text past `effective_text_retention_days` and fact quotes past time-to-live plus
        `quote_grace_days` (set-based, queries `prune_*`). Call inside a transaction. Returns rows per step."""
        params = {"retention_days": self.settings.effective_text_retention_days,
                  "grace_days": self.settings.quote_grace_days}
        steps = ("conversation_text", "summaries", "summary_cache", "extraction_cache", "rejected_candidates",
                 "repeat_quotes")
        counts = {step: conn.execute(self.query(conn, f"prune_{step}"), params).rowcount for step in steps}
        expired = conn.execute(self.query(conn, "prune_expired_fact_quotes"), params).fetchall()
        counts["expired_fact_quotes"] = len(expired)
        counts["expired_candidate_quotes"] = conn.execute(self.query(conn, "prune_expired_candidate_quotes"), {
            "candidate_ids": [r["candidate_id"] for r in expired]}).rowcount
        return counts

    # -- checks ------------------------------------------------------------------------------------------
    def scalar(self, conn, name: str, params: dict[str, Any] | None = None) -> int:
        """First column of the first row of a named query, as int."""
        row = conn.execute(self.query(conn, name), params or {}).fetchone()
        return int(next(iter(row.values())))
