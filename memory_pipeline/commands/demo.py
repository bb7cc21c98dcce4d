"""`memory-pipeline demo`: the MemoryBank sample through the whole pipeline, each user's facts printed."""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from collections import defaultdict
from datetime import date, datetime, timezone

from memory_pipeline.commands.common import plural
from memory_pipeline.db import get_pool
from memory_pipeline.settings_env import saved_settings_path
from memory_pipeline.store import Store


def run(args: argparse.Namespace) -> int:
    """Load MemoryBank as n8n rows, materialize every day through Dagster, print each user's facts."""
    from memory_pipeline import sample
    from memory_pipeline.domain.quotes import normalize_whitespace
    from memory_pipeline.runner import failed_conversations, materialize_days, prepare

    data = sample.load_memory_bank()
    days = sample.memory_bank_days(data, args.settings.timezone)
    env = prepare(sample.demo_partition_range(args.settings, days, os.environ))
    settings = env.settings
    if not settings.partitions_start <= date.fromisoformat(days[0]) <= (settings.partitions_end or date.max):
        print(f"The sample runs {days[0]}..{days[-1]} but partitions run {settings.partitions_start}.."
              f"{settings.partitions_end or 'yesterday'}: unset MEMORY_PIPELINE_PARTITIONS_START/END.", file=sys.stderr)
        return 2
    pool = get_pool(env.database_url)
    store = Store(settings)
    with pool.connection() as conn:
        sample.create_n8n_table(conn, settings)
        foreign = store.scalar(conn, "rows_outside_prefix", {"prefix": sample.SESSION_PREFIX})
        if foreign:
            print(f"{settings.source_schema}.{settings.source_table} holds {plural(foreign, 'row')} that are not demo rows: "
                  "the demo would consolidate and purge real conversations of its days. Point "
                  "MEMORY_PIPELINE_SOURCE_TABLE (and MEMORY_PIPELINE_SCHEMA_NAME) at a table and schema of their own"
                  + ("." if settings.database_url else ", or MEMORY_PIPELINE_HOME at a fresh directory."),
                  file=sys.stderr)
            return 2
        keys = conn.execute(store.query(conn, "session_keys_with_prefix"), {"prefix": sample.SESSION_PREFIX}).fetchall()
        if keys:
            print(f"Sample already loaded ({plural(len(keys), 'session key')}): re-materializing, nothing is duplicated.")
        else:
            inserted = sample.insert_rows(conn, settings, sample.memory_bank_rows(data))
            print(f"Loaded {plural(inserted, 'MemoryBank message')} into {settings.source_schema}.{settings.source_table} "
                  f"as n8n rows ({plural(len(data), 'user')}, {plural(len(sample.memory_bank_days(data)), 'day')}).")
    span = f"{settings.partitions_start}..{settings.partitions_end or 'yesterday'}"
    saved = "" if span == f"{days[0]}..{days[-1]}" else f"; the partitions run {span}"  # said once when the same
    print(f"Materializing {plural(len(days), 'daily partition')} ({days[0]}..{days[-1]}) through Dagster{saved} "
          f"({saved_settings_path(os.environ)}) ...")
    results = materialize_days(env, days)
    failed = [day for day, r in zip(days, results) if not r.success]
    users = sorted(sample.SESSION_PREFIX + n.strip().lower().replace(" ", "_") for n in data)
    said: dict[str, list[str]] = defaultdict(list)
    for row in sample.memory_bank_rows(data):
        if row.message["type"] == "human":
            said[row.session_id].append(normalize_whitespace(row.message["content"]))
    with pool.connection() as conn:
        facts = store.facts_for_display(conn, users)
        source_left = store.scalar(conn, "source_rows_of_sessions", {"keys": users})
        archived = store.scalar(conn, "archive_rows_of_sessions", {"keys": users})
        consolidated = store.scalar(conn, "conversations_of_sessions", {"keys": users})
    by_user: dict[str, list[dict]] = defaultdict(list)
    for fact in facts:
        by_user[fact["user_key"]].append(fact)
    unverified = 0
    now = datetime.now(timezone.utc)
    for user in users:
        current = [f for f in by_user[user] if f["superseded_at"] is None]
        n_expired = sum(1 for f in current if f["expires_at"] and f["expires_at"] <= now)
        # Active = not superseded and within its time-to-live; expired facts are kept and listed, not recalled.
        print(f"\n{user}: {plural(len(current) - n_expired, 'active fact')}, {n_expired} past their time-to-live, "
              f"{len(by_user[user]) - len(current)} superseded")
        for f in current:
            verbatim = any(normalize_whitespace(f["quote"]) in text for text in said[user])
            unverified += not verbatim
            expired = f" (time-to-live ended {f['expires_at']:%Y-%m-%d})" if f["expires_at"] and f["expires_at"] < now else ""
            print(f"  - [{f['valid_from']:%Y-%m-%d}] ({f['category']}) {f['fact']}{expired}")
            print(f"      quote{'' if verbatim else ' NOT FOUND'}: \"{f['quote']}\"")
    print(f"\n{len(results) - len(failed)}/{len(results)} partitions materialized; "
          f"{plural(consolidated, 'conversation')} consolidated; "
          f"{sum(1 for u in users if by_user[u])}/{len(users)} users with facts; "
          f"{plural(unverified, 'quote')} not found verbatim; {plural(source_left, 'sample row')} left in n8n's table, "
          f"{archived} in the archive.")
    if failed:
        print(f"Failed partitions: {', '.join(failed)} (open them in the UI for the error).", file=sys.stderr)
    for day, result in zip(days, results):
        if failed_conversations(result):
            print(f"{day}: not consolidated after a failed LLM call: {failed_conversations(result)}", file=sys.stderr)
    print("Facts of 2023 are past their time-to-live today (names do not expire): they are kept and flagged, not "
          "recalled."
          if any(f["expires_at"] and f["expires_at"] < now for f in facts) else "")
    # The home and the program are said in full, the default's too: pasted in another directory or shell, the
    # commands still open this database (a relative `.venv/bin/...` or a custom home would not).
    run = f"MEMORY_PIPELINE_HOME={shlex.quote(str(settings.home_path))} {shlex.quote(os.path.abspath(sys.argv[0]))}"
    print(f"What the agent would receive, as of the sample's last day:  {run} recall --user "
          f"{users[0]} --as-of {days[-1]}")
    print(f"Open the Dagster UI on the same data:  {run} ui   (then http://127.0.0.1:3000; Ctrl-C stops it)")
    return 1 if failed or unverified else 0
