"""JSON for the database driver and the n8n rows: orjson where it gives what the standard library's `json` gives,
`json` itself everywhere else, so every value read or written is the one `json` would read or write.

orjson (Rust) parses 2-4x and writes over 10x faster than `json` on the pipeline's messages and transcripts
(measured: an n8n message 0.7 us against 2.4 us, a 31-turn transcript written in 3 us against 42 us), but the two
differ, so each function takes orjson's answer only where they agree.
Reading, orjson refuses what `json` accepts (NaN, Infinity and -Infinity, lone surrogate escapes such as
"\\ud800", numbers beyond the double range such as 1e400), reads nesting up to 1024 levels where `json` stops at
the recursion limit, and reads an integer beyond 64 bits (below -2**63 or above 2**64-1) as a float where `json`
reads an int. `loads` reads with `json` what orjson refuses, a document that may nest deeper than
MAX_ORJSON_DEPTH, and one in which orjson may have read such an integer (`_may_hold_large_int`).
Writing, orjson refuses integers beyond 64 bits, lone surrogates, dict keys that are not str (which `json` writes
as strings) and nesting deeper than 254 levels; writes NaN and Infinity as null (`json` writes NaN, which
PostgreSQL refuses: a silent null would hide the bad value); and writes datetime, date, UUID, dataclasses, enums
and subclasses of the built-in types, which `json` refuses or writes its own way. `dumps` hands orjson only values
built of the JSON types themselves (`_is_plain`) and writes everything else, and what orjson refuses, with `json`.
orjson's output is compact UTF-8 where `json` writes ", " and "\\u00e9": the same JSON value (and jsonb stores
values, not text).
"""

from __future__ import annotations

import json
from math import isfinite
from typing import Any

import orjson

_LARGE = 2.0 ** 63  # orjson reads integers beyond 64 bits as floats at least this large in magnitude
# Containers of a parsed value `loads` opens looking for such a float before it scans the text for a run of 19
# digits instead: a message's few are walked, a transcript's dozens scanned (~1.5 ns a byte; ~100 ns an item).
WALK_BUDGET = 16
# json reads nesting as deep as the interpreter's recursion limit allows from where it is called (1000 levels less
# the caller's depth), orjson 1024 levels: a document with more opening brackets than this (it may nest deeper) is
# read by json itself, so what json refuses stays refused for any caller less than 488 frames deep.
MAX_ORJSON_DEPTH = 512
_DIGITS_AS_ZERO = bytes(0x30 if 0x30 <= byte <= 0x39 else 0x20 for byte in range(256))
_DIGIT_RUN = b"0" * 19  # the shortest integer beyond 64 bits, -9223372036854775809, has 19 digits
_INT_MIN, _INT_MAX = -(2 ** 63), 2 ** 64 - 1  # what orjson writes as an integer
_PLAIN_SCALARS = frozenset({str, bool, type(None)})
# Levels of nesting `dumps` hands to orjson: orjson writes at most 254 (its recursion limit), deeper goes to `json`.
MAX_PLAIN_DEPTH = 254


def loads(data: str | bytes) -> Any:
    """Parse a JSON document (str, or UTF-8 bytes as the driver hands them) into the value `json.loads` gives.
    Raises what `json.loads` raises for what it refuses (ValueError, RecursionError, TypeError)."""
    kind = type(data)
    if kind is str:
        brackets = "[", "{"
    elif kind is bytes or kind is bytearray:
        brackets = b"[", b"{"
    else:
        return json.loads(data)  # json's answer or TypeError
    if len(data) > 2 * MAX_ORJSON_DEPTH and data.count(brackets[0]) + data.count(brackets[1]) > MAX_ORJSON_DEPTH:
        return json.loads(data)  # may nest deeper than json reads (it raises RecursionError): json's answer
    try:
        value = orjson.loads(data)
    except orjson.JSONDecodeError:
        return json.loads(data)  # NaN, Infinity, lone surrogates, 1e400: json's answer or error
    return json.loads(data) if _may_hold_large_int(data, value) else value


def dumps(obj: Any) -> bytes | str:
    """The JSON text of `obj` (bytes from orjson, str from `json`): the value `json.dumps(obj)` writes. Raises
    what `json.dumps` raises (TypeError for a type it cannot write, ValueError for a circular reference)."""
    if _is_plain(obj):
        try:
            return orjson.dumps(obj)
        except orjson.JSONEncodeError:
            pass  # lone surrogates, nesting deeper than orjson writes
    return json.dumps(obj)


def dumps_json_types(obj: Any) -> bytes | str:
    """`dumps` for a value the caller builds only of dict, list, str, int, bool and None of the exact built-in
    types (no float, no other type: a transcript's turn records), without `dumps`'s walk over it (as long as
    orjson's writing, ~150 ns an item): for such a value orjson writes what `json` writes, and what it refuses
    (lone surrogates, integers beyond 64 bits) is written by `json`."""
    try:
        return orjson.dumps(obj)
    except orjson.JSONEncodeError:
        return json.dumps(obj)


def _may_hold_large_int(data: str | bytes, value: Any) -> bool:
    """True when orjson may have read an integer beyond 64 bits as a float in `value` (parsed from `data`): a float
    of magnitude 2**63 or more in it, or, once the walk has opened WALK_BUDGET containers without finishing, a run
    of 19 digits in `data` (every such integer has one). The walk is cheap for a message (a few containers,
    however long its text), the digit scan (one `bytes.translate` pass) for a long document of many containers."""
    kind = type(value)
    if kind is not dict and kind is not list:
        return kind is float and not -_LARGE < value < _LARGE
    stack = [value]
    for _ in range(WALK_BUDGET):
        if not stack:
            return False
        container = stack.pop()
        for item in container.values() if type(container) is dict else container:
            kind = type(item)
            if kind is dict or kind is list:
                if item:
                    stack.append(item)
            elif kind is float and not -_LARGE < item < _LARGE:
                return True
    if not stack:
        return False
    encoded = data.encode() if isinstance(data, str) else bytes(data)  # orjson refused lone surrogates
    return _DIGIT_RUN in encoded.translate(_DIGITS_AS_ZERO)


def _is_plain(obj: Any) -> bool:
    """True when `obj` is built only of dict (str keys), list, tuple, str, bool, None, int within orjson's 64 bits
    and finite float, all of the exact built-in types, at most MAX_PLAIN_DEPTH levels deep: the values orjson and
    `json` write alike. Walked a level at a time, so a circular value (which `json` refuses) ends the walk too."""
    level = [obj]
    for _ in range(MAX_PLAIN_DEPTH):
        deeper: list[Any] = []
        for item in level:
            kind = type(item)
            if kind in _PLAIN_SCALARS:
                continue
            if kind is dict:
                for key in item:
                    if type(key) is not str:
                        return False
                deeper.extend(item.values())
            elif kind is list or kind is tuple:
                deeper.extend(item)
            elif kind is int:
                if not _INT_MIN <= item <= _INT_MAX:
                    return False
            elif kind is float:
                if not isfinite(item):
                    return False
            else:
                return False
        if not deeper:
            return True
        level = deeper
    return False
