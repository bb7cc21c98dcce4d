"""Reads and writes of the pipeline, one method per named query of sql/queries.sql.

Identifiers (pipeline schema, n8n table) come from settings and are composed with `psycopg.sql.Identifier`;
values are bound parameters. Methods take an open connection so that the caller decides the transaction.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from datetime import date, datetime, timedelta
from typing import Any

import psycopg
from psycopg import sql
from psycopg.rows import tuple_row
from psycopg.types.json import Jsonb

from memory_pipeline import json_codec
from memory_pipeline.db import named_queries, sql_text
from memory_pipeline.domain.conversations import Conversation
from memory_pipeline.domain.facts import Candidate, fact_key
from memory_pipeline.domain.messages import ParsedRow, SourceRow
from memory_pipeline.domain.reconcile import AcceptedFact, FactVersion
from memory_pipeline.settings import Settings


# Rows a server-side cursor of `closed_sessions` fetches per round trip: a few thousand keeps round trips few
# (one per batch) while the client holds one batch, a few MiB, at a time.
WINDOW_CURSOR_ITERSIZE = 2000


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
        self, conn: psycopg.Connection, start: datetime, end: datetime, until: datetime, idle_gap: timedelta
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
    def save_summaries(self, conn, rows: Sequence[dict[str, Any]], *, cache_hit: bool) -> None:
        """Write conversations' summaries (and fill the cache unless they came from it), with one batched `executemany` per
        statement (pipeline mode) instead of a round trip per conversation."""
        if not rows:
            return
        with conn.cursor() as cur:
            if not cache_hit:
                cur.executemany(self.query(conn, "insert_cached_summary"), [
                    {k: row[k] for k in ("transcript_hash", "prompt_version", "model", "summary", "input_tokens",
                                         "output_tokens")} for row in rows])
            cur.executemany(self.query(conn, "upsert_summary"), rows)

    def clear_llm_failures(self, conn, conversation_ids: Sequence[str], stage: str) -> None:
        """Forget the recorded failures in `stage` of these conversations (they succeeded): one statement."""
        if conversation_ids:
            conn.execute(self.query(conn, "clear_llm_failures"),
                         {"conversation_ids": list(conversation_ids), "stage": stage})

    # -- LLM answers and failures ------------------------------------------------------------------------
    def save_cached_extractions(self, conn, rows: Sequence[dict[str, Any]], *, prompt_version: str,
                                model: str) -> None:
        """Cache backends' facts per transcript for this prompt version and model (first answer wins), in one
        batched `executemany`. `rows`: dicts of transcript_hash, facts (ExtractedFact list), input_tokens,
        output_tokens."""
        if rows:
            with conn.cursor() as cur:
                cur.executemany(self.query(conn, "insert_cached_extraction"), [{
                    "transcript_hash": r["transcript_hash"], "prompt_version": prompt_version, "model": model,
                    "facts": Jsonb([f.model_dump(mode="json") for f in r["facts"]]),
                    "input_tokens": r["input_tokens"], "output_tokens": r["output_tokens"]} for r in rows])

    def record_llm_failures(self, conn, rows: Sequence[dict[str, Any]], *, stage: str, partition_date: date,
                            model: str, prompt_version: str) -> None:
        """Record (or count again) conversations' failed LLM calls in `stage`, each with its reason code, in one
        batched `executemany`. `rows`: dicts of conversation_id and reason."""
        if rows:
            with conn.cursor() as cur:
                cur.executemany(self.query(conn, "record_llm_failure"), [{
                    "conversation_id": r["conversation_id"], "reason": r["reason"], "stage": stage,
                    "partition_date": partition_date, "model": model, "prompt_version": prompt_version}
                    for r in rows])

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
        """Make the candidates of these conversations exactly `candidates` (delete the rest + batched upsert)."""
        conn.execute(self.query(conn, "delete_stale_candidates"), {
            "conversation_ids": list(conversation_ids), "keep": [c.candidate_id for c in candidates]})
        rows = [{
            "candidate_id": c.candidate_id, "partition_date": day, "conversation_id": c.conversation_id,
            "user_key": c.user_key, "position": c.position, "category": c.category, "attribute": c.attribute,
            "value": c.value, "fact": c.fact, "quote": c.quote, "status": c.status, "reject_reason": c.reason,
            "quote_message_id": c.quote_message_id, "quote_speaker": c.quote_speaker, "said_at": c.said_at,
            "extractor": extractor, "model": model, "prompt_version": prompt_version,
            "retraction": c.retraction,
        } for c in candidates]
        if rows:  # one batched executemany (pipeline mode), not a round trip per candidate
            with conn.cursor() as cur:
                cur.executemany(self.query(conn, "upsert_candidate"), rows)


    def accepted_facts_of_users(self, conn, user_keys: Sequence[str],
                                versions: dict[str, str] | None = None) -> dict[str, list[AcceptedFact]]:
        """{user key: every accepted candidate of the user, from every partition} (a full fold's input); users
        without any are absent. `versions`, when given, receives {candidate_id: row version} of those not folded
        yet (for `record_fold`)."""
        return _by_user(_accepted_facts(conn.execute(
            self.query(conn, "accepted_candidates_of_users"), {"user_keys": list(user_keys)}), versions))

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
        """Make `agent_facts` of one user equal `desired`, keeping ids of versions that stay, writing only rows
        that change (one batched statement per kind: delete, update, insert, link). Call inside the transaction
        that took `lock_user` before computing `desired`. Returns counts: inserted, updated, deleted,
        newly_superseded.

        `existing`: None compares with every row of the user and deletes rows `desired` lacks (a full fold);
        rows of `facts_of_users` shape (an incremental fold's active rows, each in `desired`) compare with those
        only and delete nothing. `full=True` with `existing` = every row of the user (read beforehand, under the
        user's lock) is the full fold without reading them again. Order matters for the partial unique index on active facts: delete stale rows,
        mark rows that become superseded, insert new rows, then update rows that stay or become active, then link
        superseded_by where it changed."""
        full = existing is None if full is None else full
        if existing is None:
            existing = self.fact_rows_of_users(conn, [user_key]).get(user_key, [])
        by_key = {(r["category"], fact_key(r["fact"]), r["valid_from"]): r for r in existing}
        wanted = {v.version_key: v for v in desired}
        counts = {"inserted": 0, "updated": 0, "deleted": 0, "newly_superseded": 0}
        stale = [row["id"] for key, row in by_key.items() if key not in wanted] if full else []
        if stale:  # the user's lock holds them: all are deleted (rowcount is unknown yet in pipeline mode)
            conn.execute(self.query(conn, "delete_facts"), {"ids": stale})
            counts["deleted"] = len(stale)

        def fields(v: FactVersion) -> dict[str, Any]:
            return {"attribute": v.attribute, "value": v.value, "quote": v.quote,
                    "quote_message_id": v.quote_message_id, "quote_speaker": v.quote_speaker,
                    "source_session": v.source_session, "candidate_id": v.candidate_id,
                    "last_seen_at": v.last_seen_at, "expires_at": v.expires_at, "superseded_at": v.superseded_at}

        becoming_superseded, staying_active, inserts = [], [], []
        for key, v in wanted.items():
            row = by_key.get(key)
            if row is None:
                inserts.append(v)
                counts["newly_superseded"] += v.superseded_at is not None
                continue
            new = fields(v)
            if any(row[k] != new[k] for k in new):
                counts["newly_superseded"] += row["superseded_at"] is None and v.superseded_at is not None
                (staying_active if v.superseded_at is None else becoming_superseded).append({**new, "id": row["id"]})
        counts["updated"] = len(becoming_superseded) + len(staying_active)
        counts["inserted"] = len(inserts)
        ids = {key: row["id"] for key, row in by_key.items() if key in wanted}
        with conn.cursor() as cur:
            if becoming_superseded:
                cur.executemany(self.query(conn, "update_fact"), becoming_superseded)
            if inserts:
                with conn.cursor() as inserting:  # its own cursor: one result set per row inserted
                    inserting.executemany(self.query(conn, "insert_fact"), [{
                        **fields(v), "user_key": v.user_key, "category": v.category, "fact": v.fact,
                        "valid_from": v.valid_from} for v in inserts], returning=True)
                    for v in inserts:
                        ids[v.version_key] = inserting.fetchone()["id"]
                        inserting.nextset()
            if staying_active:
                cur.executemany(self.query(conn, "update_fact"), staying_active)
            links = []
            for key, v in wanted.items():
                target = ids.get(v.superseded_by_key) if v.superseded_by_key else None
                current = by_key[key]["superseded_by"] if key in by_key else None
                if target != current:
                    links.append({"id": ids[key], "superseded_by": target})
            if links:
                cur.executemany(self.query(conn, "link_superseded_by"), links)
        return counts

    # -- incremental reconciliation -----------------------------------------------------------------------
    def users_to_reconcile(self, conn, day: date) -> list[str]:
        """User keys a partition's active_facts reconciles (query `users_to_reconcile`), sorted."""
        rows = conn.execute(self.query(conn, "users_to_reconcile"), {"partition_date": day}).fetchall()
        return [r["user_key"] for r in rows]

    def folds_of_users(self, conn, user_keys: Sequence[str]) -> dict[str, dict[str, Any]]:
        """{user key: fold watermark row (`fact_folds`, plus `has_forgotten`: a forget request covers some of
        their slots)}, locked until the transaction ends; users never folded are absent."""
        rows = conn.execute(self.query(conn, "folds_of_users"), {"user_keys": list(user_keys)})
        return {r["user_key"]: r for r in rows}

    def unfolded_facts_of_users(self, conn, user_keys: Sequence[str],
                                versions: dict[str, str] | None = None) -> dict[str, list[AcceptedFact]]:
        """{user key: the user's accepted candidates not folded yet (`folded_at` NULL), from every partition}.
        `versions`, when given, receives {candidate_id: row version (xmin)} of each (for `record_fold`)."""
        return _by_user(_accepted_facts(conn.execute(
            self.query(conn, "unfolded_candidates_of_users"), {"user_keys": list(user_keys)}), versions))

    def active_fact_rows_of_users(self, conn, user_keys: Sequence[str]) -> dict[str, list[dict[str, Any]]]:
        """{user key: the user's active versions (`facts_of_users` columns plus `position`, the creating
        candidate's), in the order a fold created them: their candidates' said order (AcceptedFact.said_order)}."""
        grouped = _by_user(conn.execute(self.query(conn, "active_facts_of_users"), {"user_keys": list(user_keys)}))
        return {user: sorted(rows, key=lambda r: (r["valid_from"], r["quote_message_id"] or 0, r["source_session"],
                                                  r["position"], r["candidate_id"]))
                for user, rows in grouped.items()}

    def fact_rows_of_users(self, conn, user_keys: Sequence[str]) -> dict[str, list[dict[str, Any]]]:
        """{user key: every `agent_facts` row of the user (`facts_of_users` columns)}."""
        return _by_user(conn.execute(self.query(conn, "facts_of_users"), {"user_keys": list(user_keys)}))

    def record_fold(self, conn, user_key: str, row_versions: Mapping[str, str], last: AcceptedFact | None,
                    fold_rule: str, fold_requests: Sequence[int] = ()) -> None:
        """Mark the candidates folded now ({candidate_id: row version read}, as `unfolded_facts_of_users` gives
        them) and set the user's watermark to `last` (the last candidate folded, in said order; None when none
        ever was) under `fold_rule`. `needs_refold` is cleared, unless one of these rows was deleted or changed
        since it was read (another process's re-extraction or re-split): then the fold used a stale candidate
        and the user's next reconciliation starts from scratch. `fold_requests`: the ids of the user's
        `fold_requests` rows this fold read (`folds_of_users`), served by it and deleted."""
        conn.execute(self.query(conn, "record_fold"), {
            "user_key": user_key, "fold_rule": fold_rule, "candidate_ids": list(row_versions),
            "row_versions": list(row_versions.values()), "fold_requests": list(fold_requests),
            "said_at": last.said_at if last else None,
            "quote_message_id": (last.quote_message_id or 0) if last else None,
            "conversation_id": last.conversation_id if last else None,
            "position": last.position if last else None,
            "candidate_id": last.candidate_id if last else None})

    def fact_totals(self, conn, user_keys: Sequence[str]) -> dict[str, int]:
        """Counts over these users: active (not superseded, time-to-live not over), expired (not superseded,
        time-to-live over), superseded."""
        return dict(conn.execute(self.query(conn, "active_facts_summary"), {"user_keys": list(user_keys)}).fetchone())

    def facts_for_display(self, conn, user_keys: Sequence[str]) -> list[dict[str, Any]]:
        """All fact versions of these users, active first, oldest first within each user."""
        return conn.execute(self.query(conn, "facts_for_display"), {"user_keys": list(user_keys)}).fetchall()

    # -- archive -----------------------------------------------------------------------------------------
    def archive_and_purge_partition(self, conn, day: date) -> tuple[int, int]:
        """Copy the rows of the partition's consolidated conversations (facts extracted) to the archive and
        delete from the n8n table those whose identical copy is archived: two set-based statements, whatever
        the partition's size. Call inside a transaction. Returns (rows archived now, rows purged now)."""
        params = {"partition_date": day}
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
