"""Whether a quote says the place a fact names is where the user lives: the home gate's reading (domain/gates.py).

A home slot's value stands when the clause backing it says living there (`living` data: "I live", "vivo", "住"),
says where the user is with the place right after and no trip or passing stay (`located`, `passing`: "I'm in
Fremantle", "Karşıyaka'dayım"), or answers a question about where the user lives; in a language without living
words, when the value could be a place at all. In every language, a weekday or month name the chat does not write
as a name is no place (`names_a_date`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memory_pipeline.domain import calendar_names, lexicon, speech
from memory_pipeline.domain.folding import fold
from memory_pipeline.domain.naming import QUESTIONS
from memory_pipeline.domain.value_support import names_a_thing

HOME_SLOT = re.compile(r"^(?:home_location|home|home_city|current_city|city|residence|lives_in)$", re.IGNORECASE)
_LIVING = lexicon.pattern("living")


def is_home_slot(attribute: str | None) -> bool:
    """True for a slot that holds where the user lives (`home_location`, `current_city` ...)."""
    return bool(attribute) and HOME_SLOT.match(attribute.strip()) is not None


def looks_like_place(value: str) -> bool:
    """True when `value` could be a place: it has a letter, and no "@" or URL."""
    return any(c.isalpha() for c in value) and not re.search(r"@|://|www\.", value)


def located(clause: str, value: str, codes: lexicon.Codes) -> bool:
    """True when `clause` says where the user is (`located`: "I'm in Fremantle", "estoy en Monterrey", "je suis sur
    Lyon", "Karşıyaka'dayım") with `value` right there (not "I'm in love with Lisbon"), and names no trip
    (`travel`) and no passing stay (`passing`: "I'm in Rome till the 15th"): where they are based, for the home
    gate."""
    if lexicon.pattern("travel", codes).search(clause) or lexicon.pattern("passing", codes).search(clause):
        return False
    named = fold(" ".join(value.split()))
    folded = fold(clause)
    return bool(named) and any(
        folded[max(0, m.start() - len(named) - 2):m.end() + len(named) + 2].find(named) >= 0
        for m in lexicon.pattern("located", codes).finditer(folded))


def names_a_date(value: str, sentence: str, told: str | None) -> bool:
    """True when `value` is a weekday or month name of the language `told` or English (CLDR,
    `calendar_names.starts_with_calendar_name`) that `sentence` does not write capitalised as a place's name: the
    model's "Heinäkuus" for "mökkireissu siirty heinäkuulle" (the cabin trip moved to July, holdout set 10); not "Junín"
    said "vivo en Junín" (a town, though Spanish "junio" is June); a name its language always capitalises is a date
    whatever its case ("I'm moving in August")."""
    if calendar_names.is_capitalised_name(value, {told} - {None}):
        return True
    if not calendar_names.starts_with_calendar_name(value, {told} - {None}):
        return False
    head = fold(value)[:4]
    return not any(word[:1].isupper() and fold(word).startswith(head) for word in speech.WORD.findall(sentence))


def home_stated(value: str, backing: str, sentence: str, answered: Sequence[str], told: str | None,
                codes: lexicon.Codes) -> bool:
    """True when `backing` (the clauses of `sentence` stating something of the user) says `value` is the user's
    home (module docstring); `answered`: the assistant lines before the message (a bare place answering "Where do
    you live?", "Kje živite?" -> "V Mariboru.", is a home); `told`: the message's language."""
    if not names_a_thing(value) or names_a_date(value, sentence, told):
        return False  # a date is no place ("the dentist appointment moved to March 27")
    if told is not None and told not in lexicon.knowing("living"):
        return looks_like_place(value)
    asked = any(_LIVING.search(q) for text in answered for q in QUESTIONS.findall(text))
    return bool(_LIVING.search(backing) or located(backing, value, codes) or asked and looks_like_place(value))
