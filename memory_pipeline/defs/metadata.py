"""Names of the figures each materialization carries, so that a re-run never overwrites a day's plots with zeros.

A partition's materialization holds two kinds of figures:
- `partition_<name>`: the partition's state read from the tables (conversations, summaries, candidates, facts,
  archived rows of that day), the same whichever run wrote them; these are what to plot over days;
- `run_<name>`: what this run did (the stage's own counts: conversations stored, summaries computed, tokens
  spent, candidates written, facts inserted/superseded, rows archived/purged); a re-run of a finished day
  reports zeros there.
Settings and notes that describe the run (idle gap, model, prompt version, retention) keep their plain names.
Plain counts, ids and hashes only: Dagster's event log cannot be erased, so no message or fact text.
"""

from __future__ import annotations

from typing import Any

PARTITION_PREFIX = "partition_"
RUN_PREFIX = "run_"
# Keys that describe the run's settings or explain it, not a count of what it did.
DESCRIPTIVE_KEYS = frozenset({
    "note", "model", "prompt_version", "idle_gap_minutes", "archive_retention_days", "is_backlog_date",
    "source_has_created_at",
})
# The table rows of a partition that each asset writes: Dagster's catalog shows it as `dagster/row_count`.
ROW_COUNT_FIGURE = {
    "closed_sessions": "conversations",
    "session_summaries": "summaries",
    "extracted_facts": "candidates",
    "active_facts": "facts",
    "archived_sessions": "rows_archived",
}


def published_metadata(asset: str, stage_figures: dict[str, Any], state: dict[str, Any]) -> dict[str, Any]:
    """Metadata of one partition's materialization of `asset`: `state` (from `stages.partition_state`) under
    `partition_*`, the stage's figures under `run_*` (descriptive keys unchanged), and `dagster/row_count` (the
    partition's rows in the table the asset writes)."""
    published: dict[str, Any] = {PARTITION_PREFIX + k: v for k, v in state.items()}
    for key, value in stage_figures.items():
        published[key if key in DESCRIPTIVE_KEYS else RUN_PREFIX + key] = value
    if asset in ROW_COUNT_FIGURE and ROW_COUNT_FIGURE[asset] in state:
        published["dagster/row_count"] = state[ROW_COUNT_FIGURE[asset]]
    return published


def stage_figures(published: dict[str, Any]) -> dict[str, Any]:
    """The inverse for readers of a materialization (CLI, tests): the stage's figures under the names
    `memory_pipeline.stages` gives them (`run_` stripped), plus every published key as it is."""
    figures = dict(published)
    for key, value in published.items():
        if key.startswith(RUN_PREFIX):
            figures.setdefault(key[len(RUN_PREFIX):], value)
    return figures
