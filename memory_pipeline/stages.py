"""The five stages and the checks, as plain functions over a `Store` and a connection.

Each stage reads, calls the domain, writes, and returns metadata for Dagster: counts, ids and hashes only,
never message or fact text (the event log cannot be erased). The Dagster assets in `assets.py` only wrap these.
"""

from __future__ import annotations

import heapq
import itertools
import logging
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import ExitStack, closing, contextmanager
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone
from functools import partial
from typing import Any, TypeVar

import psycopg

from memory_pipeline import erasure, folds, workers
from memory_pipeline.domain.conversations import (
    Conversation,
    build_conversations,
    group_chat_matcher,
    is_closed,
    partition_window,
    rows_by_session_key,
    user_key_mapper,
)
from memory_pipeline.domain.facts import ExtractedFact, QuoteSources, locate_quote, validate_candidate
from memory_pipeline.domain.messages import ParsedRow, cut_text
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


# What a stored turn (`Store._turn_record`) may hold; the other ParsedRow fields take their defaults, status is
# "turn" (only turns are stored) and `truncated` follows `quotable_chars`.
_STORED_TURN_KEYS = frozenset({"message_id", "at", "role", "text", "tool_evidence", "sender", "user_key",
                               "machine_text", "quotable_chars"})
# A dataclass field with a plain default is also a class attribute holding that default: an instance whose field
# dict lacks it reads the default, and every generated method (eq, hash, repr, replace, asdict) reads fields as
# attributes.
_new_object, _set_attribute, _read_time, _UTC = object.__new__, object.__setattr__, datetime.fromisoformat, timezone.utc


def turn_from_record(turn: dict[str, Any]) -> ParsedRow:
    """One turn of a stored transcript (the JSON `Store._turn_record` wrote) as the ParsedRow it was: `at` read
    back in UTC, `truncated` set when `quotable_chars` is; a key no ParsedRow field reads back from is ignored.
    Equal to building it with ParsedRow(...) field by field, at about a sixth of the cost (a frozen dataclass's
    __init__ sets each of its 12 fields through object.__setattr__, and the LLM stages rebuild every turn of the
    day twice: 200,000 at 100k messages): the instance gets a copy of the stored dict as its field dict in one
    assignment, holding only the fields the turn sets; the others read their class-level defaults (measured on
    the benchmark's transcripts: 1.3 us a turn, against 2-3 us when every default was merged in). `turn` is not
    changed."""
    turn = turn.copy() if turn.keys() <= _STORED_TURN_KEYS else {
        k: v for k, v in turn.items() if k in _STORED_TURN_KEYS}
    at = turn.get("at")
    if at:
        at = _read_time(at)
        turn["at"] = at if at.tzinfo is _UTC else at.astimezone(_UTC)
    else:
        turn["at"] = None
    turn["status"] = "turn"
    if turn.get("quotable_chars") is not None:
        turn["truncated"] = True
    row = _new_object(ParsedRow)
    _set_attribute(row, "__dict__", turn)
    return row


def conversation_from_record(record: dict[str, Any]) -> Conversation:
    """Rebuild a stored conversation (turns only) from a `conversations` row."""
    return Conversation(
        conversation_id=record["conversation_id"],
        session_key=record["session_key"],
        user_key=record["user_key"],
        partition_date=record["partition_date"],
        started_at=record["started_at"],
        ended_at=record["ended_at"],
        rows=tuple(map(turn_from_record, record["transcript"])),
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
# Conversations (closed or unattributed) written per batched write: peak memory is one session key's rows plus
# one batch, and the statements stay a few per batch (executemany in pipeline mode).
CLOSED_SESSIONS_WRITE_BATCH = 200
CONVERSATION_IDS_SHOWN = 200  # the `conversation_ids` metadata list is capped (Dagster's event log stays small)


@dataclass
class _SplitTally:
    """What `closed_sessions` counts as conversations stream by (its metadata), without keeping them; one shard's
    (`closed_sessions_shard`), pickled back to the stage, which adds the shards' up (`merge`)."""

    of_day: int = 0
    closed: int = 0
    unattributed: int = 0
    stored: int = 0
    legacy: int = 0
    messages: int = 0
    truncated: int = 0
    rows_read: int = 0
    has_time_column: bool = True
    users: set[str] = field(default_factory=set)  # a set, not a count: two shards' keys can map to one user
    outcomes: Counter = field(default_factory=Counter)
    reasons: Counter = field(default_factory=Counter)
    skipped: Counter = field(default_factory=Counter)
    # (session key, conversation id) of the first CONVERSATION_IDS_SHOWN closed conversations, in stream order
    # (session key, then time): the shards' lists merge by key into the list one shard would have given.
    conversation_ids: list[tuple[str, str]] = field(default_factory=list)

    def add(self, conversation: Conversation, unattributed: bool) -> None:
        rows = conversation.rows
        self.outcomes.update(row.status for row in rows)
        self.reasons.update(row.reason for row in rows if row.status == "rejected")
        if unattributed:
            self.unattributed += 1
            return
        self.closed += 1
        self.legacy += conversation.is_legacy
        self.users.add(conversation.user_key)
        self.messages += len(rows)
        self.truncated += sum(row.truncated for row in rows)
        self.skipped.update(row.reason for row in rows if row.status == "skipped")
        if len(self.conversation_ids) < CONVERSATION_IDS_SHOWN:
            self.conversation_ids.append((conversation.session_key, conversation.conversation_id))

    @classmethod
    def merge(cls, tallies: Sequence[_SplitTally]) -> _SplitTally:
        """The tally of all shards: counts added, user sets united, conversation ids merged by session key
        (shards never share a key) and capped. `has_time_column` is the first shard's (one table for all)."""
        total = cls(has_time_column=tallies[0].has_time_column)
        for tally in tallies:
            for name in ("of_day", "closed", "unattributed", "stored", "legacy", "messages", "truncated", "rows_read"):
                setattr(total, name, getattr(total, name) + getattr(tally, name))
            total.users |= tally.users
            total.outcomes.update(tally.outcomes)
            total.reasons.update(tally.reasons)
            total.skipped.update(tally.skipped)
        merged = heapq.merge(*(t.conversation_ids for t in tallies), key=lambda pair: pair[0])
        total.conversation_ids = list(itertools.islice(merged, CONVERSATION_IDS_SHOWN))
        return total


def closed_sessions(store: Store, conn: psycopg.Connection, day: date, now: datetime | None = None) -> StageResult:
    """Split the day's conversations out of the n8n table + archive and store the closed ones.

    Streams (server-side cursor, in session-key order) the rows of the session keys active that day, each key's
    from the start of the chain of its first message of the day (what the idle gap can join; `window_rows`),
    and, on the backlog date, the rows without a timestamp; splits each key's rows as soon as they are all read
    and writes conversations in batches of CLOSED_SESSIONS_WRITE_BATCH. A conversation belongs to `day` when its
    last message falls on it; open ones are deferred. `rows_read` in the metadata counts the rows read.

    The session keys are split into `settings.worker_processes` shards (`closed_sessions_shard`), each run in its
    own worker process on its own connection and transaction (`workers.each_shard`); with one, on `conn` in
    this process. A failing shard raises once every shard has ended; the shards that committed keep their
    conversations (a re-run writes only what is missing or changed). Then the statistics are refreshed once.
    """
    settings = store.settings
    now = now or utc_now()
    tally = _SplitTally.merge(workers.each_shard(closed_sessions_shard, store, conn, day, now))
    # The LLM stages plan their pages against these rows next; autovacuum would analyze them only later.
    store.analyze_conversations_if_stale(conn, tally.stored, "analyze_conversations_split")
    has_time_column = tally.has_time_column
    return StageResult({
        "conversations_closed": tally.closed,
        "conversations_deferred": tally.of_day - tally.closed - tally.unattributed,
        "conversations_unattributed": tally.unattributed,
        "conversations_stored": tally.stored,  # inserted or changed by this run; 0 on a re-run of a finished day
        "legacy_conversations": tally.legacy,
        "users": len(tally.users),
        "messages": tally.messages,
        "turns": tally.outcomes["turn"],
        "rows_rejected": tally.outcomes["rejected"],
        "rows_rejected_by_reason": dict(sorted(tally.reasons.items())),
        "rows_skipped_by_reason": dict(sorted(tally.skipped.items())),
        "rows_truncated": tally.truncated,
        "rows_read": tally.rows_read,  # rows streamed from the n8n table and the archive (chains of active keys)
        "idle_gap_minutes": settings.idle_gap_minutes,
        "is_backlog_date": day == settings.effective_backlog_date,
        "source_has_created_at": has_time_column,
        "worker_processes": settings.worker_processes,
        "conversation_ids": [conversation_id for _, conversation_id in tally.conversation_ids],
        "note": schedule_note(settings.idle_gap_minutes, settings.timezone) if has_time_column else (
            "n8n's table has no created_at column: every row is undated and nothing is consolidated; run "
            "`memory-pipeline add-time-column` and set MEMORY_PIPELINE_BACKLOG_DATE as it tells you."),
    })


def closed_sessions_shard(store: Store, conn: psycopg.Connection, shard: int, shards: int, day: date,
                          now: datetime) -> _SplitTally:
    """`closed_sessions`' work for the session keys of shard `shard` of `shards` (`Store.stream_window_rows`), in
    one transaction on `conn`: stream, split, write batches. Every write is per session key (a conversation's
    overlap deletion matches its own key; a rejection is its own message's), so shards never touch each other's
    rows. Returns the shard's tally (counts, user keys, the first conversation ids). Module-level: a worker
    process runs it by name (`workers.run_shards`)."""
    settings = store.settings
    idle = timedelta(minutes=settings.idle_gap_minutes)
    start, end = partition_window(day, settings.timezone)
    tally = _SplitTally()
    closed: list[Conversation] = []
    unattributed: list[Conversation] = []

    def write_batch() -> None:
        tally.stored += store.save_conversations(conn, closed, now)
        store.save_rejections(conn, unattributed)
        closed.clear()
        unattributed.clear()

    # The streams are closed before the transaction ends, even on an error: a server-side cursor closed later
    # (when a traceback lets go of it) would send CLOSE into whatever transaction the connection is in then.
    with conn.transaction(), ExitStack() as open_streams:
        store.hold_off_erasure(conn)  # an erasure must not fall between reading the rows and saving them
        has_time_column = tally.has_time_column = store.has_created_at(conn)
        streams = [open_streams.enter_context(closing(
            store.stream_window_rows(conn, start, end, end + idle, idle, shard, shards)))]
        if day == settings.effective_backlog_date:
            streams.append(open_streams.enter_context(closing(store.stream_legacy_rows(conn, shard, shards))))
        split = partial(
            build_conversations,
            idle_gap=idle,
            timezone=settings.timezone,
            backlog_date=settings.effective_backlog_date,
            user_key=user_key_mapper(settings.user_key_regex),
            max_chars=settings.max_message_chars,
            max_span=timedelta(hours=settings.max_conversation_hours),
            id_salt=store.id_salt(conn),
            sender_template=settings.sender_user_key,
            group_chat=group_chat_matcher(settings.group_chat_session_keys),
        )
        for key_rows in rows_by_session_key(*streams):
            tally.rows_read += len(key_rows)
            for conversation in split(key_rows):
                if conversation.partition_date != day:
                    continue
                tally.of_day += 1
                # Without a time column nothing tells an old row from one of a chat going on now: consolidate
                # nothing (and purge nothing) until `memory-pipeline add-time-column` has run.
                if not is_closed(conversation, now, idle) or not (has_time_column or not conversation.is_legacy):
                    continue
                # A blank key's rows are recorded as rejected and left in n8n's table (never archived nor purged).
                if conversation.is_unattributed:
                    unattributed.append(conversation)
                    tally.add(conversation, unattributed=True)
                else:
                    closed.append(conversation)
                    tally.add(conversation, unattributed=False)
            if len(closed) + len(unattributed) >= CLOSED_SESSIONS_WRITE_BATCH:
                write_batch()
        write_batch()
    return tally


# -- 2. session_summaries ---------------------------------------------------------------------------------
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
# Longest summary stored (characters). The prompt asks for 1 to 3 sentences (a few hundred characters, the offline
# backend's at most 600); the summary goes into every extraction request, whose budget is ~3,000 prompt tokens.
MAX_SUMMARY_CHARS = 2000

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


@contextmanager
def _write_transaction(conn: psycopg.Connection) -> Iterator[None]:
    """One transaction of a write batch, in pipeline mode: the statements whose results are not read go to the
    server without waiting for each other, so a batch costs a few round trips (lock, commit), not one per
    statement. An error raised by any of them rolls the whole batch back, as outside pipeline mode."""
    with conn.pipeline(), conn.transaction():
        yield


class _BatchWriter:
    """Runs a stage's write batches (each a function doing one `_write_transaction` on the stage's connection) one at
    a time, in the order given, on one background thread, so the server writes and commits a batch of free answers
    while the stage computes the next: at 100k messages the extraction stage's own work took 1.5 s of wall for 0.8
    s of Python, the rest waiting on its batches' writes and commits (0.6 s of server CPU). A batch holding paid
    answers is waited for before `write` returns, so a crash still loses at most WRITE_BATCH paid answers. `write`
    first waits for the batch before (and raises its error); `wait` waits for the last one. Use as a context
    manager: leaving it waits for the batch in flight, so the connection is free again (after an error, that
    batch's own error is dropped for the first one). While a batch is in flight, the stage must not use the
    connection itself."""

    def __init__(self) -> None:
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="writes")
        self._writing: Future[None] | None = None

    def write(self, batch: Callable[[], None], paid: bool) -> None:
        """Start `batch` once the one before is written; return when it is written too if `paid`."""
        self.wait()
        self._writing = self._thread.submit(batch)
        if paid:
            self.wait()

    def wait(self) -> None:
        """Return once the last batch is written; raise what it raised."""
        writing, self._writing = self._writing, None
        if writing is not None:
            writing.result()

    def __enter__(self) -> _BatchWriter:
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self._thread.shutdown(wait=True)  # an error in the stage: its write in flight ends before the stage does
        if exc_info[0] is None:
            self.wait()


def _still_stored(store: Store, conn: psycopg.Connection, records: Sequence[dict[str, Any]]) -> set[str]:
    """Inside a write transaction: hold an erasure off until commit, lock the batch's conversations (one
    statement), and return the ids of those still stored with the transcript their record was read with (not
    erased or re-split meanwhile)."""
    store.hold_off_erasure(conn)
    current = store.lock_conversations(conn, [r["conversation_id"] for r in records])
    return {r["conversation_id"] for r in records if current.get(r["conversation_id"]) == r["transcript_hash"]}


def _record_failures(store: Store, conn: psycopg.Connection, day: date, stage: str, model: str,
                     extractor: Extractor, failures: Sequence[tuple[dict[str, Any], ExtractorError]]) -> None:
    """Inside the batch's write transaction, after `_still_stored`: record each still-stored conversation's
    failed call with its reason (extraction_failures), one batched statement."""
    store.record_llm_failures(conn, [{"conversation_id": r["conversation_id"], "reason": exc.reason}
                                     for r, exc in failures],
                              stage=stage, partition_date=day, model=model, prompt_version=extractor.prompt_version)


def session_summaries(store: Store, conn: psycopg.Connection, day: date, extractor: Extractor) -> StageResult:
    """One summary per conversation of the day, from the cache when (transcript hash, prompt version, model)
    was summarised before. Requests run `max_in_flight` at a time. A failing conversation is recorded with its
    reason in `extraction_failures` and left without summary; the others go on. When the backend's summary
    request also returned the facts, they are cached for the extraction stage.

    The day is read PAGE_SIZE conversations at a time, the next page while this one is worked on
    (`Store.pages_read_ahead`; each page with its cached summaries, one statement);
    cache hits are written per page and answers per WRITE_BATCH (FREE_WRITE_BATCH for a `free_answers`
    backend), each batch in one transaction; a batch of free answers (cache hits, a `free_answers` backend) is
    written while the next is computed (`_BatchWriter`)."""
    model = getattr(extractor, "summary_model", extractor.model)
    caches_facts = getattr(extractor, "cache_answers", False)
    free = getattr(extractor, "free_answers", False)
    batch = FREE_WRITE_BATCH if free else WRITE_BATCH
    hits = computed = tokens_in = tokens_out = changed = pruned = 0
    failed: Counter[str] = Counter()

    def row(record: dict[str, Any], text: str, used_in: int, used_out: int) -> dict[str, Any]:
        if len(text) > MAX_SUMMARY_CHARS:  # a model looping to its token cap: kept to whole sentences that fit
            text = cut_text(text, MAX_SUMMARY_CHARS)[0]
        return dict(conversation_id=record["conversation_id"], user_key=record["user_key"], summary=text,
                    transcript_hash=record["transcript_hash"], input_tokens=used_in, output_tokens=used_out)

    save = partial(store.save_summaries, partition_date=day, extractor=extractor.name, model=model,
                   prompt_version=extractor.prompt_version)

    def to_summarise() -> Iterator[tuple[dict[str, Any], Conversation]]:
        # Pages of the day; a page's cache hits are handed to the writer as it is read, the rest go to the
        # backend, each with its conversation (the record then drops the JSON form: pending answers hold no
        # transcript).
        nonlocal hits, pruned
        params = {"partition_date": day, "prompt_version": extractor.prompt_version, "model": model}
        for page in store.pages_read_ahead(conn, "summary_page", params, PAGE_SIZE):
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
                writer.write(partial(save_hits, hit_records), paid=False)
            for record in todo:
                conversation = conversation_from_record(record)
                del record["transcript"]
                yield record, conversation

    def save_hits(hit_records: list[dict[str, Any]]) -> None:
        # Cache hits of a page: only conversations still stored with the transcript they were read with.
        nonlocal changed
        with _write_transaction(conn):
            kept = _still_stored(store, conn, hit_records)
            changed += len(hit_records) - len(kept)
            save(conn, [row(r, r["cached_summary"], r["cached_input_tokens"], r["cached_output_tokens"])
                        for r in hit_records if r["conversation_id"] in kept], cache_hit=True)

    pending: list[tuple[dict[str, Any], Any]] = []

    def write_batch(pending: list[tuple[dict[str, Any], Any]]) -> None:
        # One transaction and one batched statement per table for a batch of answers and failures, each written
        # only if its conversation is still stored as it was read (an erasure or a re-split may have come
        # meanwhile). On the writer's thread: the counters it adds to are read once the writer is done.
        nonlocal changed
        with _write_transaction(conn):
            kept = _still_stored(store, conn, [r for r, _ in pending])
            answers = [(r, res) for r, res in pending if not isinstance(res, ExtractorError)]
            stored = [(r, res) for r, res in answers if r["conversation_id"] in kept]
            changed += len(answers) - len(stored)
            save(conn, [row(r, res.text, res.input_tokens, res.output_tokens) for r, res in stored], cache_hit=False)
            if caches_facts:
                # Same request answered both stages: its tokens are counted here, the cached facts cost 0.
                store.save_cached_extractions(conn, [
                    {"transcript_hash": r["transcript_hash"], "facts": res.facts, "input_tokens": 0,
                     "output_tokens": 0} for r, res in stored if res.facts is not None],
                    prompt_version=extractor.prompt_version, model=extractor.model)
            store.clear_llm_failures(conn, [r["conversation_id"] for r, _ in stored], SUMMARY_STAGE)
            _record_failures(store, conn, day, SUMMARY_STAGE, model, extractor, [
                (r, res) for r, res in pending if isinstance(res, ExtractorError) and r["conversation_id"] in kept])

    def flush() -> None:
        writer.write(partial(write_batch, pending.copy()), paid=not free)  # every answer computed is paid for
        pending.clear()

    summarize = lambda item: extractor.summarize(item[1])  # noqa: E731
    with _BatchWriter() as writer:
        for (record, _), result in call_each(summarize, to_summarise(), getattr(extractor, "max_in_flight", 1)):
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
    request. A failing conversation is recorded with its reason and keeps its raw rows; the others go on.

    The day is read PAGE_SIZE conversations at a time, the next page while this one is worked on
    (`Store.pages_read_ahead`; each page with its summaries and cached answers, one
    statement; transcripts only of the conversations extracted now); answers are written per WRITE_BATCH paid
    ones (FREE_WRITE_BATCH when they cost nothing: cached, or from a `free_answers` backend), each batch in one
    transaction of one statement per step; a batch without paid answers is written while the next is computed
    (`_BatchWriter`)."""
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
        for page in store.pages_read_ahead(conn, "extraction_page", params, PAGE_SIZE):
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
        # conversation is still stored as it was read (an erasure or a re-split may have come meanwhile). On the
        # writer's thread: the counters it adds to are read once the writer is done.
        nonlocal changed, retractions
        with _write_transaction(conn):
            kept = _still_stored(store, conn, [r for r, _, _, _ in pending])
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
            _record_failures(store, conn, day, EXTRACTION_STAGE, extractor.model, extractor, [
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
        writer.write(partial(write_batch, pending.copy()), paid=paid > 0)
        pending.clear()
        paid = 0

    with _BatchWriter() as writer:
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
                candidates = [validate_candidate(f, conversation, i, fallback, sources)
                              for i, f in enumerate(result.facts)]
                pending.append((record, result, candidates, cached is not None))
            paid += not free and cached is None  # a request was sent (answered or failed)
            if paid >= WRITE_BATCH or len(pending) >= FREE_WRITE_BATCH:
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
        **_llm_metadata(store, conn, day, EXTRACTION_STAGE, extractor, extractor.model, failed, tokens_in,
                        tokens_out),
    })


# -- 4. active_facts --------------------------------------------------------------------------------------
def active_facts(store: Store, conn: psycopg.Connection, day: date, embedder: Embedder | None = None) -> StageResult:
    """Reconcile every user of the day (and every user whose folded candidates changed since: `folds`), so the
    result does not depend on the order partitions ran in: a user's new candidates are folded on top of their
    active facts when all are said after what was folded, else the user is folded from all their accepted
    candidates (any day). New active versions get their text search language as they are inserted; then the
    other unlabelled active facts are labelled and, with an `embedder`, embedded (`embeddings.index_new_facts`; a
    failing embedding request leaves them NULL). The users are folded in MEMORY_PIPELINE_WORKER_PROCESSES worker
    processes at once (`reconcile_shard`; the rest runs on `conn`)."""
    users = store.users_to_reconcile(conn, day)  # group chats: each sender
    # Every shard-th user (the list is sorted): shards of equal size that never share a user's lock.
    totals = sum(workers.each_shard(reconcile_shard, store, conn, users), Counter())
    state = store.fact_totals(conn, users) if users else {"active": 0, "superseded": 0, "expired": 0}
    recall_index = index_new_facts(store, conn, embedder)
    # New active versions are labelled as they are inserted; index_new_facts labels the rest.
    labelled = Counter({key.removeprefix("language:"): n for key, n in totals.items() if key.startswith("language:")})
    labelled.update(recall_index["facts_language_labelled"])
    recall_index["facts_language_labelled"] = dict(sorted(labelled.items()))
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
        "worker_processes": store.settings.worker_processes,
    })


def reconcile_shard(store: Store, conn: psycopg.Connection, shard: int, shards: int,
                    users: Sequence[str]) -> Counter[str]:
    """`reconcile_users` over users[shard::shards] (sorted `users` stay sorted: locks taken in one order), one
    transaction per FOLD_COMMIT users. Returns the summed counters. Run by `workers.run_shards` on a worker's own
    connection, or in-process with shard 0 of 1."""
    mine = list(users[shard::shards])
    totals: Counter[str] = Counter()
    for start in range(0, len(mine), FOLD_COMMIT):
        with conn.transaction():
            totals.update(reconcile_users(store, conn, mine[start:start + FOLD_COMMIT]))
    return totals


# Users folded together (FOLD_BATCH) and per transaction (FOLD_COMMIT) by active_facts. A batch's reads are one
# statement per kind, and so are its writes (per user, the round trips cost more than the fold itself: 5 ms a
# user at 100k messages, against 2 ms batched). Memory: a batch of users folded from scratch holds all their
# candidates and versions at once (measured: 100 users with a year of history each, 730 candidates, took 150 MiB;
# 25 keep it under 40 MiB), and two batches are held at a time (one written while the next is read). A commit
# waits for its WAL flush (an fdatasync took 3.6 ms on the benchmark machine: 66 of them at 100k messages with a
# commit per batch) and holds the users' locks until then; a failure rolls back at most FOLD_COMMIT users' folds,
# which the re-run folds again.
FOLD_BATCH = 25
FOLD_COMMIT = 200


def reconcile_users(store: Store, conn: psycopg.Connection, user_keys: Sequence[str],
                    lock: bool = True) -> Counter[str]:
    """Make these users' `agent_facts` the fold of their accepted candidates, minus forgotten ones
    (`folds.plan_folds`: incrementally when it can), in one transaction (call inside it). `lock` takes their
    locks in the given order (sorted by the caller, so concurrent runs take them in one order; pass False when
    the caller holds them). With MEMORY_PIPELINE_ERASE_ON_RETRACTION, retracted slots are erased first (their
    deleted candidates make the fold start from scratch). Then they are folded FOLD_BATCH at a time: their fold
    inputs read together (`folds.read_fold_inputs`), folded (`folds.plan_folds`) and written (`folds.send_folds`).
    Returns the summed counts: `Store.send_fact_versions_of_users`'s, and users folded_incrementally /
    folded_from_scratch."""
    totals: Counter[str] = Counter()
    erase = store.settings.erase_on_retraction

    def take_locks() -> None:
        with conn.cursor() as cur:
            cur.executemany(store.query(conn, "lock_user"), [{"user_key": u} for u in user_keys])

    if lock and erase:
        with conn.pipeline():
            take_locks()
    if erase:  # outside pipeline mode: it reads its deletions' row counts
        for user_key in user_keys:
            erasure.erase_retracted_slots(store, conn, user_key)
    # Pipeline mode: statements whose results are not read (the locks, the writes) travel with the next read or
    # the commit.
    with conn.pipeline():
        if lock and not erase:
            take_locks()
        # Batch i is folded in Python while the server writes batch i-1 (sent without waiting); batch i+1 is read
        # before batch i is written, as its reads would otherwise queue behind those writes. Users of different
        # batches share no row.
        batches = [user_keys[start:start + FOLD_BATCH] for start in range(0, len(user_keys), FOLD_BATCH)]
        inputs = folds.read_fold_inputs(store, conn, batches[0], DEFAULT_TTL_DAYS) if batches else {}
        writing = None
        for i in range(len(batches)):
            plan = folds.plan_folds(store, conn, DEFAULT_TTL_DAYS, inputs)
            totals.update(plan.counts)
            if i + 1 < len(batches):
                inputs = folds.read_fold_inputs(store, conn, batches[i + 1], DEFAULT_TTL_DAYS)
            if writing is not None:
                totals.update(writing.result())
            writing = folds.send_folds(store, conn, plan)
        if writing is not None:
            totals.update(writing.result())
    return totals


def reconcile_one_user(store: Store, conn: psycopg.Connection, user_key: str, lock: bool = True) -> Counter[str]:
    """`reconcile_users` for one user (call inside a transaction; `lock=False` when the caller holds the
    user's lock). Returns its counts."""
    return reconcile_users(store, conn, [user_key], lock)


# -- 5. archived_sessions ---------------------------------------------------------------------------------
def archived_sessions(store: Store, conn: psycopg.Connection, day: date) -> StageResult:
    """Archive then purge the raw rows of the day's consolidated conversations (two set-based statements in one
    transaction per shard of session keys, MEMORY_PIPELINE_WORKER_PROCESSES shards at once: `archive_shard`), then drop archive rows past retention and conversation text past text retention
    (`Store.prune_text`). Conversations whose facts were not extracted keep their rows. The statistics of the
    columns that pick the consolidated conversations are refreshed first when the extraction set many of them
    (`Store.analyze_conversations_if_stale`), so the archive and purge are planned for their real row count."""
    with conn.transaction():
        consolidated = store.scalar(conn, "consolidated_conversations_of_partition", {"partition_date": day})
        store.analyze_conversations_if_stale(conn, consolidated, "analyze_conversations_extracted")
    done = workers.each_shard(archive_shard, store, conn, day)
    archived, purged = sum(n for n, _ in done), sum(n for _, n in done)
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
        "worker_processes": store.settings.worker_processes,
    })


def archive_shard(store: Store, conn: psycopg.Connection, shard: int, shards: int, day: date) -> tuple[int, int]:
    """Archive then purge, in one transaction, the rows of the partition's consolidated conversations whose
    session key falls in `shard` of `shards` (`Store.archive_and_purge_partition`). Returns (rows archived, rows
    purged). Run by `workers.run_shards` on a worker's own connection, or in-process with shard 0 of 1."""
    with conn.transaction():
        store.hold_off_erasure(conn)  # copying rows an erasure just deleted from the archive would bring them back
        return store.archive_and_purge_partition(conn, day, shard, shards)


# -- checks -----------------------------------------------------------------------------------------------
def check_quotes_verbatim(store: Store, conn: psycopg.Connection, day: date) -> CheckOutcome:
    """Every accepted candidate of the day has its quote verbatim (whitespace-normalised) in a user turn.
    Candidates whose transcript or quote was pruned (text retention, time-to-live + grace) are counted apart.
    Reads PAGE_SIZE conversations with accepted candidates at a time (the next page while this one is checked:
    `Store.pages_read_ahead`), each transcript once."""
    bad = []
    checked = pruned = 0
    for page in store.pages_read_ahead(conn, "accepted_candidates_page", {"partition_date": day}, PAGE_SIZE):
        for row in page:
            sources = None
            for candidate in row["candidates"]:
                if row["text_pruned_at"] or candidate["quote"] == "":
                    # Its transcript was dropped after text retention, or its quote after the fact's time-to-live
                    # plus grace (an accepted candidate never has an empty quote otherwise: validation rejects it,
                    # no_quote).
                    pruned += 1
                    continue
                checked += 1
                if sources is None:  # the transcript read back once per conversation, its turns normalised once
                    conversation = conversation_from_record({
                        "conversation_id": row["conversation_id"], "session_key": "", "user_key": "",
                        "partition_date": day, "started_at": None, "ended_at": None, "is_legacy": False,
                        "transcript": row["transcript"]})
                    sources = QuoteSources(conversation)
                reason, _ = locate_quote(candidate["quote"], conversation, candidate["quote_message_id"], sources)
                # A short quote is still verbatim: the length rule gates new candidates, and candidates accepted
                # before it existed must not fail this blocking check when their day is re-materialized.
                if reason and reason != "quote_too_short":
                    bad.append(candidate["candidate_id"])
    return CheckOutcome(not bad, {"accepted_checked": checked, "accepted_text_pruned": pruned,
                                  "quotes_not_found": len(bad),
                                  "failing_candidate_ids": sorted(bad)[:50]})


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
    """Every closed conversation of the day has a summary. Fails for a conversation whose LLM call failed (its
    failure recorded in extraction_failures with the reason, tried again next run) and for one left without
    either (skipped silently: never extracted). Metadata: `conversations_without_summary` (neither),
    `summary_failures_recorded` and `summary_failures_by_reason`."""
    missing = store.scalar(conn, "check_conversations_without_summary", {"partition_date": day})
    failures = store.llm_failures_of_partition(conn, day, SUMMARY_STAGE)
    return CheckOutcome(missing == 0 and not failures, {
        "conversations_without_summary": missing, "summary_failures_recorded": sum(failures.values()),
        "summary_failures_by_reason": failures})


def check_every_conversation_extracted(store: Store, conn: psycopg.Connection, day: date) -> CheckOutcome:
    """No extraction call of the day's conversations failed (extraction_failures of the stage, by reason)."""
    failures = store.llm_failures_of_partition(conn, day, EXTRACTION_STAGE)
    return CheckOutcome(not failures, {"extraction_failures_recorded": sum(failures.values()),
                                       "extraction_failures_by_reason": failures})


def check_every_conversation_consolidated(store: Store, conn: psycopg.Connection, day: date) -> CheckOutcome:
    """No closed conversation of the day is left unconsolidated by a failed LLM call: the night's verdict, on the
    last asset so the other conversations are consolidated first. Metadata: `conversations_failed` and
    `failed_by_reason` ({"stage: reason": conversations})."""
    rows = conn.execute(store.query(conn, "failed_conversations_of_partition", "failures.sql"),
                        {"partition_date": day}).fetchall()
    failed = rows[0]["conversations"] if rows else 0
    return CheckOutcome(failed == 0, {"conversations_failed": failed,
                                      "failed_by_reason": {f"{r['stage']}: {r['reason']}": r["n"] for r in rows}})
