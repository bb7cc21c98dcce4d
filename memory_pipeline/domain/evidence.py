"""The evidence a fact keeps: the sentences of its quote that hold its value, not the whole stretch a model cited.

A model often quotes a whole message for one fact: "Quero transferir o contrato. Se um dia voltarmos para Lisboa,
logo se vê." for the decision to transfer the contract, or "I'll check and tell. Please keep cash on delivery for
me, ..." for the payment preference. The fact then carries a hypothetical or a put-off question beside what was
said, and a prompt weeks later shows both. `narrowed` keeps the sentences that hold the value (or the object of a
`<kind>:<object>` slot: `value_support.backs_value`), in their order, when some but not all do; a value no sentence
holds alone (a stance word), or a yes or no that an assent says with its whole line, keeps the quote as cited.
Every backend; the gates have already read the whole quote.
"""

from __future__ import annotations

from memory_pipeline.domain.folding import fold
from memory_pipeline.domain.speech import sentences
from memory_pipeline.domain.value_support import backs_value, supported


_YES_NO = frozenset({"yes", "no", "true", "false"})  # said by an assent's whole line ("Yes. Please do it.")


def narrowed(quote: str, value: str | None, attribute: str | None) -> str:
    """`quote` cut to its sentences holding `value` (module docstring), joined by a space; `quote` itself when it
    is one sentence, when every sentence or none holds the value, or when a sentence is not found verbatim in it."""
    said = sentences(quote)
    if len(said) < 2 or not value or fold(value.strip()) in _YES_NO or any(s not in quote for s in said):
        return quote
    holding = [s for s in said if supported(value, s) or backs_value(value, attribute, s)]
    if not holding or len(holding) == len(said):
        return quote
    return " ".join(holding)
