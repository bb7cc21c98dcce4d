"""The database commands: `init-db`, `add-time-column`, `db url`, `db stop`."""

from __future__ import annotations

import argparse
import sys
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from memory_pipeline.db import get_pool, stop_embedded
from memory_pipeline.store import Store


def init_db(args: argparse.Namespace) -> int:
    """Apply sql/schema.sql (idempotent) and print where the data lives."""
    from memory_pipeline.runner import prepare

    from memory_pipeline.embeddings import EmbeddingDimensionMismatch, check_embedding_dimensions

    env = prepare(args.settings)
    print(f"Schema {env.settings.schema_name} ready; Dagster home {env.dagster_home}.")
    with get_pool(env.database_url).connection() as conn:
        try:
            check_embedding_dimensions(Store(env.settings), conn)
        except EmbeddingDimensionMismatch as exc:
            print(f"Warning: {exc}", file=sys.stderr)
    return 0


def add_time_column(args: argparse.Namespace) -> int:
    """Add created_at to n8n's table (old rows stay NULL = legacy backlog; new rows get now())."""
    from memory_pipeline.runner import prepare

    env = prepare(args.settings)
    store = Store(env.settings)
    with get_pool(env.database_url).connection() as conn:
        had_it = store.has_created_at(conn)  # raises SourceTableMissing with the settings to fix
        store.add_time_column(conn)
    name = f"{env.settings.source_schema}.{env.settings.source_table}"
    if had_it:
        print(f"{name} already has created_at; its default is now() and it is indexed with session_id.")
    else:
        yesterday = datetime.now(ZoneInfo(env.settings.timezone)).date() - timedelta(days=1)
        print(f"{name}: created_at added (default now()); existing rows keep NULL and are consolidated on the "
              f"backlog date: set MEMORY_PIPELINE_BACKLOG_DATE={yesterday.isoformat()} (the latest day they can "
              "have been said that can be materialized) and materialize that day.")
    return 0


def db(args: argparse.Namespace) -> int:
    """`db url` prints the database URL (starting the embedded server); `db stop` stops the embedded server."""
    settings = args.settings
    if args.db_action == "stop":
        print("stopped" if stop_embedded(settings) else "not running")
        return 0
    from memory_pipeline.db import resolve_database_url

    print(resolve_database_url(settings))
    return 0
