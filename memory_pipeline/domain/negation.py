"""A value the user's own clause negates or says is over: "I don't live in Leeds", "Ich wohne nicht in Köln",
"我不住在上海", "東京には住んでいません", "I used to live in Paris" state no home, in the words of the quote's own language
(`negation`, `former`; a break-it review found every language let them through). Read by the gates
(domain/gates.py) for homes and jobs."""

from __future__ import annotations

import re

from memory_pipeline.domain import lexicon
from memory_pipeline.domain.value_support import SPACELESS_CHARS

_SPACELESS_SCRIPT = re.compile(f"[{SPACELESS_CHARS}]")

# How near the value a negation must be to negate it: words either side, or characters in a script without spaces
# (a negation further on is about something else: "im in auckland so anything before 9am my time i wont see").
_NEGATION_WORDS = 4
_NEGATION_CHARS = 10


def negated(value: str, backing: str, told: str | None) -> bool:
    """True when every clause of `backing` (joined by "; ") that holds `value` as written negates it or says it is
    over: a negation word of the language `told` (when it is told and its words are known: `negation`), or a word
    of a state that ended (`former`: "I used to live in Paris", "我以前住在上海"), within `_NEGATION_WORDS`
    words (`_NEGATION_CHARS` characters in a script without spaces) of it, the value's own words left out ("不来梅"
    is Bremen). "I don't live in Leeds", "Ich wohne nicht in Köln", "我不住在上海", "東京には住んでいません" state no
    home (a break-it review: every language let them through)."""
    if told is None:
        return False
    # Its own words only: Portuguese "no" is "in the". A state said over is said before the value ("I used to live
    # in Paris", "以前住在上海"; not "Vivo en Madrid desde antes de la pandemia").
    negation = lexicon.pattern("negation", frozenset({told})) if told in lexicon.knowing("negation") else None
    former = lexicon.pattern("former", frozenset({told})) if told in lexicon.knowing("former") else None
    if negation is None and former is None:
        return False
    verdicts = []
    for part in backing.split("; "):
        found = re.search(re.escape(value.strip()), part, re.IGNORECASE)
        if found is None:
            continue
        before, after = part[:found.start()], part[found.end():]
        if _SPACELESS_SCRIPT.search(value) or _SPACELESS_SCRIPT.search(part):
            before, after = before[-_NEGATION_CHARS:], after[:_NEGATION_CHARS]
        else:
            before, after = " ".join(before.split()[-_NEGATION_WORDS:]), " ".join(after.split()[:_NEGATION_WORDS])
        verdicts.append(bool(negation and negation.search(before + " | " + after) or former and former.search(before)))
    return bool(verdicts) and all(verdicts)
