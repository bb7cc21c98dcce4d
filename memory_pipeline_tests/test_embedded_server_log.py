"""The embedded server's log keeps no row data (issue 21, item 4): a failed statement's DETAIL ("Failing row
contains (...)"), its text and a primary message quoting a value never reach `pgdata/log`, which an erasure cannot
reach."""

import tempfile
from pathlib import Path

import psycopg
import pytest

from memory_pipeline.db import QUIET_LOG_SETTINGS, resolve_database_url, stop_embedded
from memory_pipeline.settings import Settings


@pytest.fixture
def embedded():
    settings = Settings(home=Path(tempfile.mkdtemp(prefix="mpl")))  # short: the unix socket lives in it
    url = resolve_database_url(settings)
    yield settings, url
    stop_embedded(settings)


def test_failing_statements_leave_no_row_data_in_the_embedded_servers_log(embedded):
    settings, url = embedded
    url = resolve_database_url(settings)  # a second process finds the settings in place
    with psycopg.connect(url, autocommit=True) as conn:
        assert {name: conn.execute(f"SHOW {name}").fetchone()[0] for name in QUIET_LOG_SETTINGS} == QUIET_LOG_SETTINGS
        conn.execute("CREATE TABLE archive_like (id int PRIMARY KEY, message text NOT NULL)")
        with pytest.raises(psycopg.errors.NotNullViolation):
            conn.execute("INSERT INTO archive_like VALUES (1, NULL), (NULL, 'SECRET-ROW-1 I live in Rome')")
        with pytest.raises(psycopg.errors.InvalidDatetimeFormat):
            conn.execute("SELECT 'SECRET-ROW-2 my phone is 555'::timestamptz")
        with pytest.raises(psycopg.errors.UniqueViolation):
            conn.execute("INSERT INTO archive_like VALUES (7, 'SECRET-ROW-3'), (7, 'SECRET-ROW-3')")
    log = (settings.home_path / "pgdata" / "log").read_text(errors="replace")
    assert "database system is ready" in log  # the log exists and is the server's
    assert "SECRET-ROW" not in log and "Failing row contains" not in log
