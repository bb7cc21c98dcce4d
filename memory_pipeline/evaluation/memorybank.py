"""MemoryBank as a gold set: the hobbies each user states in the chats should come out as preferences.

Gold (memory_pipeline/eval_data/memory_bank_hobbies.json): per user, each hobby of MemoryBank's
`meta_information.hobbies` with word stems and the user's own sentences that state it as a liking (found by a
rule, then reviewed by hand; see that file's `_about`). Recall by quote: a stated hobby is recalled when an
accepted preference of that user quotes (overlaps) one of its sentences and names the hobby (a stem in the
fact or the quote). Hobbies never stated in the chats are left out.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from pydantic import BaseModel, ValidationError

from memory_pipeline import sample
from memory_pipeline.domain.messages import SourceRow
from memory_pipeline.evaluation.gold import GoldSetError, eval_data, keyword_found, quotes_overlap
from memory_pipeline.evaluation.runs import ExtractionRun, extract
from memory_pipeline.extractors.base import Extractor


class Hobby(BaseModel):
    """One hobby of a user: `keywords` (word stems), `quotes` (the user's sentences stating it; empty = never
    stated in the chats)."""

    hobby: str
    keywords: list[str]
    quotes: list[str]


class _HobbyFile(BaseModel):
    users: dict[str, list[Hobby]]


@dataclass(frozen=True)
class MemoryBankScore:
    """`stated`: hobbies with at least one quote; `recalled`: those recalled by quote."""

    users: int
    hobbies: int
    stated: int
    recalled: int
    run: ExtractionRun


def hobby_gold() -> dict[str, list[Hobby]]:
    """Hobbies per MemoryBank user name (stripped). Raises GoldSetError if the shipped file is malformed."""
    try:
        return _HobbyFile.model_validate(json.loads(eval_data("memory_bank_hobbies.json"))).users
    except (ValidationError, json.JSONDecodeError) as exc:
        raise GoldSetError(f"memory_bank_hobbies.json: {exc}") from None


def session_key(name: str) -> str:
    """The session key the sample gives a MemoryBank user (`memorybank:<name>`)."""
    return sample.SESSION_PREFIX + name.strip().lower().replace(" ", "_")


def evaluate_memory_bank(extractor: Extractor) -> MemoryBankScore:
    """Run `extractor` over the bundled MemoryBank conversations (one per user and day) and score hobbies."""
    gold = hobby_gold()
    rows = [SourceRow(i, r.session_id, r.message, r.created_at)
            for i, r in enumerate(sample.memory_bank_rows(sample.load_memory_bank()), 1)]
    run = extract(extractor, rows)
    preferences: dict[str, list] = {}
    for candidate in run.accepted:
        if candidate.category == "preference" and not candidate.retraction:
            preferences.setdefault(candidate.user_key, []).append(candidate)
    stated = recalled = hobbies = 0
    for name, items in gold.items():
        facts = preferences.get(session_key(name), [])
        for hobby in items:
            hobbies += 1
            if not hobby.quotes:
                continue
            stated += 1
            if any(any(quotes_overlap(q, c.quote) for q in hobby.quotes)
                   and any(keyword_found(k, f"{c.fact} {c.quote}") for k in hobby.keywords) for c in facts):
                recalled += 1
    return MemoryBankScore(len(gold), hobbies, stated, recalled, run)
