"""Stage 4's first step with an LLM backend: the pairs of each user's facts the owner rules leave apart, judged by
the model once and stored by content (`fact_relations`, domain.relations), before the users are folded.

A pair is asked about once per model and relation prompt, whichever night first holds both facts, so a backfill
in any order asks about the same pairs, and a re-run of a reconciled night sends no request. A request holds one
user's facts only. A failed request leaves its pairs unjudged: the stage raises after the fold (the night is red)
and the re-run asks them again; a verdict that then comes for facts already folded has the user folded from
scratch, so it applies as if it had come the first time.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import psycopg

from memory_pipeline.domain.relations import by_user, checked, describe, pairs_to_judge, relation_key
from memory_pipeline.extractors.base import ExtractorError
from memory_pipeline.extractors.openai_backend import RELATE_BATCH
from memory_pipeline.stages.folds import judge_of
from memory_pipeline.stages.llm_calls import call_each
from memory_pipeline.store import Store

log = logging.getLogger(__name__)

# Users whose facts are read per statement (all their accepted candidates: the pairs are of the set).
USER_BATCH = 100


class RelationsFailed(RuntimeError):
    """Some relation requests failed: their pairs stay unjudged until a re-run asks them again."""


def judge_signature(extractor: Any) -> tuple[str, str] | None:
    """(model, relation prompt version) when the backend judges pairs (`relate`), else None (the offline rules)."""
    if getattr(extractor, "relate", None) is None:
        return None
    return extractor.model, extractor.relate_version


def judge_pairs(store: Store, conn: psycopg.Connection, user_keys: Sequence[str], extractor: Any) -> Counter[str]:
    """Ask the backend about every pair of these users' accepted candidates that `relations.pairs_to_judge` lists
    and that has no stored verdict, one call per RELATE_BATCH pairs of one user, at most the backend's requests
    in flight; store each call's verdicts in their own transaction (a failed call loses only its own pairs).
    Returns counts: pairs_judged, pairs_unanswered (the answer gave no verdict: asked again next time),
    relation_requests_failed, relation_tokens_in/out, users_refolded_for_late_verdicts.
    Call outside a transaction; it takes none of the users' locks (verdicts are keyed by content)."""
    totals: Counter[str] = Counter()
    signature = judge_signature(extractor)
    if signature is None or not user_keys:
        return totals
    model, version = signature
    for start in range(0, len(user_keys), USER_BATCH):
        batch = list(user_keys[start:start + USER_BATCH])
        with conn.transaction():
            pending_new = store.unfolded_facts_of_users(conn, batch)
            pending_old = store.folded_facts_of_users(conn, batch)
            pending_known = store.relations_of_users(conn, batch, model, version)
            new, old, known = pending_new.result(), pending_old.result(), pending_known.result()
        asks = []  # (user, one request's pairs, the user's unfolded candidate ids)
        for user in batch:
            facts = sorted([*old.get(user, []), *new.get(user, [])], key=lambda f: f.said_order)
            stored = known.get(user, {})
            pairs = [p for p in pairs_to_judge((), facts) if relation_key(*p) not in stored]
            unfolded = {f.candidate_id for f in new.get(user, [])}
            # One call per request's pairs: a request that fails leaves only its own pairs unjudged.
            asks += [(user, pairs[i:i + RELATE_BATCH], unfolded) for i in range(0, len(pairs), RELATE_BATCH)]

        def ask(item: tuple[str, list, set]) -> tuple[list[str | None], Any]:
            return extractor.relate([(describe(o), describe(n)) for o, n in item[1]])

        for (user, pairs, unfolded), result in call_each(ask, asks, getattr(extractor, "max_in_flight", 1)):
            if isinstance(result, ExtractorError):
                totals["relation_requests_failed"] += 1
                log.warning("relation request failed for a user's %d pairs: %s", len(pairs), result.reason)
                continue
            verdicts, cost = result
            judged = {relation_key(o, n): v for (o, n), v in zip(pairs, verdicts) if v}
            late = any(o.candidate_id not in unfolded and n.candidate_id not in unfolded
                       for (o, n), v in zip(pairs, verdicts) if v in ("update", "same"))
            with conn.transaction():
                store.save_relations(conn, user, judged, model, version, refold=late)
            totals["pairs_judged"] += len(judged)
            totals["pairs_unanswered"] += len(pairs) - len(judged)  # asked again next time
            totals["relation_tokens_in"] += cost.input_tokens
            totals["relation_tokens_out"] += cost.output_tokens
            totals["users_refolded_for_late_verdicts"] += late
    return totals


@dataclass(frozen=True)
class _Active:
    """An active fact row as `relations.relation_key` reads it."""

    user_key: str
    category: str
    attribute: str | None
    value: str | None
    fact: str
    valid_from: datetime


def judged_active_pairs(store: Store, conn: psycopg.Connection) -> int:
    """Pairs of one user's active facts that a stored verdict (under the settings' judge, `folds.judge_of`) relates,
    checked as the fold checks it (`relations.checked`: update or same): what the fold should have superseded or
    merged, left active side by side. 0 without a judge."""
    judge = judge_of(store.settings)
    if judge is None:
        return 0
    params = {"model": judge[0], "prompt_version": judge[1]}
    rows = conn.execute(store.query(conn, "active_facts_of_judged_users"), params).fetchall()
    facts = by_user(_Active(**row) for row in rows)
    known = store.relations_of_users(conn, list(facts), *judge).result() if facts else {}
    pairs = 0
    for user, active in facts.items():
        verdicts = known.get(user, {})
        for n, newer in enumerate(active):
            for older in active[:n]:
                verdict = verdicts.get(relation_key(older, newer)) or verdicts.get(relation_key(newer, older))
                pairs += checked(verdict, older, newer) is not None
    return pairs

