"""Embeddings of active facts, and the text search language of each fact, for recall.

`MEMORY_PIPELINE_EMBEDDINGS=openai` embeds through the `openai` SDK: it reads OPENAI_API_KEY and
OPENAI_BASE_URL, so any OpenAI-compatible server works (Ollama, vLLM, LiteLLM, Azure). Unset (`none`, the
default) the embedding column stays NULL and recall goes through PostgreSQL full-text search.

`index_new_facts` runs at the end of the `active_facts` stage, after reconciliation: it sets the text search
configuration of facts that have none, then embeds the active facts without an embedding (new versions, and
those a failure left without one on an earlier night), in batches, through a cache keyed by (sha256 of the
text, model, dimensions). A failing request never fails the stage: the facts stay, their embedding stays NULL,
the failure is counted in the metadata, and the next night tries again.
"""

from __future__ import annotations

import hashlib
import logging
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import openai
import psycopg
from psycopg.rows import dict_row

from memory_pipeline.domain.language import text_search_config
from memory_pipeline.settings import Settings
from memory_pipeline.store import Store

log = logging.getLogger(__name__)

# The openai SDK retries connection errors, 408/409/429 and 5xx itself, with backoff; these bound each call.
EMBEDDING_TIMEOUT_SECONDS = 60.0
EMBEDDING_MAX_RETRIES = 3


class EmbeddingError(RuntimeError):
    """The endpoint answered, but not with one vector of the configured size per input text."""


class EmbeddingDimensionMismatch(RuntimeError):
    """agent_facts.embedding was created with another size than MEMORY_PIPELINE_EMBEDDING_DIMENSIONS; the
    message names both and what to do."""


class Embedder(Protocol):
    """Turns texts into vectors of `dimensions` floats, one per text, in order."""

    model: str
    dimensions: int

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One vector per text. Raises EmbeddingError or an `openai.OpenAIError`."""
        ...


class OpenAIEmbedder:
    """Embeddings through the openai SDK (`client.embeddings.create`), asking for `dimensions` (models of the
    text-embedding-3 family shorten their vectors on request; other servers must natively return that size)."""

    def __init__(self, model: str, dimensions: int, client: openai.OpenAI | None = None):
        self.model = model
        self.dimensions = dimensions
        self.client = client or openai.OpenAI(timeout=EMBEDDING_TIMEOUT_SECONDS, max_retries=EMBEDDING_MAX_RETRIES)

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One vector per text, in the order given. Raises EmbeddingError when the answer has another count or
        size, and the SDK's errors (`openai.APIError` and subclasses) when the request fails after retries."""
        response = self.client.embeddings.create(model=self.model, input=list(texts), dimensions=self.dimensions)
        vectors = [item.embedding for item in sorted(response.data, key=lambda item: item.index)]
        if len(vectors) != len(texts):
            raise EmbeddingError(f"{len(vectors)} embeddings returned for {len(texts)} texts")
        sizes = {len(v) for v in vectors}
        if sizes != {self.dimensions}:
            raise EmbeddingError(f"embeddings of size {sorted(sizes)} returned, {self.dimensions} configured")
        return vectors


def make_embedder(settings: Settings) -> Embedder | None:
    """The configured embedder, or None when `settings.embeddings` is `none`. Raises `openai.OpenAIError` when
    `openai` is chosen and no OPENAI_API_KEY is set (a local server takes any non-empty key)."""
    if settings.embeddings == "none":
        return None
    return OpenAIEmbedder(settings.embedding_model, settings.embedding_dimensions)


def vector_literal(vector: Sequence[float]) -> str:
    """pgvector's text form of a vector: `[0.1,0.2,...]`."""
    return "[" + ",".join(repr(float(x)) for x in vector) + "]"


def text_sha256(text: str) -> str:
    """Cache key of a text: hex sha256 of its UTF-8 bytes."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def embedding_column_dimensions(store: Store, conn: psycopg.Connection) -> int | None:
    """Size N of agent_facts.embedding vector(N) as the table was created (None: no size declared)."""
    with conn.cursor(row_factory=dict_row) as cursor:  # any connection, whatever its row factory
        row = cursor.execute(store.query(conn, "embedding_column_dimensions"),
                             {"schema": store.settings.schema_name}).fetchone()
    return row["dims"] if row and row["dims"] > 0 else None


def check_embedding_dimensions(store: Store, conn: psycopg.Connection) -> None:
    """Raise EmbeddingDimensionMismatch when the column's size differs from the configured one. The column is
    sized when the table is first created; changing the setting later does not resize it."""
    column = embedding_column_dimensions(store, conn)
    configured = store.settings.embedding_dimensions
    if column is not None and column != configured:
        raise EmbeddingDimensionMismatch(
            f"{store.settings.schema_name}.agent_facts.embedding is vector({column}) but "
            f"MEMORY_PIPELINE_EMBEDDING_DIMENSIONS={configured}: set it back to {column} (or a model of that size), "
            "or drop the column's index and alter it: ALTER TABLE ... ALTER COLUMN embedding TYPE "
            f"vector({configured}) USING NULL, then re-create agent_facts_embedding_hnsw (init-db does)."
        )


# Facts labelled per page by label_languages: memory holds one page, whatever the night's size.
LANGUAGE_PAGE = 2000


@dataclass(frozen=True)
class IndexTarget:
    """What gets a text search language and an embedding: active facts, or searchable conversation summaries.
    The names are named queries of sql/embeddings.sql; their pages are keyset pages from `first` on, each row
    an `id` and its `text`."""

    unlabelled: str
    set_config: str
    unembedded: str
    count_unembedded: str
    set_embeddings: str
    first: int | str


FACTS = IndexTarget("facts_without_fts_config", "set_fts_config", "facts_without_embedding",
                    "count_facts_without_embedding", "set_embeddings_from_cache", 0)
SUMMARIES = IndexTarget("summaries_without_fts_config", "set_summary_fts_config", "summaries_without_embedding",
                        "count_summaries_without_embedding", "set_summary_embeddings_from_cache", "")


def label_languages(store: Store, conn: psycopg.Connection, target: IndexTarget = FACTS) -> Counter[str]:
    """Set fts_config on active facts (or, with `target=SUMMARIES`, on summaries holding text) that have none,
    a page of LANGUAGE_PAGE per transaction; returns {configuration: rows labelled}."""
    labelled: Counter[str] = Counter()
    after = target.first
    while True:
        rows = conn.execute(store.query(conn, target.unlabelled),
                            {"after": after, "limit": LANGUAGE_PAGE}).fetchall()
        if not rows:
            return labelled
        by_config: dict[str, list] = defaultdict(list)
        for row in rows:
            by_config[text_search_config(row["text"])].append(row["id"])
        with conn.transaction():
            for config, ids in by_config.items():
                conn.execute(store.query(conn, target.set_config), {"config": config, "ids": ids})
        labelled.update({config: len(ids) for config, ids in by_config.items()})
        after = rows[-1]["id"]


# Facts embedded per page by embed_new_facts: memory holds one page, whatever the night's size.
EMBEDDING_PAGE = 2000


def embed_new_facts(store: Store, conn: psycopg.Connection, embedder: Embedder,
                    target: IndexTarget = FACTS) -> dict[str, Any]:
    """Embed active facts (or, with `target=SUMMARIES`, searchable summaries) without an embedding, through the
    cache, a page of EMBEDDING_PAGE at a time and one transaction per request batch. Returns counts (the keys
    named for facts; `index_new_facts` prefixes the summaries'): embedded, cache hits, requests, failed (still
    NULL, retried next night) and the failure kinds."""
    counts: Counter[str] = Counter()
    failures: Counter[str] = Counter()
    try:
        check_embedding_dimensions(store, conn)
    except EmbeddingDimensionMismatch as exc:
        log.warning("embeddings skipped: %s", exc)
        pending = store.scalar(conn, target.count_unembedded, {"after": target.first})
        return {"embeddings_failed": pending, "embedding_failures": {"dimension_mismatch": pending}}
    after = target.first
    while True:
        rows = conn.execute(store.query(conn, target.unembedded),
                            {"after": after, "limit": EMBEDDING_PAGE}).fetchall()
        if not rows:
            break
        after = rows[-1]["id"]
        down = _embed_page(store, conn, embedder, rows, counts, failures, target.set_embeddings)
        if down:  # the endpoint is down: the facts of later pages wait for the next night too
            failures[down] += store.scalar(conn, target.count_unembedded, {"after": after})
            break
    return {
        "facts_embedded": counts["embedded"],
        "embedding_cache_hits": counts["cache_hits"],
        "embedding_requests": counts["requests"],
        "embeddings_failed": sum(failures.values()),
        "embedding_failures": dict(sorted(failures.items())),
    }


def _embed_page(store: Store, conn: psycopg.Connection, embedder: Embedder, rows: list[dict[str, Any]],
                counts: Counter[str], failures: Counter[str], set_embeddings: str) -> str | None:
    """Embed one page (`rows`: id, text), adding to `counts` and `failures`; `set_embeddings` the named query
    that copies the cached vectors to the rows. Returns the failure kind when the endpoint is down or refusing
    (the rest of the night should wait), else None."""
    params = {"model": embedder.model, "dimensions": embedder.dimensions}
    ids_by_hash: dict[str, list] = defaultdict(list)
    text_by_hash: dict[str, str] = {}
    for row in rows:
        digest = text_sha256(row["text"])
        ids_by_hash[digest].append(row["id"])
        text_by_hash[digest] = row["text"]
    hashes = list(ids_by_hash)
    cached = {r["text_sha256"] for r in conn.execute(
        store.query(conn, "cached_embedding_hashes"), {**params, "hashes": hashes}).fetchall()}
    missing = [h for h in hashes if h not in cached]
    counts["cache_hits"] += sum(len(ids_by_hash[h]) for h in cached)
    batch_size = store.settings.embedding_batch_size
    usable = set(cached)
    batches = [missing[start:start + batch_size] for start in range(0, len(missing), batch_size)]
    down = None
    while batches:
        batch = batches.pop(0)
        try:
            counts["requests"] += 1
            vectors = embedder.embed([text_by_hash[h] for h in batch])
        except (openai.OpenAIError, EmbeddingError) as exc:
            kind = type(exc).__name__
            if isinstance(exc, openai.BadRequestError) and len(batch) > 1:
                # The server refuses one text (too long for the model, say): halve the batch until that text is
                # alone, or the same batch would fail every night and keep its other facts without embedding.
                half = len(batch) // 2
                batches[:0] = [batch[:half], batch[half:]]
                continue
            failures[kind] += sum(len(ids_by_hash[h]) for h in batch)
            log.warning("embedding batch of %d texts failed: %s", len(batch), kind)
            if not isinstance(exc, (openai.BadRequestError, EmbeddingError)):
                # The endpoint is down or refusing (after the SDK's retries): leave the rest for next night.
                failures[kind] += sum(len(ids_by_hash[h]) for rest in batches for h in rest)
                down = kind
                break
            continue
        with conn.transaction():
            conn.execute(store.query(conn, "insert_cached_embeddings"),
                         {**params, "hashes": batch, "vectors": [vector_literal(v) for v in vectors]})
        usable.update(batch)
    pairs = [(fact_id, h) for h in usable for fact_id in ids_by_hash[h]]
    if pairs:
        with conn.transaction():
            counts["embedded"] += conn.execute(store.query(conn, set_embeddings), {
                **params, "ids": [p[0] for p in pairs], "hashes": [p[1] for p in pairs]}).rowcount
    return down


def index_new_facts(store: Store, conn: psycopg.Connection, embedder: Embedder | None) -> dict[str, Any]:
    """What the `active_facts` stage runs after reconciliation: text search languages, then embeddings when an
    embedder is configured, of the active facts, then of the conversation summaries (for the conversation
    search; their counts prefixed `summaries_`/`summary_`). Returns metadata counts (no text)."""
    languages = label_languages(store, conn)
    summary_languages = label_languages(store, conn, SUMMARIES)
    metadata: dict[str, Any] = {"facts_language_labelled": dict(sorted(languages.items())),
                                "summaries_language_labelled": dict(sorted(summary_languages.items())),
                                "embeddings": f"{embedder.model}/{embedder.dimensions}" if embedder else "none"}
    if embedder is not None:
        # One embedding pass at a time per schema (a backfill runs partitions side by side): the second waits,
        # then finds the facts embedded and pays for none of them twice.
        conn.execute(store.query(conn, "lock_embeddings"), {"schema": store.settings.schema_name})
        try:
            metadata.update(embed_new_facts(store, conn, embedder))
            summaries = embed_new_facts(store, conn, embedder, SUMMARIES)
            metadata.update({
                "summaries_embedded": summaries.get("facts_embedded", 0),
                "summary_embedding_cache_hits": summaries.get("embedding_cache_hits", 0),
                "summary_embedding_requests": summaries.get("embedding_requests", 0),
                "summary_embeddings_failed": summaries["embeddings_failed"],
                "summary_embedding_failures": summaries["embedding_failures"],
            })
        finally:
            conn.execute(store.query(conn, "unlock_embeddings"), {"schema": store.settings.schema_name})
    return metadata
