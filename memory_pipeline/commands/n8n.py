"""Command bodies for the n8n side: `db n8n-credential` and `materialize --today` (the same-day trial)."""

from __future__ import annotations

import argparse
import os
import sys

from memory_pipeline.db import get_pool
from memory_pipeline.settings_env import save_settings, saved_settings_path
from memory_pipeline.n8n_access import (
    embedded_credential, ensure_n8n_role, ensure_source_table, grants, n8n_password, own_server_credential,
)


def n8n_credential(args: argparse.Namespace) -> int:
    """Print the fields of n8n's Postgres credential. Embedded server: needs MEMORY_PIPELINE_EMBEDDED_PORT;
    creates or updates the role `n8n` (rights of sql/n8n_role.sql, the password of `n8n_password`). Own server:
    the fields from MEMORY_PIPELINE_DATABASE_URL and the GRANTs to run for a role of your own. Exit status 2
    when the embedded server has no port."""
    from memory_pipeline.runner import prepare

    settings = args.settings
    if settings.database_url is None and not settings.embedded_port:
        print("memory-pipeline: n8n reaches the embedded database over TCP: set MEMORY_PIPELINE_EMBEDDED_PORT "
              "(e.g. 5433; MEMORY_PIPELINE_EMBEDDED_LISTEN defaults to 127.0.0.1), stop the server if it runs "
              "(`memory-pipeline db stop`), and run this again.", file=sys.stderr)
        return 2
    env = prepare(settings)  # the schema must exist before its functions can be granted
    with get_pool(env.database_url).connection() as conn:
        if settings.database_url is None:
            fields = embedded_credential(settings, n8n_password(settings, new=args.new_password))
            created = ensure_source_table(conn, settings)
            ensure_n8n_role(conn, settings, fields.password)
            grant_text = None
            # The home remembers how its server listens: a later command without the variable finds it as is
            # (else it would look for the socket-only server and report it unreachable).
            saved = save_settings(os.environ, {"embedded_port": str(settings.embedded_port),
                                               "embedded_listen": settings.embedded_listen})
        else:
            fields, created = own_server_credential(settings.database_url), False
            grant_text = grants(conn, settings).as_string(conn)
    if args.json:
        print(fields.to_json())
        return 0
    if grant_text is None and created:
        print(f"Created {settings.source_schema}.{settings.source_table} as n8n's Postgres Chat Memory node does, "
              "plus created_at (default now()), so every message n8n writes is dated.")
    print("n8n: Credentials > Add credential > Postgres, then:")
    print(fields.render())
    if grant_text is None:
        print(f"\nRole {fields.user} can call the recall functions, read memory_pipeline.memory_documents and use "
              f"n8n's chat memory table; nothing else. The password is kept in "
              f"{settings.home_path / 'n8n-db-password'} (--new-password makes a new one).")
        print(f"The port is saved in {saved}: later commands of this home use it without the variable.")
        print("The embedded server has no TLS: keep MEMORY_PIPELINE_EMBEDDED_LISTEN on 127.0.0.1 or a private "
              "network (n8n in Docker: listen on the Docker bridge address and use Host host.docker.internal).")
    else:
        print(f"\nCreate the role once, as the database owner:  CREATE ROLE {fields.user} LOGIN PASSWORD '...';")
        print("then grant it what the templates use:\n")
        print(grant_text)
    return 0


def materialize_today(args: argparse.Namespace) -> int:
    """`materialize --today`: the same-day trial (`same_day.run_today`); prints what it consolidated and what it
    deferred. Exit status 1 when the run failed."""
    from datetime import datetime
    from zoneinfo import ZoneInfo

    from memory_pipeline.runner import materialization_metadata, prepare
    from memory_pipeline.same_day import run_today

    from memory_pipeline.commands.common import require_source_table

    env = prepare(args.settings)
    require_source_table(env.settings, env.database_url)
    today = datetime.now(ZoneInfo(env.settings.timezone)).date()
    result = run_today(env, today, quiet=not args.verbose)
    closed = materialization_metadata(result, "closed_sessions")
    facts = materialization_metadata(result, "active_facts")
    counts = (f"{closed.get('conversations_closed', 0)} conversation(s) closed and consolidated, "
              f"{closed.get('conversations_deferred', 0)} still open and deferred") if closed else "no metadata"
    if "active_facts_of_these_users" in facts:
        counts += f"; {facts['active_facts_of_these_users']} active fact(s) of its users"
    print(f"{today} (today, same-day trial): {'ok' if result.success else 'FAILED'} ({counts})")
    end = env.settings.partitions_end
    if end is not None and end < today:  # a home whose partitions end earlier (the demo's) has no run tonight
        print(f"Not recorded in Dagster, and no nightly run covers {today}: the partitions end on {end} "
              f"(MEMORY_PIPELINE_PARTITIONS_END, saved by the demo in {saved_settings_path(os.environ)}). For "
              "tonight's run to cover today, remove that line (and MEMORY_PIPELINE_PARTITIONS_START's) there, or "
              "use a MEMORY_PIPELINE_HOME of its own.")
    else:
        print(f"Not recorded in Dagster: tonight's run of {today} consolidates the conversations still open, and "
              "the UI shows the day once that run is done.")
    if closed and not closed.get("source_has_created_at", True):
        print(f"  {closed['note']}")
    return 0 if result.success else 1
