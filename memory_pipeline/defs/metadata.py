"""Names of the figures each materialization carries, so that a re-run never overwrites a day's plots with zeros.

A partition's materialization holds two kinds of figures:
- `partition_<name>`: the partition's state read from the tables (conversations, summaries, candidates, facts,
  archived rows of that day), the same whichever run wrote them; these are what to plot over days;
- `run_<name>`: what this run did (the stage's own counts: conversations stored, summaries computed, tokens
  spent, candidates written, facts inserted/superseded, rows archived/purged); a re-run of a finished day
  reports zeros there.
Settings and notes that describe the run (idle gap, model, prompt version, retention) keep their plain names.
Plain counts, ids and hashes only: Dagster's event log cannot be erased, so no message or fact text.

What the UI plots: the asset's Plots view (Overview tab, Metadata, Plots) in *Partitions* mode draws one chart per
numeric figure (int or float) of each partition's latest materialization, over the last 120 partitions of the
partitions definition. A {name: count} map would be one JSON value, never plotted (and an empty one shows as
`{}`), so each map is published flat, one figure per key (`run_rejected_by_reason.no_quote`), none when empty.
`summary` is a small markdown table of the asset's headline counts for a person to read at a glance.
"""

from __future__ import annotations

from typing import Any

import dagster as dg

PARTITION_PREFIX = "partition_"
RUN_PREFIX = "run_"
# Keys that describe the run's settings or explain it, not a count of what it did.
DESCRIPTIVE_KEYS = frozenset({
    "note", "model", "prompt_version", "idle_gap_minutes", "archive_retention_days", "is_backlog_date",
    "source_has_created_at", "text_retention_days", "embeddings",
})
MAP_SEPARATOR = "."  # run_rejected_by_reason.no_quote: one figure per key of a {name: count} map
SUMMARY_KEY = "summary"
# The rows of each asset's `summary` table: (what a person reads, published key). Missing keys are left out.
SUMMARY_ROWS: dict[str, list[tuple[str, str]]] = {
    "closed_sessions": [("conversations closed", "run_conversations_closed"),
                        ("conversations deferred (still open)", "run_conversations_deferred"),
                        ("conversations stored for the day", "partition_conversations"),
                        ("users", "partition_users"), ("messages", "partition_messages"),
                        ("rows rejected", "partition_rows_rejected")],
    "session_summaries": [("summaries", "partition_summaries"), ("summaries computed", "run_summaries_computed"),
                          ("summaries rejected (not grounded)", "partition_summaries_rejected"),
                          ("sentences per summary, mean", "partition_sentences_mean"),
                          ("cache hits", "run_cache_hits"), ("conversations failed", "run_conversations_failed"),
                          ("input tokens", "partition_input_tokens"), ("output tokens", "partition_output_tokens"),
                          ("estimated cost, USD", "partition_estimated_cost_usd")],
    "extracted_facts": [("candidates", "partition_candidates"), ("facts accepted", "partition_candidates_accepted"),
                        ("facts rejected", "partition_candidates_rejected"),
                        ("conversations failed", "run_conversations_failed"),
                        ("input tokens", "partition_input_tokens"), ("output tokens", "partition_output_tokens"),
                        ("estimated cost, USD", "partition_estimated_cost_usd")],
    "active_facts": [("fact versions of the day", "partition_facts"), ("active", "partition_facts_active"),
                     ("expired", "partition_facts_expired"), ("superseded", "partition_facts_superseded"),
                     ("inserted by this run", "run_facts_inserted"),
                     ("superseded by this run", "run_facts_superseded")],
    "archived_sessions": [("rows archived", "partition_rows_archived"), ("rows purged by this run", "run_rows_purged"),
                          ("conversations consolidated", "partition_conversations_consolidated"),
                          ("conversations not consolidated", "partition_conversations_not_consolidated"),
                          ("archive rows dropped past retention", "run_archive_rows_dropped_past_retention")],
}
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
    `partition_*`, the stage's figures under `run_*` (descriptive keys and the stage's own `partition_*` figures
    unchanged), every {name: count} map flattened (`flat_figures`), `summary` (a markdown table of counts) and
    `dagster/row_count` (the partition's rows in the table the asset writes)."""
    published: dict[str, Any] = {PARTITION_PREFIX + k: v for k, v in state.items()}
    for key, value in stage_figures.items():
        published[key if key in DESCRIPTIVE_KEYS or key.startswith(PARTITION_PREFIX) else RUN_PREFIX + key] = value
    published = flat_figures(published)
    if asset in ROW_COUNT_FIGURE and ROW_COUNT_FIGURE[asset] in state:
        published["dagster/row_count"] = state[ROW_COUNT_FIGURE[asset]]
    published[SUMMARY_KEY] = dg.MetadataValue.md(summary_table(asset, published))
    return published


def flat_figures(figures: dict[str, Any]) -> dict[str, Any]:
    """`figures` with each dict value replaced by one key per entry (`name.key`); an empty dict disappears.
    Lists (ids) and scalars are kept as they are."""
    flat: dict[str, Any] = {}
    for key, value in figures.items():
        if isinstance(value, dict):
            flat.update({f"{key}{MAP_SEPARATOR}{k}": v for k, v in sorted(value.items())})
        else:
            flat[key] = value
    return flat


def summary_table(asset: str, published: dict[str, Any]) -> str:
    """Markdown table of the asset's headline counts in `published` (SUMMARY_ROWS), then its per-reason counts
    (the flattened `*_by_reason` figures). Counts only: no text from the chats."""
    rows = [(label, published[key]) for label, key in SUMMARY_ROWS.get(asset, []) if key in published]
    for key, value in published.items():
        name, _, entry = key.partition(MAP_SEPARATOR)
        if entry and "_by_" in name and isinstance(value, (int, float)):
            this_run = " (this run)" if name.startswith(RUN_PREFIX) else ""
            name = name.removeprefix(RUN_PREFIX).removeprefix(PARTITION_PREFIX).replace("_", " ")
            rows.append((f"{name}{this_run}: {entry}", value))
    return "| figure | count |\n|---|---:|\n" + "".join(f"| {label} | {value} |\n" for label, value in rows)


def stage_figures(published: dict[str, Any]) -> dict[str, Any]:
    """The inverse for readers of a materialization (CLI, tests): the stage's figures under the names
    `memory_pipeline.stages` gives them (`run_` stripped, flattened maps rebuilt as dicts), plus every published
    key as it is."""
    figures = dict(published)
    for key, value in published.items():
        name, sep, entry = key.partition(MAP_SEPARATOR)
        if sep and not key.startswith("dagster/"):
            figures.setdefault(name, {})[entry] = value
    for key, value in list(figures.items()):
        if key.startswith(RUN_PREFIX):
            figures.setdefault(key[len(RUN_PREFIX):], value)
    return figures
