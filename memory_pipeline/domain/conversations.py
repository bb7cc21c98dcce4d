"""Split a session key's messages into conversations and decide which are closed.

A session key (n8n's `session_id`) is often a chat id that lives for months, so it is not a conversation.
A conversation is a run of one key's messages with no gap longer than the idle threshold;
it is closed once its last message is older than that threshold, and it belongs to the partition of the local
day of its last message. Rows without a timestamp (the legacy backlog) form one conversation per key, ordered
by id, attributed to the backlog date and always closed.
"""

from __future__ import annotations

import hashlib
import heapq
import json
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta, timezone
from itertools import groupby
from operator import attrgetter, itemgetter
from zoneinfo import ZoneInfo

from memory_pipeline.domain.messages import ParsedRow, SourceRow, parse_row


@dataclass(frozen=True)
class Conversation:
    """One conversation.

    `message_ids`: every source row id in it (turns, skipped and rejected rows alike), ascending in time.
    `turns`: rows of status "turn", in order. `rows`: every parsed row. `started_at`/`ended_at` are None for
    a legacy conversation. `transcript_hash`: sha256 hex of ids, roles and texts (the summary cache key).
    """

    conversation_id: str
    session_key: str
    user_key: str
    partition_date: date
    started_at: datetime | None
    ended_at: datetime | None
    rows: tuple[ParsedRow, ...]
    is_legacy: bool

    @property
    def message_ids(self) -> tuple[int, ...]:
        """Ids of every row of the conversation, in order."""
        return tuple(row.message_id for row in self.rows)

    @property
    def is_unattributed(self) -> bool:
        """True when the user key is blank or too long (`user_key_problem`): nothing of it may become a fact; its
        rows are archived (and purged from n8n's table) with their rejection like any other closed row."""
        return not self.user_key.strip() or any(r.reason == "user_key_too_long" for r in self.rows)

    @property
    def turns(self) -> tuple[ParsedRow, ...]:
        """Rows of status "turn" (conversation text), in order."""
        return tuple(row for row in self.rows if row.status == "turn")

    @property
    def transcript_hash(self) -> str:
        """sha256 hex of the turns' ids, roles, texts (and senders): the summary cache key."""
        # A sender and its user key are part of what was said by whom (a new key mapping must re-extract); they
        # are appended only when present, so hashes of conversations without senders stay as they were.
        body = [(t.message_id, t.role, t.text) + ((t.sender, t.user_key) if t.sender else ()) for t in self.turns]
        return hashlib.sha256(json.dumps(body, ensure_ascii=False).encode()).hexdigest()


def conversation_id(session_key: str, first_message_id: int, salt: str = "") -> str:
    """Stable id of a conversation: sha1 of a per-installation salt, the session key and its first message id
    (16 hex chars). The salt keeps session keys (often phone numbers) from being recovered from ids shown in
    Dagster metadata by hashing guesses."""
    return hashlib.sha1(f"{salt}\x1f{session_key}\x1f{first_message_id}".encode()).hexdigest()[:16]


def user_key_mapper(pattern: str | None) -> Callable[[str], str]:
    """Session key -> user key. None = identity; else a regex whose named group `user` is the user key
    (e.g. `^tenant_\\d+:(?P<user>.+)$`). A key the regex does not match maps to itself."""
    if pattern is None:
        return lambda key: key
    compiled = re.compile(pattern)

    def mapper(key: str) -> str:
        match = compiled.search(key)
        return match.group("user") if match and match.group("user") else key

    return mapper


def group_chat_matcher(pattern: str | None) -> Callable[[str], bool]:
    """Session key -> whether it is a declared group chat: `pattern` (MEMORY_PIPELINE_GROUP_CHAT_SESSION_KEYS)
    matches the whole key. None = no session key is a group chat."""
    if pattern is None:
        return lambda key: False
    compiled = re.compile(pattern)
    return lambda key: compiled.fullmatch(key) is not None


def in_utc(row: SourceRow) -> SourceRow:
    """`row` with `created_at` in UTC. Two aware datetimes that share one tzinfo compare and subtract by wall
    clock in Python, which is wrong across a DST change (02:10 CET sorts before 02:50 CEST); in UTC, wall clock
    and instant agree. Naive and missing times are left as they are."""
    if row.created_at is None or row.created_at.tzinfo is None or row.created_at.tzinfo is timezone.utc:
        return row
    return replace(row, created_at=row.created_at.astimezone(timezone.utc))


# The reasons `user_key_problem` gives: a conversation rejected with one is unattributed (no user has it).
UNATTRIBUTED_REASONS = ("blank_session_key", "blank_user_key", "user_key_too_long")

# Longest user key stored, in UTF-8 bytes: keys are indexed (b-tree entries hold at most 2704 bytes), and no
# real session key (n8n's column is varchar(255)) or sender key comes near it.
MAX_USER_KEY_BYTES = 1024


def user_key_problem(session_key: str, user_key: str, rows: Sequence[ParsedRow]) -> str | None:
    """Why a conversation's rows cannot be attributed, or None: `blank_session_key`, `blank_user_key`, or
    `user_key_too_long` (its user key or a sender's over MAX_USER_KEY_BYTES)."""
    if not user_key.strip():
        return "blank_session_key" if not session_key.strip() else "blank_user_key"
    keys = [user_key, *(r.user_key for r in rows if r.user_key)]
    if any(len(k.encode("utf-8", "surrogatepass")) > MAX_USER_KEY_BYTES for k in keys):
        return "user_key_too_long"
    return None


def sender_user_key(template: str, session_key: str, user_key: str, sender: str) -> str:
    """User key of a group chat's sender: `template` (str.format fields {session_key}, {user_key}, {sender};
    MEMORY_PIPELINE_SENDER_USER_KEY, default "{user_key}#{sender}") filled in. Facts belong to the speaker, so
    two senders of one session key get two user keys and never supersede each other's facts."""
    return template.format(session_key=session_key, user_key=user_key, sender=sender)


def split_rows(
    rows: Iterable[SourceRow], idle_gap: timedelta, max_span: timedelta | None = None
) -> list[list[SourceRow]]:
    """Group rows into conversations: per session key, timed rows ordered by (created_at, id) and cut where
    the gap between consecutive messages exceeds `idle_gap`, or where the conversation would last longer than
    `max_span` (a group chat that never pauses must still close); legacy rows (created_at None) of a key form
    one group ordered by id. Times are compared in UTC (`in_utc`); the returned rows carry UTC times. Returns
    groups in a deterministic order (session key, then first row)."""
    by_key: dict[str, list[SourceRow]] = defaultdict(list)
    for row in rows:
        by_key[row.session_id].append(in_utc(row))
    groups: list[list[SourceRow]] = []
    for key in sorted(by_key):
        legacy = sorted((r for r in by_key[key] if r.created_at is None), key=lambda r: r.id)
        if legacy:
            groups.append(legacy)
        timed = sorted((r for r in by_key[key] if r.created_at is not None), key=lambda r: (r.created_at, r.id))
        current: list[SourceRow] = []
        for row in timed:
            too_long = max_span is not None and current and row.created_at - current[0].created_at > max_span
            if current and (row.created_at - current[-1].created_at > idle_gap or too_long):
                groups.append(current)
                current = []
            current.append(row)
        if current:
            groups.append(current)
    return groups


_SESSION_ID = attrgetter("session_id")
_KEY = itemgetter(0)


def rows_by_session_key(*streams: Iterable[SourceRow]) -> Iterator[list[SourceRow]]:
    """Merge streams of rows, each ordered by session key (code point order, i.e. PostgreSQL's "C" collation
    on UTF-8), into one list of rows per session key, in key order. Holds one key's rows at a time, so a
    stage can split a night key by key without holding it all."""
    # Merged a key at a time, not a row at a time: each stream's rows are grouped by key first (C-speed groupby),
    # and heapq.merge, stable, puts an earlier stream's rows of a key before a later one's, as a merge of rows does.
    groups = [((key, list(rows)) for key, rows in groupby(stream, key=_SESSION_ID)) for stream in streams]
    merged = heapq.merge(*groups, key=_KEY) if len(groups) > 1 else groups[0] if groups else iter(())
    for _, same_key in groupby(merged, key=_KEY):
        first = next(same_key)[1]
        for _, more in same_key:
            first.extend(more)
        yield first


def build_conversations(
    rows: Iterable[SourceRow],
    *,
    idle_gap: timedelta,
    timezone: str,
    backlog_date: date,
    user_key: Callable[[str], str],
    max_chars: int = 20_000,
    max_span: timedelta | None = None,
    id_salt: str = "",
    sender_template: str = "{user_key}#{sender}",
    group_chat: Callable[[str], bool] = lambda key: False,
) -> list[Conversation]:
    """Split and parse rows into conversations, each with the partition date of its last message's local day
    (`timezone`, an IANA name) or `backlog_date` for legacy rows. `max_span`: see `split_rows`.

    In a session key `group_chat` accepts (`group_chat_matcher`), a human row with a sender (`## Message from
    NAME`) gets the user key `sender_user_key(sender_template, ...)`: its facts are the sender's. Elsewhere the
    header is the user's own text. A conversation whose session key (or mapped user key) is blank or whitespace, or
    whose user key or a sender's is too long (`user_key_problem`), has every row rejected (`blank_session_key` /
    `blank_user_key` / `user_key_too_long`) and no turns: see `Conversation.is_unattributed`."""
    zone = ZoneInfo(timezone)
    conversations = []
    for group in split_rows(rows, idle_gap, max_span):
        first, last = group[0], group[-1]
        legacy = first.created_at is None
        key = user_key(first.session_id)
        in_group = group_chat(first.session_id)
        parsed = tuple(_parse_safely(r, max_chars, in_group) for r in group)
        parsed = tuple(
            replace(r, user_key=sender_user_key(sender_template, first.session_id, key, r.sender)) if r.sender else r
            for r in parsed
        )
        reason = user_key_problem(first.session_id, key, parsed)
        if reason:
            # Facts under a blank user key would belong to nobody (and to everybody with a blank key), and a key
            # too long to index would fail every night's run: every row is rejected with the reason; the stage
            # records the rejections and archives the rows, and the night purges them from n8n's table.
            parsed = tuple(ParsedRow(r.message_id, r.at, "rejected", reason=reason) for r in parsed)
        conversations.append(
            Conversation(
                conversation_id=conversation_id(first.session_id, first.id, id_salt),
                session_key=first.session_id,
                user_key=key,
                partition_date=backlog_date if legacy else last.created_at.astimezone(zone).date(),
                started_at=first.created_at,
                ended_at=last.created_at,
                rows=parsed,
                is_legacy=legacy,
            )
        )
    return conversations


def _parse_safely(row: SourceRow, max_chars: int, group_chat: bool) -> ParsedRow:
    # parse_row is written never to raise; this guard keeps one unforeseen row from failing a whole day.
    try:
        return parse_row(row, max_chars, group_chat)
    except Exception:  # noqa: BLE001 - any failure is this row's, recorded with a reason
        return ParsedRow(row.id, row.created_at, "rejected", reason="unparseable_row")


def is_closed(conversation: Conversation, now: datetime, idle_gap: timedelta) -> bool:
    """True when no message can still join: the last message is at least `idle_gap` before `now`.
    Legacy conversations are closed (their rows predate the time column)."""
    if conversation.ended_at is None:
        return True
    return conversation.ended_at <= now - idle_gap


def partition_window(day: date, timezone: str) -> tuple[datetime, datetime]:
    """[start, end) of a local day as aware datetimes (DST-safe: computed from local midnights)."""
    zone = ZoneInfo(timezone)
    start = datetime.combine(day, datetime.min.time(), tzinfo=zone)
    end = datetime.combine(day + timedelta(days=1), datetime.min.time(), tzinfo=zone)
    return start, end
