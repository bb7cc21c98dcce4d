"""Conversations: n8n's rows read for the split (sql/conversations.sql), stored conversations and their pages."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import date, datetime, timedelta
from typing import Any

import psycopg
from psycopg import sql
from psycopg.rows import tuple_row
from psycopg.types.json import Jsonb

from memory_pipeline.db import sql_text
from memory_pipeline.domain.conversations import Conversation
from memory_pipeline.domain.messages import ParsedRow, SourceRow
from memory_pipeline.store.base import StoreBase


# Rows a server-side cursor of `closed_sessions` fetches per round trip: a few thousand keeps round trips few
# (one per batch) while the client holds one batch, a few MiB, at a time.
WINDOW_CURSOR_ITERSIZE = 2000
# application_name of the connection `Store.pages_read_ahead` reads the next page on (pg_stat_activity shows it).
READ_AHEAD_APPLICATION = "memory_pipeline_pages"


class ConversationQueries(StoreBase):
    """n8n's rows streamed for the split, the time column, stored conversations, rejections and their pages."""

    # -- source ------------------------------------------------------------------------------------------
    @staticmethod
    def _source_row(row_id: int, session_id: str, message_text: str, created_at: datetime | None) -> SourceRow:
        try:
            message = json.loads(message_text)
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
    ) -> Iterator[SourceRow]:
        """Rows (n8n table + archive, a row in both read once) of the session keys with a message in
        [start, end), each key's from the start of the chain (run of rows with no gap over `idle_gap`) its first
        message of the window belongs to (every row of the key when `can_walk_back` is False), up to `until`;
        ordered by session key (code point order), time, id.
        Streamed with a server-side cursor: call inside a transaction and consume before it ends."""
        name = "window_rows" if self.can_walk_back(conn) else "window_rows_every_row"
        return self._stream(conn, name, {"start": start, "end": end, "until": until, "idle_gap": idle_gap})

    def can_walk_back(self, conn: psycopg.Connection) -> bool:
        """True when `window_rows` can find chain starts through indexes: the time column is a timestamp (the
        bare column in WHERE, `created_at_filter`) and n8n's table has an index led by (session_id, created_at).
        Otherwise `window_rows_every_row` reads every row of an active key (one scan of the table instead of
        one per step back)."""
        if not isinstance(self.created_at_filter(conn), sql.Identifier):
            return False
        return conn.execute(self.query(conn, "source_has_session_time_index"),
                            {"table": self.source.as_string(conn)}).fetchone()["present"]

    def stream_legacy_rows(self, conn: psycopg.Connection) -> Iterator[SourceRow]:
        """Rows without a timestamp, from the n8n table and the archive (a row in both read once), ordered by
        session key (code point order) then id. Streamed like `stream_window_rows`."""
        return self._stream(conn, "legacy_rows", {})

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
                        # message_ids as a list: psycopg writes a list as an array, refuses a tuple
                        conv.ended_at, conv.is_legacy, list(conv.message_ids), len(turns),
                        Jsonb([self._turn_record(t) for t in turns]),
                        conv.transcript_hash, closed_as_of,
                        self.settings.idle_gap_minutes))
            cur.execute(self.query(conn, "delete_overlapping_conversations_of_batch"))
            written = cur.execute(self.query(conn, "upsert_conversations_of_batch")).rowcount
        self.save_rejections(conn, conversations)
        return written

    @staticmethod
    def _turn_record(t: ParsedRow) -> dict[str, Any]:
        # A turn as stored in `conversations.transcript` (read back by `stages.records.conversation_from_record`).
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
