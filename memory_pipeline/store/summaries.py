"""Summaries and candidates: what the two LLM stages write (sql/summaries.sql)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from memory_pipeline.domain.facts import Candidate
from memory_pipeline.store.base import StoreBase


class SummaryQueries(StoreBase):
    """Summaries, cached extraction answers, candidates and the LLM stages' recorded failures and tokens."""

    def mark_facts_extracted(self, conn: psycopg.Connection, records: Sequence[dict[str, Any]],
                             extracted_with: str) -> None:
        """Mark these conversations (dicts with conversation_id and the transcript_hash they were extracted
        from) extracted by `extracted_with`, in one statement; one whose transcript changed meanwhile is not."""
        if records:
            conn.execute(self.query(conn, "mark_facts_extracted_batch"), {
                "conversation_ids": [r["conversation_id"] for r in records],
                "transcript_hashes": [r["transcript_hash"] for r in records], "extracted_with": extracted_with})

    # -- summaries ---------------------------------------------------------------------------------------
    def save_summaries(self, conn, rows: Sequence[dict[str, Any]], *, partition_date: date, extractor: str,
                       model: str, prompt_version: str, cache_hit: bool) -> None:
        """Write conversations' summaries of one partition and backend (and fill the cache unless they came from
        it): one statement per table over arrays of the rows' columns, whatever their number. `rows`: dicts of
        conversation_id, user_key, summary (None when rejected), transcript_hash, input_tokens, output_tokens,
        rejected_reason (None when grounded), sentences, sentences_dropped; conversation ids distinct."""
        if not rows:
            return
        columns = {plural: [row[name] for row in rows] for name, plural in (
            ("conversation_id", "conversation_ids"), ("user_key", "user_keys"), ("summary", "summaries"),
            ("transcript_hash", "transcript_hashes"), ("input_tokens", "input_tokens"),
            ("output_tokens", "output_tokens"), ("rejected_reason", "rejected_reasons"), ("sentences", "sentences"),
            ("sentences_dropped", "sentences_dropped"))}
        columns.update(partition_date=partition_date, extractor=extractor, model=model, prompt_version=prompt_version)
        if not cache_hit:
            conn.execute(self.query(conn, "insert_cached_summaries"), columns)
        conn.execute(self.query(conn, "upsert_summaries"), columns)

    def clear_llm_failures(self, conn, conversation_ids: Sequence[str], stage: str) -> None:
        """Forget the recorded failures in `stage` of these conversations (they succeeded): one statement."""
        if conversation_ids:
            conn.execute(self.query(conn, "clear_llm_failures"),
                         {"conversation_ids": list(conversation_ids), "stage": stage})

    # -- LLM answers and failures ------------------------------------------------------------------------
    def save_cached_extractions(self, conn, rows: Sequence[dict[str, Any]], *, prompt_version: str,
                                model: str) -> None:
        """Cache backends' facts per transcript for this prompt version and model (first answer wins), in one
        statement. `rows`: dicts of transcript_hash, facts (ExtractedFact list), input_tokens, output_tokens."""
        if rows:
            conn.execute(self.query(conn, "insert_cached_extractions"), {
                "prompt_version": prompt_version, "model": model,
                "transcript_hashes": [r["transcript_hash"] for r in rows],
                "facts": [Jsonb([f.model_dump(mode="json") for f in r["facts"]]) for r in rows],
                "input_tokens": [r["input_tokens"] for r in rows], "output_tokens": [r["output_tokens"] for r in rows]})

    def record_llm_failures(self, conn, rows: Sequence[dict[str, Any]], *, stage: str, partition_date: date,
                            model: str, prompt_version: str) -> None:
        """Record (or count again) conversations' failed LLM calls in `stage`, each with its reason code, in one
        statement. `rows`: dicts of conversation_id and reason, conversation ids distinct."""
        if rows:
            conn.execute(self.query(conn, "record_llm_failures"), {
                "conversation_ids": [r["conversation_id"] for r in rows], "reasons": [r["reason"] for r in rows],
                "stage": stage, "partition_date": partition_date, "model": model, "prompt_version": prompt_version})

    def llm_tokens_of_partition(self, conn, day: date, stage: str, prompt_version: str, model: str) -> tuple[int, int]:
        """(input, output) tokens the partition's stored answers of `stage` cost when they were computed."""
        name = "summary_tokens_of_partition" if stage == "session_summaries" else "extraction_tokens_of_partition"
        row = conn.execute(self.query(conn, name), {"partition_date": day, "prompt_version": prompt_version,
                                                     "model": model}).fetchone()
        return int(row["input_tokens"]), int(row["output_tokens"])

    def llm_failures_of_partition(self, conn, day: date, stage: str) -> dict[str, int]:
        """{reason: conversations} of the partition's recorded failures in `stage`."""
        rows = conn.execute(self.query(conn, "llm_failures_of_partition"),
                            {"partition_date": day, "stage": stage}).fetchall()
        return {r["reason"]: r["n"] for r in rows}

    # -- candidates --------------------------------------------------------------------------------------
    def replace_candidates(
        self, conn, day: date, conversation_ids: Sequence[str], candidates: Sequence[Candidate],
        extractor: str, model: str, prompt_version: str,
    ) -> None:
        """Make the candidates of these conversations exactly `candidates` (delete the rest, then one upsert of
        all of them over arrays of their columns: a statement per step, not per candidate)."""
        ids = [c.candidate_id for c in candidates]
        conn.execute(self.query(conn, "delete_stale_candidates"), {
            "conversation_ids": list(conversation_ids), "keep": ids})
        if candidates:
            conn.execute(self.query(conn, "upsert_candidates"), {
                "partition_date": day, "extractor": extractor, "model": model, "prompt_version": prompt_version,
                "candidate_ids": ids,
                "conversation_ids": [c.conversation_id for c in candidates],
                "user_keys": [c.user_key for c in candidates], "positions": [c.position for c in candidates],
                "categories": [c.category for c in candidates], "attributes": [c.attribute for c in candidates],
                "values": [c.value for c in candidates], "facts": [c.fact for c in candidates],
                "quotes": [c.quote for c in candidates], "statuses": [c.status for c in candidates],
                "reject_reasons": [c.reason for c in candidates],
                "quote_message_ids": [c.quote_message_id for c in candidates],
                "quote_speakers": [c.quote_speaker for c in candidates], "said_ats": [c.said_at for c in candidates],
                "retractions": [c.retraction for c in candidates]})
