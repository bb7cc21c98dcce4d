"""Incremental reconciliation: fold only a user's new candidates on top of what `agent_facts` holds.

Reconciliation is a fold of a user's accepted candidates in said order (`domain.reconcile`). When every candidate
not folded yet is said after the last one folded (the nightly case), folding them on top of the user's active
versions gives what a fold of all their candidates from scratch gives (`continue_fold`), for a cost that depends
on that night's candidates and the user's active facts, not on their history. Otherwise the user is folded from
scratch, as before:
- a candidate said before the watermark arrives (a late or back-filled day);
- a folded candidate was deleted or changed in what the fold reads (re-extraction, a re-split conversation,
  forget, erasure of retracted slots): the trigger on `fact_candidates` appends a `fold_requests` row;
- a candidate this fold read unfolded was deleted or changed by another process before the fold committed (no
  trigger fires for a candidate not folded yet): `Store.record_fold` sets `needs_refold` itself;
- the fold's rule changed (time-to-live per category, near-duplicate threshold);
- the user has no watermark yet (first fold, or an installation upgraded from full folds).

State: `fact_candidates.folded_at` marks candidates folded; `fact_folds` holds per user the said order of the
last candidate folded, the rule, and `needs_refold`; `fold_requests` holds the trigger's requests.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import psycopg

from memory_pipeline.domain.forgetting import without_forgotten
from memory_pipeline.domain.near_duplicates import NearDuplicateRule
from memory_pipeline.domain.relations import judge_from
from memory_pipeline.domain.relative_time import validity
from memory_pipeline.domain.reconcile import (
    MULTI_VALUED_ATTRIBUTES,
    AcceptedFact,
    FactVersion,
    continue_fold,
    reconcile_user,
)
from memory_pipeline.extractors.prompts import RELATE_VERSION
from memory_pipeline.settings import DEFAULT_TTL_DAYS, Settings
from memory_pipeline.store import FactChange, FoldRecord, Pending, Store
from memory_pipeline.store.erasure import erase_retracted_slots, forgotten_slots_of_users


# Bump when the fold's own rules change (domain.reconcile, domain.near_duplicates, fact_key): every user's next
# reconciliation then starts from scratch instead of continuing a fold made under the old rules.
FOLD_VERSION = 6  # 2: corrections supersede, facts differing in substance never merge (issue 17); 3: slot
# time-to-live (names never expire, purchases 90 days), a name and the same "call me" name are one fact; 4: a
# value has one owner whatever the attribute was called (domain.owners), relations recorded (issue 26); 5: the
# model's verdicts on pairs the owner rules leave apart (domain.relations); 6: a slot with an object of the
# model's own is the slot (`contact_channel:mobile`, domain.owners)

# (model, relation prompt version) whose stored verdicts the fold reads (`stages.relations`); None: no verdicts.
JudgeSignature = tuple[str, str] | None


def judge_of(settings: Settings) -> JudgeSignature:
    """The verdicts every fold under `settings` reads, the nightly one and those of forget and erasure alike:
    the LLM backend's extraction model under the relation prompt (`stages.relations`), none for the offline rules."""
    return (settings.extraction_model, RELATE_VERSION) if settings.extractor == "openai" else None


def fold_rule(ttl_days: Mapping[str, int | None], near_duplicate_threshold: float, timezone: str = "UTC",
              judge: JudgeSignature = None) -> str:
    """The fold's version and parameters as text (`fact_folds.fold_rule`), e.g.
    `v2;ttl:decision=365,preference=730;near:0.5;tz:UTC`: a user folded under another rule is folded from scratch
    (the timezone dates facts by their relative time: domain.relative_time.validity; `judge`, the verdicts read,
    adds `;judge:MODEL/VERSION`)."""
    ttl = ",".join(f"{category}={days}" for category, days in sorted(ttl_days.items()))
    rule = f"v{FOLD_VERSION};ttl:{ttl};near:{near_duplicate_threshold!r};tz:{timezone}"
    return f"{rule};judge:{judge[0]}/{judge[1]}" if judge else rule


def fact_validity(timezone: str):
    """The fold's `validity` rule in `timezone` (domain.relative_time.validity of a fact, its quote and time)."""
    return lambda f: validity(f.fact, f.quote, f.said_at, timezone)


def watermark_order(fold: Mapping[str, Any]) -> tuple | None:
    """The said order (AcceptedFact.said_order) of the last candidate a `fact_folds` row folded, or None."""
    if fold["said_at"] is None:
        return None
    return (fold["said_at"], fold["quote_message_id"] or 0, fold["conversation_id"], fold["position"],
            fold["candidate_id"])


def version_from_row(row: Mapping[str, Any]) -> FactVersion:
    """An active `agent_facts` row as the fold's FactVersion (active: no superseded_by_key)."""
    return FactVersion(
        user_key=row["user_key"], category=row["category"], attribute=row["attribute"], value=row["value"],
        fact=row["fact"], quote=row["quote"], quote_message_id=row["quote_message_id"],
        quote_speaker=row["quote_speaker"], source_session=row["source_session"], candidate_id=row["candidate_id"],
        valid_from=row["valid_from"], last_seen_at=row["last_seen_at"], expires_at=row["expires_at"],
        superseded_at=row["superseded_at"], relation=row["relation"],
        repeats=tuple(sorted((row["repeats"] or {}).items())))


@dataclass
class FoldInputs:
    """What folding one user reads, fetched for a batch of users at once (`read_fold_inputs`): `fold` (the
    watermark row or None), `new` (candidates not folded yet), `incremental` (the decision), `rows` (active rows
    when incremental, every row when from scratch), `facts` (the candidates to fold: `new`, or every accepted
    candidate when from scratch), `forgotten` ({slot hash: said_before} of the user's forget requests),
    `versions` ({candidate_id: row version} of the unfolded candidates read, for `Store.record_fold`), `rule`
    (`fold_rule`, under which the fold is recorded), `verdicts` ({relation_key: verdict} of the model's stored
    verdicts on pairs of the user's facts, under the fold's judge)."""

    rule: str
    fold: dict[str, Any] | None
    new: list[AcceptedFact]
    incremental: bool
    rows: list[dict[str, Any]] = field(default_factory=list)
    facts: list[AcceptedFact] = field(default_factory=list)
    forgotten: dict[str, Any] = field(default_factory=dict)
    versions: dict[str, str] = field(default_factory=dict)
    verdicts: dict[str, str] = field(default_factory=dict)


def read_fold_inputs(store: Store, conn: psycopg.Connection, user_keys: Sequence[str],
                     ttl_days: Mapping[str, int | None], judge: JudgeSignature = None) -> dict[str, FoldInputs]:
    """{user key: FoldInputs} for these users, in a handful of statements whatever their number (one per kind of
    read, `= ANY`), sent in two rounds (in pipeline mode each round is one round trip): the watermarks and
    unfolded candidates, then what the decision needs (active rows, or every row and the folded candidates, and
    forget requests, and the verdicts of `judge`).
    Call inside the transaction holding their `Store.lock_user` locks; the watermark rows are locked until it
    ends."""
    rule = fold_rule(ttl_days, store.settings.near_duplicate_threshold, store.settings.timezone, judge)
    versions: dict[str, str] = {}  # candidate_id -> row version, over all these users (ids are unique)
    pending_folds = store.folds_of_users(conn, user_keys)
    pending_unfolded = store.unfolded_facts_of_users(conn, user_keys, versions)
    folds, unfolded = pending_folds.result(), pending_unfolded.result()
    inputs = {}
    for user_key in user_keys:
        fold, new = folds.get(user_key), unfolded.get(user_key, [])
        mark = watermark_order(fold) if fold else None
        incremental = (fold is not None and not fold["needs_refold"] and fold["fold_rule"] == rule
                       and (mark is None or all(f.said_order > mark for f in new)))
        inputs[user_key] = FoldInputs(rule, fold, new, incremental, facts=new if incremental else [],
                                      versions={f.candidate_id: versions[f.candidate_id] for f in new})
    growing = [u for u, i in inputs.items() if i.incremental and i.new]
    scratch = [u for u, i in inputs.items() if not i.incremental]
    active_rows = store.active_fact_rows_of_users(conn, growing) if growing else None
    every_row = store.fact_rows_of_users(conn, scratch) if scratch else None
    folded = store.folded_facts_of_users(conn, scratch) if scratch else None
    judged = store.relations_of_users(conn, scratch + growing, *judge) if judge and (scratch or growing) else None
    filtered = [u for u in scratch + growing if not inputs[u].incremental or inputs[u].fold["has_forgotten"]]
    # Read last: its round trip brings the rows of the reads sent above.
    for user_key, forgotten in forgotten_slots_of_users(store, conn, filtered).items() if filtered else ():
        inputs[user_key].forgotten = forgotten
    for user_key, rows in active_rows.result().items() if active_rows else ():
        inputs[user_key].rows = rows
    for user_key, rows in every_row.result().items() if every_row else ():
        inputs[user_key].rows = rows
    for user_key, verdicts in judged.result().items() if judged else ():
        inputs[user_key].verdicts = verdicts
    folded_facts = folded.result() if folded else {}
    for user_key in scratch:  # every accepted candidate: the unfolded ones read above, and the folded ones
        inputs[user_key].facts = inputs[user_key].new + folded_facts.get(user_key, [])
    return inputs


@dataclass
class FoldPlan:
    """What folding a batch of users writes (`plan_folds`): their fact versions (`changes`), their fold records
    (`records`) and the users folded each way (`counts`: folded_incrementally, folded_from_scratch)."""

    changes: list[FactChange]
    records: list[FoldRecord]
    counts: Counter[str]


def plan_folds(store: Store, conn: psycopg.Connection, ttl_days: Mapping[str, int | None],
               inputs: Mapping[str, FoldInputs]) -> FoldPlan:
    """Fold these users' candidates (minus forgotten ones) on what they hold, each incrementally when it can
    (module docstring); `inputs` are their `read_fold_inputs` under the same `ttl_days`. Writes nothing."""
    near = NearDuplicateRule(store.settings.near_duplicate_threshold, MULTI_VALUED_ATTRIBUTES)
    dates = fact_validity(store.settings.timezone)
    plan = FoldPlan([], [], Counter(folded_incrementally=0, folded_from_scratch=0))
    for user_key, i in inputs.items():
        facts = without_forgotten(i.facts, i.forgotten, store.id_salt(conn)) if i.forgotten else i.facts
        judged = judge_from(i.verdicts) if i.verdicts else None
        if not i.incremental:
            plan.changes.append(FactChange(user_key, reconcile_user(facts, ttl_days, near.same, dates, judged),
                                          i.rows, full=True))
        elif i.new:
            plan.changes.append(FactChange(user_key, continue_fold([version_from_row(r) for r in i.rows], facts,
                                                                   ttl_days, near.same, dates, judged),
                                           i.rows, full=False))
        plan.counts["folded_incrementally" if i.incremental else "folded_from_scratch"] += 1
        if i.incremental and not i.new:
            continue  # nothing new: the watermark stays as it is
        # every candidate read, forgotten ones included: they are settled too
        last: AcceptedFact | None = max(i.facts, key=lambda f: f.said_order, default=None)
        plan.records.append(FoldRecord(user_key, i.versions, last, i.rule,
                                       i.fold["fold_requests"] if i.fold else ()))
    return plan


def send_folds(store: Store, conn: psycopg.Connection, plan: FoldPlan) -> Pending[dict[str, int]]:
    """Write a `plan_folds` plan: its fact versions (`Store.send_fact_versions_of_users`) and fold records
    (`Store.record_fold`), one statement per kind for the whole batch. Call inside the transaction holding the
    users' `Store.lock_user` locks, under which their inputs were read. In pipeline mode nothing waits but the
    links of superseded versions, sent by `result()`; it returns the fact versions' counts."""
    pending = store.send_fact_versions_of_users(conn, plan.changes)
    store.record_fold(conn, plan.records)
    return pending


# Users folded together (FOLD_BATCH) and per transaction (FOLD_COMMIT) by active_facts. A batch's reads are one
# statement per kind, and so are its writes (per user, the round trips cost more than the fold itself: 5 ms a
# user at 100k messages, against 2 ms batched). Memory: a batch of users folded from scratch holds all their
# candidates and versions at once (measured: 100 users with a year of history each, 730 candidates, took 150 MiB;
# 25 keep it under 40 MiB), and two batches are held at a time (one written while the next is read). A commit
# waits for its WAL flush (an fdatasync took 3.6 ms on the benchmark machine: 66 of them at 100k messages with a
# commit per batch) and holds the users' locks until then; a failure rolls back at most FOLD_COMMIT users' folds,
# which the re-run folds again.
FOLD_BATCH = 25
FOLD_COMMIT = 200


def reconcile_all(store: Store, conn: psycopg.Connection, users: Sequence[str]) -> Counter[str]:
    """`reconcile_users` over `users` (sorted: locks taken in one order), one transaction per FOLD_COMMIT users.
    Returns the summed counters."""
    totals: Counter[str] = Counter()
    for start in range(0, len(users), FOLD_COMMIT):
        with conn.transaction():
            totals.update(reconcile_users(store, conn, users[start:start + FOLD_COMMIT]))
    return totals


def reconcile_users(store: Store, conn: psycopg.Connection, user_keys: Sequence[str],
                    lock: bool = True) -> Counter[str]:
    """Make these users' `agent_facts` the fold of their accepted candidates, minus forgotten ones
    (`plan_folds`: incrementally when it can), in one transaction (call inside it). `lock` takes their
    locks in the given order (sorted by the caller, so concurrent runs take them in one order; pass False when
    the caller holds them). The slots of forget requests (and, with MEMORY_PIPELINE_ERASE_ON_RETRACTION, of every
    retraction) are erased first (`store.erasure.erase_retracted_slots`; deleted candidates make the fold start
    from scratch). Then they are folded FOLD_BATCH at a time: their fold
    inputs read together (`read_fold_inputs`), folded (`plan_folds`) and written (`send_folds`).
    Returns the summed counts: `Store.send_fact_versions_of_users`'s, and users folded_incrementally /
    folded_from_scratch."""
    totals: Counter[str] = Counter()
    judge = judge_of(store.settings)
    if lock:
        with conn.cursor() as cur, conn.pipeline():
            cur.executemany(store.query(conn, "lock_user"), [{"user_key": u} for u in user_keys])
    # Outside pipeline mode: it reads its deletions' row counts.
    erase_retracted_slots(store, conn, user_keys, store.settings.erase_on_retraction)
    # Pipeline mode: statements whose results are not read (the writes) travel with the next read or the commit.
    with conn.pipeline():
        # Batch i is folded in Python while the server writes batch i-1 (sent without waiting); batch i+1 is read
        # before batch i is written, as its reads would otherwise queue behind those writes. Users of different
        # batches share no row.
        batches = [user_keys[start:start + FOLD_BATCH] for start in range(0, len(user_keys), FOLD_BATCH)]
        inputs = read_fold_inputs(store, conn, batches[0], DEFAULT_TTL_DAYS, judge) if batches else {}
        writing = None
        for i in range(len(batches)):
            plan = plan_folds(store, conn, DEFAULT_TTL_DAYS, inputs)
            totals.update(plan.counts)
            if i + 1 < len(batches):
                inputs = read_fold_inputs(store, conn, batches[i + 1], DEFAULT_TTL_DAYS, judge)
            if writing is not None:
                totals.update(writing.result())
            writing = send_folds(store, conn, plan)
        if writing is not None:
            totals.update(writing.result())
    return totals


def reconcile_one_user(store: Store, conn: psycopg.Connection, user_key: str, lock: bool = True) -> Counter[str]:
    """`reconcile_users` for one user (call inside a transaction; `lock=False` when the caller holds the
    user's lock). Returns its counts."""
    return reconcile_users(store, conn, [user_key], lock)
