"""The erasure steps the fold and an erasure share (named queries of sql/erasure.sql): the audit row, forgetting a
user's slots, the forget requests a fold honours, retracted slots. `memory_pipeline.erasure` composes them into an
erasure; `stages.folds` reads the forgotten slots and erases retracted ones. Call inside a transaction holding the
user's lock (`Store.lock_user`)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

import psycopg
from psycopg.types.json import Jsonb

from memory_pipeline.domain.forgetting import matching, slot_hash, slots_of
from memory_pipeline.domain.retractions import is_forget_request

if TYPE_CHECKING:  # the Store façade composes this package's parts
    from memory_pipeline.store import Store

ERASURE_SQL = "erasure.sql"


@dataclass(frozen=True)
class ErasureReport:
    """Outcome of one erasure: the audit row's id and time, and rows removed per table (counts only)."""

    erasure_id: int
    erased_at: datetime
    scope: str
    counts: dict[str, int]

    @property
    def total(self) -> int:
        """Rows removed over all tables."""
        return sum(self.counts.values())

    def metadata(self) -> dict[str, Any]:
        """Counts and ids for Dagster metadata or the CLI: never the key, never text."""
        return {"erasure_id": self.erasure_id, "scope": self.scope, "rows_removed": self.total,
                **{f"{table}_removed": n for table, n in self.counts.items()}}


def key_hash(salt: str, user_key: str) -> str:
    """sha256 hex of the installation's salt, 0x1f, the user key: the only trace of an erased key."""
    return hashlib.sha256(f"{salt}\x1f{user_key}".encode()).hexdigest()


def erasure_query(store: Store, conn: psycopg.Connection, name: str):
    return store.query(conn, name, ERASURE_SQL)


def audit(store: Store, conn: psycopg.Connection, user_key: str, scope: str, counts: dict[str, int]) -> ErasureReport:
    row = conn.execute(erasure_query(store, conn, "insert_erasure_log"), {
        "key_hash": key_hash(store.id_salt(conn), user_key), "scope": scope, "counts": Jsonb(counts)}).fetchone()
    return ErasureReport(row["erasure_id"], row["erased_at"], scope, counts)


def forget_slots(
    store: Store, conn: psycopg.Connection, user_key: str, slots: frozenset[str], said_before: datetime
) -> tuple[int, int]:
    """Delete the user's candidates (any status) that share a slot with `slots`, withhold for good the summaries
    of the conversations they were said in (query `withhold_summaries`: a summary may repeat the fact) and record
    the slots as forgotten up to `said_before`. Call inside a transaction holding `lock_user`; re-reconcile the
    user after. Returns (candidates deleted, summaries withheld)."""
    salt = store.id_salt(conn)
    candidates = conn.execute(erasure_query(store, conn, "candidates_of_user"), {"user_key": user_key}).fetchall()
    # Only what was said up to the request: the same thing said afterwards is remembered again.
    doomed = [r for r in matching((Row(r) for r in candidates), slots)
              if r.said_at is None or r.said_at <= said_before]
    deleted = conn.execute(erasure_query(store, conn, "delete_candidates"),
                           {"candidate_ids": [r.candidate_id for r in doomed]}).rowcount
    withheld = conn.execute(erasure_query(store, conn, "withhold_summaries"), {
        "conversation_ids": sorted({r.conversation_id for r in doomed})}).rowcount if doomed else 0
    for slot in sorted(slots):
        conn.execute(erasure_query(store, conn, "forget_slot"), {
            "user_key": user_key, "slot_hash": slot_hash(salt, slot), "said_before": said_before})
    return deleted, withheld


def forgotten_slots_of_users(store: Store, conn: psycopg.Connection,
                             user_keys: Sequence[str]) -> dict[str, dict[str, Any]]:
    """{user key: {slot hash: said_before}} of the forget requests covering these users' slots (users without
    any are absent), in one statement."""
    forgotten: dict[str, dict[str, Any]] = {}
    for r in conn.execute(erasure_query(store, conn, "forgotten_of_users"), {"user_keys": list(user_keys)}):
        forgotten.setdefault(r["user_key"], {})[r["slot_hash"]] = r["said_before"]
    return forgotten


def erase_retracted_slots(store: Store, conn: psycopg.Connection, user_keys: Sequence[str],
                          every_retraction: bool = False) -> int:
    """For each accepted forget request of these users ("Can you forget my phone number?": its quote is one,
    domain.retractions), and with `every_retraction` (MEMORY_PIPELINE_ERASE_ON_RETRACTION) for every accepted
    retraction, forget its slots as `forget_fact` does, for what was said up to it (the request itself included),
    with one audit row per user (scope `retraction`) when anything was deleted. One statement finds them for all
    the users. Call inside the transaction holding their `lock_user` locks, before folding. Returns the number of
    candidates deleted."""
    deleted = 0
    by_user: dict[str, list[dict[str, Any]]] = {}
    rows = conn.execute(erasure_query(store, conn, "retractions_of_users"), {"user_keys": list(user_keys)}).fetchall()
    for r in rows:
        if every_retraction or is_forget_request(r["quote"] or ""):
            by_user.setdefault(r["user_key"], []).append(r)
    for user_key, retractions in sorted(by_user.items()):
        outcomes = [forget_slots(store, conn, user_key, slots_of(Row(r)), r["said_at"]) for r in retractions]
        erased, withheld = sum(o[0] for o in outcomes), sum(o[1] for o in outcomes)
        if erased:
            audit(store, conn, user_key, "retraction", {"fact_candidates": erased, "session_summaries": withheld})
        deleted += erased
    return deleted


class Row:
    """A dict row seen through attributes (category, attribute, value, fact, said_at)."""

    def __init__(self, row: dict[str, Any]):
        self.__dict__.update(row)
