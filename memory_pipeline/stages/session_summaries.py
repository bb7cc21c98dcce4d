"""Stage 2, `session_summaries`: one summary per conversation of the day, cached by transcript, prompt and model,
checked against its conversation (`domain.grounding`): a summary naming a date, number or name the conversation
does not hold is stored as rejected, with its reason and without its text; the conversation keeps its facts."""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Iterator
from datetime import date
from functools import partial
from typing import Any

import psycopg

from memory_pipeline.domain.conversations import Conversation
from memory_pipeline.domain.grounding import rejection
from memory_pipeline.domain.messages import cut_text
from memory_pipeline.domain.summaries import sentence_count
from memory_pipeline.extractors.base import Extractor, ExtractorError
from memory_pipeline.stages import llm_calls
from memory_pipeline.stages.common import StageResult
from memory_pipeline.stages.llm_calls import (
    SUMMARY_STAGE,
    call_each,
    llm_metadata,
    record_failures,
    still_stored,
    write_transaction,
)
from memory_pipeline.stages.records import conversation_from_record
from memory_pipeline.store import Store

log = logging.getLogger(__name__)
# Longest summary stored (characters). The prompt asks for 1 to 3 sentences (a few hundred characters, the offline
# backend's at most 600); the summary goes into every extraction request, whose budget is ~3,000 prompt tokens.
MAX_SUMMARY_CHARS = 2000


def session_summaries(store: Store, conn: psycopg.Connection, day: date, extractor: Extractor) -> StageResult:
    """One summary per conversation of the day, from the cache when (transcript hash, prompt version, model)
    was summarised before. Requests run `max_in_flight` at a time. A failing conversation is recorded with its
    reason in `extraction_failures` and left without summary; the others go on. When the backend's summary
    request also returned the facts, they are cached for the extraction stage. Each computed summary is checked
    for grounding; a rejected one is written with `rejected_reason` and no text (in the cache too, so a re-run
    asks nothing again), counted in `summaries_rejected`; nothing of its text is logged. The sentences a backend
    dropped from its answer as not grounded are stored with the summary (`sentences_dropped`, cached too).

    The day is read PAGE_SIZE conversations at a time, the next page while this one is worked on
    (`Store.pages_read_ahead`; each page with its cached summaries, one statement);
    cache hits are written per page and answers per WRITE_BATCH (FREE_WRITE_BATCH for a `free_answers`
    backend), each batch in one transaction."""
    model = getattr(extractor, "summary_model", extractor.model)
    caches_facts = getattr(extractor, "cache_answers", False)
    free = getattr(extractor, "free_answers", False)
    batch = llm_calls.FREE_WRITE_BATCH if free else llm_calls.WRITE_BATCH
    hits = computed = tokens_in = tokens_out = changed = pruned = rejected = 0
    failed: Counter[str] = Counter()

    def row(record: dict[str, Any], text: str, used_in: int, used_out: int, reason: str | None,
            sentences_dropped: int) -> dict[str, Any]:
        if len(text) > MAX_SUMMARY_CHARS:  # a model looping to its token cap: kept to whole sentences that fit
            text = cut_text(text, MAX_SUMMARY_CHARS)[0]
        return dict(conversation_id=record["conversation_id"], user_key=record["user_key"],
                    summary=None if reason else text, rejected_reason=reason,
                    sentences=None if reason else sentence_count(text), sentences_dropped=sentences_dropped,
                    transcript_hash=record["transcript_hash"], input_tokens=used_in, output_tokens=used_out)

    save = partial(store.save_summaries, partition_date=day, extractor=extractor.name, model=model,
                   prompt_version=extractor.prompt_version)

    def to_summarise() -> Iterator[tuple[dict[str, Any], Conversation]]:
        # Pages of the day; a page's cache hits are written as it is read, the rest go to the
        # backend, each with its conversation (the record then drops the JSON form: pending answers hold no
        # transcript).
        nonlocal hits, pruned
        params = {"partition_date": day, "prompt_version": extractor.prompt_version, "model": model}
        for page in store.pages_read_ahead(conn, "summary_page", params, llm_calls.PAGE_SIZE):
            todo, hit_records = [], []
            for record in page:
                if record["text_pruned_at"]:
                    pruned += 1  # past text retention: nothing left to summarise, its summary dropped on purpose
                elif record["cache_hit"]:
                    hit_records.append(record)
                else:
                    todo.append(record)
            if hit_records:
                hits += len(hit_records)
                save_hits(hit_records)
            for record in todo:
                conversation = conversation_from_record(record)
                del record["transcript"]
                yield record, conversation

    def save_hits(hit_records: list[dict[str, Any]]) -> None:
        # Cache hits of a page: only conversations still stored with the transcript they were read with.
        nonlocal changed
        with write_transaction(conn):
            kept = still_stored(store, conn, hit_records)
            changed += len(hit_records) - len(kept)
            save(conn, [row(r, r["cached_summary"], r["cached_input_tokens"], r["cached_output_tokens"],
                            r["cached_rejected_reason"], r["cached_sentences_dropped"])
                        for r in hit_records if r["conversation_id"] in kept],
                 cache_hit=True)

    pending: list[tuple[dict[str, Any], Any]] = []

    def write_batch(pending: list[tuple[dict[str, Any], Any]]) -> None:
        # One transaction and one batched statement per table for a batch of answers and failures, each written
        # only if its conversation is still stored as it was read (an erasure or a re-split may have come
        # meanwhile).
        nonlocal changed
        with write_transaction(conn):
            kept = still_stored(store, conn, [r for r, _ in pending])
            answers = [(r, res) for r, res in pending if not isinstance(res, ExtractorError)]
            stored = [(r, res) for r, res in answers if r["conversation_id"] in kept]
            changed += len(answers) - len(stored)
            save(conn, [row(r, res.text, res.input_tokens, res.output_tokens, r["rejected_reason"],
                            res.dropped_sentences) for r, res in stored], cache_hit=False)
            if caches_facts:
                # Same request answered both stages: its tokens are counted here, the cached facts cost 0.
                store.save_cached_extractions(conn, [
                    {"transcript_hash": r["transcript_hash"], "facts": res.facts, "input_tokens": 0,
                     "output_tokens": 0} for r, res in stored if res.facts is not None],
                    prompt_version=extractor.prompt_version, model=extractor.model)
            store.clear_llm_failures(conn, [r["conversation_id"] for r, _ in stored], SUMMARY_STAGE)
            record_failures(store, conn, day, SUMMARY_STAGE, model, extractor, [
                (r, res) for r, res in pending if isinstance(res, ExtractorError) and r["conversation_id"] in kept])

    def flush() -> None:
        write_batch(pending)
        pending.clear()

    summarize = lambda item: extractor.summarize(item[1])  # noqa: E731
    timezone = store.settings.timezone
    for (record, conversation), result in call_each(summarize, to_summarise(), getattr(extractor, "max_in_flight", 1)):
        if not isinstance(result, ExtractorError):
            # An extractive summary (lines said) holds nothing the chat does not: checked by construction.
            record["rejected_reason"] = None if result.lines_said else rejection(result.text, conversation, timezone)
            rejected += record["rejected_reason"] is not None
        if isinstance(result, ExtractorError):
            failed[result.reason] += 1
            log.warning("%s failed for conversation %s: %s", SUMMARY_STAGE, record["conversation_id"],
                        result.reason)
        else:
            computed += 1
            tokens_in += result.input_tokens
            tokens_out += result.output_tokens
        pending.append((record, result))
        if len(pending) >= batch:
            flush()
    if pending:
        flush()
    return StageResult({
        "summaries": hits + computed,
        "cache_hits": hits,
        "summaries_computed": computed,
        "summaries_rejected": rejected,
        "conversations_changed_during_summary": changed,
        "conversations_text_pruned": pruned,
        **llm_metadata(store, conn, day, SUMMARY_STAGE, extractor, model, failed, tokens_in, tokens_out),
    })
