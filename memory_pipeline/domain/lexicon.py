"""The one engine over the language data in domain/languages/: every language's entries of a kind joined into one
pattern, word set or table, and which languages know a kind (the gates reject for a missing word only in those).

Kinds (each optional in a language's `LEXICON`; a regular expression unless said otherwise):
- speech acts (domain/speech.py): `instruction`, `reported_speech`, `quoted_first_person` (words that open a
  quotation spoken in the first person), `self_report` ("as I said"), `other_person`, `companion` ("with": a
  person the user is with), `self`, `sarcasm`, `kidding`, `conditional`, `need_condition` (a condition on a
  need of the one addressed: "if you need to reach me", "if anything comes up"), `hedge`, `undecided` (a choice left open, a question put off:
  "I'll think about it", "hesitating between"), `interrogative`, `question_particle`, `question_unmarked` (a question told
  without a question mark), `question_word_inside` (a question word anywhere in the clause that ends a
  question), `request`, `standing`, `clause_joiner`, `question_tail` (a clause that only goes on asking about the one before:
  the other half of an either/or, "还是北京呢？", or a tag, "对吗？", "right?"), `question_clause_end` (a clause that
  ends with a question particle asks without its mark: "東京に住むべきか、..."), `one_off` (a request for this time
  only: "just this once", "solo esta vez", "今回だけ"), `former` (a state said to be over: "used to", "früher",
  "以前"), `desire` (a state only wished: "I want to", "quisiera", "想"),
  `pleasantry_whole`, and the word lists `pleasantry_words`, `filler_words`;
- moving away from a value (domain/gates.py): `moving_away` (the value as it is and should not be: "keep coming
  in", "instead of"), `wanted` (the value as it should be: "we need", "from now on");
- gates (domain/gates.py): `naming`, `weak_naming` and `weak_naming_after` (alternations put next to the value),
  `living`, `located` (where the user is: "I'm in", "je suis sur"; a home in a clause naming no trip) and
  `passing` (a stay said to pass: "till", "this week", "when"), `stance`, `assent`, `decided` (a decision said to be made: "zdecydowałem się", "c'est décidé"),
  `user_subject`, `fact_other_person` (a fact whose subject is a relative or friend of the user), `fact_wish` (a fact
  saying the user wants, asks or plans something), `fact_plan` (a fact saying the user plans it), `fact_pronoun`, `predicate_suffix` (an ending that makes a
  one-word value a statement: Turkish "yazılımcı-yım"), word lists `stopwords`, `date_words`;
- the slot the user's words give a fact (domain/slot_repair.py): `cessation` (a liking said to have ended: "no
  longer like", "n'aime plus"), `origin` (where the user grew up or was born), `travel` (a trip, a visit, a
  holiday);
- forget requests (domain/retractions.py): `forget_nouns` (slot -> noun alternation), `possessive`, `forget_verb`,
  `forget_verb_after`, `forget_about` (alternations), `forget_not` (a tuple of fixed strings);
- language.py: the word lists `marker_words`, with the module's `TEXT_SEARCH`, and `romanised_words` (a
  language written in Latin letters that the language model does not tell: Hinglish).
A module may name in `READ_WITH` the languages whose words also read a text identified as its own (`codes_for`).
Patterns are compiled case-insensitive; an entry needing case says so inline (`(?-i:...)`).
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from functools import cache
from types import ModuleType

from memory_pipeline.domain import languages as _package


def _load() -> dict[str, ModuleType]:
    found = {}
    for info in sorted(pkgutil.iter_modules(_package.__path__), key=lambda i: i.name):
        if not info.name.startswith("_"):
            found[info.name] = importlib.import_module(f"{_package.__name__}.{info.name}")
    return found


MODULES: dict[str, ModuleType] = _load()
CODES: tuple[str, ...] = tuple(MODULES)


Codes = frozenset[str] | None  # a set of language codes; None: every language


def entries(kind: str, codes: Codes = None) -> list[tuple[str, object]]:
    """(language code, entry) of every language (of `codes`) whose data has `kind`, in code order."""
    return [(code, m.LEXICON[kind]) for code, m in MODULES.items()
            if kind in m.LEXICON and (codes is None or code in codes)]


@cache
def knowing(kind: str) -> frozenset[str]:
    """The codes of the languages whose data has `kind`."""
    return frozenset(code for code, _ in entries(kind))


def apostrophe_optional(source: str) -> str:
    """A pattern source with each apostrophe outside a character class and a look-behind made optional: casual
    chat drops it ("cant stand", "dont", "im moving") in every language that writes one, so the data is written
    once, with it. (A look-behind must keep a fixed width.)"""
    out, groups, in_class, escaped = [], [], False, False
    for index, char in enumerate(source):
        out.append(char)
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
        elif char == "(":
            groups.append(source.startswith(("(?<=", "(?<!"), index))
        elif char == ")" and groups:
            groups.pop()
        elif char == "'" and not any(groups):
            out.append("?")
    return "".join(out)


@cache
def alternation(kind: str, codes: Codes = None) -> str:
    """Every language's (of `codes`) entry of `kind` as one regular expression source, each a group:
    "(?:a)|(?:b)", apostrophes optional (`apostrophe_optional`); "(?!)" (matches nothing) when none has one."""
    parts = [f"(?:{apostrophe_optional(entry)})" for _, entry in entries(kind, codes)]
    return "|".join(parts) if parts else "(?!)"


@cache
def pattern(kind: str, codes: Codes = None) -> re.Pattern[str]:
    """`alternation(kind, codes)` compiled case-insensitive."""
    return re.compile(alternation(kind, codes), re.IGNORECASE)


def codes_for(code: str | None) -> Codes:
    """The languages whose words apply to a text identified as `code` (domain/language.identify): every one when
    it is not told; its own and English when it is one of them (a text mixes in English: "ok", "just kidding";
    Spanish "y" is no joining word in "Je vais y réfléchir"); none when it is a language without data (Italian
    "Il mio nome" is no French "il", a third person); with the languages its module's `READ_WITH` names, written
    so alike that a short line is told apart by chance (Norwegian and Danish: "Jeg bor i Bergen" scores 0.52
    Norwegian, 0.38 Danish)."""
    if code is None:
        return None
    if code not in MODULES:
        return frozenset()
    return frozenset({code, "en", *getattr(MODULES[code], "READ_WITH", ())})


@cache
def words(kind: str, codes: Codes = None) -> frozenset[str]:
    """The union of every language's (of `codes`) word list of `kind` (space-separated entries)."""
    return frozenset(w for _, entry in entries(kind, codes) for w in str(entry).split())


@cache
def strings(kind: str) -> tuple[str, ...]:
    """The union of every language's tuple of fixed strings of `kind`, in code order."""
    return tuple(s for _, entry in entries(kind) for s in entry)


@cache
def table(kind: str, codes: Codes = None) -> tuple[tuple[str, str], ...]:
    """(key, alternation of every language's (of `codes`) entry under key) for a kind whose entries are dicts,
    keys in the order first met (English's first, then by code)."""
    merged: dict[str, list[str]] = {}
    ordered = sorted(entries(kind, codes), key=lambda e: e[0] != "en")
    for _, entry in ordered:
        for key, source in entry.items():
            merged.setdefault(key, []).append(f"(?:{apostrophe_optional(source)})")
    return tuple((key, "|".join(sources)) for key, sources in merged.items())


def text_search_configs() -> dict[str, str]:
    """Language code -> PostgreSQL text search configuration, for the languages whose data names one."""
    return {code: m.TEXT_SEARCH for code, m in MODULES.items() if getattr(m, "TEXT_SEARCH", None)}
