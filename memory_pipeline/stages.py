"""The five stages and the checks, as plain functions over a `Store` and a connection.

Each stage reads, calls the domain, writes, and returns metadata for Dagster: counts, ids and hashes only,
never message or fact text (the event log cannot be erased). The Dagster assets in `assets.py` only wrap these.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone
from itertools import chain
from typing import Any, TypeVar

import psycopg

from memory_pipeline import erasure, folds
from memory_pipeline.domain.conversations import (
    Conversation,
    build_conversations,
    is_closed,
    partition_window,
    user_key_mapper,
)
from memory_pipeline.domain.facts import ExtractedFact, locate_quote, validate_candidate
from memory_pipeline.domain.messages import ParsedRow
from memory_pipeline.domain.reconcile import MULTI_VALUED_ATTRIBUTES
from memory_pipeline.embeddings import Embedder, index_new_facts
from memory_pipeline.extractors.base import ExtractionResult, Extractor, ExtractorError
from memory_pipeline.settings import DEFAULT_TTL_DAYS, Settings
from memory_pipeline.store import Store

log = logging.getLogger(__name__)

SCHEDULE_HOUR = 3  # the nightly schedule's hour, in the partitions' timezone: after midnight plus the idle gap


@dataclass
class StageResult:
    """Outcome of a stage: `metadata` for Dagster (counts/ids/hashes only)."""

    metadata: dict[str, Any] = field(default_factory=dict)


@dataclass
class CheckOutcome:
    """Outcome of a check: `passed` and counts for Dagster metadata."""

    passed: bool
    metadata: dict[str, Any] = field(default_factory=dict)


def utc_now() -> datetime:
    """The run's clock, timezone-aware UTC."""
    return datetime.now(timezone.utc)


def conversation_from_record(record: dict[str, Any]) -> Conversation:
    """Rebuild a stored conversation (turns only) from a `conversations` row."""
    turns = tuple(
        ParsedRow(
            message_id=t["message_id"],
            at=datetime.fromisoformat(t["at"]).astimezone(timezone.utc) if t.get("at") else None,
            status="turn",
            role=t["role"],
            text=t["text"],
            tool_evidence=t.get("tool_evidence"),
            sender=t.get("sender"),
            user_key=t.get("user_key"),
            machine_text=t.get("machine_text"),
            quotable_chars=t.get("quotable_chars"),
            truncated=t.get("quotable_chars") is not None,
        )
        for t in record["transcript"]
    )
    return Conversation(
        conversation_id=record["conversation_id"],
        session_key=record["session_key"],
        user_key=record["user_key"],
        partition_date=record["partition_date"],
        started_at=record["started_at"],
        ended_at=record["ended_at"],
        rows=turns,
        is_legacy=record["is_legacy"],
    )


def schedule_note(idle_gap_minutes: int, timezone_name: str) -> str:
    """What the idle gap means for the 03:00 schedule: the latest last-message time still closed by 03:00."""
    cutoff = SCHEDULE_HOUR * 60 - idle_gap_minutes  # minutes after the partition day's end
    if cutoff >= 0:
        return (f"Closed {idle_gap_minutes} min after the last message: every conversation of the day is closed "
                f"by the {SCHEDULE_HOUR:02d}:00 {timezone_name} schedule.")
    latest = 24 * 60 + cutoff
    if latest < 0:
        return (f"Closed {idle_gap_minutes} min after the last message: longer than the day plus the "
                f"{SCHEDULE_HOUR:02d}:00 schedule, so the nightly run and its catch-up defer every conversation of "
                "the day; re-materialize days once they are closed.")
    return (f"Closed {idle_gap_minutes} min after the last message: at the {SCHEDULE_HOUR:02d}:00 {timezone_name} "
            f"schedule, a conversation whose last message is after {latest // 60:02d}:{latest % 60:02d} is still "
            "open and deferred; the next night's catch-up run of this day consolidates it.")


# -- 1. closed_sessions -----------------------------------------------------------------------------------
def closed_sessions(store: Store, conn: psycopg.Connection, day: date, now: datetime | None = None) -> StageResult:
    """Split the day's conversations out of the n8n table + archive and store the closed ones.

    Reads every row of the session keys active that day (and, on the backlog date, the rows without a
    timestamp); a conversation belongs to `day` when its last message falls on it; open ones are deferred.
    """
    settings = store.settings
    now = now or utc_now()
    idle = timedelta(minutes=settings.idle_gap_minutes)
    start, end = partition_window(day, settings.timezone)
    with conn.transaction():
        store.hold_off_erasure(conn)  # an erasure must not fall between reading the rows and saving them
        has_time_column = store.has_created_at(conn)
        rows = store.rows_for_window(conn, start, end, end + idle)
        is_backlog_day = day == settings.effective_backlog_date
        if is_backlog_day:
            rows += store.legacy_rows(conn)
        conversations = build_conversations(
            rows,
            idle_gap=idle,
            timezone=settings.timezone,
            backlog_date=settings.effective_backlog_date,
            user_key=user_key_mapper(settings.user_key_regex),
            max_chars=settings.max_message_chars,
            max_span=timedelta(hours=settings.max_conversation_hours),
            id_salt=store.id_salt(conn),
            sender_template=settings.sender_user_key,
        )
        of_day = [c for c in conversations if c.partition_date == day]
        # Without a time column nothing tells an old row from one of a chat going on now: consolidate nothing
        # (and purge nothing) until `memory-pipeline add-time-column` has run.
        closed = [c for c in of_day if is_closed(c, now, idle) and (has_time_column or not c.is_legacy)]
        # A blank key's rows are recorded as rejected and left in n8n's table (never archived nor purged).
        unattributed = [c for c in closed if c.is_unattributed]
        closed = [c for c in closed if not c.is_unattributed]
        stored = store.save_conversations(conn, closed, now)
        store.save_rejections(conn, unattributed)
    outcomes = Counter(row.status for c in closed + unattributed for row in c.rows)
    reasons = Counter(row.reason for c in closed + unattributed for row in c.rows if row.status == "rejected")
    skipped = Counter(row.reason for c in closed for row in c.rows if row.status == "skipped")
    return StageResult({
        "conversations_closed": len(closed),
        "conversations_deferred": len(of_day) - len(closed) - len(unattributed),
        "conversations_unattributed": len(unattributed),
        "conversations_stored": stored,  # inserted or changed by this run; 0 on a re-run of a finished day
        "legacy_conversations": sum(c.is_legacy for c in closed),
        "users": len({c.user_key for c in closed}),
        "messages": sum(len(c.rows) for c in closed),
        "turns": outcomes["turn"],
        "rows_rejected": outcomes["rejected"],
        "rows_rejected_by_reason": dict(sorted(reasons.items())),
        "rows_skipped_by_reason": dict(sorted(skipped.items())),
        "rows_truncated": sum(r.truncated for c in closed for r in c.rows),
        "idle_gap_minutes": settings.idle_gap_minutes,
        "is_backlog_date": is_backlog_day,
        "source_has_created_at": has_time_column,
        "conversation_ids": [c.conversation_id for c in closed][:200],
        "note": schedule_note(settings.idle_gap_minutes, settings.timezone) if has_time_column else (
            "n8n's table has no created_at column: every row is undated and nothing is consolidated; run "
            "`memory-pipeline add-time-column` and set MEMORY_PIPELINE_BACKLOG_DATE as it tells you."),
    })


# -- 2. session_summaries ---------------------------------------------------------------------------------
SUMMARY_STAGE, EXTRACTION_STAGE = "session_summaries", "extracted_facts"
# LLM answers written per transaction (batched statements): few commits, and a crash loses at most this many
# paid answers before they are stored.
WRITE_BATCH = 20

T = TypeVar("T")
R = TypeVar("R")


def call_each(fn: Callable[[T], R], items: Sequence[T], max_in_flight: int) -> Iterator[tuple[T, R | ExtractorError]]:
    """(item, fn(item)) for every item, in order, with at most `max_in_flight` calls running at once on worker
    threads (the backend's requests in flight per step). A failing call yields its ExtractorError instead of
    raising (any other exception becomes one with reason `backend_error`), so one conversation cannot sink the
    others. The caller writes each result on its own connection, in its own thread."""

    def attempt(item: T) -> R | ExtractorError:
        try:
            return fn(item)
        except ExtractorError as exc:
            return exc
        except Exception as exc:  # a backend bug or an odd server answer: recorded per conversation, no text
            log.warning("backend raised %s", type(exc).__name__)
            return ExtractorError(type(exc).__name__, reason="backend_error")

    if max_in_flight <= 1 or len(items) <= 1:
        for item in items:
            yield item, attempt(item)
        return
    pool = ThreadPoolExecutor(max_workers=max_in_flight, thread_name_prefix="llm")
    try:
        futures = [pool.submit(attempt, item) for item in items]
        for item, future in zip(items, futures):
            yield item, future.result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)  # a failed write stops the requests not yet sent


def estimated_cost_usd(settings: Settings, input_tokens: int, output_tokens: int) -> float:
    """Tokens priced with MEMORY_PIPELINE_LLM_INPUT/OUTPUT_PRICE_PER_MILLION (USD per million tokens)."""
    return round((input_tokens * settings.llm_input_price_per_million
                  + output_tokens * settings.llm_output_price_per_million) / 1_000_000, 6)


def _llm_metadata(store: Store, conn: psycopg.Connection, day: date, stage: str, extractor: Extractor, model: str,
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


def _still_stored(store: Store, conn: psycopg.Connection, record: dict[str, Any]) -> bool:
    """Inside a write transaction: hold an erasure off until commit, lock the conversation, and tell whether it
    is still stored with the transcript `record` was read with (not erased or re-split meanwhile)."""
    store.hold_off_erasure(conn)
    return store.lock_conversation(conn, record["conversation_id"]) == record["transcript_hash"]


def _record_failure(store: Store, conn: psycopg.Connection, day: date, stage: str, record: dict[str, Any],
                    model: str, extractor: Extractor, exc: ExtractorError) -> None:
    log.warning("%s failed for conversation %s: %s", stage, record["conversation_id"], exc.reason)
    with conn.transaction():
        if not _still_stored(store, conn, record):
            return  # erased meanwhile: nothing to record about it
        store.record_llm_failure(conn, conversation_id=record["conversation_id"], stage=stage, partition_date=day,
                                 reason=exc.reason, model=model, prompt_version=extractor.prompt_version)


def session_summaries(store: Store, conn: psycopg.Connection, day: date, extractor: Extractor) -> StageResult:
    """One summary per conversation of the day, from the cache when (transcript hash, prompt version, model)
    was summarised before. Requests run `max_in_flight` at a time. A failing conversation is recorded with its
    reason in `extraction_failures` and left without summary; the others go on. When the backend's summary
    request also returned the facts, they are cached for the extraction stage."""
    model = getattr(extractor, "summary_model", extractor.model)
    caches_facts = getattr(extractor, "cache_answers", False)
    hits = computed = tokens_in = tokens_out = changed = pruned = 0
    failed: Counter[str] = Counter()
    todo = []

    def row(record: dict[str, Any], text: str, used_in: int, used_out: int) -> dict[str, Any]:
        return dict(conversation_id=record["conversation_id"], partition_date=day, user_key=record["user_key"],
                    summary=text, transcript_hash=record["transcript_hash"], extractor=extractor.name, model=model,
                    prompt_version=extractor.prompt_version, input_tokens=used_in, output_tokens=used_out)

    hit_rows = []
    for record in store.conversations_of_partition(conn, day):
        if record["text_pruned_at"]:
            pruned += 1  # past text retention: nothing left to summarise, and its summary was dropped on purpose
            continue
        cached = store.cached_summary(conn, record["transcript_hash"], extractor.prompt_version, model)
        if not cached:
            todo.append(record)
            continue
        hits += 1
        hit_rows.append((record, row(record, cached["summary"], cached["input_tokens"], cached["output_tokens"])))
    with conn.transaction():
        # Only conversations still stored with the transcript they were read with (not erased or re-split).
        kept = [r for record, r in hit_rows if _still_stored(store, conn, record)]
        changed += len(hit_rows) - len(kept)
        store.save_summaries(conn, kept, cache_hit=True)
    pending: list[tuple[dict[str, Any], Any]] = []

    def flush() -> None:
        # One transaction and one batched statement per table for up to WRITE_BATCH answers, each written only
        # if its conversation is still stored as it was read (an erasure or a re-split may have come meanwhile).
        nonlocal changed
        with conn.transaction():
            stored = [(r, res) for r, res in pending if _still_stored(store, conn, r)]
            changed += len(pending) - len(stored)
            store.save_summaries(conn, [row(r, res.text, res.input_tokens, res.output_tokens)
                                        for r, res in stored], cache_hit=False)
            for record, result in stored:
                if result.facts is not None and caches_facts:
                    # Same request answered both stages: its tokens are counted here, the cached facts cost 0.
                    store.save_cached_extraction(conn, transcript_hash=record["transcript_hash"],
                                                 prompt_version=extractor.prompt_version, model=extractor.model,
                                                 facts=result.facts, input_tokens=0, output_tokens=0)
            store.clear_llm_failures(conn, [r["conversation_id"] for r, _ in stored], SUMMARY_STAGE)
        pending.clear()

    summarize = lambda record: extractor.summarize(conversation_from_record(record))  # noqa: E731
    for record, result in call_each(summarize, todo, getattr(extractor, "max_in_flight", 1)):
        if isinstance(result, ExtractorError):
            failed[result.reason] += 1
            _record_failure(store, conn, day, SUMMARY_STAGE, record, model, extractor, result)
            continue
        computed += 1
        tokens_in += result.input_tokens
        tokens_out += result.output_tokens
        pending.append((record, result))
        if len(pending) >= WRITE_BATCH:
            flush()
    if pending:
        flush()
    return StageResult({
        "summaries": hits + computed,
        "cache_hits": hits,
        "summaries_computed": computed,
        "conversations_changed_during_summary": changed,
        "conversations_text_pruned": pruned,
        **_llm_metadata(store, conn, day, SUMMARY_STAGE, extractor, model, failed, tokens_in, tokens_out),
    })


# -- 3. extracted_facts -----------------------------------------------------------------------------------
def extracted_facts(store: Store, conn: psycopg.Connection, day: date, extractor: Extractor) -> StageResult:
    """Extract and validate candidates for each summarised conversation of the day; keep every candidate with
    its status and rejection reason. A conversation is marked extracted only when this succeeded, and is not
    extracted again while its transcript and the extractor (name, model, prompt version) stay the same. With a
    backend that caches its answers, a transcript extracted before (or answered by the summary request) sends no
    request. A failing conversation is recorded with its reason and keeps its raw rows; the others go on."""
    settings = store.settings
    backlog_start = partition_window(settings.effective_backlog_date, settings.timezone)[0]
    summaries = store.summaries_of_partition(conn, day)
    caches = getattr(extractor, "cache_answers", False)
    statuses: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    categories: Counter[str] = Counter()
    failed: Counter[str] = Counter()
    no_summary = already = changed = tokens_in = tokens_out = retractions = 0
    signature = f"{extractor.name}/{extractor.model}/{extractor.prompt_version}"
    from_cache: list[tuple[dict[str, Any], ExtractionResult]] = []
    todo = []
    for record in store.conversations_of_partition(conn, day):
        if record["facts_extracted_at"] and record["extracted_with"] == signature:
            already += 1  # same transcript, same extractor: extracting again would pay tokens for nothing
            continue
        if record["text_pruned_at"]:
            already += 1  # past text retention: its candidates stay as extracted (an empty transcript has none)
            continue
        if record["conversation_id"] not in summaries:
            no_summary += 1
            continue
        cached = caches and store.cached_extraction(conn, record["transcript_hash"], extractor.prompt_version,
                                                    extractor.model)
        if cached:
            facts = [ExtractedFact.model_validate(f) for f in cached["facts"]]
            from_cache.append((record, ExtractionResult(facts=facts)))
        else:
            todo.append(record)
    cached_ids = {record["conversation_id"] for record, _ in from_cache}
    extract = lambda r: extractor.extract(conversation_from_record(r), summaries[r["conversation_id"]])  # noqa: E731
    for record, result in chain(from_cache, call_each(extract, todo, getattr(extractor, "max_in_flight", 1))):
        conversation_id = record["conversation_id"]
        if isinstance(result, ExtractorError):
            failed[result.reason] += 1
            _record_failure(store, conn, day, EXTRACTION_STAGE, record, extractor.model, extractor, result)
            continue
        tokens_in += result.input_tokens
        tokens_out += result.output_tokens
        conversation = conversation_from_record(record)
        fallback = backlog_start if conversation.is_legacy else None
        candidates = [validate_candidate(f, conversation, i, fallback) for i, f in enumerate(result.facts)]
        with conn.transaction():
            if not _still_stored(store, conn, record):
                changed += 1  # erased or re-split by a concurrent run meanwhile: facts of an old transcript
                continue
            if caches and conversation_id not in cached_ids:
                store.save_cached_extraction(conn, transcript_hash=record["transcript_hash"],
                                             prompt_version=extractor.prompt_version, model=extractor.model,
                                             facts=result.facts, input_tokens=result.input_tokens,
                                             output_tokens=result.output_tokens)
            store.replace_candidates(conn, day, [conversation_id], candidates, extractor.name, extractor.model,
                                     extractor.prompt_version)
            conn.execute(store.query(conn, "mark_facts_extracted"), {
                "conversation_id": conversation_id, "extracted_with": signature,
                "transcript_hash": record["transcript_hash"]})
            store.clear_llm_failure(conn, conversation_id, EXTRACTION_STAGE)
        for c in candidates:
            statuses[c.status] += 1
            retractions += c.status == "accepted" and c.retraction
            if c.reason:
                reasons[c.reason] += 1
            else:
                categories[c.category] += 1
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
        "cache_hits": len(cached_ids),
        **_llm_metadata(store, conn, day, EXTRACTION_STAGE, extractor, extractor.model, failed, tokens_in,
                        tokens_out),
    })


# -- 4. active_facts --------------------------------------------------------------------------------------
def active_facts(store: Store, conn: psycopg.Connection, day: date, embedder: Embedder | None = None) -> StageResult:
    """Reconcile every user of the day (and every user whose folded candidates changed since: `folds`), so the
    result does not depend on the order partitions ran in: a user's new candidates are folded on top of their
    active facts when all are said after what was folded, else the user is folded from all their accepted
    candidates (any day). Then label new facts' text search language and, with an `embedder`, embed them
    (`embeddings.index_new_facts`; a failing embedding request leaves them NULL)."""
    users = store.users_to_reconcile(conn, day)  # group chats: each sender
    totals: Counter[str] = Counter()
    for user_key in users:
        with conn.transaction():
            totals.update(reconcile_one_user(store, conn, user_key))
    state = store.fact_totals(conn, users) if users else {"active": 0, "superseded": 0, "expired": 0}
    recall_index = index_new_facts(store, conn, embedder)
    return StageResult({
        "users_reconciled": len(users),
        "users_folded_incrementally": totals["folded_incrementally"],
        "users_folded_from_scratch": totals["folded_from_scratch"],
        "facts_inserted": totals["inserted"],
        "facts_updated": totals["updated"],
        "facts_deleted": totals["deleted"],
        "facts_superseded": totals["newly_superseded"],
        "active_facts_of_these_users": state["active"],
        "superseded_facts_of_these_users": state["superseded"],
        "expired_facts_of_these_users": state["expired"],
        **recall_index,
    })


def reconcile_one_user(store: Store, conn: psycopg.Connection, user_key: str, lock: bool = True) -> dict[str, int]:
    """Make one user's `agent_facts` the fold of their accepted candidates, minus forgotten ones
    (`folds.fold_user`: incrementally when it can); with MEMORY_PIPELINE_ERASE_ON_RETRACTION, retracted slots
    are erased first (their deleted candidates make the fold start from scratch). Call inside a transaction;
    `lock` takes the user's lock (pass False when the caller holds it). Returns `folds.fold_user` counts."""
    if store.settings.erase_on_retraction:  # outside pipeline mode: it reads its deletions' row counts
        if lock:
            store.lock_user(conn, user_key)
            lock = False
        erasure.erase_retracted_slots(store, conn, user_key)
    # Pipeline mode: statements whose results are not read (the lock, the writes) travel with the next read or
    # the commit.
    with conn.pipeline():
        if lock:
            store.lock_user(conn, user_key)
        return folds.fold_user(store, conn, user_key, DEFAULT_TTL_DAYS)


# -- 5. archived_sessions ---------------------------------------------------------------------------------
def archived_sessions(store: Store, conn: psycopg.Connection, day: date) -> StageResult:
    """Archive then purge the raw rows of the day's consolidated conversations (in one transaction, two
    set-based statements), then drop archive rows past retention and conversation text past text retention
    (`Store.prune_text`). Conversations whose facts were not extracted keep their rows."""
    with conn.transaction():
        store.hold_off_erasure(conn)  # copying rows an erasure just deleted from the archive would bring them back
        archived, purged = store.archive_and_purge_partition(conn, day)
        kept = store.scalar(conn, "unconsolidated_conversations_of_partition", {"partition_date": day})
    with conn.transaction():
        dropped = store.drop_expired_archive(conn)
        pruned = store.prune_text(conn)
    return StageResult({
        "rows_archived": archived,
        "rows_purged": purged,
        "conversations_kept_unconsolidated": kept,
        "archive_rows_dropped_past_retention": dropped,
        "archive_retention_days": store.settings.archive_retention_days,
        "text_retention_days": store.settings.effective_text_retention_days,
        **{f"text_pruned_{step}": n for step, n in pruned.items()},
    })


# -- checks -----------------------------------------------------------------------------------------------
def check_quotes_verbatim(store: Store, conn: psycopg.Connection, day: date) -> CheckOutcome:
    """Every accepted candidate of the day has its quote verbatim (whitespace-normalised) in a user turn.
    Candidates whose transcript or quote was pruned (text retention, time-to-live + grace) are counted apart."""
    bad = []
    pruned = 0
    rows = store.accepted_candidates_of_partition(conn, day)
    for row in rows:
        if row["text_pruned_at"] or row["quote"] == "":
            # Its transcript was dropped after text retention, or its quote after the fact's time-to-live plus
            # grace (an accepted candidate never has an empty quote otherwise: validation rejects it, no_quote).
            pruned += 1
            continue
        conversation = conversation_from_record({
            "conversation_id": row["conversation_id"], "session_key": "", "user_key": "", "partition_date": day,
            "started_at": None, "ended_at": None, "is_legacy": False, "transcript": row["transcript"]})
        reason, _ = locate_quote(row["quote"], conversation, row["quote_message_id"])
        # A short quote is still verbatim: the length rule gates new candidates, and candidates accepted before
        # it existed must not fail this blocking check when their day is re-materialized.
        if reason and reason != "quote_too_short":
            bad.append(row["candidate_id"])
    return CheckOutcome(not bad, {"accepted_checked": len(rows) - pruned, "accepted_text_pruned": pruned,
                                  "quotes_not_found": len(bad),
                                  "failing_candidate_ids": bad[:50]})


def check_no_duplicate_active_facts(store: Store, conn: psycopg.Connection) -> CheckOutcome:
    """No two active facts share (user_key, category, md5(fact)); no single-valued attribute holds two
    active values for one user."""
    duplicates = store.scalar(conn, "check_duplicate_active_facts")
    contradictions = store.scalar(conn, "check_contradicting_active_facts",
                                  {"multi_valued": sorted(MULTI_VALUED_ATTRIBUTES)})
    return CheckOutcome(duplicates == 0 and contradictions == 0,
                        {"duplicate_groups": duplicates, "contradicting_groups": contradictions})


def check_no_message_lost(store: Store, conn: psycopg.Connection, day: date) -> CheckOutcome:
    """Every message id of the day's conversations is in the n8n table or the archive (within retention), and
    no row of a consolidated conversation is left in the n8n table (it would never be archived)."""
    missing = store.scalar(conn, "check_missing_messages",
                           {"partition_date": day, "retention_days": store.settings.archive_retention_days})
    left = store.scalar(conn, "check_consolidated_rows_in_source", {"partition_date": day})
    return CheckOutcome(missing == 0 and left == 0,
                        {"missing_messages": missing, "consolidated_rows_left_in_source": left})


def check_no_open_conversation(store: Store, conn: psycopg.Connection, day: date) -> CheckOutcome:
    """No conversation of the day was stored while its last message was within the idle gap."""
    still_open = store.scalar(conn, "check_open_conversations", {"partition_date": day})
    return CheckOutcome(still_open == 0, {"open_conversations": still_open})


# -- partition state --------------------------------------------------------------------------------------
# Named queries each asset's partition state reads (sql/queries.sql); every column becomes `partition_<column>`.
PARTITION_STATE_QUERIES = {
    "closed_sessions": ["partition_state_conversations"],
    "session_summaries": ["partition_state_summaries"],
    "extracted_facts": ["partition_state_candidates"],
    "active_facts": ["partition_state_facts"],
    "archived_sessions": ["partition_state_archive"],
}


def partition_state(store: Store, conn: psycopg.Connection, day: date, asset: str) -> dict[str, Any]:
    """The partition's state for `asset` as the tables hold it now, whichever run wrote it: {column: count}
    (ints; `candidates_rejected_by_reason` is a {reason: count} dict). Re-running a finished partition gives
    the same figures, unlike the stage's own counts, which say what one run did.

    Raises KeyError for an asset name not in PARTITION_STATE_QUERIES."""
    state: dict[str, Any] = {}
    for name in PARTITION_STATE_QUERIES[asset]:
        row = conn.execute(store.query(conn, name), {"partition_date": day}).fetchone()
        state.update({k: (v if isinstance(v, dict) else int(v)) for k, v in row.items()})
    return state


def check_every_conversation_summarised(store: Store, conn: psycopg.Connection, day: date) -> CheckOutcome:
    """Every closed conversation of the day has a summary or a recorded failure (extraction_failures, with its
    reason; tried again next run). A conversation left without either was skipped silently and is never
    extracted. Metadata: `conversations_without_summary` (the failing ones) and `summary_failures_recorded`."""
    missing = store.scalar(conn, "check_conversations_without_summary", {"partition_date": day})
    failures = store.llm_failures_of_partition(conn, day, SUMMARY_STAGE)
    return CheckOutcome(missing == 0, {"conversations_without_summary": missing,
                                       "summary_failures_recorded": sum(failures.values())})
