"""Stored conversations read back: a `conversations` row (and its transcript JSON) as the domain's Conversation."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from memory_pipeline.domain.conversations import Conversation
from memory_pipeline.domain.messages import ParsedRow

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
