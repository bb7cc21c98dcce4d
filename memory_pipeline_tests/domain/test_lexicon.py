"""The language data's engine: casual text without apostrophes reads as the data written with them."""

import re

import pytest

from memory_pipeline.domain import lexicon
from memory_pipeline.domain.gates import gate


@pytest.mark.parametrize("source,text,matches", [
    (r"\bcan't stand\b", "i cant stand olives", True),
    (r"\bcan't stand\b", "i can't stand olives", True),
    (r"[\w']+x", "ab'x", True),                       # inside a character class: left as written
    (r"(?<!don't )like", "don't like", False),        # inside a look-behind: kept fixed-width
    (r"(?<!don't )like", "dont like", True),
])
def test_an_apostrophe_in_the_data_is_optional_in_the_text(source, text, matches):
    assert (re.search(lexicon.apostrophe_optional(source), text) is not None) is matches


def test_a_stance_typed_without_its_apostrophe_is_still_a_stance():
    quote = "i cant stand olives"
    assert gate(quote, quote, "opinion:olives", "dislikes", False) is None


def test_no_pattern_holds_a_character_class_inside_another():
    # `either` writes a marked letter as a class ("ē" -> "[ēe]"): inside a class of the data it made a class in a
    # class, and Greek "τηλ[εέ]φων" matched no phone at all (session 22).
    for code, module in lexicon.MODULES.items():
        for kind, entry in module.LEXICON.items():
            for source in (entry.values() if isinstance(entry, dict) else [entry]):
                if isinstance(source, str):
                    assert not re.search(r"(?<!\\)\[[^\]]*(?<!\\)\[", source), (code, kind)
