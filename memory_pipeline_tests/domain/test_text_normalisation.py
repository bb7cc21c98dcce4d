"""Text is normalised before extraction and deduplication (issue 21, item 6): Unicode NFKC, invisible format and
bidirectional characters dropped, lone surrogates dropped, so that what a reader cannot see never makes a wrong
fact ("Jo\\u200bhn" read as "Jo") nor a second copy of one ("I like \\u200dtea\\u2060." next to "I like tea.")."""

import sys
import unicodedata

import pytest
from hypothesis import given, settings as hsettings, strategies as st

from memory_pipeline.domain import messages
from memory_pipeline.domain.messages import clean_text, clean_text_slow
from memory_pipeline_tests.test_hostile_input import DAY, active_facts, said
from memory_pipeline_tests.test_pipeline_end_to_end import Pipeline

# Format characters (Cf) kept on purpose: visible ones (Arabic number signs and the other prepended concatenation
# marks, Egyptian hieroglyph format controls), and those kept only in context (the joiners between two non-ASCII
# characters, the tags of an emoji flag): everything else of category Cf is dropped.
KEPT_FORMAT = {*range(0x0600, 0x0606), 0x06DD, 0x070F, 0x0890, 0x0891, 0x08E2, 0x110BD, 0x110CD,
               *range(0x13430, 0x13439), 0x200C, 0x200D, *range(0xE0020, 0xE0080)}
JOINERS = "\u200c\u200d"


def test_every_format_character_is_dropped_or_kept_on_purpose():
    for code in range(sys.maxunicode + 1):
        char = chr(code)
        if unicodedata.category(char) != "Cf":
            continue
        if code in KEPT_FORMAT:
            continue
        assert clean_text(f"a{char}b") == "ab", f"U+{code:04X} is neither dropped nor kept on purpose"


def test_nfkc_never_produces_a_character_clean_text_would_drop():
    # clean_text's fast path normalises a text without such characters and stops: NFKC must not create one.
    for code in range(sys.maxunicode + 1):
        char = chr(code)
        if 0xD800 <= code <= 0xDFFF or messages._NEEDS_CLEANING.search(char):
            continue
        assert messages._NEEDS_CLEANING.search(unicodedata.normalize("NFKC", char)) is None, f"U+{code:04X}"


@pytest.mark.parametrize("raw, clean", [
    ("My name is Jo\u200bhn.", "My name is John."),                 # zero-width space inside a word
    ("I like \u200dtea\u2060.", "I like tea."),                      # joiner and word joiner around a word
    ("I live in \u202eRome\u202c.", "I live in Rome."),             # bidirectional override
    ("I live in \u200fRome\u200e.", "I live in Rome."),             # right-to-left / left-to-right marks
    ("\ufeffI like tea.", "I like tea."),                           # BOM
    ("I like t\u00adea.", "I like tea."),                            # soft hyphen
    ("I live in Kyiv \ud83d.", "I live in Kyiv ."),                  # lone surrogate: dropped, not U+FFFD
    ("Ｉ ｌｉｖｅ ｉｎ Ｒｏｍｅ.", "I live in Rome."),                # full-width compatibility forms
    ("I like \ufb01gs.", "I like figs."),                            # ligature
    ("I like\u00a0tea.", "I like tea."),                             # no-break space
    ("I ask\U000e0069\U000e0067\U000e006e for tea.", "I ask for tea."),  # tag characters hiding text
])
def test_invisible_and_compatibility_characters_are_normalised_away(raw, clean):
    assert clean_text(raw) == clean == clean_text_slow(raw)


@pytest.mark.parametrize("text", [
    "\U0001f468\u200d\U0001f469\u200d\U0001f467",   # an emoji family: joiners between emoji
    "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645",  # Persian: a non-joiner inside a word
    "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",  # the flag of Scotland
])
def test_joiners_and_flag_tags_that_change_what_is_shown_stay(text):
    assert clean_text(text) == text


@hsettings(max_examples=400, deadline=None)
@given(st.text(alphabet=st.sampled_from(["a", " ", "é", "e", "\u0301", "Ａ", "\u200b", "\u200c", "\u200d",
                                         "\u2060", "\ud800", "\U0001f468", "\U000e0067", "\U000e007f",
                                         "\U0001f3f4", "\u202e", "\n", "\u2028", "\x00", "\x85", "\ufb01"]),
               max_size=12))
def test_clean_text_is_a_fixed_point_and_its_fast_path_agrees(text):
    cleaned = clean_text(text)
    assert cleaned == clean_text_slow(text)
    assert clean_text(cleaned) == cleaned
    assert unicodedata.is_normalized("NFKC", cleaned)


def test_a_zero_width_space_inside_a_name_gives_the_whole_name(make_settings):
    p = Pipeline(make_settings())
    p.load([said("jo", "My name is Jo\u200bhn.")])
    assert p.run(DAY).success
    assert active_facts(p, "jo") == ["User's name is John."]


def test_invisible_characters_do_not_make_a_second_active_fact(make_settings):
    p = Pipeline(make_settings())
    p.load([said("ann", "I like \u200dtea\u2060."), said("ann", "I like tea.", minutes=24 * 60)])
    assert p.run(DAY).success and p.run("2026-05-04").success
    assert active_facts(p, "ann") == ["User likes tea."]
    assert p.rows("SELECT count(*) AS n FROM {schema}.agent_facts WHERE user_key = 'ann'")[0]["n"] == 1
