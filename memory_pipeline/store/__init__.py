"""Reads and writes of the pipeline, one class per concern, each method running named queries of its
sql/<concern>.sql: `conversations`, `summaries` (and candidates), `facts`, `archive`, `shards` (the shards of a
night that finished); `erasure` holds the
erasure steps the fold shares; `base` the composition of queries every part uses. `Store` is all of them.

Identifiers (pipeline schema, n8n table) come from settings and are composed with `psycopg.sql.Identifier`;
values are bound parameters. Methods take an open connection so that the caller decides the transaction.
"""

from memory_pipeline.store.archive import ArchiveQueries
from memory_pipeline.store.base import Pending, SourceTableMissing, StoreBase
from memory_pipeline.store.conversations import ConversationQueries
from memory_pipeline.store.facts import FactChange, FactQueries, FoldRecord
from memory_pipeline.store.shards import ShardQueries
from memory_pipeline.store.summaries import SummaryQueries

__all__ = ["FactChange", "FoldRecord", "Pending", "SourceTableMissing", "Store"]


class Store(ConversationQueries, SummaryQueries, FactQueries, ArchiveQueries, ShardQueries, StoreBase):
    """Query access for one settings object: every concern's reads and writes (see the module docstring)."""
