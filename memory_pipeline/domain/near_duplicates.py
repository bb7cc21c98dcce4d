"""Near-duplicate facts: two facts of one user and category that say the same thing in other words.

Reconciliation (`reconcile_user`) asks `NearDuplicateRule.same` for a new fact that is neither a repeat (same
text, or same single-valued slot and value) nor a supersession (same single-valued slot, other value); when it
answers yes for an active fact, that fact stays the one active fact and its `last_seen_at` is refreshed. The
decisions, in order (each testable with fixed inputs):

1. Same attribute: a multi-valued one (`hobby`) merges only the same value; a single-valued one never gets here.
2. Stances on the same object ("User likes blue." `opinion:blue`=likes, "User's favourite colour is blue."
   `favourite:colour`=blue, "User prefers blue." no attribute, value blue): the same polarity merges, opposite
   polarities never do. The attribute conventions are the extractors' (`opinion:<object>` with a stance value,
   `favourite:<kind>` with the object as value).
3. Otherwise, a fact that fills a single-valued slot never merges with another slot (`home_location` Lyon is not
   `hometown` Lyon): only 1 and 2 merge structured facts.
4. Two texts that differ in polarity, a number, a date or a named value (`statements.differs_in_substance`:
   "deploys are allowed" / "deploys are not allowed", "2 tickets" / "3 tickets") never merge, in any language.
5. Otherwise the texts' similarity reaches the threshold: `similarity` (cosine of embeddings where a backend
   provides them) or `trigram_similarity`, PostgreSQL pg_trgm's `similarity()` computed in Python so the fold
   stays a pure function (pg_trgm is not shipped with every server, the embedded one included).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from dataclasses import dataclass
from typing import Protocol

from memory_pipeline.domain.facts import fact_key
from memory_pipeline.domain.statements import NEGATIVE_STANCES, POSITIVE_STANCES, differs_in_substance

# Multi-valued attributes: reconciliation's own list is passed in (`multi_valued`) to keep one source.

_WORD = re.compile(r"[^\W_]+")  # pg_trgm's word characters: alphanumerics (not the underscore)
_ARTICLE = re.compile(r"^(?:the|a|an)\s+")


class FactLike(Protocol):
    """The fields the rule reads (an AcceptedFact or a FactVersion)."""

    category: str
    attribute: str | None
    value: str | None
    fact: str


# Cached: a night compares each new fact with every active fact of its user, and the same texts recur.
@lru_cache(maxsize=8192)
def trigrams(text: str) -> frozenset[str]:
    """pg_trgm's trigrams of `text` (PostgreSQL docs, "pg_trgm": non-alphanumerics separate words, text is
    lower-cased, each word gets two spaces before and one after): trigrams('cat') = {'  c', ' ca', 'cat', 'at '}."""
    grams: set[str] = set()
    for word in _WORD.findall(text.lower()):
        padded = f"  {word} "
        grams.update(padded[i:i + 3] for i in range(len(padded) - 2))
    return frozenset(grams)


def trigram_similarity(a: str, b: str) -> float:
    """pg_trgm's `similarity(a, b)`: shared trigrams / all distinct trigrams of both, in [0, 1] (0 when neither
    has a trigram)."""
    ta, tb = trigrams(a), trigrams(b)
    union = ta | tb
    return len(ta & tb) / len(union) if union else 0.0


def stance(fact: FactLike) -> tuple[str, bool] | None:
    """(object, positive?) a preference states, from the attribute conventions (module docstring), else None."""
    attribute, value = fact.attribute or "", fact.value
    if attribute.startswith("opinion:") and value:
        stance_word = value.casefold()
        if stance_word in POSITIVE_STANCES or stance_word in NEGATIVE_STANCES:
            return _object(attribute[len("opinion:"):]), stance_word in POSITIVE_STANCES
    elif attribute.startswith("favourite:") and value:
        return _object(value), True
    elif not attribute and value and fact.category == "preference":
        return _object(value), True  # a preference with a value and no slot: "User prefers blue."
    return None


@lru_cache(maxsize=8192)
def _object(text: str) -> str:
    return _ARTICLE.sub("", fact_key(text))


@dataclass(frozen=True)
class NearDuplicateRule:
    """`same(new, existing)` decides whether two facts of one user and category are one fact (rules 1-5).

    `threshold`: similarity from which texts are the same fact, in (0, 1]; MEMORY_PIPELINE_NEAR_DUPLICATE_THRESHOLD.
    `multi_valued`: attributes holding several values. `similarity`: text similarity, trigram by default."""

    threshold: float
    multi_valued: frozenset[str]
    similarity: Callable[[FactLike, FactLike], float] | None = None

    def same(self, new: FactLike, existing: FactLike) -> bool:
        """True when `new` repeats `existing` in other words (same user and category assumed)."""
        if new.category != existing.category:
            return False
        if new.attribute and new.attribute == existing.attribute:
            if new.attribute not in self.multi_valued:
                return False  # same slot: a repeat or a supersession, decided by reconciliation itself
            return bool(new.value and existing.value and fact_key(new.value) == fact_key(existing.value))
        a, b = stance(new), stance(existing)
        if a and b and a[0] == b[0]:
            return a[1] == b[1]
        if self._slot(new) or self._slot(existing):
            return False
        if differs_in_substance(new.fact, existing.fact):
            return False
        score = self.similarity(new, existing) if self.similarity else trigram_similarity(new.fact, existing.fact)
        return score >= self.threshold

    def _slot(self, fact: FactLike) -> bool:
        return bool(fact.attribute) and fact.attribute not in self.multi_valued
