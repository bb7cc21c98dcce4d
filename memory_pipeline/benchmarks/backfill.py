"""Backfill benchmark: the same days consolidated by `memory-pipeline materialize --date A --to B` and by a
backfill launched through the webserver (GraphQL `launchPartitionBackfill`, what the UI's *Launch backfill*
sends) on the production shape (gRPC code server, daemon and webserver as separate processes).

`memory-pipeline benchmark-backfill --days 30` writes MemoryBank's ten days shifted to fill that many days
(a copy per ten days, session keys `shift<k>:<name>`) into two scratch tables and pipeline schemas of the
configured database, one per path so both start from nothing, times both, prints the figures and the ratio,
and drops the scratch schemas (Dagster's scratch storage too). Figures are printed, never asserted.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

from psycopg import sql

from memory_pipeline import sample, services
from memory_pipeline.db import ensure_schema, get_pool, resolve_database_url
from memory_pipeline.settings import ENV_PREFIX, Settings
from memory_pipeline.store import Store

ASSETS = ["closed_sessions", "session_summaries", "extracted_facts", "active_facts", "archived_sessions"]
SAMPLE_DAYS = 10  # MemoryBank's English sample covers ten days


def shifted_rows(days: int) -> list[sample.SampleRow]:
    """MemoryBank's rows copied ceil(days / 10) times, copy k shifted by 10*k days, cut to the first `days` days."""
    base = list(sample.memory_bank_rows(sample.load_memory_bank()))
    first = min(r.created_at for r in base).date()
    rows = []
    for copy in range((days + SAMPLE_DAYS - 1) // SAMPLE_DAYS):
        for row in base:
            at = row.created_at + timedelta(days=SAMPLE_DAYS * copy)
            if (at.date() - first).days < days:
                rows.append(replace(row, session_id=f"shift{copy}:{row.session_id.split(':', 1)[1]}", created_at=at))
    return rows


def _scratch(base: Settings, url: str, tag: str) -> Settings:
    settings = base.model_copy(update={"schema_name": tag, "source_table": tag, "dagster_schema": f"{tag}_dagster",
                                       "database_url": url})
    with get_pool(url).connection() as conn:
        ensure_schema(conn, settings)
        sample.create_n8n_table(conn, settings)
    return settings


def _settings_env(settings: Settings) -> dict[str, str]:
    return {ENV_PREFIX + k.upper(): str(v) for k, v in settings.model_dump(mode="json").items() if v is not None}


def run(days: int = 30) -> dict[str, float]:
    """Load, time both paths, print figures, clean up. Returns {"cli": s, "webserver_backfill": s, ...}."""
    base = Settings.from_env()
    url = resolve_database_url(base)
    rows = shifted_rows(days)
    keys = sorted({r.created_at.date().isoformat() for r in rows})
    first, last = keys[0], keys[-1]
    tag = f"mp_bfb_{os.getpid()}"
    cli_settings, web_settings = _scratch(base, url, f"{tag}_cli"), _scratch(base, url, f"{tag}_web")
    figures: dict[str, float] = {}
    try:
        with get_pool(url).connection() as conn:
            for settings in (cli_settings, web_settings):
                sample.insert_rows(conn, settings, rows)
        with tempfile.TemporaryDirectory(prefix="mpb") as scratch:
            home = Path(scratch)
            cli_env = services.services_environment(_settings_env(cli_settings), url, home / "cli" / "dagster",
                                                    cli_settings.dagster_schema)
            cli_env["MEMORY_PIPELINE_HOME"] = str(home / "cli")
            started = time.perf_counter()
            done = subprocess.run([str(Path(sys.executable).parent / "memory-pipeline"), "materialize", "--date", first,
                                   "--to", last], env=cli_env, capture_output=True, text=True)
            figures["cli"] = time.perf_counter() - started
            if done.returncode != 0:
                raise RuntimeError(f"memory-pipeline materialize failed: {done.stderr[-1000:]}")

            web_env = services.services_environment(_settings_env(web_settings), url, home / "web" / "dagster",
                                                    web_settings.dagster_schema)
            started = time.perf_counter()
            with services.production_services(web_env, home / "web") as web:
                figures["services_start"] = time.perf_counter() - started
                started = time.perf_counter()
                backfill = services.launch_asset_backfill(web, ASSETS, keys)
                status = services.wait_for_backfill(web, backfill, timeout=3600)
                figures["webserver_backfill"] = time.perf_counter() - started
        with get_pool(url).connection() as conn:
            counts = {}
            for name, settings in (("cli", cli_settings), ("webserver", web_settings)):
                store = Store(settings)
                counts[name] = (store.scalar(conn, "count_facts"),
                                conn.execute(sql.SQL("SELECT count(*) AS n FROM {}.conversations").format(
                                    sql.Identifier(settings.schema_name))).fetchone()["n"])
    finally:
        with get_pool(url).connection() as conn:
            for settings in (cli_settings, web_settings):
                conn.execute(Store(settings).query(conn, "drop_pipeline_and_source"))
                conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(settings.dagster_schema)))
    print(f"{days} daily partitions ({first} .. {last}), {len(rows)} messages, offline extractor")
    print(f"  memory-pipeline materialize --date {first} --to {last}   {figures['cli']:7.1f} s  "
          f"({counts['cli'][1]} conversations, {counts['cli'][0]} facts)")
    print(f"  backfill through the webserver (launch -> {status})       {figures['webserver_backfill']:7.1f} s  "
          f"({counts['webserver'][1]} conversations, {counts['webserver'][0]} facts)")
    print(f"  ratio webserver backfill / CLI                            {figures['webserver_backfill'] / figures['cli']:7.2f}")
    print(f"  (starting code server, daemon and webserver took {figures['services_start']:.1f} s, not counted)")
    return figures
