"""Facts related by a model's judgement, checked by a rule: an update said under another name (issue 26).

The owner rules (`domain.owners`) relate the names models are known to use for one slot. A model free to name its
attributes finds new ones (`reply_language` one night, `preferred_language` the next; `invoice_format`, then
`billing_document_format`), and a rule that knows one more name fixes one case. So a pair the owner rules leave
apart is put to the model that extracted it, when the two facts could be about one thing: one user, one category,
both single-valued facts with a value, owned by different slots whose names share a word, or whose values are
no stance and one of whose names the rules do not know (`may_relate`: `courier` = Omniva then `shipping_carrier` = DPD, `offsite_date` then `team_event_date`,
`diet` then `food_preference` share no word; a helper's unseen set had 16 of 41 updates lost so, with right
answers). It
answers `update` (the newer fact changes what the older says), `same` (it says it again) or `different`. A
language-agnostic rule checks the verdict (`checked`): `same` is a repeat only when the values are one
(`owners.same_value`; with other numbers it is an update, a moved date; with other words it relates nothing: a
1.5B model called "dream job: astronaut" the same as "job: teacher", and superseding would end a true fact for a
model's slip), and `update` is a repeat when the values are one.

Verdicts are keyed by the two facts' content (`relation_key`), not by run or order: reconciliation stays a
function of the set of candidates (a pair is judged once, whichever night it was first met, and a re-run reads
the stored verdict), and a pair only ever holds one user's facts.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Protocol

from memory_pipeline.domain.facts import fact_key
from memory_pipeline.domain.owners import KINDS, is_multi_valued, known_slot, owners, same_value, words
from memory_pipeline.domain.statements import polarity

VERDICTS = ("update", "same", "different")


class Stated(Protocol):
    """What a pair is judged on: a candidate (`reconcile.AcceptedFact`) or a fact version (`FactVersion`)."""

    user_key: str
    category: str
    attribute: str | None
    value: str | None
    fact: str


# A verdict as reconciliation reads it: (older, newer) -> "update", "same" or None (unrelated or not judged).
Judge = Callable[[Stated, Stated], "str | None"]


def relation_key(older: Stated, newer: Stated) -> str:
    """The pair's key (32 hex digits): a hash of both facts' category, attribute, value and fact text, older
    first. Same content, same key, whichever run met the pair."""
    parts = [[f.category, f.attribute or "", f.value or "", f.fact] for f in (older, newer)]
    return hashlib.sha256(json.dumps(parts, ensure_ascii=False).encode()).hexdigest()[:32]


# The owner kinds that say nothing of the thing (`owners.owners`): their object alone names it.
_PLAIN_KINDS = frozenset({"slot", "stance", "favourite", "decision"})


def topic_words(fact: Stated) -> frozenset[str]:
    """The words of what the fact's owners name (`slot:reply_language` -> reply, language; `stance:green_tea`
    -> green, tea; a kind of the model's own names the thing too: `contact_channel:mobile` -> contact, channel,
    mobile), generic words dropped (`owners.GENERIC_WORDS`)."""
    found: set[str] = set()
    for owner in owners(fact.category, fact.attribute, fact.value):
        kind, _, thing = owner.partition(":")
        named = thing if kind in _PLAIN_KINDS else f"{kind}_{thing}"
        found.update(w for w in words(named) if len(w) >= 3)
    return frozenset(found)


def may_relate(older: Stated, newer: Stated) -> bool:
    """True when the model is asked about the pair: one user, neither a retraction, both with an attribute and a
    value, neither multi-valued, owners all different (the owner rules did not relate them), another fact text,
    and a word shared by what their owners name, or, in one category, no stance for a value and a name the rules
    do not know (`owners.known_slot`). The category is the model's choice as much as the name: a billing
    currency asked for one day (preference) and decided the next (decision) is one value (holdout set 8), asked
    about when both names end in the same word (`_head`)."""
    if older.user_key != newer.user_key:
        return False
    if older.category != newer.category and _head(older.attribute) != _head(newer.attribute):
        return False  # across categories, one slot by its last word only (not `reply_language`, `language_course`)
    if getattr(older, "retraction", False) or getattr(newer, "retraction", False):
        return False
    if not (older.attribute and older.value and newer.attribute and newer.value):
        return False
    if is_multi_valued(older.attribute) or is_multi_valued(newer.attribute):
        return False
    old_owners = set(owners(older.category, older.attribute, older.value))
    new_owners = set(owners(newer.category, newer.attribute, newer.value))
    if not old_owners or not new_owners or old_owners & new_owners:
        return False
    if fact_key(older.fact) == fact_key(newer.fact):
        return False
    if topic_words(older) & topic_words(newer):
        return True
    if older.category != newer.category:
        return False
    # A favourite given a value ("favourite:series" = The Expanse) and another thing said to be the favourite as a
    # liking ("favourite:severance" = likes, of "My current favourite is Severance"): one superlative, maybe
    # replaced, which only the words can tell (the cases set, the 1.5B model's answers).
    if _is_favourite(older) and _is_favourite(newer) and (
            (polarity(older.value) is None) != (polarity(newer.value) is None)):
        return True
    # Named apart, the pair may still give one thing two values: asked unless a value is a stance, whose thing is
    # its slot's object ("favourite:pizza" = likes and "favourite:sushi" = likes are two things), or both names are
    # slots the rules know apart (the 1.5B model judged "works at Bankinter" an update of "lives in Alicante").
    if polarity(older.value) is not None or polarity(newer.value) is not None:
        return False
    return known_slot(older.attribute) is None or known_slot(newer.attribute) is None


def _head(attribute: str | None) -> str:
    """The last word of a slot's name as names compare (`owners.words`: `billing_currency` -> currency,
    `decision:beta_launch` -> launch)."""
    return (words(attribute or "", drop_generic=False) or ("",))[-1]


def _is_favourite(fact: Stated) -> bool:
    """True for a `favourite:<thing>` fact (`favorite:`, `fav:` too)."""
    kind, colon, _ = (fact.attribute or "").strip().casefold().partition(":")
    return bool(colon) and KINDS.get(kind) == "favourite"


def pairs_to_judge(earlier: Sequence[Stated], later: Sequence[Stated]) -> list[tuple[Stated, Stated]]:
    """(older, newer) pairs to ask about, once per `relation_key`: each fact of `later` (in said order) with
    each fact of `earlier` and each fact of `later` before it that `may_relate` to it. Pass a user's candidates
    in said order as `later` (and nothing as `earlier`) to get every pair of them; the active versions and the
    new candidates to get the pairs an incremental fold may meet."""
    pairs: dict[str, tuple[Stated, Stated]] = {}
    for n, newer in enumerate(later):
        for older in (*earlier, *later[:n]):
            if may_relate(older, newer):
                pairs.setdefault(relation_key(older, newer), (older, newer))
    return list(pairs.values())


_DIGITS = re.compile(r"\d+")


def checked(verdict: str | None, older: Stated, newer: Stated) -> str | None:
    """The model's verdict after the rule: "update", "same" or None (different, unknown or not asked). `same`
    with other numbers in the values is an update ("19. června" is not "12. června"), with other words nothing
    (not one value, `owners.same_value`); `update` with one value is a repeat."""
    if verdict not in ("update", "same"):
        return None
    one_value = same_value(older.value, newer.value)
    if verdict == "same" and not one_value:
        digits = set(_DIGITS.findall(older.value or "")) != set(_DIGITS.findall(newer.value or ""))
        return "update" if digits else None
    if verdict == "update" and one_value:
        return "same"
    return verdict


def judge_from(verdicts: Mapping[str, str]) -> Judge:
    """A `Judge` reading stored verdicts ({relation_key: verdict}), checked (`checked`)."""
    return lambda older, newer: checked(verdicts.get(relation_key(older, newer)), older, newer)


def describe(fact: Stated) -> str:
    """A fact as the model is shown it: `fact [attribute: value]`."""
    return f"{' '.join(fact.fact.split())} [{fact.attribute}: {' '.join((fact.value or '').split())}]"


def by_user(facts: Iterable[Stated]) -> dict[str, list[Stated]]:
    """{user key: facts} in the order given."""
    grouped: dict[str, list[Stated]] = {}
    for fact in facts:
        grouped.setdefault(fact.user_key, []).append(fact)
    return grouped
