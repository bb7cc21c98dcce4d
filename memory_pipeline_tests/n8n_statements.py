"""The statements n8n's *Postgres PGVector Store* node sends on a read, and a way to send them as it does.

The node (`@n8n/n8n-nodes-langchain.vectorStorePGVector`, typeVersion 1.3) wraps LangChain JS's
`PGVectorStore` (`@langchain/community/vectorstores/pgvector`). Read from their sources (n8n-io/n8n,
langchain-ai/langchainjs, 2026): on every use the store first runs `CREATE EXTENSION IF NOT EXISTS vector`
(unless the store's `skipInitializationCheck` is set, which the node does not set) and
`CREATE TABLE IF NOT EXISTS <table name as typed> (id uuid ... PRIMARY KEY, text text, metadata jsonb,
embedding vector)`, with the column names configured in the node; then a similarity search sends one SELECT
with `$1` = the query vector as text `[x,y,...]`, `$2` = k, and the metadata filter as `metadata->>'<key>' = $3`
(`@langchain/community`'s pgvector store as of early 2026), or with the key bound too, `metadata ->> $3 = $4`
(the newer standalone LangChain JS pgvector provider package), so both forms are tested. The node's own *Create Extension* option (off by default) adds an advisory-locked
`CREATE EXTENSION IF NOT EXISTS vector`. node-postgres sends every parameter as text with no declared type,
through the extended protocol, which `send` below reproduces with libpq's PQexecParams.
"""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg import pq

CREATE_EXTENSION = "CREATE EXTENSION IF NOT EXISTS vector;"


def create_table(table: str) -> str:
    """The store's CREATE TABLE IF NOT EXISTS with the node's default column names (no dimensions given)."""
    return f"""
      CREATE TABLE IF NOT EXISTS {table} (
        "id" uuid NOT NULL DEFAULT gen_random_uuid() PRIMARY KEY,
        "text" text,
        "metadata" jsonb,
        "embedding" vector
      );
    """


def similarity_search(table: str, key_bound: bool = False) -> str:
    """The similarity SELECT with a one-key metadata filter (cosine distance, no collection)."""
    where = "metadata ->> $3 = $4" if key_bound else "metadata->>'user_key' = $3"
    return f"""
      SELECT *, "embedding" <=> $1 as "_distance"
      FROM {table}
      WHERE {where}
      ORDER BY "_distance" ASC
      LIMIT $2;
      """


def search_params(vector: list[float], k: int, user_key: str, key_bound: bool = False) -> list[str]:
    """Parameters as node-postgres sends them: text."""
    text = "[" + ",".join(str(x) for x in vector) + "]"
    return [text, str(k), "user_key", user_key] if key_bound else [text, str(k), user_key]


def send(conn: psycopg.Connection, statement: str, params: list[str] | None = None) -> list[dict[str, Any]]:
    """Run `statement` with text parameters of unspecified type (PQexecParams), as node-postgres does; return
    rows as {column: text value}. Raises psycopg.Error with the server's message on failure."""
    result = conn.pgconn.exec_params(statement.encode(), [p.encode() for p in (params or [])])
    if result.status not in (pq.ExecStatus.COMMAND_OK, pq.ExecStatus.TUPLES_OK):
        raise psycopg.Error(result.error_message.decode())
    names = [result.fname(i).decode() for i in range(result.nfields)]
    return [{names[c]: (v.decode() if (v := result.get_value(r, c)) is not None else None)
             for c in range(result.nfields)} for r in range(result.ntuples)]
