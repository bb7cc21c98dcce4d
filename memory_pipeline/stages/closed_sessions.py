"""Stage 1, `closed_sessions`: split the day's conversations out of n8n's table and the archive; store the
closed ones."""

from __future__ import annotations

from collections import Counter
from contextlib import ExitStack, closing
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from functools import partial

import psycopg

from memory_pipeline.domain.conversations import (
    Conversation,
    build_conversations,
    group_chat_matcher,
    is_closed,
    partition_window,
    rows_by_session_key,
    user_key_mapper,
)
from memory_pipeline.stages.common import SCHEDULE_HOUR, StageResult, utc_now
from memory_pipeline.store import Store


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


# Conversations (closed or unattributed) written per batched write: peak memory is one session key's rows plus
# one batch, and the statements stay a few per batch (executemany in pipeline mode).
CLOSED_SESSIONS_WRITE_BATCH = 200
CONVERSATION_IDS_SHOWN = 200  # the `conversation_ids` metadata list is capped (Dagster's event log stays small)


@dataclass
class _SplitTally:
    """What `closed_sessions` counts as conversations stream by (its metadata), without keeping them."""

    of_day: int = 0
    closed: int = 0
    unattributed: int = 0
    unattributed_archived: int = 0
    stored: int = 0
    legacy: int = 0
    messages: int = 0
    truncated: int = 0
    rows_read: int = 0
    has_time_column: bool = True
    users: set[str] = field(default_factory=set)  # a set, not a count: two session keys can map to one user
    outcomes: Counter = field(default_factory=Counter)
    reasons: Counter = field(default_factory=Counter)
    skipped: Counter = field(default_factory=Counter)
    # (session key, conversation id) of the first CONVERSATION_IDS_SHOWN closed conversations, in stream order
    # (session key, then time).
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


def closed_sessions(store: Store, conn: psycopg.Connection, day: date, now: datetime | None = None) -> StageResult:
    """Split the day's conversations out of the n8n table + archive and store the closed ones.

    Streams (server-side cursor, in session-key order) the rows of the session keys active that day, each key's
    from the start of the chain of its first message of the day (what the idle gap can join; `window_rows`),
    and, on the backlog date, the rows without a timestamp; splits each key's rows as soon as they are all read
    and writes conversations in batches of CLOSED_SESSIONS_WRITE_BATCH. A conversation belongs to `day` when its
    last message falls on it; open ones are deferred. `rows_read` in the metadata counts the rows read.

    A run of one shard of the night (`store.shard`) reads the same rows and stores only the conversations of
    the session keys whose user key belongs to the shard (their rows still count in `rows_read`).

    All in one transaction on `conn` (`split_and_store`); then the statistics are refreshed.
    """
    settings = store.settings
    now = now or utc_now()
    tally = split_and_store(store, conn, day, now)
    # The LLM stages plan their pages against these rows next; autovacuum would analyze them only later.
    store.analyze_conversations_if_stale(conn, tally.stored, "analyze_conversations_split")
    has_time_column = tally.has_time_column
    return StageResult({
        "conversations_closed": tally.closed,
        "conversations_deferred": tally.of_day - tally.closed - tally.unattributed,
        "conversations_unattributed": tally.unattributed,
        "unattributed_rows_archived": tally.unattributed_archived,  # copied now; purged by archived_sessions
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
        "conversation_ids": [conversation_id for _, conversation_id in tally.conversation_ids],
        "note": schedule_note(settings.idle_gap_minutes, settings.timezone) if has_time_column else (
            "n8n's table has no created_at column: every row is undated and nothing is consolidated; run "
            "`memory-pipeline add-time-column` and set MEMORY_PIPELINE_BACKLOG_DATE as it tells you."),
    })


def split_and_store(store: Store, conn: psycopg.Connection, day: date, now: datetime) -> _SplitTally:
    """`closed_sessions`' work in one transaction on `conn`: stream (`Store.stream_window_rows`), split, write
    batches. Returns the tally (counts, user keys, the first conversation ids)."""
    settings = store.settings
    idle = timedelta(minutes=settings.idle_gap_minutes)
    start, end = partition_window(day, settings.timezone)
    tally = _SplitTally()
    closed: list[Conversation] = []
    unattributed: list[Conversation] = []

    def write_batch() -> None:
        tally.stored += store.save_conversations(conn, closed, now)
        store.save_rejections(conn, unattributed)
        tally.unattributed_archived += store.archive_unattributed(conn, unattributed)
        closed.clear()
        unattributed.clear()

    # The streams are closed before the transaction ends, even on an error: a server-side cursor closed later
    # (when a traceback lets go of it) would send CLOSE into whatever transaction the connection is in then.
    with conn.transaction(), ExitStack() as open_streams:
        store.hold_off_erasure(conn)  # an erasure must not fall between reading the rows and saving them
        has_time_column = tally.has_time_column = store.has_created_at(conn)
        streams = [open_streams.enter_context(closing(
            store.stream_window_rows(conn, start, end, end + idle, idle)))]
        if day == settings.effective_backlog_date:
            streams.append(open_streams.enter_context(closing(store.stream_legacy_rows(conn))))
        user_key = user_key_mapper(settings.user_key_regex)
        split = partial(
            build_conversations,
            idle_gap=idle,
            timezone=settings.timezone,
            backlog_date=settings.effective_backlog_date,
            user_key=user_key,
            max_chars=settings.max_message_chars,
            max_span=timedelta(hours=settings.max_conversation_hours),
            id_salt=store.id_salt(conn),
            sender_template=settings.sender_user_key,
            group_chat=group_chat_matcher(settings.group_chat_session_keys),
        )
        for key_rows in rows_by_session_key(*streams):
            tally.rows_read += len(key_rows)
            # A shard's run splits only its users' session keys: every conversation of a key has the key's user
            # key (`build_conversations`), so the split of a key, and the conversations stored, are the same
            # whichever shard and count split it.
            if not store.shard.owns(user_key(key_rows[0].session_id)):
                continue
            for conversation in split(key_rows):
                if conversation.partition_date != day:
                    continue
                tally.of_day += 1
                # Without a time column nothing tells an old row from one of a chat going on now: consolidate
                # nothing (and purge nothing) until `memory-pipeline add-time-column` has run.
                if not is_closed(conversation, now, idle) or not (has_time_column or not conversation.is_legacy):
                    continue
                # A blank key's rows are recorded as rejected and archived; archived_sessions purges them.
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
