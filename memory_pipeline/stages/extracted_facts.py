"""Stage 3, `extracted_facts`: candidates extracted from each summarised conversation, validated (quote, type),
kept with their status and rejection reason."""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Iterator
from datetime import date
from typing import Any

import psycopg

from memory_pipeline.domain.conversations import Conversation, partition_window
from memory_pipeline.domain.facts import ExtractedFact, validate_candidate
from memory_pipeline.domain.quotes import QuoteSources
from memory_pipeline.extractors.base import ExtractionResult, Extractor, ExtractorError
from memory_pipeline.stages import llm_calls
from memory_pipeline.stages.common import StageResult
from memory_pipeline.stages.llm_calls import (
    EXTRACTION_STAGE,
    call_each,
    llm_metadata,
    record_failures,
    still_stored,
    write_transaction,
)
from memory_pipeline.stages.records import conversation_from_record
from memory_pipeline.store import Store

log = logging.getLogger(__name__)


def extracted_facts(store: Store, conn: psycopg.Connection, day: date, extractor: Extractor) -> StageResult:
    """Extract and validate candidates for each summarised conversation of the day; keep every candidate with
    its status and rejection reason. A conversation is marked extracted only when this succeeded, and is not
    extracted again while its transcript and the extractor (name, model, prompt version) stay the same. With a
    backend that caches its answers, a transcript extracted before (or answered by the summary request) sends no
    request. A failing conversation is recorded with its reason and keeps its raw rows; the others go on.

    The day is read PAGE_SIZE conversations at a time, the next page while this one is worked on
    (`Store.pages_read_ahead`; each page with its summaries and cached answers, one
    statement; transcripts only of the conversations extracted now); answers are written per WRITE_BATCH paid
    ones (FREE_WRITE_BATCH when they cost nothing: cached, or from a `free_answers` backend), each batch in one
    transaction of one statement per step."""
    settings = store.settings
    backlog_start = partition_window(settings.effective_backlog_date, settings.timezone)[0]
    caches = getattr(extractor, "cache_answers", False)
    free = getattr(extractor, "free_answers", False)
    statuses: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    categories: Counter[str] = Counter()
    failed: Counter[str] = Counter()
    no_summary = already = changed = tokens_in = tokens_out = retractions = cache_hits = paid = 0
    signature = f"{extractor.name}/{extractor.model}/{extractor.prompt_version}"

    def to_extract() -> Iterator[tuple[dict[str, Any], Conversation, ExtractionResult | None]]:
        # (record, its conversation parsed once, the cached answer or None) for each conversation to extract.
        nonlocal already, no_summary
        params = {"partition_date": day, "extracted_with": signature, "use_cache": bool(caches),
                  "prompt_version": extractor.prompt_version, "model": extractor.model}
        for page in store.pages_read_ahead(conn, "extraction_page", params, llm_calls.PAGE_SIZE):
            for record in page:
                if record["facts_extracted_at"] and record["extracted_with"] == signature:
                    already += 1  # same transcript, same extractor: extracting again would pay tokens for nothing
                    continue
                if record["text_pruned_at"]:
                    already += 1  # past text retention: its candidates stay as extracted (no transcript, none)
                    continue
                if not record["has_summary"]:
                    no_summary += 1
                    continue
                cached = None
                if record["cached_facts"] is not None:
                    facts = [ExtractedFact.model_validate(f) for f in record["cached_facts"]]
                    cached = ExtractionResult(facts=facts)
                conversation = conversation_from_record(record)
                del record["transcript"]  # parsed once; the page need not keep the JSON form as well
                yield record, conversation, cached

    def answer(item: tuple[dict[str, Any], Conversation, ExtractionResult | None]) -> ExtractionResult:
        record, conversation, cached = item
        return cached if cached is not None else extractor.extract(conversation, record["summary"])

    # (record, answer or error, validated candidates, answer came from the cache)
    Answer = tuple[dict[str, Any], ExtractionResult | ExtractorError, list[Any], bool]
    pending: list[Answer] = []

    def write_batch(pending: list[Answer]) -> None:
        # One transaction for a batch of answers and failures, one statement per step, each written only if its
        # conversation is still stored as it was read (an erasure or a re-split may have come meanwhile).
        nonlocal changed, retractions
        with write_transaction(conn):
            kept = still_stored(store, conn, [r for r, _, _, _ in pending])
            answers = [p for p in pending if not isinstance(p[1], ExtractorError)]
            stored = [p for p in answers if p[0]["conversation_id"] in kept]
            changed += len(answers) - len(stored)  # erased or re-split: facts of an old transcript
            if caches:
                store.save_cached_extractions(conn, [
                    {"transcript_hash": r["transcript_hash"], "facts": res.facts, "input_tokens": res.input_tokens,
                     "output_tokens": res.output_tokens} for r, res, _, from_cache in stored if not from_cache],
                    prompt_version=extractor.prompt_version, model=extractor.model)
            if stored:
                ids = [r["conversation_id"] for r, _, _, _ in stored]
                store.replace_candidates(conn, day, ids, [c for _, _, cs, _ in stored for c in cs], extractor.name,
                                         extractor.model, extractor.prompt_version)
                store.mark_facts_extracted(conn, [r for r, _, _, _ in stored], signature)
                store.clear_llm_failures(conn, ids, EXTRACTION_STAGE)
            record_failures(store, conn, day, EXTRACTION_STAGE, extractor.model, extractor, [
                (r, res) for r, res, _, _ in pending
                if isinstance(res, ExtractorError) and r["conversation_id"] in kept])
        for _, _, candidates, _ in stored:
            for c in candidates:
                statuses[c.status] += 1
                retractions += c.status == "accepted" and c.retraction
                if c.reason:
                    reasons[c.reason] += 1
                else:
                    categories[c.category] += 1

    def flush() -> None:
        nonlocal paid
        write_batch(pending)
        pending.clear()
        paid = 0

    for (record, conversation, cached), result in call_each(answer, to_extract(),
                                                            getattr(extractor, "max_in_flight", 1)):
        if isinstance(result, ExtractorError):
            failed[result.reason] += 1
            log.warning("%s failed for conversation %s: %s", EXTRACTION_STAGE, record["conversation_id"],
                        result.reason)
            pending.append((record, result, [], False))
        else:
            cache_hits += cached is not None
            tokens_in += result.input_tokens
            tokens_out += result.output_tokens
            fallback = backlog_start if conversation.is_legacy else None
            sources = QuoteSources(conversation) if result.facts else None  # one per conversation, not per fact
            candidates = [validate_candidate(f, conversation, i, fallback, sources, settings.timezone)
                          for i, f in enumerate(result.facts)]
            pending.append((record, result, candidates, cached is not None))
        paid += not free and cached is None  # a request was sent (answered or failed)
        if paid >= llm_calls.WRITE_BATCH or len(pending) >= llm_calls.FREE_WRITE_BATCH:
            flush()
    if pending:
        flush()
    return StageResult({
        "candidates": sum(statuses.values()),
        "accepted": statuses["accepted"],
        "rejected": statuses["rejected"],
        "rejected_by_reason": dict(sorted(reasons.items())),
        "accepted_by_category": dict(sorted(categories.items())),
        "retractions_accepted": retractions,
        "conversations_without_summary": no_summary,
        "conversations_already_extracted": already,
        "conversations_changed_during_extraction": changed,
        "cache_hits": cache_hits,
        **llm_metadata(store, conn, day, EXTRACTION_STAGE, extractor, extractor.model, failed, tokens_in,
                        tokens_out),
    })
