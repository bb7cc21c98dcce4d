"""Which facts "forget this fact" covers, and how a forgotten fact stays forgotten.

A fact is known by its *slots* (the same identities reconciliation merges and supersedes by):
- `slot` + attribute, for a single-valued attribute (`phone_number`, `contact_channel`, `opinion:vim`): forgetting
  one version forgets the whole supersede chain of that slot, every value it ever held;
- `fact` + category + `fact_key(fact)`: the same fact text (any attribute, or none);
- `value` + attribute + `fact_key(value)`, for a multi-valued attribute (`hobby`): the same value in other words;
- `owner` + each owner of its value (domain.owners: `job` and `occupation` are one slot, `favourite:tea` and
  `opinion:tea` one stance), so forgetting a job forgets it under whatever name a model filed it.

Forgetting deletes every candidate of the user that shares a slot with the fact or with a version in its
supersede chain, and records each slot as a salted sha256 (no fact text is kept) with a `said_before` time:
candidates said up to then that share a slot are left out of reconciliation, so a later re-extraction of the
same conversation cannot bring the fact back, while anything said afterwards is remembered again.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Protocol, TypeVar

from memory_pipeline.domain.facts import fact_key
from memory_pipeline.domain.owners import owners
from memory_pipeline.domain.reconcile import is_single_valued


class HasSlots(Protocol):
    """Anything with the fields that identify a fact (a candidate, a fact version, a stored row)."""

    category: str
    attribute: str | None
    value: str | None
    fact: str


def slot_keys(category: str, attribute: str | None, value: str | None, fact: str) -> frozenset[str]:
    """The slots a fact fills (module docstring), as plain strings joined by 0x1f."""
    keys = {"\x1f".join(("fact", category, fact_key(fact)))}
    if is_single_valued(attribute):
        keys.add("\x1f".join(("slot", attribute or "")))
    elif attribute and value:
        keys.add("\x1f".join(("value", attribute, fact_key(value))))
    keys.update("\x1f".join(("owner", owner)) for owner in owners(category, attribute, value))
    return frozenset(keys)


def slots_of(item: HasSlots) -> frozenset[str]:
    """`slot_keys` of an object with category, attribute, value and fact attributes."""
    return slot_keys(item.category, item.attribute, item.value, item.fact)


def slot_hash(salt: str, slot: str) -> str:
    """sha256 hex of the installation's salt, 0x1f, the slot: what `forgotten_facts` stores instead of text."""
    return hashlib.sha256(f"{salt}\x1f{slot}".encode()).hexdigest()


T = TypeVar("T")


def matching(items: Iterable[T], slots: frozenset[str]) -> list[T]:
    """Items (with category, attribute, value, fact) that share at least one slot with `slots`."""
    return [item for item in items if slots_of(item) & slots]  # type: ignore[arg-type]


def without_forgotten(items: Iterable[T], forgotten: Mapping[str, datetime], salt: str) -> list[T]:
    """Items minus those said (`said_at`) at or before the `said_before` of a forgotten slot they fill.

    `forgotten`: {slot_hash: said_before}. Items without `said_at` are kept."""
    if not forgotten:
        return list(items)
    kept = []
    for item in items:
        said_at = getattr(item, "said_at", None)
        hashes = [slot_hash(salt, s) for s in slots_of(item)]  # type: ignore[arg-type]
        if said_at is not None and any(h in forgotten and said_at <= forgotten[h] for h in hashes):
            continue
        kept.append(item)
    return kept
