"""A value the user's own clause negates, says is over or only wishes: "I don't live in Leeds", "我不住在上海", "I used
to live in Paris", "I want to move to Leeds" state no home, in the words of the quote's own language (`negation`,
`former`, `desire`; break-it reviews found every language let them through). Read by the gates (domain/gates.py)
for homes and jobs."""

from __future__ import annotations

import re

from memory_pipeline.domain import lexicon
from memory_pipeline.domain.value_support import SPACELESS_CHARS

_SPACELESS_SCRIPT = re.compile(f"[{SPACELESS_CHARS}]")

# How near the value a negation must be to negate it: words either side, or characters in a script without spaces
# (a negation further on is about something else: "im in auckland so anything before 9am my time i wont see").
_NEGATION_WORDS = 4
_NEGATION_CHARS = 10


def _windows(value: str, backing: str) -> list[tuple[str, str]]:
    """(before, after) the value in each clause of `backing` (joined by "; ") that holds it as written:
    `_NEGATION_WORDS` words each side, or `_NEGATION_CHARS` characters in a script without spaces."""
    windows = []
    for part in backing.split("; "):
        found = re.search(re.escape(value.strip()), part, re.IGNORECASE)
        if found is None:
            continue
        before, after = part[:found.start()], part[found.end():]
        if _SPACELESS_SCRIPT.search(value) or _SPACELESS_SCRIPT.search(part):
            windows.append((before[-_NEGATION_CHARS:], after[:_NEGATION_CHARS]))
        else:
            windows.append((" ".join(before.split()[-_NEGATION_WORDS:]), " ".join(after.split()[:_NEGATION_WORDS])))
    return windows


def _own(kind: str, told: str | None) -> re.Pattern[str] | None:
    """The words of `kind` of the language `told` only (Portuguese "no" is "in the"), or None when it is not told
    or has none."""
    return lexicon.pattern(kind, frozenset({told})) if told in lexicon.knowing(kind) else None


def negated(value: str, backing: str, told: str | None) -> bool:
    """True when every clause of `backing` (joined by "; ") that holds `value` as written negates it or says it is
    over: a negation word of the language `told` (when it is told and its words are known: `negation`) near it, or
    a word of a state that ended (`former`: "I used to live in Paris", "我以前住在上海") before it, within
    `_NEGATION_WORDS` words (`_NEGATION_CHARS` characters in a script without spaces), the value's own words left
    out ("不来梅" is Bremen; "Vivo en Madrid desde antes de la pandemia" is no former home)."""
    negation, former = _own("negation", told), _own("former", told)
    verdicts = [bool(negation and negation.search(before + " | " + after) or former and former.search(before))
                for before, after in _windows(value, backing)]
    return bool(verdicts) and all(verdicts)


def wished(value: str, backing: str, told: str | None) -> bool:
    """True when every clause of `backing` that holds `value` only wishes it, a word of wanting (`desire`: "I want
    to move to Leeds", "我想搬到上海", "Ich möchte nach Berlin ziehen") before it, as near as `negated` reads."""
    desire = _own("desire", told)
    verdicts = [bool(desire and desire.search(before)) for before, _ in _windows(value, backing)]
    return bool(verdicts) and all(verdicts)
