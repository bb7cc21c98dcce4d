"""The commands that run Dagster: `ui` (dagster dev) and `materialize` (partitions in this process)."""

from __future__ import annotations

import argparse
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from memory_pipeline.commands.common import (
    RangeInterrupted, UsageError, date_argument, plural, require_source_table, terminal_only_for_the_command,
)


def ui(args: argparse.Namespace) -> int:
    """Run `dagster dev` (webserver + daemon, so the nightly schedule ticks) on the same database, as a child in
    its own process group: SIGTERM, SIGINT (Ctrl-C) and SIGHUP stop it with all its children."""
    from memory_pipeline.runner import REPO_ROOT, prepare
    from memory_pipeline.services import dagster_command, run_supervised

    env = prepare(args.settings)
    print(f"Dagster home: {env.dagster_home}; storage and data in the same PostgreSQL.", flush=True)
    argv = [dagster_command("dagster"), "dev", "-w", str(REPO_ROOT / "workspace.yaml"), "-h", args.host,
            "-p", str(args.port)]
    return run_supervised(argv)


def materialize(args: argparse.Namespace) -> int:
    """Materialize partitions from --date to --to (inclusive) in this process, recorded in the Dagster instance."""
    if args.today:
        if args.to:
            raise UsageError("--to goes with --date, not --today")
        from memory_pipeline.commands.n8n import materialize_today

        return materialize_today(args)
    first = date_argument(args.date, "--date")
    last = date_argument(args.to, "--to") if args.to else first
    if last < first:
        raise UsageError(f"--to {last} is before --date {first}")
    with terminal_only_for_the_command(args.verbose) as terminal:
        return _materialize_range(args, first, last, terminal)


def _materialize_range(args: argparse.Namespace, first, last, terminal) -> int:
    """`materialize --date first --to last` once the arguments are read; `terminal` takes the notices."""
    from memory_pipeline.runner import (
        failed_conversations, failure_reason, materialization_metadata, materialize_days, prepare,
        rows_left_behind,
    )

    env = prepare(args.settings)
    days = [(first + timedelta(days=i)).isoformat() for i in range((last - first).days + 1)]
    yesterday = datetime.now(ZoneInfo(env.settings.timezone)).date() - timedelta(days=1)
    end = min(yesterday, env.settings.partitions_end or yesterday)
    if first < env.settings.partitions_start or last > end:
        raise UsageError(f"partitions run from {env.settings.partitions_start} (MEMORY_PIPELINE_PARTITIONS_START) "
                         f"to {end} (MEMORY_PIPELINE_PARTITIONS_END, else yesterday in {env.settings.timezone}); "
                         "a day is materialized once it is over.")
    require_source_table(env.settings, env.database_url)
    done: list[str] = []

    def print_result(day: str, result) -> None:  # as each day ends, not after the range
        done.append(day)
        closed = materialization_metadata(result, "closed_sessions")
        counts = (f"{plural(closed.get('conversations_closed', 0), 'conversation')} closed, "
                  f"{closed.get('conversations_deferred', 0)} deferred") if closed else "no metadata"
        print(f"{day}: {'ok' if result.success else 'FAILED'} ({counts}; run {result.run_id})", flush=True)
        if not result.success and failure_reason(result):
            print(f"  {failure_reason(result)}", flush=True)
        if failed_conversations(result):  # the others are consolidated; these are tried again by the next run
            print(f"  not consolidated after a failed LLM call: {failed_conversations(result)}", flush=True)
        if rows_left_behind(result):
            print(f"  {rows_left_behind(result)}", flush=True)
        if closed and not closed.get("source_has_created_at", True):
            print(f"  {closed['note']}", flush=True)

    try:
        results = materialize_days(env, days, quiet=not args.verbose, on_result=print_result,
                                   notify=lambda message: print(f"memory-pipeline: {message}", file=terminal))
    except Exception as exc:
        if len(days) == 1:
            raise
        raise RangeInterrupted(exc, done, days[len(done):]) from exc
    return 0 if all(r.success for r in results) else 1
