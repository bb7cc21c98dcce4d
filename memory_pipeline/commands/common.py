"""What the commands share: counted nouns, the usage error, date arguments, the database a command works on."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date
from typing import TextIO

from memory_pipeline.settings import MAX_DATE, MIN_DATE, Settings


def plural(count: int, noun: str, plural_form: str | None = None) -> str:
    """`count` and `noun` agreeing in number: "1 row", "2 rows", plural(3, "entry", "entries")."""
    return f"{count} {noun if count == 1 else (plural_form or noun + 's')}"


class UsageError(ValueError):
    """A malformed command-line value; the message says the expected form."""


class RangeInterrupted(RuntimeError):
    """A range of days stopped by `cause` (the database lost, ...): `done` are the days that ran (each printed
    with its outcome), `not_run` the days that did not. The CLI says both after the cause's one-line message."""

    def __init__(self, cause: Exception, done: list[str], not_run: list[str]):
        super().__init__(str(cause))
        self.cause, self.done, self.not_run = cause, done, not_run

    def progress(self) -> str:
        done = ", ".join(self.done) or "none"
        return f"days done: {done}; not run: {', '.join(self.not_run)} (run them again with materialize)"


def date_argument(text: str, option: str) -> date:
    """The date of `option`'s value (YYYY-MM-DD, between settings.MIN_DATE and MAX_DATE, the range of the date
    settings: a later day has no next day for a window to end on). Raises UsageError naming the option."""
    try:
        value = date.fromisoformat(text)
    except ValueError:
        raise UsageError(f"{option} {text!r} is not a date: use YYYY-MM-DD, e.g. 2023-05-01") from None
    if not MIN_DATE <= value <= MAX_DATE:
        raise UsageError(f"{option} {value} is out of range: use a date between {MIN_DATE} and {MAX_DATE}")
    return value


def user_key_argument(text: str, option: str = "--user") -> str:
    """`option`'s user key as given; raises UsageError for an empty or blank one (no user has it: the pipeline
    rejects such keys, blank_session_key / blank_user_key)."""
    if not text.strip():
        raise UsageError(f"{option} is empty: give a user key (the session key, or what "
                         "MEMORY_PIPELINE_USER_KEY_REGEX maps it to)")
    return text


def open_database(settings: Settings) -> str:
    """The database URL of `settings` (starting the embedded server if needed), its schema applied (idempotent):
    what a command that only reads or writes the pipeline's tables needs, without Dagster."""
    from memory_pipeline.db import ensure_schema, get_pool, resolve_database_url

    url = resolve_database_url(settings)
    with get_pool(url).connection() as conn:
        ensure_schema(conn, settings)
    return url


def require_source_table(settings: Settings, database_url: str) -> None:
    """Raise SourceTableMissing (its message names the table, the settings that point at it and how to create it)
    unless n8n's table exists: checked before a run, so a missing table is one line, not a failed run's trace."""
    from memory_pipeline.db import get_pool
    from memory_pipeline.store import Store

    with get_pool(database_url).connection() as conn:
        Store(settings).source_columns(conn)


@contextmanager
def terminal_only_for_the_command(verbose: bool) -> Iterator[TextIO]:
    """Yield the stream for the command's own messages (the terminal's stderr), and unless `verbose`, send what
    the libraries write to stderr meanwhile to /dev/null: Dagster writes some failures straight to sys.stderr
    ("Exception while writing logger call to event log"), libpq prints a server's FATAL notices from C, beside
    the logging the CLI quiets. The runs' events stay in Dagster's event log. Both are restored on exit, so the
    CLI's closing line (or a bug's traceback) reaches the terminal."""
    if verbose:
        yield sys.stderr
        return
    sys.stderr.flush()
    saved = os.dup(2)
    terminal = os.fdopen(os.dup(saved), "w", buffering=1)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 2)
    os.close(devnull)
    try:
        yield terminal
    finally:
        sys.stderr.flush()
        os.dup2(saved, 2)
        os.close(saved)
        terminal.close()
