"""Sample chat memory for the demo and the tests: MemoryBank conversations written as n8n rows.

MemoryBank (Zhong et al., AAAI 2024; MIT, see sample_data/LICENSE-MemoryBank.md) has, per user, a list of
query/response pairs for each of 10 dated days. Each user becomes one n8n session key (`memorybank:<name>`);
each day one conversation, starting at a deterministic time between 08:00 and 20:00 UTC, a query followed by the
answer 5-40 s later and the next query 1-4 minutes after, so the day's messages form one conversation under the
default 3-hour idle gap.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from importlib import resources
from typing import Any
from zoneinfo import ZoneInfo

import psycopg
from psycopg import sql
from psycopg.types.json import Jsonb

from memory_pipeline.db import sql_text
from memory_pipeline.settings import ENV_PREFIX, Settings
from memory_pipeline.settings_env import save_settings

SESSION_PREFIX = "memorybank:"


@dataclass(frozen=True)
class SampleRow:
    """One row to insert: n8n's columns (`id` None = let SERIAL assign it)."""

    session_id: str
    message: Any
    created_at: datetime | None
    id: int | None = None


def load_memory_bank() -> dict[str, Any]:
    """The bundled MemoryBank English file: {name: {"history": {"YYYY-MM-DD": [{"query", "response"}]}}}."""
    text = resources.files("memory_pipeline.sample_data").joinpath("memory_bank_en.json").read_text()
    return json.loads(text)


def _jitter(seed: str, low: int, high: int) -> int:
    """Deterministic integer in [low, high] from a string (sha256), so the demo is the same on every machine."""
    return low + int(hashlib.sha256(seed.encode()).hexdigest()[:8], 16) % (high - low + 1)


def memory_bank_rows(data: dict[str, Any], users: Iterable[str] | None = None) -> Iterator[SampleRow]:
    """n8n rows (flat LangChain-JS shape, human then ai) for the given users (stripped names; default all)."""
    wanted = {u.strip() for u in users} if users is not None else None
    for raw_name in sorted(data, key=str.strip):
        name = raw_name.strip()
        if wanted is not None and name not in wanted:
            continue
        session = SESSION_PREFIX + name.lower().replace(" ", "_")
        for day in sorted(data[raw_name]["history"]):
            at = datetime.fromisoformat(day).replace(tzinfo=timezone.utc)
            at += timedelta(minutes=_jitter(f"{name}/{day}", 8 * 60, 20 * 60))
            for turn, pair in enumerate(data[raw_name]["history"][day]):
                yield SampleRow(session, {"type": "human", "content": pair["query"], "additional_kwargs": {},
                                          "response_metadata": {}}, at)
                at += timedelta(seconds=_jitter(f"{name}/{day}/{turn}/a", 5, 40))
                yield SampleRow(session, {"type": "ai", "content": pair["response"], "tool_calls": [],
                                          "invalid_tool_calls": [], "additional_kwargs": {},
                                          "response_metadata": {}}, at)
                at += timedelta(seconds=_jitter(f"{name}/{day}/{turn}/q", 60, 240))


def memory_bank_days(data: dict[str, Any], timezone_name: str = "UTC") -> list[str]:
    """Every local day (YYYY-MM-DD, in `timezone_name`) on which a sample message falls, sorted: the partitions
    that hold the sample's conversations. Far from UTC a conversation's local day differs from MemoryBank's date."""
    zone = ZoneInfo(timezone_name)
    return sorted({row.created_at.astimezone(zone).date().isoformat() for row in memory_bank_rows(data)})


def create_n8n_table(conn: psycopg.Connection, settings: Settings) -> None:
    """Create the n8n chat-memory table as n8n does (plus created_at), if missing."""
    conn.execute(sql.SQL(sql_text("n8n_table.sql")).format(
        source=sql.Identifier(settings.source_schema, settings.source_table),
        source_schema=sql.Identifier(settings.source_schema),
    ))


def insert_rows(conn: psycopg.Connection, settings: Settings, rows: Iterable[SampleRow]) -> int:
    """Insert rows one by one as n8n does (explicit ids kept, then the id sequence moved past them).
    Returns the number inserted."""
    source = sql.Identifier(settings.source_schema, settings.source_table)
    with_id = sql.SQL("INSERT INTO {} (id, session_id, message, created_at) VALUES (%s, %s, %s, %s)").format(source)
    without_id = sql.SQL("INSERT INTO {} (session_id, message, created_at) VALUES (%s, %s, %s)").format(source)
    count = 0
    explicit = False
    with conn.transaction():
        for row in rows:
            if row.id is not None:
                conn.execute(with_id, (row.id, row.session_id, Jsonb(row.message), row.created_at))
                explicit = True
            else:
                conn.execute(without_id, (row.session_id, Jsonb(row.message), row.created_at))
            count += 1
        if explicit:
            # pg_get_serial_sequence takes the table name as SQL text: quote it like an identifier.
            conn.execute(sql.SQL("SELECT setval(pg_get_serial_sequence(%s, 'id'), (SELECT max(id) FROM {}))").format(
                source), (source.as_string(conn),))
    return count


def fixture_rows(lines: Iterable[str]) -> list[SampleRow]:
    """Rows of a `message_shapes.jsonl`-style file (`id`, `session_id`, `created_at` ISO or null, `message`)."""
    rows = []
    for line in lines:
        if not line.strip():
            continue
        record = json.loads(line)
        created = record.get("created_at")
        rows.append(SampleRow(
            id=record["id"], session_id=record["session_id"], message=record["message"],
            created_at=datetime.fromisoformat(created.replace("Z", "+00:00")) if created else None,
        ))
    return rows


def demo_partition_range(settings: Settings, days: list[str], environ: Mapping[str, str]) -> Settings:
    """Settings whose daily partitions run over the sample's days only, so the catalog after the demo shows its
    ten days materialized rather than ten among every day since 2023 up to yesterday (all "missing", and the
    freshness checks failing on yesterday). Saved in the home's settings.env (`settings_env.save_settings`) for the
    later `memory-pipeline ui`; a MEMORY_PIPELINE_PARTITIONS_START/END set in `environ` is kept as it is."""
    chosen = {name: value for name, value in (("partitions_start", days[0]), ("partitions_end", days[-1]))
              if not (environ.get(ENV_PREFIX + name.upper()) or "").strip()}
    if not chosen:
        return settings
    save_settings(environ, chosen)
    return settings.model_copy(update={name: date.fromisoformat(value) for name, value in chosen.items()})
