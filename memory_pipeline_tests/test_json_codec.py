"""`json_codec` reads and writes exactly the values the standard library's `json` reads and writes (orjson only where
the two agree): property-based against `json`, on every case where orjson on its own differs (NaN and Infinity,
integers beyond 64 bits, lone surrogates, deep nesting, numbers beyond the double range, types `json` refuses),
and through a real PostgreSQL, where the process's psycopg reads and writes json/jsonb with it."""

import contextlib
import dataclasses
import enum
import json
import math
import sys
import uuid
from datetime import date, datetime, timezone

import orjson
import psycopg
import pytest
from hypothesis import given, settings, strategies as st
from psycopg.rows import tuple_row
from psycopg.types.json import Json, Jsonb

from memory_pipeline import db, json_codec

BIG_INTS = [2 ** 63 - 1, 2 ** 63, 2 ** 64 - 1, 2 ** 64, 2 ** 70, -(2 ** 63), -(2 ** 63) - 1, -(2 ** 80), 10 ** 40]
scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), st.sampled_from(BIG_INTS), st.floats(allow_nan=True),
    st.sampled_from([1e19, -9.3e18, 2.0 ** 63, 1e308, 5e-324, -0.0]), st.text(),
    st.sampled_from(["\ud800", "a\udfff", "\ud83d\ude00", "\x00", "é", "\u2028"]),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=5), st.dictionaries(st.text(max_size=5), inner, max_size=5)),
    max_leaves=40,
)


def canonical(value):
    # a value with its types (1 is not 1.0), NaN equal to NaN, dict keys in any order (jsonb reorders them)
    if isinstance(value, dict):
        return "dict", sorted((key, canonical(item)) for key, item in value.items())
    if isinstance(value, list):
        return "list", [canonical(item) for item in value]
    return type(value).__name__, repr(value)


def same(a, b):
    return canonical(a) == canonical(b)


@contextlib.contextmanager
def raised_recursion_limit():
    previous = sys.getrecursionlimit()
    sys.setrecursionlimit(10_000)
    try:
        yield
    finally:
        sys.setrecursionlimit(previous)


def outcome(fn, *args):
    try:
        return "ok", fn(*args)
    except Exception as exc:  # noqa: BLE001 - the comparison is of which error
        return "error", type(exc)


@settings(max_examples=500, deadline=None)
@given(values)
def test_loads_reads_what_json_reads(value):
    text = json.dumps(value)  # NaN, Infinity, big integers and lone surrogates written as json writes them
    assert same(json_codec.loads(text), json.loads(text))
    encoded = text.encode()
    assert same(json_codec.loads(encoded), json.loads(encoded))


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.sampled_from('[]{}",:0123456789.eE+-truefalsnNaIiy \\u'), max_size=40))
def test_loads_accepts_and_refuses_what_json_does(text):
    ours, theirs = outcome(json_codec.loads, text), outcome(json.loads, text)
    assert ours[0] == theirs[0]
    assert same(ours[1], theirs[1]) if ours[0] == "ok" else ours[1] is theirs[1]


@pytest.mark.parametrize("text", [
    "NaN", "[Infinity, -Infinity]", "1e400", "[-1.5e999]", '"\\ud800"', '{"a": "x\\udc00"}', "18446744073709551616",
    "-9223372036854775809", "[" * 900 + "]" * 900, "[" * 1010 + "]" * 1010, "[" * 1100 + "]" * 1100,
    '{"type": "human", "content": "hi", "x": ' + "[" * 1010 + "]" * 1010 + "}", '{"n": 123456789012345678901234567890}',
    "1e19", '"\\ud83d\\ude00"', "\ufeff{}", "[1,]",
])
def test_loads_on_each_case_orjson_alone_reads_differently(text):
    for document in (text, text.encode("utf-8", "surrogatepass")):
        ours, theirs = outcome(json_codec.loads, document), outcome(json.loads, document)
        assert ours[0] == theirs[0]
        if ours[0] == "error":
            assert ours[1] is theirs[1]
        else:
            with raised_recursion_limit():  # writing 900 levels of lists recurses in C too
                assert json.dumps(ours[1]) == json.dumps(theirs[1])  # types kept: 1 is not 1.0


def test_a_large_integer_deep_in_a_long_document_is_read_as_json_reads_it():
    # past the walk's budget the text is scanned for a run of 19 digits instead
    document = [{"message_id": n, "text": "hello " * 20, "at": None} for n in range(3 * json_codec.WALK_BUDGET)]
    document[-1]["message_id"] = 2 ** 70
    text = json.dumps(document)
    assert orjson.loads(text)[-1]["message_id"] == float(2 ** 70)  # the premise: orjson alone reads a float
    assert json_codec.loads(text)[-1]["message_id"] == 2 ** 70
    assert type(json_codec.loads(text)[-1]["message_id"]) is int
    document[-1]["message_id"] = 7
    assert json_codec.loads(json.dumps(document)) == document


class Colour(enum.Enum):
    RED = 1


@dataclasses.dataclass
class Point:
    x: int


@settings(max_examples=500, deadline=None)
@given(values)
def test_dumps_writes_the_value_json_writes(value):
    ours, theirs = outcome(json_codec.dumps, value), outcome(json.dumps, value)
    assert ours[0] == theirs[0]
    if ours[0] == "ok":
        assert same(json.loads(ours[1]), json.loads(theirs[1]))
        if not json_codec._is_plain(value):
            assert ours[1] == theirs[1]  # what orjson does not write alike is written by json itself


@pytest.mark.parametrize("value", [
    float("nan"), [float("inf")], {"x": -math.inf}, 2 ** 64, [-(2 ** 63) - 1], "\ud800", {1: "a", None: 2, 2.5: 3},
    {True: 1},
    {"when": datetime(2026, 1, 1, tzinfo=timezone.utc)}, [date(2026, 1, 1)], uuid.UUID(int=1), [Colour.RED],
    Point(1), {"s": {1, 2}}, (1, "a"), [[[[]]]], b"x",
])
def test_dumps_on_each_case_orjson_alone_writes_differently(value):
    ours, theirs = outcome(json_codec.dumps, value), outcome(json.dumps, value)
    assert ours[0] == theirs[0]
    if ours[0] == "error":
        assert ours[1] is theirs[1]  # TypeError for a type json cannot write, never a silent conversion
    else:
        assert same(json.loads(ours[1]), json.loads(theirs[1]))


def test_dumps_refuses_a_circular_value_and_writes_deep_nesting_as_json_does():
    circular = []
    circular.append(circular)
    with pytest.raises(ValueError):
        json_codec.dumps(circular)
    for depth in (json_codec.MAX_PLAIN_DEPTH, json_codec.MAX_PLAIN_DEPTH + 1, 600):
        nested = []
        for _ in range(depth - 1):
            nested = [nested]
        assert json.loads(json_codec.dumps(nested)) == nested


@settings(max_examples=300, deadline=None)
@given(st.recursive(st.one_of(st.none(), st.booleans(), st.integers(), st.sampled_from(BIG_INTS), st.text()),
                    lambda inner: st.one_of(st.lists(inner, max_size=4),
                                            st.dictionaries(st.text(max_size=4), inner, max_size=4)),
                    max_leaves=30))
def test_dumps_json_types_writes_the_value_json_writes(value):
    assert same(json.loads(json_codec.dumps_json_types(value)), json.loads(json.dumps(value)))


# -- through PostgreSQL: the process's psycopg reads and writes json/jsonb with the codec ---------------------
def test_psycopg_uses_the_codec_for_every_connection():
    from psycopg.types import json as psycopg_json

    assert db.json_codec is json_codec
    assert psycopg_json._JsonLoader._loads is json_codec.loads
    assert psycopg_json._JsonDumper._dumps is json_codec.dumps


@pytest.fixture
def conn(pg_url):
    with psycopg.connect(pg_url, autocommit=True, row_factory=tuple_row) as connection:
        yield connection


@pytest.mark.parametrize("binary", [False, True])
def test_jsonb_round_trip_keeps_large_integers_unicode_and_nesting(conn, binary):
    nested = []
    for _ in range(300):  # deeper than orjson writes: written by json
        nested = [nested]
    many = [{"message_id": n, "text": "héllo 😀", "at": None} for n in range(3 * json_codec.WALK_BUDGET)]
    many[-1]["message_id"] = 2 ** 64
    for value in [2 ** 70, -(2 ** 63) - 1, 2 ** 64 - 1, {"n": 10 ** 30, "f": 1.5}, nested, many,
                  {"k": "\u2028 é \x00"[:-1]}, {1: "a"}]:
        expected = json.loads(json.dumps(value))
        for wrapper in (Jsonb, Json):
            (read,) = conn.execute("SELECT %s", (wrapper(value),), binary=binary).fetchone()
            assert same(read, expected)


@pytest.mark.parametrize("binary", [False, True])
def test_jsonb_read_of_numbers_orjson_alone_reads_as_floats(conn, binary):
    # PostgreSQL writes a numeric in plain digits: 1.5e400 comes back as 15 followed by 399 zeros
    for literal, expected in [("18446744073709551616", 2 ** 64), ("-9223372036854775809", -(2 ** 63) - 1),
                              ("1.5e400", 15 * 10 ** 399), ("[1e19, 1.0e19]", [10 ** 19, 10 ** 19])]:
        (read,) = conn.execute("SELECT %s::jsonb", (literal,), binary=binary).fetchone()
        assert same(read, expected)
        assert same(read, json.loads(conn.execute("SELECT %s::jsonb::text", (literal,)).fetchone()[0]))


def test_values_postgresql_refuses_are_refused_as_before(conn):
    # json writes NaN and a lone surrogate's escape, which PostgreSQL refuses: orjson alone would store null and
    # refuse the surrogate itself
    for value in (float("nan"), [math.inf], {"t": "\ud800"}):
        with pytest.raises(psycopg.errors.DataError):
            conn.execute("SELECT %s", (Jsonb(value),))
    # types json cannot write stay an error (orjson alone writes datetimes, UUIDs and enums)
    for value in ({"at": datetime(2026, 1, 1)}, uuid.UUID(int=3), Colour.RED, Point(2)):
        with pytest.raises(TypeError):
            conn.execute("SELECT %s", (Jsonb(value),))


def test_a_json_column_reads_what_json_reads(conn):
    # the json type keeps its text as written: lone surrogates' escapes and big integers are read by json
    (read,) = conn.execute("""SELECT '{"n": 123456789012345678901, "s": "\\ud83d\\ude00"}'::json""").fetchone()
    assert read == {"n": 123456789012345678901, "s": "😀"}
