"""What the two LLM stages share: calls in flight on worker threads (`call_each`), write batches in pipeline
mode (`write_transaction`), still-stored checks, recorded failures, tokens and cost."""

from __future__ import annotations

import logging
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from datetime import date
from typing import Any, TypeVar

import psycopg

from memory_pipeline.extractors.base import Extractor, ExtractorError
from memory_pipeline.settings import Settings
from memory_pipeline.store import Store

log = logging.getLogger(__name__)

SUMMARY_STAGE, EXTRACTION_STAGE = "session_summaries", "extracted_facts"
# LLM answers written per transaction (batched statements): few commits, and a crash loses at most this many
# paid answers before they are stored.
WRITE_BATCH = 20
# Answers that cost nothing to compute again (from the extraction cache, or from a backend with `free_answers`:
# the offline rules) are written up to this many per transaction, with the paid ones among them still at most
# WRITE_BATCH: each commit waits for its WAL flush, and at 100k messages (3,243 conversations) batches of 20 were
# 163 commits per stage, about a third of the stages' own time on a quiet machine.
FREE_WRITE_BATCH = 500
# Conversations the LLM stages and the quote check read per statement (keyset pagination, `Store.pages`): what
# a stage holds in memory is one page of transcripts (two: the next page is read ahead, `pages_read_ahead`)
# plus the answers in flight and not yet written, whatever the partition's size; at ~30 turns a conversation a
# page is a few MB of Python objects.
PAGE_SIZE = 500
# Conversations handed to the worker threads ahead of the one being written, per request in flight: enough that
# one slow answer (or reading the next page) does not leave the other threads idle, few enough to bound the
# transcripts held beyond the current page.
LOOKAHEAD_PER_REQUEST = 4

T = TypeVar("T")
R = TypeVar("R")
_NO_MORE: Any = object()  # call_each's end-of-items marker


def call_each(fn: Callable[[T], R], items: Iterable[T], max_in_flight: int) -> Iterator[tuple[T, R | ExtractorError]]:
    """(item, fn(item)) for every item, in order, with at most `max_in_flight` calls running at once on worker
    threads (the backend's requests in flight per step). `items` is consumed lazily, at most
    `max_in_flight * LOOKAHEAD_PER_REQUEST` ahead of the item yielded, so a generator that reads pages keeps the
    threads busy across page ends while memory stays bounded. A failing call yields its ExtractorError instead of
    raising (any other exception becomes one with reason `backend_error`), so one conversation cannot sink the
    others. `items` is advanced and the results are consumed on the caller's thread (one connection may serve
    both); an exception from `items` or from the caller stops the requests not yet sent."""

    def attempt(item: T) -> R | ExtractorError:
        try:
            return fn(item)
        except ExtractorError as exc:
            return exc
        except Exception as exc:  # a backend bug or an odd server answer: recorded per conversation, no text
            log.warning("backend raised %s", type(exc).__name__)
            return ExtractorError(type(exc).__name__, reason="backend_error")

    if max_in_flight <= 1:
        for item in items:
            yield item, attempt(item)
        return
    source = iter(items)
    window: deque[tuple[T, Future[R | ExtractorError]]] = deque()
    pool = ThreadPoolExecutor(max_workers=max_in_flight, thread_name_prefix="llm")

    def fill() -> None:
        while len(window) < max_in_flight * LOOKAHEAD_PER_REQUEST:
            item = next(source, _NO_MORE)
            if item is _NO_MORE:
                return
            window.append((item, pool.submit(attempt, item)))

    try:
        fill()
        while window:
            item, future = window.popleft()
            result = future.result()
            fill()  # the next item starts before the caller writes this one
            yield item, result
    finally:
        pool.shutdown(wait=True, cancel_futures=True)  # a failed write stops the requests not yet sent


def estimated_cost_usd(settings: Settings, input_tokens: int, output_tokens: int) -> float:
    """Tokens priced with MEMORY_PIPELINE_LLM_INPUT/OUTPUT_PRICE_PER_MILLION (USD per million tokens)."""
    return round((input_tokens * settings.llm_input_price_per_million
                  + output_tokens * settings.llm_output_price_per_million) / 1_000_000, 6)


def llm_metadata(store: Store, conn: psycopg.Connection, day: date, stage: str, extractor: Extractor, model: str,
                  failed: Counter[str], tokens_in: int, tokens_out: int) -> dict[str, Any]:
    """Failures, tokens and cost of this run, and the partition's state (what its stored answers cost)."""
    stored_in, stored_out = store.llm_tokens_of_partition(conn, day, stage, extractor.prompt_version, model)
    metadata: dict[str, Any] = {
        "conversations_failed": sum(failed.values()),
        "failed_by_reason": dict(sorted(failed.items())),
        "failures_recorded_by_reason": store.llm_failures_of_partition(conn, day, stage),
        "input_tokens": tokens_in,
        "output_tokens": tokens_out,
        "estimated_cost_usd": estimated_cost_usd(store.settings, tokens_in, tokens_out),
        "partition_input_tokens": stored_in,
        "partition_output_tokens": stored_out,
        "partition_estimated_cost_usd": estimated_cost_usd(store.settings, stored_in, stored_out),
        "prompt_version": extractor.prompt_version,
        "model": model,
    }
    level = getattr(extractor, "structured_output", None)
    if level:
        metadata["structured_output"] = level
    return metadata


@contextmanager
def write_transaction(conn: psycopg.Connection) -> Iterator[None]:
    """One transaction of a write batch, in pipeline mode: the statements whose results are not read go to the
    server without waiting for each other, so a batch costs a few round trips (lock, commit), not one per
    statement. An error raised by any of them rolls the whole batch back, as outside pipeline mode."""
    with conn.pipeline(), conn.transaction():
        yield


def still_stored(store: Store, conn: psycopg.Connection, records: Sequence[dict[str, Any]]) -> set[str]:
    """Inside a write transaction: hold an erasure off until commit, lock the batch's conversations (one
    statement), and return the ids of those still stored with the transcript their record was read with (not
    erased or re-split meanwhile)."""
    store.hold_off_erasure(conn)
    current = store.lock_conversations(conn, [r["conversation_id"] for r in records])
    return {r["conversation_id"] for r in records if current.get(r["conversation_id"]) == r["transcript_hash"]}


def record_failures(store: Store, conn: psycopg.Connection, day: date, stage: str, model: str,
                     extractor: Extractor, failures: Sequence[tuple[dict[str, Any], ExtractorError]]) -> None:
    """Inside the batch's write transaction, after `still_stored`: record each still-stored conversation's
    failed call with its reason (extraction_failures), one batched statement."""
    store.record_llm_failures(conn, [{"conversation_id": r["conversation_id"], "reason": exc.reason}
                                     for r, exc in failures],
                              stage=stage, partition_date=day, model=model, prompt_version=extractor.prompt_version)
