"""Reading facts back into the agent, from Python: the prompt block and "search my memory".

Both call the SQL functions of sql/recall.sql, the same ones n8n's Postgres node calls, so every client sees
the same facts: a user's active facts within their time-to-live (or kept alive by recalls). Each call records
a recall of the facts it returns unless `record=False` (recall reinforcement, see sql/recall.sql).

    from memory_pipeline.recall import prompt_block, search_memory
    block = prompt_block("postgresql://...", "user-42")            # "- [2026-05-01] User likes coffee.\\n..."
    hits = search_memory("postgresql://...", "user-42", "what do I drink?", k=5)
    found = search_conversations("postgresql://...", "user-42", "what did we agree about the invoice?")
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date, datetime
from typing import Any, Literal

import openai
import psycopg
from psycopg import sql
from psycopg.rows import dict_row
from pydantic import BaseModel

from memory_pipeline.db import get_pool
from memory_pipeline.embeddings import (
    Embedder,
    EmbeddingError,
    check_embedding_dimensions,
    make_embedder,
    vector_literal,
)
from memory_pipeline.settings import Settings
from memory_pipeline.store import Store

log = logging.getLogger(__name__)


class MemoryHit(BaseModel):
    """One fact found by `search_memory`. `score`: cosine distance (0..2, lower is nearer) when `method` is
    `vector`; ts_rank (higher is better) when `method` is `text`."""

    id: int
    category: str
    fact: str
    valid_from: datetime
    score: float
    method: Literal["vector", "text"]


class ConversationHit(BaseModel):
    """One earlier conversation found by `search_conversations`: the local day of its last message, its summary,
    its recallable facts (dicts of id, category, fact, quote, date YYYY-MM-DD), and `score` as in MemoryHit."""

    conversation_id: str
    conversation_date: date
    summary: str
    facts: list[dict[str, Any]]
    score: float
    method: Literal["vector", "text"]


@contextmanager
def _connection(conn_or_url: psycopg.Connection | str) -> Iterator[psycopg.Connection]:
    if isinstance(conn_or_url, str):
        with get_pool(conn_or_url).connection() as conn:
            yield conn
    else:
        yield conn_or_url


def _function(settings: Settings, name: str) -> sql.Identifier:
    return sql.Identifier(settings.schema_name, name)


def prompt_block(conn_or_url: psycopg.Connection | str, user_key: str, n: int | None = None, *,
                 settings: Settings | None = None, record: bool = True, as_of: datetime | None = None) -> str:
    """The user's `n` most recent recallable facts (None: MEMORY_PIPELINE_RECALL_BLOCK_FACTS; 0: none) as one text,
    one line each, oldest first: `- [YYYY-MM-DD] fact` (the day it was said, in the partitions' timezone).
    '' when the user has none. `as_of` judges time-to-live at another time than now (inspection; it does not
    move anything else). `conn_or_url`: an open psycopg connection or a libpq URL (then a pooled connection).
    Raises psycopg.Error when the database refuses (e.g. the role lacks EXECUTE on the function)."""
    settings = settings or Settings.from_env()
    query = sql.SQL("SELECT {}(%(user)s, %(n)s, %(record)s, coalesce(%(as_of)s, now())) AS block").format(
        _function(settings, "recall_block"))
    with _connection(conn_or_url) as conn:
        row = conn.execute(query, {"user": user_key, "n": settings.recall_block_facts if n is None else n,
                                   "record": record, "as_of": as_of}).fetchone()
    return _value(row, "block") or ""


def search_memory(conn_or_url: psycopg.Connection | str, user_key: str, query: str, k: int = 5, *,
                  settings: Settings | None = None, embedder: Embedder | None = None, record: bool = True,
                  as_of: datetime | None = None) -> list[MemoryHit]:
    """The user's top-`k` recallable facts for `query`, best first.

    With embeddings configured (`embedder`, default from MEMORY_PIPELINE_EMBEDDINGS), the query is embedded and
    facts ranked by cosine distance (`search_memory_vector`); when that finds nothing (facts not embedded yet)
    or no embeddings are configured, or the query cannot be embedded (endpoint down after the SDK's retries; a
    warning is logged), by full-text rank (`search_memory_text`). Raises EmbeddingDimensionMismatch when the
    configured size differs from the column's."""
    rows, method = _search(conn_or_url, user_key, query, k, ("search_memory_vector", "search_memory_text"),
                           settings=settings, embedder=embedder, record=record, as_of=as_of)
    score_key = "distance" if method == "vector" else "rank"
    return [_hit(r, score_key, method) for r in rows]


def search_conversations(conn_or_url: psycopg.Connection | str, user_key: str, query: str, k: int = 3, *,
                         settings: Settings | None = None, embedder: Embedder | None = None, record: bool = True,
                         as_of: datetime | None = None) -> list[ConversationHit]:
    """The user's top-`k` earlier conversations for `query` (1 to 50; more is capped at 50), best first, by
    their summary: by embedding when configured and the user's summaries have one, else by full text, with the
    same fallbacks as `search_memory`. [] for a blank query. Records a recall of each conversation and of its
    facts unless `record=False`. Raises psycopg.errors.InvalidParameterValue when k < 1."""
    rows, method = _search(conn_or_url, user_key, query, k,
                           ("search_conversations_vector", "search_conversations_text"),
                           settings=settings, embedder=embedder, record=record, as_of=as_of)
    score_key = "distance" if method == "vector" else "rank"
    return [ConversationHit(conversation_id=r["conversation_id"], conversation_date=r["conversation_date"],
                            summary=r["summary"], facts=r["facts"], score=r[score_key], method=method)
            for r in rows]


def _search(conn_or_url: psycopg.Connection | str, user_key: str, query: str, k: int, functions: tuple[str, str],
            *, settings: Settings | None, embedder: Embedder | None, record: bool,
            as_of: datetime | None) -> tuple[list, Literal["vector", "text"]]:
    """Rows of the (vector, text) SQL functions `functions` for `query`, and which answered: the vector one when
    an embedder is configured, the query could be embedded and it found anything, else the text one."""
    settings = settings or Settings.from_env()
    embedder = embedder if embedder is not None else make_embedder(settings)
    store = Store(settings)
    vector_function, text_function = functions
    query = query.replace("\x00", " ") if query else query  # PostgreSQL text holds no NUL: searched as a space
    params = {"user": user_key, "k": k, "record": record, "as_of": as_of}
    with _connection(conn_or_url) as conn, conn.cursor(row_factory=dict_row) as cursor:  # any row factory given
        vector = None
        if embedder is not None and query and query.strip():
            check_embedding_dimensions(store, conn)
            try:
                vector = vector_literal(embedder.embed([query])[0])
            except (openai.OpenAIError, EmbeddingError) as exc:
                # The endpoint is down or answers badly: the user still gets an answer, from full text.
                log.warning("query embedding failed (%s): full-text search instead", type(exc).__name__)
        if vector is not None:
            rows = cursor.execute(
                sql.SQL("SELECT * FROM {}(%(user)s, %(q)s::vector, %(k)s, %(record)s, coalesce(%(as_of)s, now()))")
                .format(_function(settings, vector_function)), {**params, "q": vector}).fetchall()
            if rows:
                return rows, "vector"
        rows = cursor.execute(
            sql.SQL("SELECT * FROM {}(%(user)s, %(q)s, %(k)s, %(record)s, coalesce(%(as_of)s, now()))")
            .format(_function(settings, text_function)), {**params, "q": query}).fetchall()
    return rows, "text"


def _value(row, key: str):
    if row is None:
        return None
    return row[key] if isinstance(row, dict) else row[0]


def _hit(row, score_key: str, method: Literal["vector", "text"]) -> MemoryHit:
    values = row if isinstance(row, dict) else dict(zip(("id", "category", "fact", "valid_from", score_key), row))
    return MemoryHit(id=values["id"], category=values["category"], fact=values["fact"],
                     valid_from=values["valid_from"], score=values[score_key], method=method)
