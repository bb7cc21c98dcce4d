"""Erasure on request: a whole user (`erase_user`), one fact (`forget_fact`); retracted slots are erased by the
fold (`store.erasure.erase_retracted_slots`: a user's forget requests, and every retraction when
MEMORY_PIPELINE_ERASE_ON_RETRACTION is on).

What a user's erasure removes, table by table, is `ERASURE_STEPS` (one named query each in sql/erasure.sql, all
taking the same parameters, so covering a new table is one line here and one query there):
n8n's table (every row of every session key that maps to the user), `chat_archive`, `conversations`,
`message_rejections`, `session_summaries` (with their embeddings), `summary_cache` and `extraction_cache` (entries
of the user's transcripts that no other conversation uses), `extraction_failures`, `fact_candidates`,
`fact_recalls`, `conversation_recalls`, `embedding_cache` (embeddings of the user's fact and summary texts that no
other user's fact shares), `agent_facts` (every
version, with quote and embedding), `fact_folds` (the user's reconciliation watermark) and `forgotten_facts`. It then writes one `erasure_log` row: a salted sha256 of the key, the rows removed per table,
the time. Nothing else of the user is kept; callers report counts only.

Rows no user key names (a blank or malformed session key, rejected and archived by the nightly run) are erased by
id (`erase_rows`: n8n's table, `chat_archive`, `message_rejections`, one audit row of scope `rows`).

Concurrency with the nightly run: everything happens in one transaction that first takes the erasure lock
exclusive, then the user's reconciliation lock (`Store.lock_user`). Every stage transaction that writes a user's
data holds the erasure lock shared (`Store.hold_off_erasure`) and re-reads what it writes from inside it, so a
stage that was mid-way either commits before the erasure starts deleting (and its rows are deleted) or starts
after it committed (and finds the source rows and conversations gone): the two never interleave.

Keys derived from the user's sessions: a group chat's session key belongs to the user it maps to; erasing that
user erases the whole session (everyone's messages in it), and with it what the pipeline derived from it under
other user keys, the senders' (`{user_key}#{sender}` by default; MEMORY_PIPELINE_SENDER_USER_KEY). A derived key
whose every candidate came from the user's conversations is erased as the user is (`DERIVED_KEY_STEPS`: facts,
recalls, embeddings, fold watermark and requests, forget requests); one that also spoke elsewhere (a template
such as `person:{sender}` keys a sender across groups) loses the candidates of the user's conversations and is
reconciled again from the rest.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import psycopg

from memory_pipeline.domain.conversations import user_key_mapper
from memory_pipeline.domain.forgetting import slots_of
from memory_pipeline.domain.near_duplicates import NearDuplicateRule
from memory_pipeline.domain.reconcile import MULTI_VALUED_ATTRIBUTES
from memory_pipeline.stages.folds import reconcile_one_user
from memory_pipeline.store import Store
from memory_pipeline.store.erasure import ErasureReport, Row, audit, erasure_query, forget_slots


@dataclass(frozen=True)
class ErasureStep:
    """One table an erasure covers: `query` is a named query of sql/erasure.sql (see its header)."""

    table: str
    query: str


# Order: rows that point at conversations first, the conversations, then raw rows. Counts are reported per table.
ERASURE_STEPS: tuple[ErasureStep, ...] = (
    ErasureStep("fact_recalls", "erase_fact_recalls"),
    ErasureStep("conversation_recalls", "erase_conversation_recalls"),
    ErasureStep("embedding_cache", "erase_embedding_cache"),
    ErasureStep("agent_facts", "erase_agent_facts"),
    ErasureStep("fact_candidates", "erase_fact_candidates"),
    ErasureStep("fact_folds", "erase_fact_folds"),
    ErasureStep("fold_requests", "erase_fold_requests"),
    ErasureStep("fact_relations", "erase_fact_relations"),
    ErasureStep("session_summaries", "erase_session_summaries"),
    ErasureStep("summary_cache", "erase_summary_cache"),
    ErasureStep("extraction_cache", "erase_extraction_cache"),
    ErasureStep("extraction_failures", "erase_extraction_failures"),
    ErasureStep("message_rejections", "erase_message_rejections"),
    ErasureStep("forgotten_facts", "erase_forgotten_facts"),
    ErasureStep("conversations", "erase_conversations"),
    ErasureStep("chat_archive", "erase_chat_archive"),
    ErasureStep("source", "erase_source_rows"),
)


# What is erased of a key derived from the user's sessions that has no candidate anywhere else: the steps keyed by
# the user key alone (its candidates are gone with the user's conversations).
DERIVED_KEY_STEPS = tuple(s for s in ERASURE_STEPS if s.table in {
    "fact_recalls", "conversation_recalls", "embedding_cache", "agent_facts", "fact_candidates", "fact_folds",
    "fold_requests", "forgotten_facts"})


class FactNotFound(LookupError):
    """No fact with this id belongs to this user (the message carries the id, never the key)."""


class RowsOfAConversation(ValueError):
    """`erase_rows` was given rows of a stored conversation: a user's, erased with the user (`erase_user`)."""


# What `erase_rows` removes: the rows by id (no user key reaches a blank or malformed one), nothing derived from
# them (an unattributed row has no conversation, summary nor fact).
ROW_ERASURE_STEPS: tuple[ErasureStep, ...] = (
    ErasureStep("message_rejections", "erase_rows_message_rejections"),
    ErasureStep("chat_archive", "erase_rows_chat_archive"),
    ErasureStep("source", "erase_rows_source"),
)


def session_keys_of_user(store: Store, conn: psycopg.Connection, user_key: str) -> list[str]:
    """Every session key in n8n's table, the archive or the stored conversations that maps to `user_key`
    (MEMORY_PIPELINE_USER_KEY_REGEX; identity by default). Scans the distinct session keys of n8n's table."""
    to_user = user_key_mapper(store.settings.user_key_regex)
    keys: set[str] = set()
    for name in ("session_keys_in_source", "session_keys_in_archive", "session_keys_of_user"):
        rows = conn.execute(erasure_query(store, conn, name), {"user_key": user_key}).fetchall()
        keys.update(r["session_id"] for r in rows if to_user(r["session_id"]) == user_key)
    return sorted(keys)


def _validate_key(user_key: str) -> str:
    if not user_key or not user_key.strip():
        raise ValueError("the user key is empty")
    return user_key


def erase_user(store: Store, conn: psycopg.Connection, user_key: str) -> ErasureReport:
    """Remove every trace of `user_key` (module docstring) in one transaction and write one audit row.

    Idempotent: erasing again removes nothing more and writes another audit row with zero counts. Raises
    ValueError for an empty key, psycopg errors on database failure (then nothing is removed)."""
    _validate_key(user_key)
    with conn.transaction():
        conn.execute(erasure_query(store, conn, "lock_erasure_exclusive"))
        store.lock_user(conn, user_key)
        session_keys = session_keys_of_user(store, conn, user_key)
        conversations = conn.execute(erasure_query(store, conn, "conversations_of_user"),
                                     {"user_key": user_key, "session_keys": session_keys}).fetchall()
        conversation_ids = [r["conversation_id"] for r in conversations]
        derived = conn.execute(erasure_query(store, conn, "keys_derived_from_conversations"),
                               {"user_key": user_key, "conversation_ids": conversation_ids}).fetchall()
        for row in derived:  # sorted by key: two erasures lock the same keys in the same order
            store.lock_user(conn, row["user_key"])
        # Every derived key's texts are read before anything is deleted (its candidates go with the conversations).
        derived_params = [_key_params(store, conn, row["user_key"]) for row in derived if not row["elsewhere"]]
        params = {
            **_key_params(store, conn, user_key),
            "session_keys": session_keys,
            "conversation_ids": conversation_ids,
            "transcript_hashes": sorted({r["transcript_hash"] for r in conversations}),
        }
        counts = {step.table: conn.execute(erasure_query(store, conn, step.query), params).rowcount
                  for step in ERASURE_STEPS}
        for key_params in derived_params:
            for step in DERIVED_KEY_STEPS:
                counts[step.table] += conn.execute(erasure_query(store, conn, step.query), key_params).rowcount
        for row in derived:  # a sender who spoke elsewhere too: their facts again, from their other candidates
            if row["elsewhere"]:
                counts["agent_facts"] += reconcile_one_user(store, conn, row["user_key"], lock=False)["deleted"]
        return audit(store, conn, user_key, "user", counts)


def erase_rows(store: Store, conn: psycopg.Connection, row_ids: list[int]) -> ErasureReport:
    """Erase n8n rows by id (`ROW_ERASURE_STEPS`): from n8n's table, the archive and the rejections, in one
    transaction under the erasure lock, with one audit row (scope `rows`, a salted hash of the sorted ids).
    This reaches rows no user key can name: a blank or malformed session key (`blank_session_key`, ...).

    Raises ValueError for no id, RowsOfAConversation when a stored conversation holds one of them (nothing is
    removed then)."""
    if not row_ids:
        raise ValueError("no row id given")
    ids = sorted(set(row_ids))
    with conn.transaction():
        conn.execute(erasure_query(store, conn, "lock_erasure_exclusive"))
        if conn.execute(erasure_query(store, conn, "conversations_of_rows"), {"row_ids": ids}).fetchone()["n"]:
            raise RowsOfAConversation(
                "a conversation of a user holds one of these rows: erase it with `forget --user KEY` (the session "
                "key, or what MEMORY_PIPELINE_USER_KEY_REGEX maps it to), which erases everything derived from it")
        counts = {step.table: conn.execute(erasure_query(store, conn, step.query), {"row_ids": ids}).rowcount
                  for step in ROW_ERASURE_STEPS}
        return audit(store, conn, "rows:" + ",".join(map(str, ids)), "rows", counts)


def rows_of_conversation(store: Store, conn: psycopg.Connection, conversation_id: str) -> list[int]:
    """The n8n row ids of the conversation `conversation_id` (the salted hash `message_rejections`, `chat_archive`
    and the metadata's `conversation_ids` hold), for `erase_rows`: how rows of an unattributed conversation are
    named without their key. [] when none is known."""
    return [r["id"] for r in conn.execute(erasure_query(store, conn, "rows_of_conversation"),
                                          {"conversation_id": conversation_id}).fetchall()]


def _key_params(store: Store, conn: psycopg.Connection, user_key: str) -> dict[str, Any]:
    """The parameters of the steps keyed by one user key: the key and its fact texts (for caches keyed by text);
    no session key nor conversation."""
    texts = conn.execute(erasure_query(store, conn, "fact_texts_of_user"), {"user_key": user_key}).fetchall()
    return {"user_key": user_key, "fact_texts": [r["fact"] for r in texts], "session_keys": [],
            "conversation_ids": [], "transcript_hashes": []}


def _chain(versions: dict[int, dict[str, Any]], fact_id: int) -> list[dict[str, Any]]:
    """The fact and every version linked to it by `superseded_by`, either way."""
    linked = {fact_id}
    changed = True
    while changed:
        changed = False
        for vid, v in versions.items():
            if vid in linked and v["superseded_by"] in versions and v["superseded_by"] not in linked:
                linked.add(v["superseded_by"])
                changed = True
            elif vid not in linked and v["superseded_by"] in linked:
                linked.add(vid)
                changed = True
    return [versions[vid] for vid in sorted(linked)]


def forget_fact(store: Store, conn: psycopg.Connection, user_key: str, fact_id: int) -> ErasureReport:
    """Forget one fact of a user: every version of its slots (the whole supersede chain of a single-valued
    attribute, or the same fact text, and the near-duplicates merged into them), every candidate (accepted or
    rejected, with its quote) that fills them,
    and mark the slots forgotten for what was said until now (domain.forgetting); the summaries of the
    conversations those candidates were said in are withheld for good (`store.erasure.forget_slots`). Then the
    user is reconciled again, so `agent_facts` is what the remaining candidates give. One audit row (scope
    `fact`; `session_summaries` counts the summaries withheld).

    Raises FactNotFound when `fact_id` is not one of the user's facts (also when it was forgotten already)."""
    _validate_key(user_key)
    with conn.transaction():
        conn.execute(erasure_query(store, conn, "lock_erasure_exclusive"))
        store.lock_user(conn, user_key)
        versions = {r["id"]: r for r in conn.execute(store.query(conn, "facts_of_users"), {"user_keys": [user_key]})}
        if fact_id not in versions:
            raise FactNotFound(f"no fact {fact_id} of this user")
        chain = [Row(v) for v in _chain(versions, fact_id)]
        slots = frozenset().union(*(slots_of(v) for v in chain))
        # Candidates the fold merged into the chain as near-duplicates ("User likes blue." into "User's favourite
        # colour is blue.") are the same fact in other words: their slots are forgotten too.
        rule = NearDuplicateRule(store.settings.near_duplicate_threshold, MULTI_VALUED_ATTRIBUTES)
        for row in conn.execute(erasure_query(store, conn, "candidates_of_user"), {"user_key": user_key}).fetchall():
            candidate = Row(row)
            if any(rule.same(candidate, v) for v in chain):
                slots |= slots_of(candidate)
        now = conn.execute("SELECT now() AS now").fetchone()["now"]
        deleted, withheld = forget_slots(store, conn, user_key, slots, now)
        applied = reconcile_one_user(store, conn, user_key, lock=False)
        return audit(store, conn, user_key, "fact",
                      {"fact_candidates": deleted, "agent_facts": applied["deleted"], "session_summaries": withheld})
