"""Facts: reconciliation's reads and writes (sql/facts.sql)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from memory_pipeline.domain.facts import fact_key
from memory_pipeline.domain.language import text_search_config
from memory_pipeline.domain.reconcile import AcceptedFact, FactVersion
from memory_pipeline.store.base import Pending, StoreBase, T


def _by_user(items: Iterable[Any]) -> dict[str, list[Any]]:
    """Group rows or AcceptedFacts by their `user_key` (key or attribute), keeping their order."""
    grouped: dict[str, list[Any]] = {}
    for item in items:
        grouped.setdefault(item["user_key"] if isinstance(item, dict) else item.user_key, []).append(item)
    return grouped


def _accepted_facts(rows: Iterable[dict[str, Any]], versions: dict[str, str] | None) -> Iterator[AcceptedFact]:
    """Rows with a `row_version` column as AcceptedFacts; the versions of unfolded ones go to `versions`."""
    for r in rows:
        version = r.pop("row_version")
        if versions is not None and version is not None:
            versions[r["candidate_id"]] = version
        yield AcceptedFact(**r)


# The columns of a fact version that an update rewrites (`update_facts`), compared to decide whether a row changed.
_VERSION_FIELDS = ("attribute", "value", "quote", "quote_message_id", "quote_speaker", "source_session",
                   "candidate_id", "last_seen_at", "expires_at", "superseded_at", "relation", "repeats", "owners")


def _stored(version: FactVersion, name: str) -> Any:
    """A version's field as its row reads back (jsonb `repeats` a dict, `owners` a list)."""
    if name == "repeats":
        return dict(version.repeats)
    if name == "owners":
        return list(version.owners)
    return getattr(version, name)


def _version_columns(rows: Sequence[tuple[int | None, FactVersion]]) -> dict[str, list[Any]]:
    """(row id, version) pairs as one parallel array per column (`ids` and `_VERSION_FIELDS`), the parameters of
    `update_facts` and `insert_facts` (unnest; the jsonb columns as JSON text, cast there)."""
    columns: dict[str, list[Any]] = {"ids": [row_id for row_id, _ in rows]}
    for name in _VERSION_FIELDS:
        columns[name] = [_stored(v, name) for _, v in rows]
    for name in ("repeats", "owners"):
        columns[name] = [json.dumps(value, ensure_ascii=False) for value in columns[name]]
    return columns


def _relation_counts(row: Mapping[str, Any] | None, version: FactVersion) -> Counter[str]:
    """What relating `version` did since `row` (its stored state; None: not stored yet): `superseded:<relation>`
    when it became superseded, `repeated:<relation>` per repeat added."""
    counts: Counter[str] = Counter()
    if version.superseded_at is not None and (row is None or row["superseded_at"] is None):
        counts[f"superseded:{version.relation}"] += 1
    before = (row["repeats"] or {}) if row is not None else {}
    for relation, n in version.repeats:
        if n > before.get(relation, 0):
            counts[f"repeated:{relation}"] += n - before.get(relation, 0)
    return counts


@dataclass(frozen=True)
class FactChange:
    """One user's part of `Store.apply_fact_versions_of_users`: the versions `desired`, compared with `existing`
    rows (None: every row of the user, read then) and `full` (delete rows `desired` lacks; None: when `existing`
    is None)."""

    user_key: str
    desired: Sequence[FactVersion]
    existing: Sequence[dict[str, Any]] | None = None
    full: bool | None = None


@dataclass(frozen=True)
class FoldRecord:
    """One user's part of `Store.record_fold`: {candidate_id: row version read} of the candidates folded now,
    the last candidate folded in said order (None: none ever was), the fold's rule, and the ids of the
    user's `fold_requests` rows the fold read."""

    user_key: str
    row_versions: Mapping[str, str]
    last: AcceptedFact | None
    fold_rule: str
    fold_requests: Sequence[int] = ()


class FactQueries(StoreBase):
    """Reconciliation's reads and writes: a user's lock, fact versions, fold inputs and watermarks, totals."""

    def lock_user(self, conn, user_key: str) -> None:
        """Serialise reconciliation of one user across processes until the transaction ends. Take it before
        reading the user's candidates, or a concurrent partition's newer facts can be overwritten."""
        conn.execute(self.query(conn, "lock_user"), {"user_key": user_key})

    def apply_fact_versions(self, conn, user_key: str, desired: Sequence[FactVersion],
                            existing: Sequence[dict[str, Any]] | None = None,
                            full: bool | None = None) -> dict[str, int]:
        """`apply_fact_versions_of_users` for one user: make `agent_facts` of `user_key` equal `desired`. Returns
        counts: inserted, updated, deleted, newly_superseded, and `language:<configuration>` per new active
        version labelled on insert."""
        return self.apply_fact_versions_of_users(conn, [FactChange(user_key, desired, existing, full)])

    def apply_fact_versions_of_users(self, conn, changes: Sequence[FactChange]) -> dict[str, int]:
        """`send_fact_versions_of_users` waited for: returns its counts once every statement is sent."""
        return self.send_fact_versions_of_users(conn, changes).result()

    def send_fact_versions_of_users(self, conn, changes: Sequence[FactChange]) -> Pending[dict[str, int]]:
        """Make `agent_facts` of each change's user equal its `desired` versions, keeping ids of versions that
        stay, writing only rows that change: one statement per kind (delete, update, insert, link) for all these
        users together, whatever their number. Call inside the transaction that took their `lock_user` locks
        before computing `desired`. In pipeline mode every statement but the links is sent without waiting; the
        links need the new rows' ids, and are sent by `result()`, which returns the summed counts: inserted,
        updated, deleted, newly_superseded, and `language:<configuration>` (new active versions whose text
        search configuration was set on insert, by `domain.language.text_search_config`, the rule
        `embeddings.label_languages` applies to the others). Call `result()` before the transaction ends.

        A change's `existing`: None compares with every row of the user and deletes rows `desired` lacks (a full
        fold); rows of `facts_of_users` shape (an incremental fold's active rows, each in `desired`) compare with
        those only and delete nothing. `full=True` with `existing` = every row of the user (read beforehand,
        under the user's lock) is the full fold without reading them again. Order matters for the partial unique
        index on active facts (keyed by user, so users do not interfere): delete stale rows, mark rows that
        become superseded, insert new rows, then update rows that stay or become active, then link superseded_by
        where it changed."""
        unread = [c.user_key for c in changes if c.existing is None]
        read = self.fact_rows_of_users(conn, unread).result() if unread else {}
        counts: Counter[str] = Counter(inserted=0, updated=0, deleted=0, newly_superseded=0)
        stale: list[int] = []
        becoming_superseded: list[tuple[int, FactVersion]] = []
        staying_active: list[tuple[int, FactVersion]] = []
        inserts: list[FactVersion] = []
        plans = []
        for change in changes:
            existing = read.get(change.user_key, []) if change.existing is None else change.existing
            full = change.existing is None if change.full is None else change.full
            by_key = {(r["category"], fact_key(r["fact"]), r["valid_from"]): r for r in existing}
            wanted = {v.version_key: v for v in change.desired}
            if full:  # the user's lock holds them: all are deleted (rowcount is unknown yet in pipeline mode)
                stale.extend(row["id"] for key, row in by_key.items() if key not in wanted)
            for key, v in wanted.items():
                row = by_key.get(key)
                counts.update(_relation_counts(row, v))
                if row is None:
                    inserts.append(v)
                    counts["newly_superseded"] += v.superseded_at is not None
                elif any(row[k] != _stored(v, k) for k in _VERSION_FIELDS):
                    counts["newly_superseded"] += row["superseded_at"] is None and v.superseded_at is not None
                    (staying_active if v.superseded_at is None else becoming_superseded).append((row["id"], v))
            plans.append((by_key, wanted))
        counts["deleted"] = len(stale)
        counts["updated"] = len(becoming_superseded) + len(staying_active)
        counts["inserted"] = len(inserts)
        with conn.cursor() as cur:
            if stale:
                cur.execute(self.query(conn, "delete_facts"), {"ids": stale})
            if becoming_superseded:
                cur.execute(self.query(conn, "update_facts"), _version_columns(becoming_superseded))
        inserting = None
        if inserts:
            configs = [text_search_config(v.fact) if v.superseded_at is None else None for v in inserts]
            counts.update(f"language:{c}" for c in configs if c is not None)
            inserting = conn.execute(self.query(conn, "insert_facts"), {
                **_version_columns([(None, v) for v in inserts]),
                "user_key": [v.user_key for v in inserts], "category": [v.category for v in inserts],
                "fact": [v.fact for v in inserts], "valid_from": [v.valid_from for v in inserts],
                "fts_config": configs}, binary=True)
        if staying_active:
            conn.execute(self.query(conn, "update_facts"), _version_columns(staying_active))

        def link(rows: Iterable[dict[str, Any]]) -> dict[str, int]:
            # Rows come back by their natural key: one insert per (user, category, fact, valid_from).
            new_ids = {(r["user_key"], r["category"], r["fact"], r["valid_from"]): r["id"] for r in rows}
            link_ids, link_targets = [], []
            for by_key, wanted in plans:
                def id_of(key: tuple) -> int | None:  # the id of a version in `wanted` (None: not one of them)
                    if key not in wanted:
                        return None
                    row = by_key.get(key)
                    if row is not None:
                        return row["id"]
                    v = wanted[key]
                    return new_ids[(v.user_key, v.category, v.fact, v.valid_from)]

                for key, v in wanted.items():
                    target = id_of(v.superseded_by_key) if v.superseded_by_key else None
                    current = by_key[key]["superseded_by"] if key in by_key else None
                    if target != current:
                        link_ids.append(id_of(key))
                        link_targets.append(target)
            if link_ids:
                conn.execute(self.query(conn, "link_superseded_by"), {"ids": link_ids, "superseded_by": link_targets})
            return dict(counts)

        return Pending(inserting, link)

    # -- incremental reconciliation -----------------------------------------------------------------------
    def users_to_reconcile(self, conn, day: date) -> list[str]:
        """User keys a partition's active_facts reconciles (query `users_to_reconcile`), sorted."""
        rows = conn.execute(self.query(conn, "users_to_reconcile"), {"partition_date": day}).fetchall()
        return [r["user_key"] for r in rows]

    def _send(self, conn, name: str, user_keys: Sequence[str], parse: Callable[[Iterable[dict[str, Any]]], T]
              ) -> Pending[T]:
        """Send the named query over `user_keys` now; its rows (binary format: timestamps load faster) are
        parsed by `parse` on `Pending.result()`."""
        return Pending(conn.execute(self.query(conn, name), {"user_keys": list(user_keys)}, binary=True), parse)

    def folds_of_users(self, conn, user_keys: Sequence[str]) -> Pending[dict[str, dict[str, Any]]]:
        """{user key: fold watermark row (`fact_folds`, plus `has_forgotten`: a forget request covers some of
        their slots)}, locked until the transaction ends; users never folded are absent."""
        return self._send(conn, "folds_of_users", user_keys, lambda rows: {r["user_key"]: r for r in rows})

    def unfolded_facts_of_users(self, conn, user_keys: Sequence[str],
                                versions: dict[str, str] | None = None) -> Pending[dict[str, list[AcceptedFact]]]:
        """{user key: the user's accepted candidates not folded yet (`folded_at` NULL), from every partition}.
        `versions`, when given, receives {candidate_id: row version (xmin)} of each (for `record_fold`) when
        the result is read."""
        return self._send(conn, "unfolded_candidates_of_users", user_keys,
                          lambda rows: _by_user(_accepted_facts(rows, versions)))

    def relations_of_users(self, conn, user_keys: Sequence[str], model: str, prompt_version: str
                           ) -> Pending[dict[str, dict[str, str]]]:
        """{user key: {relation_key: verdict}} of the model's stored verdicts on pairs of their facts
        (`fact_relations`, domain.relations) under `model` and `prompt_version`."""
        def parse(rows: Iterable[dict[str, Any]]) -> dict[str, dict[str, str]]:
            found: dict[str, dict[str, str]] = {}
            for row in rows:
                found.setdefault(row["user_key"], {})[row["relation_key"]] = row["verdict"]
            return found

        params = {"user_keys": list(user_keys), "model": model, "prompt_version": prompt_version}
        return Pending(conn.execute(self.query(conn, "relations_of_users"), params), parse)

    def save_relations(self, conn, user_key: str, verdicts: Mapping[str, str], model: str, prompt_version: str,
                       refold: bool) -> None:
        """Store the model's verdicts on pairs of one user's facts ({relation_key: verdict}); `refold`: some pair
        was of facts already folded, so the user's next fold starts from scratch (`request_refold`)."""
        with conn.cursor() as cur:
            cur.executemany(self.query(conn, "save_relations"), [
                {"user_key": user_key, "model": model, "prompt_version": prompt_version, "relation_key": key,
                 "verdict": verdict} for key, verdict in verdicts.items()])
            if refold:
                cur.execute(self.query(conn, "request_refold"), {"user_key": user_key})

    def folded_facts_of_users(self, conn, user_keys: Sequence[str]) -> Pending[dict[str, list[AcceptedFact]]]:
        """{user key: the user's accepted candidates already folded (`folded_at` set), from every partition}; with
        `unfolded_facts_of_users`, every accepted candidate of the user (a full fold's input)."""
        return self._send(conn, "folded_candidates_of_users", user_keys,
                          lambda rows: _by_user(_accepted_facts(rows, None)))

    def active_fact_rows_of_users(self, conn, user_keys: Sequence[str]) -> Pending[dict[str, list[dict[str, Any]]]]:
        """{user key: the user's active versions (`facts_of_users` columns plus `position`, the creating
        candidate's), in the order a fold created them: their candidates' said order (AcceptedFact.said_order)}."""
        def in_said_order(rows: Iterable[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
            return {user: sorted(rows, key=lambda r: (r["valid_from"], r["quote_message_id"] or 0,
                                                      r["source_session"], r["position"], r["candidate_id"]))
                    for user, rows in _by_user(rows).items()}
        return self._send(conn, "active_facts_of_users", user_keys, in_said_order)

    def fact_rows_of_users(self, conn, user_keys: Sequence[str]) -> Pending[dict[str, list[dict[str, Any]]]]:
        """{user key: every `agent_facts` row of the user (`facts_of_users` columns)}."""
        return self._send(conn, "facts_of_users", user_keys, _by_user)

    def record_fold(self, conn, folds: Sequence[FoldRecord]) -> None:
        """Record a batch of users' folds in one statement: mark the candidates each folded now
        (`FoldRecord.row_versions`, as `unfolded_facts_of_users` gives them) and set each user's watermark to
        `last` (the last candidate folded, in said order; None when none ever was) under `fold_rule`.
        `needs_refold` is cleared, unless one of the user's rows was deleted or changed since it was read (another
        process's re-extraction or re-split): then the fold used a stale candidate and the user's next
        reconciliation starts from scratch. The `fold_requests` rows each fold read (`folds_of_users`) are served
        by it and deleted. Users must be distinct."""
        if not folds:
            return
        read = [(f.user_key, candidate_id, version) for f in folds for candidate_id, version in f.row_versions.items()]
        conn.execute(self.query(conn, "record_fold"), {
            "read_user_keys": [r[0] for r in read], "candidate_ids": [r[1] for r in read],
            "row_versions": [r[2] for r in read],
            "fold_requests": [request for f in folds for request in f.fold_requests],
            "user_keys": [f.user_key for f in folds], "fold_rules": [f.fold_rule for f in folds],
            "said_at": [f.last.said_at if f.last else None for f in folds],
            "quote_message_ids": [(f.last.quote_message_id or 0) if f.last else None for f in folds],
            "conversation_ids": [f.last.conversation_id if f.last else None for f in folds],
            "positions": [f.last.position if f.last else None for f in folds],
            "last_candidate_ids": [f.last.candidate_id if f.last else None for f in folds]})

    def fact_totals(self, conn, user_keys: Sequence[str]) -> dict[str, int]:
        """Counts over these users: active (not superseded, time-to-live not over), expired (not superseded,
        time-to-live over), superseded."""
        return dict(conn.execute(self.query(conn, "active_facts_summary"), {"user_keys": list(user_keys)}).fetchone())

    def facts_for_display(self, conn, user_keys: Sequence[str]) -> list[dict[str, Any]]:
        """All fact versions of these users, active first, oldest first within each user."""
        return conn.execute(self.query(conn, "facts_for_display"), {"user_keys": list(user_keys)}).fetchall()
