"""The five stages and the checks, as plain functions over a `Store` and a connection, one module per asset:
`closed_sessions`, `session_summaries`, `extracted_facts`, `active_facts` (its folds in `folds`),
`archived_sessions`; the checks in `checks`. What they share: `common` (results, clock), `records` (stored
conversations read back), `llm_calls` (the LLM stages' calls and write batches), `partition_state`.

Each stage reads, calls the domain, writes, and returns metadata for Dagster: counts, ids and hashes only,
never message or fact text (the event log cannot be erased). The Dagster assets (`memory_pipeline.defs`) only
wrap these.
"""
