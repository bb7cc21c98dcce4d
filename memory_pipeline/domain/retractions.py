"""Forget requests: the user asks the assistant to forget or delete something they told it, as a statement,
a request or a question ("Forget my phone number.", "Please delete my email.", "Can you forget my phone
number?", "Peux-tu oublier mon numéro ?", "Vergiss meine Telefonnummer.", "¿Puedes olvidar mi correo?",
"能不能忘掉我的电话号码？").

`requested_slot(text)` names the slot such a request is about (the same slot names the extractors fill:
`phone_number`, `email`, `home_location`, `name`, `job`, `employer`) or None. A retraction whose quote is a forget
request erases the slot's facts and candidates like `forget --fact` (no trace of their text), where a plain
retraction ("I no longer live in Oslo") only ends the active fact and keeps its history. Source of the need:
unslothai/unsloth#7105 (a forget request phrased as a question was ignored), issue 17.
"""

from __future__ import annotations

import re

from memory_pipeline.domain import lexicon

# What can be forgotten (`forget_nouns` of every language): noun phrase -> slot, tried in this order (email before
# address, so "adresse e-mail" is an email).
_SLOTS: tuple[tuple[str, str], ...] = tuple((nouns, slot) for slot, nouns in lexicon.table("forget_nouns"))
_POSSESSIVE = r"(?:" + lexicon.alternation("possessive") + r")\s*"
_VERB = "(?:" + lexicon.alternation("forget_verb") + ")"
_NOT_BEFORE = "".join(f"(?<!{re.escape(words)})" for words in lexicon.strings("forget_not"))
# Verb first ("forget my X", "peux-tu oublier mon X", "olvida mi X", "忘掉我的X"), or the German order
# ("meine Telefonnummer vergessen/löschen"): the noun phrase is what follows the possessive.
_REQUEST = re.compile(
    _NOT_BEFORE + r"(?<![^\W\u3400-\u9fff])" + _VERB
    + r"\s*(?:" + lexicon.alternation("forget_about") + r")?" + _POSSESSIVE + r"(?P<a>[^,.;!?，。！？]{1,40})|"
    + _POSSESSIVE + r"(?P<b>[\w-]{2,30})\s+(?:" + lexicon.alternation("forget_verb_after") + r")(?!\w)",
    re.IGNORECASE,
)
_SLOT_PATTERNS = tuple((re.compile(r"(?:" + p + r")(?![\w-])", re.IGNORECASE), slot) for p, slot in _SLOTS)


def requested_slot(text: str) -> str | None:
    """The slot a forget request in `text` names, or None when `text` asks to forget nothing it can name."""
    for match in _REQUEST.finditer(text):
        noun = " ".join((match.group("a") or match.group("b") or "").split()).casefold()
        for pattern, slot in _SLOT_PATTERNS:
            if pattern.match(noun):  # the noun phrase starts with a slot's noun ("phone number from the form")
                return slot
    return None


def is_forget_request(text: str) -> bool:
    """True when `text` asks to forget or delete something the user said, in any form (module docstring)."""
    return requested_slot(text) is not None
