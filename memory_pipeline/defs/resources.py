"""The Dagster resource that hands assets a database connection, the settings and the extractor."""


import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager

import dagster as dg
import openai
import psycopg

from memory_pipeline.db import ensure_schema, get_pool, resolve_database_url
from memory_pipeline.domain.shards import Shard
from memory_pipeline.embeddings import Embedder, make_embedder
from memory_pipeline.extractors import make_extractor
from memory_pipeline.extractors.base import Extractor
from memory_pipeline.settings import ENV_PREFIX, Settings
from memory_pipeline.store import Store

_schema_ready: set[tuple[str, str]] = set()


class MemoryPipelineResource(dg.ConfigurableResource):
    """Settings of a run, shown in the UI's resource tab. The database URL is not a field (it may hold a
    password): it is read from MEMORY_PIPELINE_DATABASE_URL when the run starts, or the embedded server is used.
    Neither is the LLM's key nor its server: the openai SDK reads OPENAI_API_KEY / OPENAI_BASE_URL itself.
    """

    home: str
    embedded_port: int | None = None
    embedded_listen: str = "127.0.0.1"
    source_table: str
    source_schema: str
    schema_name: str
    dagster_schema: str
    timezone: str
    partitions_start: str
    partitions_end: str | None = None
    backlog_date: str | None = None
    idle_gap_minutes: int
    max_conversation_hours: int
    user_key_regex: str | None = None
    sender_user_key: str
    group_chat_session_keys: str | None = None
    archive_retention_days: int
    max_message_chars: int
    extractor: str
    summary_model: str
    extraction_model: str
    llm_timeout_seconds: float
    llm_max_retries: int
    structured_output: str
    llm_max_in_flight: int
    llm_breaker_failures: int = 4
    llm_chunk_tokens: int
    llm_input_price_per_million: float
    llm_output_price_per_million: float
    embedding_dimensions: int
    embeddings: str
    embedding_model: str
    embedding_batch_size: int
    recall_block_facts: int
    recall_extension_days: int
    recall_max_extension_days: int
    recall_ef_search: int
    asset_owners: str = "team:data"
    freshness_deadline_hour: int = 6
    shards: int = 1
    erase_on_retraction: bool = False
    text_retention_days: int | None = None
    quote_grace_days: int = 30
    near_duplicate_threshold: float = 0.9
    llm_max_tokens: int = 1024
    llm_verify: bool = False

    model_config = {"extra": "forbid"}  # a Settings field missing here must fail loudly, not fall to its default

    @classmethod
    def from_settings(cls, settings: Settings) -> "MemoryPipelineResource":
        """The resource for `settings` (the database URL is left out: it is read from the environment)."""
        values = settings.model_dump(exclude={"database_url"}, mode="json")
        return cls(**values)

    def get_settings(self) -> Settings:
        """Validated settings of this run (raises pydantic.ValidationError on a bad value)."""
        url = os.environ.get(ENV_PREFIX + "DATABASE_URL") or None
        return Settings(database_url=url, **self.model_dump())

    def get_store(self, shard: Shard | None = None) -> Store:
        """A Store over this run's settings, for `shard` of the night (default: the whole night)."""
        return Store(self.get_settings(), shard)

    def get_embedder(self) -> "Embedder | None":
        """The configured embeddings client, or None when `embeddings` is `none` (recall uses full-text search)
        or the client cannot be built (no OPENAI_API_KEY): facts are then reconciled without embeddings, which
        the next night adds, and a warning is logged."""
        try:
            return make_embedder(self.get_settings())
        except openai.OpenAIError as exc:
            logging.getLogger(__name__).warning("embeddings disabled for this run: %s", type(exc).__name__)
            return None

    def get_extractor(self) -> Extractor:
        """The configured backend (`make_extractor` of this run's settings)."""
        return make_extractor(self.get_settings())

    @contextmanager
    def connection(self) -> Iterator[psycopg.Connection]:
        """A pooled connection to the pipeline's database, with the schema applied once per process."""
        settings = self.get_settings()
        url = resolve_database_url(settings)
        with get_pool(url).connection() as conn:
            if (url, settings.schema_name) not in _schema_ready:
                ensure_schema(conn, settings)
                _schema_ready.add((url, settings.schema_name))
            yield conn
