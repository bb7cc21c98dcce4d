"""Stage 4, `active_facts`: every user of the day reconciled (`stages.folds`), then the new facts labelled and embedded for recall."""

from __future__ import annotations

from collections import Counter
from datetime import date
from typing import Any

import psycopg

from memory_pipeline.embeddings import Embedder, index_new_facts
from memory_pipeline.stages.common import StageResult
from memory_pipeline.stages.folds import reconcile_all
from memory_pipeline.stages.relations import RelationsFailed, judge_pairs
from memory_pipeline.store import Store


def active_facts(store: Store, conn: psycopg.Connection, day: date, embedder: Embedder | None = None,
                 extractor: Any = None) -> StageResult:
    """Reconcile every user of the day (and every user whose folded candidates changed since: `folds`), so the
    result does not depend on the order partitions ran in: a user's new candidates are folded on top of their
    active facts when all are said after what was folded, else the user is folded from all their accepted
    candidates (any day). New active versions get their text search language as they are inserted; then the
    other unlabelled active facts are labelled and, with an `embedder`, embedded (`embeddings.index_new_facts`; a
    failing embedding request leaves them NULL). The users are folded on `conn`, one transaction per FOLD_COMMIT
    users (`folds.reconcile_all`). Metadata counts what related the facts this run: `supersessions_by_relation`
    (versions that became superseded) and `repeats_by_relation` (candidates that said an active fact again), each
    {relation: count} (`domain.reconcile.RELATIONS`). With an `extractor` that judges pairs (the LLM backend),
    the pairs of the users' facts the owner rules leave apart are judged first (`stages.relations`: pairs_judged,
    relation_requests_failed, relation_input/output_tokens) and the fold reads the verdicts. Raises
    RelationsFailed, after the fold is written, when a relation request failed (the re-run asks again)."""
    users = store.users_to_reconcile(conn, day)  # group chats: each sender
    judged = judge_pairs(store, conn, users, extractor)
    if judged["users_refolded_for_late_verdicts"]:
        users = store.users_to_reconcile(conn, day)
    totals = reconcile_all(store, conn, users)
    state = store.fact_totals(conn, users) if users else {"active": 0, "superseded": 0, "expired": 0}
    recall_index = index_new_facts(store, conn, embedder)
    # New active versions are labelled as they are inserted; index_new_facts labels the rest.
    labelled = Counter({key.removeprefix("language:"): n for key, n in totals.items() if key.startswith("language:")})
    labelled.update(recall_index["facts_language_labelled"])
    # What related the facts reconciled now: versions superseded and candidates repeating one, by relation.
    related = {kind: dict(sorted((key.removeprefix(f"{kind}:"), n) for key, n in totals.items()
                                 if key.startswith(f"{kind}:") and n))
               for kind in ("superseded", "repeated")}
    recall_index["facts_language_labelled"] = dict(sorted(labelled.items()))
    if judged["relation_requests_failed"]:
        raise RelationsFailed(
            f"{judged['relation_requests_failed']} relation request(s) failed for the users of {day}: their facts "
            "were folded without those verdicts; materialize the partition again to ask them again")
    return StageResult({
        "users_reconciled": len(users),
        "users_folded_incrementally": totals["folded_incrementally"],
        "users_folded_from_scratch": totals["folded_from_scratch"],
        "facts_inserted": totals["inserted"],
        "facts_updated": totals["updated"],
        "facts_deleted": totals["deleted"],
        "facts_superseded": totals["newly_superseded"],
        "supersessions_by_relation": related["superseded"],
        "repeats_by_relation": related["repeated"],
        "pairs_judged": judged["pairs_judged"],
        "pairs_unanswered": judged["pairs_unanswered"],
        "relation_input_tokens": judged["relation_tokens_in"],
        "relation_output_tokens": judged["relation_tokens_out"],
        "active_facts_of_these_users": state["active"],
        "superseded_facts_of_these_users": state["superseded"],
        "expired_facts_of_these_users": state["expired"],
        **recall_index,
    })
