"""`memory-pipeline recall`: what the agent would receive, the facts block or a search. Imports no Dagster."""

from __future__ import annotations

import argparse
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from memory_pipeline.commands.common import date_argument, open_database, user_key_argument
from memory_pipeline.db import get_pool
from memory_pipeline.recall import ConversationHit, prompt_block, search_conversations, search_memory
from memory_pipeline.settings import Settings
from memory_pipeline.store import Store


def run(args: argparse.Namespace) -> int:
    """Print what the agent would receive: the prompt block, with --query the facts found, with --conversations
    the conversations found (date, summary, then their facts)."""
    settings: Settings = args.settings
    if not args.all_users:
        user_key_argument(args.user)
    # Arguments are checked before the database is opened: a typo costs no server start.
    day = date_argument(args.as_of, "--as-of") + timedelta(days=1) if args.as_of else None
    database_url, store = open_database(settings), Store(settings)
    as_of = None
    if day is not None:
        # The end of that day in the partitions' timezone: facts said that day count, TTL judged then.
        as_of = datetime(day.year, day.month, day.day, tzinfo=ZoneInfo(settings.timezone))
    if args.all_users:
        with get_pool(database_url).connection() as conn:
            users = [r["user_key"] for r in conn.execute(store.query(conn, "recall_users")).fetchall()]
    else:
        users = [args.user]
    for user in users:
        if args.all_users:
            print(f"# {user}")
        if args.conversations is not None:
            _print_conversations(search_conversations(database_url, user, args.conversations, args.k or 3,
                                                      settings=settings, record=args.record, as_of=as_of))
        elif args.query is None:
            block = prompt_block(database_url, user, args.n, settings=settings, record=args.record,
                                 as_of=as_of)
            print(block if block else "(no recallable facts)")
        else:
            hits = search_memory(database_url, user, args.query, args.k or 5, settings=settings,
                                 record=args.record, as_of=as_of)
            for hit in hits:
                score = f"distance {hit.score:.3f}" if hit.method == "vector" else f"text rank {hit.score:.3f}"
                print(f"- [{hit.valid_from.astimezone(ZoneInfo(settings.timezone)):%Y-%m-%d}] {hit.fact}  "
                      f"({hit.category}; {score})")
            if not hits:
                print("(no matching recallable facts)")
    return 0


def _print_conversations(hits: list[ConversationHit]) -> None:
    """One paragraph per conversation: `[date] summary  (score)`, then its facts, `  - [date] fact (category)`."""
    for hit in hits:
        score = f"distance {hit.score:.3f}" if hit.method == "vector" else f"text rank {hit.score:.3f}"
        print(f"[{hit.conversation_date:%Y-%m-%d}] {hit.summary}  ({score})")
        for fact in hit.facts:
            print(f"  - [{fact['date']}] {fact['fact']}  ({fact['category']})")
    if not hits:
        print("(no matching conversations)")
