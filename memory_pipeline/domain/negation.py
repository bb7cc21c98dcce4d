"""A value the user's own clause negates: "I don't live in Leeds", "Ich wohne nicht in Köln", "我不住在上海",
"東京には住んでいません" state no home, in the negation words of the quote's own language (`negation`; a break-it
review found every language let them through). Read by the gates (domain/gates.py) for homes and jobs."""

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
    """True when every clause of `backing` (joined by "; ") that holds `value` as written negates it: a negation
    word of the language `told` (when it is told and its words are known: `negation`) within `_NEGATION_WORDS`
    words (`_NEGATION_CHARS` characters in a script without spaces) of it, the value's own words left out ("不来梅"
    is Bremen). "I don't live in Leeds", "Ich wohne nicht in Köln", "我不住在上海", "東京には住んでいません" state no
    home (a break-it review: every language let them through)."""
    if told is None or told not in lexicon.knowing("negation"):
        return False
    negation = lexicon.pattern("negation", frozenset({told}))  # its own words only: Portuguese "no" is "in the"
    windows = []
    for part in backing.split("; "):
        found = re.search(re.escape(value.strip()), part, re.IGNORECASE)
        if found is None:
            continue
        before, after = part[:found.start()], part[found.end():]
        if _SPACELESS_SCRIPT.search(value) or _SPACELESS_SCRIPT.search(part):
            windows.append(before[-_NEGATION_CHARS:] + " " + after[:_NEGATION_CHARS])
        else:
            windows.append(" ".join(before.split()[-_NEGATION_WORDS:] + ["|"] + after.split()[:_NEGATION_WORDS]))
    return bool(windows) and all(negation.search(window) for window in windows)
