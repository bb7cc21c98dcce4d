"""Fault-injection figures: one night per fault, through the real Dagster job on the configured database, each
printed as tries, failures recorded and messages lost. The tests assert the same behaviours one by one
(memory_pipeline_tests/test_fault_injection_llm.py, extractors/test_llm_outage.py, test_hostile_rows.py); this
prints the figures a report quotes:

    python -m memory_pipeline.testing.fault_report [--conversations N]

Each scenario runs in a schema and n8n table of its own (`fault_<n>`, dropped afterwards) on
MEMORY_PIPELINE_DATABASE_URL or the embedded server of MEMORY_PIPELINE_HOME. LLM scenarios start the scripted
server (`openai_server`) failing one conversation's every request in one way, or every request (an outage,
timeout 1 s, 1 retry, 4 in flight, breaker at 4). Columns: `requests` the chat requests the server received;
`consolidated` conversations whose facts were extracted; `facts` active facts after the night; `lost` message ids
in neither n8n's table nor the archive (must be 0); `run` the night's status (a night with a failure must be
FAILED, i.e. red); `next` the next night's status with the server answering; `left` the rows still in n8n's table
after it (must be 0); then the conversations recorded as failed (LLM) or the rows rejected (hostile rows), by
reason.
"""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

import dagster as dg
from psycopg import sql

from memory_pipeline import sample
from memory_pipeline.db import ensure_schema, get_pool, resolve_database_url
from memory_pipeline.settings import Settings
from memory_pipeline.testing.openai_server import Reply, ScriptedOpenAIServer, transcript_responder

DAY = "2026-05-03"
NOON = datetime(2026, 5, 3, 12, tzinfo=timezone.utc)
VICTIM_MARK = "Zanzibar"  # only the failing conversation says it
# Each way a server fails one request: the reply, and the reason the pipeline records for it.
LLM_FAULTS: dict[str, tuple[Reply, str]] = {
    "http_500": (Reply(status=500), "server_error"),
    "http_429": (Reply(status=429, headers={"Retry-After": "0"}), "rate_limited"),
    "timeout": (Reply(delay=3.0, content="{}"), "timeout"),
    "html_200": (Reply(body="<html><body><h1>502 Bad Gateway</h1></body></html>"), "server_error"),
    "no_choices": (Reply(body=json.dumps({"id": "x", "object": "chat.completion", "created": 0, "model": "m",
                                          "choices": []})), "invalid_output"),
    "invalid_json": (Reply(content='{"summary": "The user'), "invalid_output"),
    "empty": (Reply(content=""), "invalid_output"),
    "two_megabytes": (Reply(content="x" * 2_000_000), "invalid_output"),
}
# Hostile rows (the message column's value as SQL text, the column type it needs): each must be rejected with a
# reason or give a clean fact, and never fail the night.
HOSTILE_ROWS: dict[str, tuple[str | None, str]] = {
    "nested_1000_deep": ('{"type": "human", "content": ' + "[" * 1000 + '"x"' + "]" * 1000 + "}", "jsonb"),
    "null_message": (None, "jsonb"),
    "sql_punctuation": ('{"type": "human", "content": "I live in Rome\'); DROP TABLE agent_facts; --"}', "jsonb"),
    "lone_surrogate": ('{"type": "human", "content": "I live in Kyiv \\udc00."}', "json"),
    "zero_width_space": ('{"type": "human", "content": "My name is Jo\\u200bhn."}', "jsonb"),
    "bidi_override": ('{"type": "human", "content": "I live in \\u202eRome\\u202c."}', "jsonb"),
}


@dataclass
class Night:
    """One scenario's figures (see the module docstring for each column)."""

    scenario: str
    requests: int = 0
    failed: dict[str, int] | None = None
    consolidated: int = 0
    lost: int = 0
    run: str = ""
    next_run: str = ""
    left: int = 0
    rejected: dict[str, int] | None = None
    facts: int = 0


class _Install:
    """A schema and n8n table of their own on the database, the nightly job, and a few reads."""

    counter = 0

    def __init__(self, database_url: str, **settings: object):
        _Install.counter += 1
        name = f"fault_{os.getpid()}_{_Install.counter}"
        self.settings = Settings(database_url=database_url, schema_name=name, source_table=name,
                                 partitions_start="2023-01-01", **settings)
        self.pool = get_pool(database_url)
        with self.pool.connection() as conn:
            ensure_schema(conn, self.settings)
            sample.create_n8n_table(conn, self.settings)

    def run(self) -> str:
        from memory_pipeline.defs.nightly import JOB_NAME, build_definitions
        from memory_pipeline.runner import QUIET_RUN_CONFIG

        job = build_definitions(self.settings).resolve_job_def(JOB_NAME)
        with dg.DagsterInstance.ephemeral() as instance:
            result = job.execute_in_process(partition_key=DAY, instance=instance, raise_on_error=False,
                                            run_config=QUIET_RUN_CONFIG)
        return "ok" if result.success else "FAILED"

    def scalar(self, query: str, params: tuple = ()) -> object:
        with self.pool.connection() as conn:
            return conn.execute(sql.SQL(query).format(
                schema=sql.Identifier(self.settings.schema_name),
                source=sql.Identifier(self.settings.source_schema, self.settings.source_table)), params
            ).fetchone()["v"]

    def ids(self, table: str) -> set[int]:
        return set(self.scalar(f"SELECT coalesce(array_agg(id), ARRAY[]::bigint[]) AS v FROM {table}"))

    def figures(self, night: Night, ids: set[int]) -> None:
        night.failed = dict(self.scalar("SELECT coalesce(jsonb_object_agg(reason, n), '{{}}') AS v FROM (SELECT "
                                        "reason, count(*) AS n FROM {schema}.extraction_failures GROUP BY 1) r"))
        night.consolidated = self.scalar("SELECT count(*) AS v FROM {schema}.conversations "
                                         "WHERE facts_extracted_at IS NOT NULL")
        night.lost = len(ids - self.ids("{source}") - self.ids("{schema}.chat_archive"))
        night.rejected = dict(self.scalar("SELECT coalesce(jsonb_object_agg(reason, n), '{{}}') AS v FROM (SELECT "
                                          "reason, count(*) AS n FROM {schema}.message_rejections "
                                          "WHERE status = 'rejected' GROUP BY 1) r"))
        night.facts = self.scalar("SELECT count(*) AS v FROM {schema}.agent_facts WHERE superseded_at IS NULL")

    def drop(self) -> None:
        with self.pool.connection() as conn:
            conn.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(sql.Identifier(self.settings.schema_name)))
            conn.execute(sql.SQL("DROP TABLE {}").format(
                sql.Identifier(self.settings.source_schema, self.settings.source_table)))


def _said(users: int, victim: bool) -> list[sample.SampleRow]:
    rows = [sample.SampleRow(f"user{i:03d}", {"type": "human", "content": f"I live in City{i}."},
                             NOON + timedelta(minutes=i)) for i in range(users)]
    if victim:
        rows.append(sample.SampleRow("victim", {"type": "human", "content": f"I live in {VICTIM_MARK}."}, NOON))
    return rows


def llm_night(database_url: str, scenario: str, responder: Callable[[dict], Reply], users: int,
              **settings: object) -> Night:
    """A night of `users` conversations (plus the victim's) against `responder`, then the next one against a
    server that answers."""
    night = Night(scenario)
    with ScriptedOpenAIServer(responder) as server:
        os.environ["OPENAI_BASE_URL"] = server.base_url
        install = _Install(database_url, extractor="openai", **settings)
        with install.pool.connection() as conn:
            sample.insert_rows(conn, install.settings, _said(users, victim=True))
        ids = install.ids("{source}")
        night.run = install.run()
        night.requests = len(server.chat_requests())
    install.figures(night, ids)
    with ScriptedOpenAIServer(transcript_responder) as server:
        os.environ["OPENAI_BASE_URL"] = server.base_url
        night.next_run = install.run()
    night.left = len(install.ids("{source}"))
    install.drop()
    return night


def hostile_night(database_url: str, scenario: str, message: str | None, column_type: str) -> Night:
    """A night (offline extractor) of one user's ordinary row and one hostile row."""
    night = Night(scenario)
    install = _Install(database_url)
    table = sql.Identifier(install.settings.source_schema, install.settings.source_table)
    with install.pool.connection() as conn:
        sample.insert_rows(conn, install.settings, _said(1, victim=False))
        conn.execute(sql.SQL("ALTER TABLE {} ALTER COLUMN message DROP NOT NULL").format(table))
        if column_type != "jsonb":
            conn.execute(sql.SQL("ALTER TABLE {} ALTER COLUMN message TYPE json").format(table))
        conn.execute(sql.SQL("INSERT INTO {} (session_id, message, created_at) VALUES (%s, %s::{}, %s)").format(
            table, sql.SQL(column_type)), ("hostile", message, NOON + timedelta(minutes=5)))
    ids = install.ids("{source}")
    night.run = install.run()
    install.figures(night, ids)
    night.next_run = install.run()
    night.left = len(install.ids("{source}"))
    install.drop()
    return night


def main(argv: list[str] | None = None) -> None:
    """Run every scenario and print one line each."""
    parser = argparse.ArgumentParser(description="fault-injection figures (tries, failures, nothing lost)")
    parser.add_argument("--conversations", type=int, default=20, help="ordinary conversations per LLM night")
    args = parser.parse_args(argv)
    os.environ.pop("OPENAI_API_KEY", None)
    database_url = resolve_database_url(Settings.from_env())
    os.environ["MEMORY_PIPELINE_DATABASE_URL"] = database_url  # the runs' resource reads it from there
    nights = []
    for mode, (reply, _) in LLM_FAULTS.items():
        nights.append(llm_night(database_url, f"llm {mode}, 1 conversation", lambda body, r=reply: (
            r if VICTIM_MARK in json.dumps(body["messages"]) else transcript_responder(body)), args.conversations,
            llm_max_retries=1, llm_timeout_seconds=1, llm_max_in_flight=4))
    nights.append(llm_night(database_url, "llm outage, server never answers", lambda body: Reply(delay=3.0),
                            args.conversations, llm_max_retries=1, llm_timeout_seconds=1, llm_max_in_flight=4,
                            llm_breaker_failures=4))
    for kind, (message, column_type) in HOSTILE_ROWS.items():
        nights.append(hostile_night(database_url, f"row {kind}", message, column_type))
    print(f"{'scenario':36} {'requests':>8} {'consolidated':>12} {'facts':>5} {'lost':>4} {'run':>6} {'next':>4} "
          f"{'left':>4}  failed / rejected")
    for n in nights:
        detail = json.dumps(n.failed or {}) if n.scenario.startswith("llm") else json.dumps(n.rejected or {})
        print(f"{n.scenario:36} {n.requests:>8} {n.consolidated:>12} {n.facts:>5} {n.lost:>4} {n.run:>6} "
              f"{n.next_run:>4} {n.left:>4}  {detail}")
    print(f"{len(nights)} nights; messages lost: {sum(n.lost for n in nights)}; rows left after the next night: "
          f"{sum(n.left for n in nights)}")


if __name__ == "__main__":
    main()
