"""The parsing fast paths give exactly what the full passes give (property-based, hypothesis, and on every row
shape of the fixtures): `clean_text` against `clean_text_slow`, `split_machine_text` against the search with the
full `_MACHINE_MARKER` at every step."""

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
