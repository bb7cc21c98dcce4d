"""The parsing fast paths give exactly what the full passes give (property-based, hypothesis, and on every row
shape of the fixtures): `clean_text` against `clean_text_slow`, `split_machine_text` against the search with the
full `_MACHINE_MARKER` at every step, `parse_row` and `cut_text` against their passes before the fast paths, and
the transcript hash's body against `json.dumps`."""

import json
import re
import sys

from hypothesis import given, settings, strategies as st

from memory_pipeline.domain import messages
from memory_pipeline.domain.messages import (
    _MACHINE_MARKER,
    clean_text,
    clean_text_slow,
    content_text,
    split_at_markers,
    split_machine_text,
)
from memory_pipeline.sample import fixture_rows
from memory_pipeline_tests.conftest import fixture_lines

# Pieces that reach every branch: marker words and labels, the three characters the cheap test looks for (in
# several cases, long s U+017F included), every character clean_text replaces or drops, combining marks that NFC
# composes, and plain words.
FRAGMENTS = [
    "[", "]", ":", "\n", "\n\n", " ", "\t", "user", "USER", "uſer", "Uſ", "er", "The user sent an image",
    "user has shared 2 photos", "[Image analysis]", "[Photo]", "[photo] frame", "Transcription:",
    "Voice message transcription:", "image description :", "ocr:", "I bought a", "hello", "Oslo.",
    "\r\n", "\r", "\x0b", "\x0c", "\x1c", "\x85", "\u2028", "\u2029", "\x00", "\x07", "\x7f", "\u202e", "\u2067",
    "\ud800", "\udfff", "e\u0301", "\u0301", "A\u030a", "\u212b", "\u00e9", "🙂", "ß", "İ", "ı", "K",
]
texts = st.one_of(
    st.lists(st.sampled_from(FRAGMENTS), max_size=12).map("".join),
    st.text(max_size=60),
    st.text(alphabet=st.sampled_from("[]:\nuserUSERſ \t.a\r\u2028\u0301e"), max_size=40),
)


@settings(max_examples=600, deadline=None)
@given(texts)
def test_clean_text_fast_path_equals_the_full_pass(text):
    assert clean_text(text) == clean_text_slow(text)


@settings(max_examples=600, deadline=None)
@given(texts)
def test_marker_fast_path_equals_the_full_search(text):
    assert split_machine_text(text) == split_at_markers(text, _MACHINE_MARKER)
    cleaned = clean_text_slow(text)  # parse_row splits cleaned text
    assert split_machine_text(cleaned) == split_at_markers(cleaned, _MACHINE_MARKER)


def test_fast_paths_equal_the_full_passes_on_every_fixture_row_shape():
    checked = 0
    for row in fixture_rows(fixture_lines("message_shapes.jsonl")):
        message = row.message if isinstance(row.message, dict) else {}
        payload = message.get("data") if isinstance(message.get("data"), dict) else message
        text = content_text(payload.get("content"))
        if text is None:
            continue
        assert clean_text(text) == clean_text_slow(text)
        assert split_machine_text(clean_text(text)) == split_at_markers(clean_text(text), _MACHINE_MARKER)
        checked += 1
    assert checked >= 25


def test_each_marker_kind_is_still_found_through_the_fast_path():
    # the cheap test must not hide a marker of any of the three kinds, nor one spelled with a long s
    assert split_machine_text("Hi\n[Image analysis] a cat")[1] == "[Image analysis] a cat"
    assert split_machine_text("Transcription: call me")[1] == "Transcription: call me"
    assert split_machine_text("The uſer sent an image of a dog")[1] == "The uſer sent an image of a dog"
    assert messages._marker_pattern("plain words, nothing else") is None
    assert messages._marker_pattern("Note: at 10:30") is messages._LINE_START_MARKER


def test_only_u_s_e_r_and_long_s_match_the_letters_of_user_ignoring_case():
    # the cheap test's premise: every character re.IGNORECASE matches to u, s, e or r casefolds to that letter
    for letter in "user":
        pattern = re.compile(letter, re.IGNORECASE)
        matching = [chr(c) for c in range(sys.maxunicode + 1) if pattern.fullmatch(chr(c))]
        assert all(ch.casefold() == letter for ch in matching), letter


# -- parse_row against the full passes ---------------------------------------------------------------------
def _reference_cut_text(text, max_chars):
    # cut_text as it was before its no-sentence-end shortcut: the sentence-end search always runs
    limit = max(0, max_chars - len(messages.TRUNCATION_MARK))
    last_end = 0
    for match in messages._SENTENCE_END.finditer(text, 0, limit + 1):
        if match.end() <= limit:
            last_end = match.end()
    if last_end:
        kept = text[:last_end].rstrip()
        return kept + messages.TRUNCATION_MARK, len(kept)
    space = max(text.rfind(" ", 0, limit + 1), text.rfind("\n", 0, limit + 1), text.rfind("\t", 0, limit + 1))
    kept = (text[:space] if space > 0 else text[:limit]).rstrip()
    return kept + messages.TRUNCATION_MARK, 0


def _reference_parse_row(row, max_chars):
    # parse_row as it was before its fast paths: the text cleaned in full (every step of clean_text_slow) before
    # and after the machine-text split, the full marker search, the full sentence-end search
    ParsedRow = messages.ParsedRow
    message = row.message
    if isinstance(message, str):
        try:
            message = json.loads(message)
        except (ValueError, TypeError, RecursionError):
            return ParsedRow(row.id, row.created_at, "rejected", reason="message_not_object")
    if not isinstance(message, dict):
        return ParsedRow(row.id, row.created_at, "rejected", reason="message_not_object")
    payload = message.get("data") if isinstance(message.get("data"), dict) else message
    raw_type = payload.get("type") or message.get("type")
    if not isinstance(raw_type, str) or not raw_type.strip():
        return ParsedRow(row.id, row.created_at, "rejected", reason="missing_type")
    kind = raw_type.strip().lower()
    if kind == "system":
        return ParsedRow(row.id, row.created_at, "skipped", reason="system_row")
    role = messages._ROLE_BY_TYPE.get(kind)
    if role is None:
        return ParsedRow(row.id, row.created_at, "rejected", reason="unknown_type")
    text = content_text(payload.get("content"))
    tool_calls = payload.get("tool_calls") or message.get("tool_calls")
    if role == "ai" and text is not None and messages._STAND_IN_CALL.match(text):
        return ParsedRow(row.id, row.created_at, "skipped", reason="tool_call_only")
    if text is None or not text.strip():
        if role == "ai" and tool_calls:
            return ParsedRow(row.id, row.created_at, "skipped", reason="tool_call_only")
        return ParsedRow(row.id, row.created_at, "rejected", reason="no_content")
    evidence = None
    if role == "ai":
        text, evidence = messages.strip_used_tools_prefix(text)
        evidence = clean_text_slow(evidence) if evidence else None
    sender = None
    if role == "human":
        header = messages._TEMPLATE_HEADER.match(text)
        if header:
            sender = " ".join(clean_text_slow(header.group("sender")).split()) or None
            text = text[header.end():]
    machine = None
    if role == "human":
        text, machine = split_at_markers(clean_text_slow(text), _MACHINE_MARKER)
    text = clean_text_slow(text)
    if not text:
        if machine:
            return ParsedRow(row.id, row.created_at, "skipped", reason="machine_text_only")
        if evidence:
            return ParsedRow(row.id, row.created_at, "skipped", reason="tool_call_only")
        return ParsedRow(row.id, row.created_at, "rejected", reason="no_content")
    truncated = len(text) > max_chars
    quotable = None
    if truncated:
        text, quotable = _reference_cut_text(text, max_chars)
    return ParsedRow(row.id, row.created_at, "turn", role=role, text=text, tool_evidence=evidence,
                     truncated=truncated, sender=sender, machine_text=machine, quotable_chars=quotable)


# Long texts too: a cut happens (max_chars is small), with and without a sentence end in reach.
long_texts = st.one_of(texts, st.builds(lambda a, n, b: a + "x" * n + b, texts, st.integers(0, 300), texts))
rows = st.builds(
    lambda kind, prefix, text, blocks: messages.SourceRow(
        7, "s", {"type": kind, "content": [prefix + text, *blocks] if blocks else prefix + text}, None),
    st.sampled_from(["human", "ai", "tool", "user"]),
    st.sampled_from(["", "## Message from Ann (@ann):\n", "## Message from Bo\u2028B:", "[Used tools: x]\n",
                     "[Used tools: \x07]", "  "]),
    long_texts,
    st.lists(long_texts, max_size=2),
)


@settings(max_examples=800, deadline=None)
@given(rows, st.integers(8, 400))
def test_parse_row_equals_the_full_passes(row, max_chars):
    assert messages.parse_row(row, max_chars) == _reference_parse_row(row, max_chars)


def test_parse_row_equals_the_full_passes_on_the_large_fixture_rows():
    # the 200,000-character row of the fixtures (cleaned once, cut without a sentence end in reach), and the
    # same text with controls, line breaks and a sentence end in it
    giant = "x" * 200_000
    for text in (giant, giant[:150_000] + ". " + giant[:40_000], "\x07" + giant + "\r\n", "\u212b" + giant):
        for kind in ("human", "ai"):
            row = messages.SourceRow(1, "s", {"type": kind, "content": text}, None)
            parsed = messages.parse_row(row, 20_000)
            assert parsed == _reference_parse_row(row, 20_000)
            assert parsed.truncated and len(parsed.text) <= 20_000


def test_an_ascii_text_out_of_clean_text_is_its_fixed_point():
    # parse_row's premise for cleaning a human row once when the split leaves it as it was
    for text in ["a\x07b\r\nc  ", "\u212b\x85x", " \x00 ", "e\x07\u0301", "plain"]:
        cleaned = clean_text(text)
        if cleaned.isascii():
            assert clean_text(cleaned) == cleaned


@settings(max_examples=400, deadline=None)
@given(long_texts)
def test_clean_text_of_an_ascii_result_changes_nothing(text):
    cleaned = clean_text(text)
    if cleaned.isascii():
        assert clean_text(cleaned) == cleaned


@settings(max_examples=400, deadline=None)
@given(long_texts, st.integers(0, 200))
def test_cut_text_equals_the_full_sentence_search(text, max_chars):
    assert messages.cut_text(text, max_chars) == _reference_cut_text(text, max_chars)


def test_parse_row_equals_the_full_passes_on_every_fixture_row():
    shapes = fixture_rows(fixture_lines("message_shapes.jsonl"))
    for row in shapes:
        source = messages.SourceRow(row.id, row.session_id, row.message, row.created_at)
        for max_chars in (20_000, 60):
            assert messages.parse_row(source, max_chars) == _reference_parse_row(source, max_chars)
    assert len(shapes) >= 30
