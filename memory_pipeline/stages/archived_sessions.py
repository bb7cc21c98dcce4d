"""Stage 5, `archived_sessions`: raw rows of consolidated conversations archived then purged from n8n's table;
archive rows and conversation text past retention dropped."""

from __future__ import annotations

from datetime import date

import psycopg

from memory_pipeline.stages.common import StageResult
from memory_pipeline.store import Store


def archived_sessions(store: Store, conn: psycopg.Connection, day: date) -> StageResult:
    """Archive then purge the raw rows of the day's consolidated conversations (two set-based statements in one
    transaction; the rows of its unattributed conversations, archived by closed_sessions, are purged with them),
    then drop archive rows past retention and conversation text past text retention
    (`Store.prune_text`). Conversations whose facts were not extracted keep their rows. The statistics of the
    columns that pick the consolidated conversations are refreshed first when the extraction set many of them
    (`Store.analyze_conversations_if_stale`), so the archive and purge are planned for their real row count."""
    with conn.transaction():
        consolidated = store.scalar(conn, "consolidated_conversations_of_partition", {"partition_date": day})
        store.analyze_conversations_if_stale(conn, consolidated, "analyze_conversations_extracted")
    with conn.transaction():
        store.hold_off_erasure(conn)  # copying rows an erasure just deleted from the archive would bring them back
        archived, purged = store.archive_and_purge_partition(conn, day)
        unattributed_purged = store.purge_unattributed_partition(conn, day)
    kept = store.scalar(conn, "unconsolidated_conversations_of_partition", {"partition_date": day})
    with conn.transaction():
        dropped = store.drop_expired_archive(conn)
        pruned = store.prune_text(conn)
    return StageResult({
        "rows_archived": archived,
        "rows_purged": purged,
        "unattributed_rows_purged": unattributed_purged,  # rows of a blank key (archived by closed_sessions)
        "conversations_kept_unconsolidated": kept,
        "archive_rows_dropped_past_retention": dropped,
        "archive_retention_days": store.settings.archive_retention_days,
        "text_retention_days": store.settings.effective_text_retention_days,
        **{f"text_pruned_{step}": n for step, n in pruned.items()},
    })

