"""What an accepted fact keeps as evidence: the sentences of its quote that hold its value, not the whole stretch a
model cited (`narrowed`), and its exact value in its own text (`with_value`).

A model often quotes a whole message for one fact: "Quero transferir o contrato. Se um dia voltarmos para Lisboa,
logo se vê." for the decision to transfer the contract, or "I'll check and tell. Please keep cash on delivery for
me, ..." for the payment preference. The fact then carries a hypothetical or a put-off question beside what was
said, and a prompt weeks later shows both. `narrowed` keeps the sentences that hold the value (or the object of a
`<kind>:<object>` slot: `value_support.backs_value`), in their order, when some but not all do; a value no sentence
holds alone (a stance word), or a yes or no that an assent says with its whole line, keeps the quote as cited.
Every backend; the gates have already read the whole quote.
"""

from __future__ import annotations

import re

from memory_pipeline.domain.folding import fold
from memory_pipeline.domain.speech import sentences
from memory_pipeline.domain.value_support import YES_NO, backs_value, supported


def narrowed(quote: str, value: str | None, attribute: str | None) -> str:
    """`quote` cut to its sentences holding `value` (module docstring), joined by a space; `quote` itself when it
    is one sentence, when every sentence or none holds the value, or when a sentence is not found verbatim in it."""
    said = sentences(quote)
    # A yes or no is said by an assent's whole line ("Yes. Please do it.").
    if len(said) < 2 or not value or fold(value.strip()) in YES_NO or any(s not in quote for s in said):
        return quote
    holding = [s for s in said if supported(value, s) or backs_value(value, attribute, s)]
    if not holding or len(holding) == len(said):
        return quote
    return " ".join(holding)


# A value said exactly, which no paraphrase carries: a number (phone, amount, order) or an address.
_EXACT_VALUE = re.compile(r"[\d@]")


def with_value(fact: str, value: str | None) -> str:
    """`fact` with its value in brackets at its end when the value is exact (`_EXACT_VALUE`) and the fact's text
    does not hold it (`value_support.supported`; resolved dates are exempt there): "The user has a new phone number."
    for +7 900 111-22-33 was a 1.5B model's (issue 26), of no use in a prompt weeks later."""
    said = " ".join((value or "").split())
    if not said or not _EXACT_VALUE.search(said) or supported(said, fact):
        return fact
    return f"{fact.rstrip(' .。')} ({said})."
