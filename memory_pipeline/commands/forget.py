"""`memory-pipeline forget`: a user's every trace erased, or one of their facts forgotten."""

from __future__ import annotations

import argparse

from memory_pipeline.commands.common import UsageError, require_source_table, user_key_argument
from memory_pipeline.db import get_pool
from memory_pipeline.store import Store


def run(args: argparse.Namespace) -> int:
    """Erase a user (`--user`), forget one of their facts (`--user --fact`), or erase n8n rows by id (`--row`) or
    by their conversation's id (`--conversation`), for rows no user key reaches (a blank or malformed session key);
    prints counts, never the key."""
    from memory_pipeline import erasure
    from memory_pipeline.runner import prepare

    by_rows = args.row or args.conversation
    if by_rows:
        if args.fact is not None:
            raise UsageError(f"--fact goes with --user, not {'--row' if args.row else '--conversation'}")
    else:
        user_key_argument(args.user)
    env = prepare(args.settings)
    require_source_table(env.settings, env.database_url)  # an erasure deletes the user's rows there too
    store = Store(env.settings)
    with get_pool(env.database_url).connection() as conn:
        try:
            if args.conversation:
                rows = erasure.rows_of_conversation(store, conn, args.conversation)
                if not rows:
                    raise UsageError(f"no row of conversation {args.conversation} is known (message_rejections, "
                                     "chat_archive)")
                report = erasure.erase_rows(store, conn, rows)
            elif args.row:
                report = erasure.erase_rows(store, conn, args.row)
            elif args.fact is None:
                report = erasure.erase_user(store, conn, args.user)
            else:
                report = erasure.forget_fact(store, conn, args.user, args.fact)
        except (erasure.FactNotFound, ValueError) as exc:
            raise UsageError(str(exc)) from None
    counts = ", ".join(f"{table} {n}" for table, n in report.counts.items())
    print(f"erasure {report.erasure_id} ({report.scope}) at {report.erased_at:%Y-%m-%d %H:%M:%S %Z}: "
          f"{report.total} row{'' if report.total == 1 else 's'} removed ({counts}).")
    if report.total == 0:
        what = ("no row of these ids was found (already erased?)" if by_rows else
                "Nothing of that user key was found (already erased, or a typo: the key is the session key, or what "
                "MEMORY_PIPELINE_USER_KEY_REGEX maps it to)")
        print(f"{what[0].upper()}{what[1:]}. The request is logged in erasure_log all the same.")
    return 0
