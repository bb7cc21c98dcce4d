"""What the commands share: counted nouns, the usage error, date arguments, the database a command works on."""

from __future__ import annotations

from datetime import date

from memory_pipeline.settings import Settings


def plural(count: int, noun: str, plural_form: str | None = None) -> str:
    """`count` and `noun` agreeing in number: "1 row", "2 rows", plural(3, "entry", "entries")."""
    return f"{count} {noun if count == 1 else (plural_form or noun + 's')}"


class UsageError(ValueError):
    """A malformed command-line value; the message says the expected form."""


def date_argument(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise UsageError(f"{text!r} is not a date: use YYYY-MM-DD, e.g. 2023-05-01") from None


def open_database(settings: Settings) -> str:
    """The database URL of `settings` (starting the embedded server if needed), its schema applied (idempotent):
    what a command that only reads or writes the pipeline's tables needs, without Dagster."""
    from memory_pipeline.db import ensure_schema, get_pool, resolve_database_url

    url = resolve_database_url(settings)
    with get_pool(url).connection() as conn:
        ensure_schema(conn, settings)
    return url
