"""n8n reaches the embedded database over TCP with a password (never trust), as a role that can recall and use
its chat memory table and nothing else; `db n8n-credential` prints the fields n8n's Postgres credential asks for."""

import json
import shutil
import tempfile
from pathlib import Path

import psycopg
import pytest

from memory_pipeline import cli
from memory_pipeline.db import DatabaseError, resolve_database_url, stop_embedded
from memory_pipeline.n8n_access import own_server_credential
from memory_pipeline.settings import Settings
from memory_pipeline.services import free_port



@pytest.fixture
def short_home(monkeypatch):
    """A short MEMORY_PIPELINE_HOME (the unix socket lives in it), its embedded server stopped at the end."""
    home = Path(tempfile.mkdtemp(prefix="mpa"))
    for name in Settings.model_fields:
        monkeypatch.delenv("MEMORY_PIPELINE_" + name.upper(), raising=False)
    monkeypatch.setenv("MEMORY_PIPELINE_HOME", str(home))
    yield home
    stop_embedded(Settings(home=home))
    shutil.rmtree(home, ignore_errors=True)


def credential(capsys, *args):
    assert cli.main(["db", "n8n-credential", "--json", *args]) == 0
    return json.loads(capsys.readouterr().out)


def tcp(fields, user=None, password=None):
    return psycopg.connect(host=fields["host"], port=fields["port"], dbname=fields["database"],
                           user=user or fields["user"], password=password, connect_timeout=5, autocommit=True)


def test_embedded_server_on_tcp_asks_every_tcp_client_for_a_password(short_home, monkeypatch, capsys):
    monkeypatch.setenv("MEMORY_PIPELINE_EMBEDDED_PORT", str(free_port()))
    fields = credential(capsys)
    assert (fields["host"], fields["database"], fields["user"], fields["ssl"]) == (
        "127.0.0.1", "postgres", "n8n", "disable")
    assert (short_home / "n8n-db-password").stat().st_mode & 0o777 == 0o600
    with pytest.raises(psycopg.OperationalError, match="password"):
        tcp(fields, user="postgres")  # the superuser has no password: TCP refuses it (no trust)
    with pytest.raises(psycopg.OperationalError, match="password authentication failed"):
        tcp(fields, password="wrong")
    with tcp(fields, password=fields["password"]) as conn:
        assert conn.execute("SELECT memory_pipeline.recall_block('tg:1')").fetchone() == ("",)
    # The pipeline itself keeps the unix socket (trusted for its OS user only) on the same server.
    settings = Settings.from_env()
    with psycopg.connect(resolve_database_url(settings)) as conn:
        assert conn.execute("SELECT inet_server_addr()").fetchone() == (None,)


def test_n8n_role_can_recall_and_use_its_chat_table_but_read_no_pipeline_table(short_home, monkeypatch, capsys):
    monkeypatch.setenv("MEMORY_PIPELINE_EMBEDDED_PORT", str(free_port()))
    fields = credential(capsys)
    with tcp(fields, password=fields["password"]) as conn:
        # What n8n's Postgres Chat Memory node runs: its table, created on first use, then its rows.
        conn.execute("CREATE TABLE IF NOT EXISTS n8n_chat_histories "
                     "(id SERIAL PRIMARY KEY, session_id VARCHAR(255) NOT NULL, message JSONB NOT NULL)")
        conn.execute("INSERT INTO n8n_chat_histories (session_id, message) VALUES ('tg:1', '{\"type\": \"human\"}')")
        assert conn.execute("SELECT count(*) FROM memory_pipeline.memory_documents").fetchone() == (0,)
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("SELECT * FROM memory_pipeline.agent_facts")
        # The conversation search too: the functions, never the tables behind them.
        assert conn.execute("SELECT * FROM memory_pipeline.search_conversations_text('tg:1', 'invoice', 3)"
                            ).fetchall() == []
        assert conn.execute("SELECT * FROM memory_pipeline.search_conversations_vector('tg:1', NULL, 3)"
                            ).fetchall() == []
        for table in ("session_summaries", "conversation_recalls", "conversations"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(f"SELECT * FROM memory_pipeline.{table}")


def test_a_new_password_replaces_the_old_one(short_home, monkeypatch, capsys):
    monkeypatch.setenv("MEMORY_PIPELINE_EMBEDDED_PORT", str(free_port()))
    old = credential(capsys)
    new = credential(capsys, "--new-password")
    assert new["password"] != old["password"]
    with pytest.raises(psycopg.OperationalError, match="password authentication failed"):
        tcp(new, password=old["password"])
    tcp(new, password=new["password"]).close()


def test_a_server_started_without_tcp_is_named_not_silently_kept(short_home, monkeypatch, capsys):
    resolve_database_url(Settings.from_env())  # socket only, as before the setting
    monkeypatch.setenv("MEMORY_PIPELINE_EMBEDDED_PORT", str(free_port()))
    with pytest.raises(DatabaseError, match="without TCP.*memory-pipeline db stop"):
        resolve_database_url(Settings.from_env())


def test_without_a_port_the_command_says_which_setting_to_give(short_home, capsys):
    assert cli.main(["db", "n8n-credential"]) == 2
    assert "MEMORY_PIPELINE_EMBEDDED_PORT" in capsys.readouterr().err


def test_own_server_fields_come_from_the_url_without_its_password():
    fields = own_server_credential("postgresql://pipeline:s3cret@db.internal:6543/chat?sslmode=verify-full")
    assert (fields.host, fields.port, fields.database, fields.user, fields.password, fields.ssl) == (
        "db.internal", 6543, "chat", "n8n", None, "require")
    assert "s3cret" not in fields.render()


def test_own_server_prints_the_grants_for_a_role_of_its_own(pg_url, monkeypatch, capsys, tmp_path):
    monkeypatch.setenv("MEMORY_PIPELINE_DATABASE_URL", pg_url)
    monkeypatch.setenv("MEMORY_PIPELINE_HOME", str(tmp_path))
    assert cli.main(["db", "n8n-credential"]) == 0
    out = capsys.readouterr().out
    assert "GRANT EXECUTE ON FUNCTION" in out and 'TO "n8n"' in out and "Password:  (the password of that role)" in out


def test_the_chat_table_is_made_ready_for_n8n_with_every_message_dated(short_home, monkeypatch, capsys):
    monkeypatch.setenv("MEMORY_PIPELINE_EMBEDDED_PORT", str(free_port()))
    assert cli.main(["db", "n8n-credential"]) == 0
    assert "Created public.n8n_chat_histories" in capsys.readouterr().out
    fields = credential(capsys)
    with tcp(fields, password=fields["password"]) as conn:
        # n8n's node: its CREATE TABLE IF NOT EXISTS finds the table, its INSERT names two columns.
        conn.execute("CREATE TABLE IF NOT EXISTS n8n_chat_histories "
                     "(id SERIAL PRIMARY KEY, session_id VARCHAR(255) NOT NULL, message JSONB NOT NULL)")
        conn.execute("INSERT INTO n8n_chat_histories (session_id, message) VALUES ('tg:1', '{}')")
        assert conn.execute("SELECT created_at IS NOT NULL FROM n8n_chat_histories").fetchone() == (True,)


def test_the_home_remembers_the_port_so_later_commands_find_the_server_without_the_variable(
        short_home, monkeypatch, capsys):
    port = free_port()
    monkeypatch.setenv("MEMORY_PIPELINE_EMBEDDED_PORT", str(port))
    assert cli.main(["db", "n8n-credential"]) == 0
    assert "later commands of this home use it" in capsys.readouterr().out
    monkeypatch.delenv("MEMORY_PIPELINE_EMBEDDED_PORT")
    assert Settings.from_env().embedded_port == port  # from the home's settings.env
    assert cli.main(["db", "url"]) == 0  # reaches the running server, not a socket-only one
    assert f"port={port}" in capsys.readouterr().out
