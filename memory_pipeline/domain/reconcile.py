"""Reconcile one user's accepted candidates into fact versions (the rules are listed below).

The result is a pure function of the *set* of candidates: they are folded in the order they were said
(`said_at`, then message id and position), so backfilling an older day after a newer one gives the same facts as running
them in order. Rules:
- a value has one owner (`domain.owners`: the slot or object an attribute name means, whatever the model
  called it: `job` and `occupation` are one slot, `favourite:chinese_food` and `opinion:chinese_food` one
  object); a user holds at most one active fact per owner, and facts of different users never meet;
- the same fact again (same category and `fact_key`, or the same owner with the same value, `owners.same_value`,
  or for a stance on one object under another attribute the same polarity) is no new version; it refreshes
  `last_seen_at` and counts the repeat by relation (`FactVersion.repeats`);
- the same owner with a different value supersedes the active version (its `superseded_at` is the time the new
  one was said, `superseded_by` points at it, `relation` names the rule: `same_slot` for one attribute name,
  `slot_family` for another name of the slot, `same_object` for a stance on the object); history is kept;
- facts that own nothing (no attribute and no value, or a multi-valued attribute that is no liking: `skill`,
  `purchase`) and facts of different owners never supersede each other by owner;
- a retraction ("I no longer like Vim.") ends the active version of its slot: `superseded_at` is when the
  retraction was said, `superseded_by` stays empty, history is kept, and no version is created for it. When the
  retraction names a value ("I don't live in Paris anymore"), it ends the slot only while the slot holds that
  value (`values_match`), and a retraction of a liking's slot that finds no such value ends the liking; a
  retraction of a slot with no active version, or without an attribute, does nothing.
  For a multi-valued attribute it ends the active versions with that value;
- a restatement that corrects an active fact of the same category supersedes it like a new slot value, when
  neither fills a slot the other does not (`corrected_by`, words from domain.statements): the same statement
  negated ("deploys are allowed on Fridays" -> "... are not allowed ..."); the same statement with another value
  (number, date, name) when it is a decision or its quote says it corrects ("Correction:", "actually", "change
  of plan"); or any fact whose quote rules out a value the active fact names ("we're going to Ulanqab, not
  Hohhot" ends the Hohhot trip). Source: issue 17's cases (mnemon-dev/mnemon#133, agentscope-ai/QwenPaw#5998);
- a name said as both `name` and `preferred_name` with the same value ("My name is Jack." "You can call me
  Jack.") is one fact: the name; a preferred name that differs ("call me Jo") stays a fact of its own;
- the very sentence said again with the same value is a repeat (`same_quote`), whatever attribute the model
  named it under the second time;
- with a `near_duplicate` rule (domain.near_duplicates), a fact that says an active fact of the same category in
  other words is a repeat of it too;
- with a `judged` rule (domain.relations: a model's verdict on the pair, checked by a rule), a fact the owner
  rules leave apart from an active one ("reply_language", then "preferred_language") supersedes it when judged
  an update, and repeats it when judged the same (relation `judged`);
- `expires_at` = `last_seen_at` + the slot's or else the category's time-to-live (`time_to_live`; none for a
  name), or earlier when the fact is about a day that has passed by then; with a `validity` rule
  (domain.relative_time.validity), a fact about a past day ("bought a suitcase yesterday") is valid from that
  day, one about a future day ("a table for tomorrow at 7pm") expires after it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta, timezone

from memory_pipeline.domain.facts import fact_key
from memory_pipeline.domain.owners import KINDS, MULTI_VALUED_ATTRIBUTES, owners, same_value, stance_of
from memory_pipeline.domain.relations import Judge
from memory_pipeline.domain.statements import frame, is_correction, is_negated, names_value, negated_values, values

__all__ = ["MULTI_VALUED_ATTRIBUTES", "RELATIONS", "AcceptedFact", "FactVersion", "continue_fold", "corrected_by",
           "is_single_valued", "reconcile_user", "time_to_live", "values_match"]

# A person's name and the name they like to be called: one fact when they hold the same value (below).
NAME_OWNERS = ("slot:name", "slot:preferred_name")

# What relates a new fact to an active one (`FactVersion.relation` of a version it ended, the keys of
# `FactVersion.repeats` of one it repeated): one name per rule of the module docstring.
RELATIONS = ("same_fact", "same_slot", "slot_family", "same_object", "same_quote", "correction", "retraction",
             "name_twin", "near_duplicate", "judged")


def time_to_live(ttl_days: Mapping[str, int | None], category: str, attribute: str | None) -> int | None:
    """Days a fact stays recallable after it was last seen: the slot's own entry (`attribute:<slot>`) when
    `ttl_days` has one, else its category's; None = no expiry (also for a category missing from `ttl_days`)."""
    key = f"attribute:{attribute}"
    return ttl_days[key] if attribute and key in ttl_days else ttl_days.get(category)


def is_single_valued(attribute: str | None) -> bool:
    """True when a new value of `attribute` replaces the old one (None and multi-valued attributes: False)."""
    return bool(attribute) and attribute not in MULTI_VALUED_ATTRIBUTES


@dataclass(frozen=True)
class AcceptedFact:
    """An accepted candidate as reconciliation needs it (`said_at` timezone-aware; held in UTC)."""

    candidate_id: str
    user_key: str
    category: str
    attribute: str | None
    value: str | None
    fact: str
    quote: str
    quote_message_id: int | None
    quote_speaker: str | None
    conversation_id: str
    said_at: datetime
    position: int = 0  # order of the fact within its conversation's extraction
    retraction: bool = False  # the user withdrew what `attribute` held (see the module docstring)

    @property
    def owners(self) -> tuple[str, ...]:
        """`domain.owners.owners` of this fact."""
        return owners(self.category, self.attribute, self.value)

    def __post_init__(self) -> None:
        # Said order is compared in UTC: datetimes sharing one DST-zone tzinfo compare by wall clock in Python.
        if self.said_at.tzinfo is not None and self.said_at.tzinfo is not timezone.utc:
            object.__setattr__(self, "said_at", self.said_at.astimezone(timezone.utc))

    @property
    def said_order(self) -> tuple:
        """When it was said: time, then message id, then position in the extraction. Legacy rows share one time
        (the backlog date) and facts of one message share the message's time, so ids and positions break the tie
        the way it was said; the candidate id only makes the order total."""
        return (self.said_at, self.quote_message_id or 0, self.conversation_id, self.position, self.candidate_id)


@dataclass(frozen=True)
class FactVersion:
    """One row of `agent_facts`. `version_key` (category, fact key, valid_from) identifies it across runs;
    `superseded_by_key` is the version_key of the version that replaced it; `relation` the rule that ended it
    (one of RELATIONS; None while active); `repeats` ((relation, count), ...) sorted: the candidates that said
    it again, by the rule that made each a repeat."""

    user_key: str
    category: str
    attribute: str | None
    value: str | None
    fact: str
    quote: str
    quote_message_id: int | None
    quote_speaker: str | None
    source_session: str
    candidate_id: str
    valid_from: datetime
    last_seen_at: datetime
    expires_at: datetime | None
    superseded_at: datetime | None = None
    superseded_by_key: tuple[str, str, datetime] | None = None
    relation: str | None = None
    repeats: tuple[tuple[str, int], ...] = ()

    @property
    def owners(self) -> tuple[str, ...]:
        """`domain.owners.owners` of this version."""
        return owners(self.category, self.attribute, self.value)

    @property
    def version_key(self) -> tuple[str, str, datetime]:
        """(category, fact_key(fact), valid_from): identifies a version across runs."""
        return (self.category, fact_key(self.fact), self.valid_from)

    @property
    def is_active(self) -> bool:
        """True while not superseded."""
        return self.superseded_at is None


def values_match(retracted: str | None, held: str | None) -> bool:
    """True when a retraction's value names the value a slot holds: no value (the whole slot), or the same
    `fact_key`, or one a prefix of the other at a word's end ("végétarien" / "végétarienne", "vegan" / "vegans")."""
    if not retracted:
        return True
    if not held:
        return False
    a, b = fact_key(retracted), fact_key(held)
    return a == b or a.startswith(b) or b.startswith(a)


@dataclass
class _State:
    versions: list[FactVersion] = field(default_factory=list)
    active_by_fact: dict[tuple[str, str, str], int] = field(default_factory=dict)  # (user, category, fact key)
    active_by_owner: dict[tuple[str, str], int] = field(default_factory=dict)  # (user, owner)


Validity = Callable[[AcceptedFact], tuple[datetime | None, datetime | None]]


def reconcile_user(
    facts: Iterable[AcceptedFact],
    ttl_days: Mapping[str, int | None],
    near_duplicate: Callable[[AcceptedFact, FactVersion], bool] | None = None,
    validity: Validity | None = None,
    judged: Judge | None = None,
) -> list[FactVersion]:
    """Fold one user's accepted facts into versions, oldest first. Order of the input does not matter.

    `ttl_days`: category, or `attribute:<slot>` (wins over the category), -> days a fact stays recallable after
    it was last seen (None or missing = no expiry; `time_to_live`).
    `near_duplicate(new, active)`: True when `new` says `active` in other words (None: exact repeats only).
    `validity(fact)`: (valid from, valid until) the fact's own dates give, each None when it gives none (None:
    valid from when said, until its time-to-live).
    `judged(active, new)`: "update", "same" or None for a pair the owner rules leave apart (None: not asked).
    """
    return continue_fold((), facts, ttl_days, near_duplicate, validity, judged)


def continue_fold(
    active: Sequence[FactVersion],
    facts: Iterable[AcceptedFact],
    ttl_days: Mapping[str, int | None],
    near_duplicate: Callable[[AcceptedFact, FactVersion], bool] | None = None,
    validity: Validity | None = None,
    judged: Judge | None = None,
) -> list[FactVersion]:
    """Fold `facts` on top of a fold's result: `active` are the active versions a fold of earlier facts left
    (in the order that fold created them: their first candidates' `said_order`). Returns those versions as they
    end (refreshed, superseded or unchanged) followed by the new versions, in fold order.

    Equal to the full fold's versions when every fact of `facts` is said after every fact folded before
    (`said_order`): the fold only ever reads or changes active versions, and a fold's active versions carry its
    whole state (one per fact key; one per owner). Superseded versions are left out of the input
    and the output, since nothing changes them again. Raises nothing; `facts` in any order."""
    state = _State()
    for version in active:
        _add_active(state, version)
    for item in sorted(facts, key=lambda f: f.said_order):
        if item.retraction:
            _retract(state, item)
            continue
        ttl = time_to_live(ttl_days, item.category, item.attribute)
        expires = item.said_at + timedelta(days=ttl) if ttl is not None else None
        starts, ends = validity(item) if validity is not None else (None, None)
        if ends is not None:
            expires = min(expires, ends) if expires is not None else ends
        repeat = state.active_by_fact.get((item.user_key, item.category, fact_key(item.fact)))
        relation, ended = "same_fact", []
        if repeat is None:
            repeat, relation, ended = _by_owner(state, item)
        if repeat is None and not ended:
            twin = _name_twin(state, item)
            if twin is not None:  # the name said as both slots: the name wins, "call me <it>" repeats it
                if NAME_OWNERS[0] in item.owners:
                    ended = [(twin, "name_twin")]
                else:
                    repeat, relation = twin, "name_twin"
        if repeat is None and not ended:
            repeat, relation = _same_quote(state, item), "same_quote"
        if repeat is None and not ended:
            corrected = _first_corrected(state, item)
            ended = [(corrected, "correction")] if corrected is not None else []
        if repeat is None and not ended and near_duplicate is not None:
            repeat, relation = _first_near_duplicate(state, item, near_duplicate), "near_duplicate"
        if repeat is None and not ended and judged is not None:
            repeat, ended = _judged(state, item, judged)
            relation = "judged"
        if repeat is not None:
            current = state.versions[repeat]
            counts = dict(current.repeats)
            counts[relation] = counts.get(relation, 0) + 1
            state.versions[repeat] = replace(current, last_seen_at=item.said_at, expires_at=expires,
                                             repeats=tuple(sorted(counts.items())))
            continue
        new = FactVersion(
            user_key=item.user_key,
            category=item.category,
            attribute=item.attribute,
            value=item.value,
            fact=item.fact,
            quote=item.quote,
            quote_message_id=item.quote_message_id,
            quote_speaker=item.quote_speaker,
            source_session=item.conversation_id,
            candidate_id=item.candidate_id,
            valid_from=starts or item.said_at,
            last_seen_at=item.said_at,
            expires_at=expires,
        )
        for index, why in ended:
            _end(state, index, item.said_at, new.version_key, why)
        _add_active(state, new)
    return state.versions


def _add_active(state: _State, version: FactVersion) -> None:
    """Append an active version and index it by fact key and by each of its owners."""
    state.versions.append(version)
    index = len(state.versions) - 1
    state.active_by_fact[(version.user_key, version.category, fact_key(version.fact))] = index
    for owner in version.owners:
        state.active_by_owner[(version.user_key, owner)] = index


def _end(state: _State, index: int, at: datetime, by_key: tuple[str, str, datetime] | None, relation: str) -> None:
    """Supersede the active version at `index` at `at` (by the version `by_key`, None for a retraction) for
    `relation`, and drop it from the indexes."""
    old = state.versions[index]
    state.versions[index] = replace(old, superseded_at=at, superseded_by_key=by_key, relation=relation)
    state.active_by_fact.pop((old.user_key, old.category, fact_key(old.fact)), None)
    for owner in old.owners:
        if state.active_by_owner.get((old.user_key, owner)) == index:
            del state.active_by_owner[(old.user_key, owner)]


def _by_owner(state: _State, item: AcceptedFact) -> tuple[int | None, str | None, list[tuple[int, str]]]:
    """(index of the active version `item` repeats, its relation, []) when one of its owners' holders holds the
    same value; else (None, None, [(index, relation)] of the holders `item` supersedes), in owner order."""
    ended: list[tuple[int, str]] = []
    for owner in item.owners:
        index = state.active_by_owner.get((item.user_key, owner))
        if index is None or any(index == i for i, _ in ended):
            continue
        held = state.versions[index]
        relation = ("same_slot" if held.attribute == item.attribute
                    else "same_object" if owner.startswith("stance:") else "slot_family")
        if _repeats(item, held, owner):
            return index, relation, []
        ended.append((index, relation))
    return None, None, ended


def _repeats(item: AcceptedFact, held: FactVersion, owner: str) -> bool:
    """True when `item` says again what `held` says of their common `owner`: a stance under one attribute by the
    same stance word, under another by its polarity ("likes" / a favourite); a slot by its value
    (`owners.same_value`)."""
    if owner.startswith("stance:"):
        if item.attribute == held.attribute:
            return bool(item.value and held.value) and fact_key(item.value) == fact_key(held.value)
        new = stance_of(item.category, item.attribute, item.value, item.fact)
        old = stance_of(held.category, held.attribute, held.value, held.fact)
        if new is not None and old is not None:
            return new == old
    return same_value(item.value, held.value)


def _same_quote(state: _State, item: AcceptedFact) -> int | None:
    """Index of the oldest active version of the user that quotes the very sentence `item` quotes (up to case,
    spaces and the final full stop) with the same value (`owners.same_value`): the user said it again and the
    model named it otherwise ("I prefer invoices as PDF." as `preference:invoices`, then as
    `preference:delivery_instruction`). None otherwise, or when either has no quote or no value."""
    quote = fact_key(item.quote)
    if not quote or not item.value:
        return None
    for index in _active_of(state, item.user_key):
        held = state.versions[index]
        if held.quote and fact_key(held.quote) == quote and same_value(item.value, held.value):
            return index
    return None


def _active_of(state: _State, user_key: str) -> list[int]:
    """Indexes of the user's active versions, in fold order."""
    return sorted(i for (user, _, _), i in state.active_by_fact.items() if user == user_key)


def _liking_owners(item: AcceptedFact) -> tuple[str, ...]:
    """The owners a liking of `item`'s slot has (`favourite:horror_movies` = likes is owned by
    `stance:horror_movie`), for a retraction of a `favourite:`/`opinion:` slot that gives the thing as its value:
    "unusta see mis ma õudusfilmide kohta ütlesin" (forget what I said about horror films) came with the value
    "õudusfilmid" and ended nothing (holdout set 10). Read only when the retraction's own owners hold nothing
    active: "forget football" (favourite:sport = football) ends football, not "loves sports"."""
    kind, colon, _ = (item.attribute or "").strip().casefold().partition(":")
    if not colon or KINDS.get(kind) not in ("favourite", "stance"):
        return ()
    return tuple(o for o in owners(item.category, item.attribute, "likes") if o not in item.owners)


def _retract(state: _State, item: AcceptedFact) -> None:
    """End the active version(s) `item` withdraws (module docstring); nothing when none matches."""
    if not item.attribute:
        return
    targets = []
    own_active = any((item.user_key, owner) in state.active_by_owner for owner in item.owners)
    for owner in (*item.owners, *(() if own_active else _liking_owners(item))):
        index = state.active_by_owner.get((item.user_key, owner))
        if index is not None and index not in targets and (
                owner.startswith("stance:") or values_match(item.value, state.versions[index].value)):
            targets.append(index)
    if not is_single_valued(item.attribute) and item.value:
        targets += [i for i in _active_of(state, item.user_key) if i not in targets
                    and state.versions[i].attribute == item.attribute and values_match(item.value,
                                                                                     state.versions[i].value)]
    for index in targets:
        _end(state, index, item.said_at, None, "retraction")


def corrected_by(new: AcceptedFact, old: FactVersion) -> bool:
    """True when `new` is a correcting restatement of the active `old` (module docstring; same user assumed)."""
    if new.category != old.category or (new.attribute and old.attribute and new.attribute != old.attribute):
        return False
    if frame(new.fact) == frame(old.fact):
        if is_negated(new.fact) != is_negated(old.fact):
            return True
        if values(new.fact) != values(old.fact) and (new.category == "decision" or is_correction(new.quote)):
            return True
    ruled_out = negated_values(new.quote)
    return any(names_value(old.fact, v) or (old.value and names_value(old.value, v)) for v in ruled_out
               if not names_value(new.fact, v) or is_negated(new.fact))


def _first_corrected(state: _State, item: AcceptedFact) -> int | None:
    """Index of the oldest active version `item` corrects (`corrected_by`), or None."""
    for index in _active_of(state, item.user_key):
        if corrected_by(item, state.versions[index]):
            return index
    return None


def _name_twin(state: _State, item: AcceptedFact) -> int | None:
    """Index of the active version of the *other* name slot (`name` / `preferred_name`, by owner) holding the
    same value as `item` ("My name is Jack." and "You can call me Jack."), or None."""
    mine = [o for o in item.owners if o in NAME_OWNERS]
    if not mine or not item.value:
        return None
    (other,) = set(NAME_OWNERS) - set(mine)
    index = state.active_by_owner.get((item.user_key, other))
    if index is not None and state.versions[index].value and fact_key(state.versions[index].value) == fact_key(
            item.value):
        return index
    return None


def _judged(state: _State, item: AcceptedFact, judged: Judge) -> tuple[int | None, list[tuple[int, str]]]:
    """(index of the oldest active version `item` is judged to repeat, []) or (None, [(index, "judged")] of the
    active versions it is judged to update), over the user's active versions in fold order."""
    updated = []
    for index in _active_of(state, item.user_key):
        verdict = judged(state.versions[index], item)
        if verdict == "same":
            return index, []
        if verdict == "update":
            updated.append((index, "judged"))
    return None, updated


def _first_near_duplicate(state: _State, item: AcceptedFact, near_duplicate: Callable) -> int | None:
    """Index of the oldest active version `item` near-duplicates (deterministic: versions are in fold order)."""
    for index in _active_of(state, item.user_key):
        if near_duplicate(item, state.versions[index]):
            return index
    return None
