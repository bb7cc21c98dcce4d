"""What Dagster's catalog shows of the tables each asset writes: `dagster/table_name` and
`dagster/column_schema` (a TableSchema of the columns in sql/schema.sql; a test compares them with the database).
"""

from __future__ import annotations

import dagster as dg

# asset -> (table it writes, [(column, type, description)]). Types are PostgreSQL's names.
TABLES: dict[str, tuple[str, list[tuple[str, str, str]]]] = {
    "closed_sessions": ("conversations", [
        ("conversation_id", "text", "salted id of the conversation (primary key)"),
        ("partition_date", "date", "local day of its last message"),
        ("session_key", "text", "n8n session_id"),
        ("user_key", "text", "user the session key maps to"),
        ("started_at", "timestamp with time zone", "first message"),
        ("ended_at", "timestamp with time zone", "last message"),
        ("is_legacy", "boolean", "rows without created_at (the backlog)"),
        ("message_ids", "ARRAY", "n8n row ids"),
        ("turn_count", "integer", "turns in the transcript"),
        ("transcript", "jsonb", "cleaned turns"),
        ("transcript_hash", "text", "hash of the transcript"),
        ("closed_as_of", "timestamp with time zone", "run clock when found closed"),
        ("idle_gap_minutes", "integer", "idle gap it was split with"),
        ("facts_extracted_at", "timestamp with time zone", "set once its facts are extracted"),
        ("extracted_with", "text", "extractor/model/prompt version"),
        ("recorded_at", "timestamp with time zone", "first written"),
        ("text_pruned_at", "timestamp with time zone", "when its text was dropped after the text retention"),
    ]),
    "session_summaries": ("session_summaries", [
        ("conversation_id", "text", "conversation summarised (primary key)"),
        ("partition_date", "date", "its partition"),
        ("user_key", "text", "its user"),
        ("summary", "text", "3-5 sentence decision-oriented summary (NULL when rejected or pruned)"),
        ("transcript_hash", "text", "transcript it summarises"),
        ("extractor", "text", "backend"),
        ("model", "text", "model"),
        ("prompt_version", "text", "prompt version"),
        ("input_tokens", "integer", "tokens sent"),
        ("output_tokens", "integer", "tokens received"),
        ("recorded_at", "timestamp with time zone", "first written"),
        ("rejected_reason", "text", "why grounding rejected the summary (summary_name_not_in_chat ...), else NULL"),
        ("sentences", "integer", "sentences of the stored summary"),
        ("fts_config", "regconfig", "text search language of the summary (conversation search)"),
        ("fts", "tsvector", "full-text search vector of the summary (generated)"),
        ("embedding", "USER-DEFINED", "pgvector embedding of the summary, when embeddings are on"),
        ("withheld_at", "timestamp with time zone", "when `forget` withheld it for good (NULL: searchable)"),
        ("sentences_dropped", "integer", "sentences of the model's answer left out: not grounded, or not in the chat's language"),
    ]),
    "extracted_facts": ("fact_candidates", [
        ("candidate_id", "text", "primary key"),
        ("partition_date", "date", "its partition"),
        ("conversation_id", "text", "conversation it comes from"),
        ("user_key", "text", "user"),
        ("position", "integer", "order within the extractor's answer"),
        ("category", "text", "preference | decision | client_info"),
        ("attribute", "text", "slot reconciliation uses (e.g. contact_channel)"),
        ("value", "text", "value of the attribute"),
        ("fact", "text", "short present-tense sentence"),
        ("quote", "text", "the sentence the user said"),
        ("status", "text", "accepted | rejected"),
        ("reject_reason", "text", "why rejected"),
        ("quote_message_id", "bigint", "n8n row id of the quote"),
        ("quote_speaker", "text", "who said it"),
        ("said_at", "timestamp with time zone", "when it was said"),
        ("extractor", "text", "backend"),
        ("model", "text", "model"),
        ("prompt_version", "text", "prompt version"),
        ("recorded_at", "timestamp with time zone", "first written"),
        ("retraction", "boolean", "the user withdrew the attribute's value"),
        ("folded_at", "timestamp with time zone", "when reconciliation folded it into agent_facts"),
    ]),
    "active_facts": ("agent_facts", [
        ("id", "bigint", "primary key"),
        ("user_key", "text", "user"),
        ("category", "text", "preference | decision | client_info"),
        ("fact", "text", "the fact"),
        ("source_session", "text", "conversation it was first said in"),
        ("valid_from", "timestamp with time zone", "when it was said, or the past day its relative time names"),
        ("superseded_at", "timestamp with time zone", "when a newer value replaced it"),
        ("attribute", "text", "reconciliation slot"),
        ("value", "text", "value of the attribute"),
        ("quote", "text", "the sentence the user said"),
        ("quote_message_id", "bigint", "n8n row id of the quote"),
        ("quote_speaker", "text", "who said it"),
        ("embedding", "USER-DEFINED", "pgvector embedding"),
        ("recorded_at", "timestamp with time zone", "when the pipeline wrote it"),
        ("last_seen_at", "timestamp with time zone", "last time it was said"),
        ("expires_at", "timestamp with time zone", "end of its time-to-live"),
        ("superseded_by", "bigint", "id of the fact that superseded it"),
        ("candidate_id", "text", "candidate it comes from"),
        ("fts_config", "regconfig", "text search language of the fact"),
        ("fts", "tsvector", "full-text search vector of the fact (generated)"),
        ("metadata", "jsonb", "user key, category, dates: what n8n's PGVector Store node filters on (generated)"),
        ("relation", "text", "the rule that superseded it: same_slot, slot_family, same_object, correction, ..."),
        ("repeats", "jsonb", "candidates that said it again, by the rule that made each a repeat"),
        ("owners", "jsonb", "the slots or objects its value belongs to, whatever the attribute was called"),
    ]),
    "archived_sessions": ("chat_archive", [
        ("id", "bigint", "n8n row id (primary key)"),
        ("session_id", "text", "n8n session_id"),
        ("message", "text", "the row's message as the source held it"),
        ("created_at", "timestamp with time zone", "the row's time"),
        ("conversation_id", "text", "conversation it belongs to"),
        ("partition_date", "date", "its partition"),
        ("archived_at", "timestamp with time zone", "kept archive_retention_days after this"),
    ]),
}


def catalog_metadata(asset: str, schema_name: str) -> dict[str, object]:
    """Definition metadata for `asset`: `dagster/table_name` (`<schema>.<table>`) and `dagster/column_schema`."""
    table, columns = TABLES[asset]
    return {
        "dagster/table_name": f"{schema_name}.{table}",
        "dagster/column_schema": dg.TableSchema(
            columns=[dg.TableColumn(name, type=kind, description=text) for name, kind, text in columns]
        ),
    }
