"""Each asset's partition state as the tables hold it now (what the UI shows next to a run's own counts)."""

from __future__ import annotations

from datetime import date
from typing import Any

import psycopg

from memory_pipeline.store import Store


# Named queries each asset's partition state reads (sql/checks.sql); every column becomes `partition_<column>`.
PARTITION_STATE_QUERIES = {
    "closed_sessions": ["partition_state_conversations"],
    "session_summaries": ["partition_state_summaries"],
    "extracted_facts": ["partition_state_candidates"],
    "active_facts": ["partition_state_facts"],
    "archived_sessions": ["partition_state_archive"],
}


def partition_state(store: Store, conn: psycopg.Connection, day: date, asset: str) -> dict[str, Any]:
    """The partition's state for `asset` as the tables hold it now, whichever run wrote it: {column: count}
    (ints; the `*_by_reason` and `*_by_category` columns are {name: count} dicts, `sentences_mean` a float).
    Re-running a finished partition gives the same figures, unlike the stage's own counts, which say what one run
    did.

    Raises KeyError for an asset name not in PARTITION_STATE_QUERIES."""
    state: dict[str, Any] = {}
    for name in PARTITION_STATE_QUERIES[asset]:
        row = conn.execute(store.query(conn, name), {"partition_date": day}).fetchone()
        state.update({k: (v if isinstance(v, (dict, float)) else int(v)) for k, v in row.items()})
    return state
