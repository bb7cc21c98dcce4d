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

Keys are at most MAX_KEY_CHARS (30) characters: the UI's metadata table gives its key column a fixed width, and a
longer key (`run_conversations_changed_during_extraction`) runs into its value on the asset page. Longer names
are published under SHORT_NAMES, each map under a short word of MAP_WORDS (`rejected.no_quote`) with the few
long entries shortened by SHORT_ENTRIES; `stage_figures` gives readers the stage's own names back.
"""

from __future__ import annotations

from typing import Any

import dagster as dg

PARTITION_PREFIX = "partition_"
RUN_PREFIX = "run_"
# Keys that describe the run's settings or explain it, not a count of what it did.
DESCRIPTIVE_KEYS = frozenset({
    "note", "model", "prompt_version", "idle_gap_minutes", "archive_retention_days", "is_backlog_date",
    "source_has_created_at", "text_retention_days", "embeddings", "shard",
})
MAP_SEPARATOR = "."  # rejected.no_quote: one figure per key of a {name: count} map
MAX_KEY_CHARS = 30  # what the UI's metadata table shows beside its value without overlap (measured, Dagster 1.13.27)
# Published names longer than MAX_KEY_CHARS -> the name published.
SHORT_NAMES = {
    "partition_conversations_without_summary": "partition_without_summary",
    "partition_conversations_consolidated": "partition_consolidated",
    "partition_conversations_not_consolidated": "partition_unconsolidated",
    "partition_consolidated_rows_in_source": "partition_rows_left_in_source",
    "run_conversations_changed_during_summary": "run_changed_during_summary",
    "run_conversations_changed_during_extraction": "run_changed_during_extraction",
    "run_conversations_already_extracted": "run_already_extracted",
    "run_conversations_without_summary": "run_without_summary",
    "run_conversations_kept_unconsolidated": "run_kept_unconsolidated",
    "run_active_facts_of_these_users": "run_users_facts_active",
    "run_expired_facts_of_these_users": "run_users_facts_expired",
    "run_superseded_facts_of_these_users": "run_users_facts_superseded",
    "run_archive_rows_dropped_past_retention": "run_archive_rows_dropped",
    "run_text_pruned_conversation_text": "run_pruned_conversation_text",
    "run_text_pruned_summaries": "run_pruned_summaries",
    "run_text_pruned_summary_cache": "run_pruned_summary_cache",
    "run_text_pruned_extraction_cache": "run_pruned_extraction_cache",
    "run_text_pruned_rejected_candidates": "run_pruned_rejected_candidates",
    "run_text_pruned_repeat_quotes": "run_pruned_repeat_quotes",
    "run_text_pruned_expired_fact_quotes": "run_pruned_fact_quotes",
    "run_text_pruned_expired_candidate_quotes": "run_pruned_candidate_quotes",
    "run_text_pruned_summary_embeddings": "run_pruned_summary_embeddings",
}
# Each asset's {name: count} maps (published name) -> the word their entries are published under.
MAP_WORDS: dict[str, dict[str, str]] = {
    "closed_sessions": {"run_rows_rejected_by_reason": "rejected", "run_rows_skipped_by_reason": "skipped"},
    "session_summaries": {"run_failed_by_reason": "failed", "run_failures_recorded_by_reason": "failures"},
    "extracted_facts": {"run_failed_by_reason": "failed", "run_failures_recorded_by_reason": "failures",
                        "partition_candidates_rejected_by_reason": "rejected",
                        "partition_candidates_accepted_by_category": "accepted"},
    "active_facts": {"partition_facts_active_by_category": "active", "run_supersessions_by_relation": "superseded_by",
                     "run_repeats_by_relation": "repeated_by", "run_facts_language_labelled": "language",
                     "run_summaries_language_labelled": "summary_lang"},
}
# Map entries too long to follow their word within MAX_KEY_CHARS (rejection reasons of domain.facts) -> as published.
SHORT_ENTRIES = {
    "retraction_without_attribute": "retraction_no_attr",
    "quote_not_in_cited_message": "quote_not_in_cited",
    "quote_about_other_person": "quote_other_person",
    "quote_from_machine_text": "quote_machine_text",
    "quote_cut_by_truncation": "quote_truncated",
    "quote_from_tool_output": "quote_tool_output",
}
# The stage's own breakdowns of what this run did that the partition's figures replace (the same on a first run,
# and still there after a re-run, which extracts nothing): not published.
REPLACED_BY_PARTITION = {"extracted_facts": frozenset({"rejected_by_reason", "accepted_by_category"})}
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
                          ("model sentences dropped (not grounded, other language)", "partition_sentences_dropped"),
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
    unchanged; REPLACED_BY_PARTITION left out), every {name: count} map flattened (`flat_figures`), long names
    shortened (SHORT_NAMES), `summary` (a markdown table of counts) and `dagster/row_count` (the partition's rows
    in the table the asset writes)."""
    published: dict[str, Any] = {PARTITION_PREFIX + k: v for k, v in state.items()}
    replaced = REPLACED_BY_PARTITION.get(asset, frozenset())
    for key, value in stage_figures.items():
        if key not in replaced:
            published[key if key in DESCRIPTIVE_KEYS or key.startswith(PARTITION_PREFIX) else RUN_PREFIX + key] = value
    published = {SHORT_NAMES.get(k, k): v for k, v in flat_figures(published, MAP_WORDS.get(asset, {})).items()}
    if asset in ROW_COUNT_FIGURE and ROW_COUNT_FIGURE[asset] in state:
        published["dagster/row_count"] = state[ROW_COUNT_FIGURE[asset]]
    published[SUMMARY_KEY] = dg.MetadataValue.md(summary_table(asset, published))
    return published


def flat_figures(figures: dict[str, Any], words: dict[str, str] | None = None) -> dict[str, Any]:
    """`figures` with each dict value replaced by one key per entry (`word.entry`, the map's word in `words`, else
    its own name; long entries as in SHORT_ENTRIES); an empty dict disappears. Lists (ids) and scalars are kept."""
    words = words or {}
    flat: dict[str, Any] = {}
    for key, value in figures.items():
        if isinstance(value, dict):
            word = words.get(key, key)
            flat.update({f"{word}{MAP_SEPARATOR}{SHORT_ENTRIES.get(k, k)}": v for k, v in sorted(value.items())})
        else:
            flat[key] = value
    return flat


def summary_table(asset: str, published: dict[str, Any]) -> str:
    """Markdown table of the asset's headline counts in `published` (SUMMARY_ROWS), then its per-entry counts of
    each map (MAP_WORDS: by reason, category, relation, language). Counts only: no text from the chats."""
    rows = [(label, published[SHORT_NAMES.get(key, key)]) for label, key in SUMMARY_ROWS.get(asset, [])
            if SHORT_NAMES.get(key, key) in published]
    labels = {word: name for name, word in MAP_WORDS.get(asset, {}).items()}
    for key, value in published.items():
        word, _, entry = key.partition(MAP_SEPARATOR)
        if entry and word in labels and isinstance(value, (int, float)):
            name = labels[word]
            this_run = " (this run)" if name.startswith(RUN_PREFIX) else ""
            name = name.removeprefix(RUN_PREFIX).removeprefix(PARTITION_PREFIX).replace("_", " ")
            rows.append((f"{name}{this_run}: {entry}", value))
    return "| figure | count |\n|---|---:|\n" + "".join(f"| {label} | {value} |\n" for label, value in rows)


def stage_figures(published: dict[str, Any], asset: str | None = None) -> dict[str, Any]:
    """The inverse for readers of `asset`'s materialization (CLI, tests): every published key as it is, plus the
    stage's figures under the names `memory_pipeline.stages` gives them (short names and entries lengthened, maps
    rebuilt as dicts under their published and stage names, `run_` stripped)."""
    long_names = {short: name for name, short in SHORT_NAMES.items()}
    long_entries = {short: entry for entry, short in SHORT_ENTRIES.items()}
    maps = {word: name for name, word in MAP_WORDS.get(asset, {}).items()} if asset else {}
    figures = dict(published)
    for key, value in published.items():
        if key.startswith("dagster/"):
            continue
        word, sep, entry = key.partition(MAP_SEPARATOR)
        if sep:
            figures.setdefault(maps.get(word, word), {})[long_entries.get(entry, entry)] = value
        elif key in long_names:
            figures.setdefault(long_names[key], value)
    for key, value in list(figures.items()):
        if key.startswith(RUN_PREFIX):
            figures.setdefault(key[len(RUN_PREFIX):], value)
    return figures
