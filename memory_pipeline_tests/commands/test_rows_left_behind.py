"""No row stays in n8n's table past its time (issue 29, case 7), through the installed script on the session's
embedded PostgreSQL: a blank key's rows are archived with their reason and purged on their night, a late row for a
consolidated day turns `no_row_left_behind` red naming the day until that day is materialized again, and
`forget --row` erases rows no user key reaches."""

from datetime import datetime, timedelta, timezone

import psycopg
from psycopg import sql

from memory_pipeline import sample
from memory_pipeline.settings import Settings

from memory_pipeline_tests.commands.test_cli_errors import cli_env, one_line_error, run_cli  # noqa: F401 (fixture)

NOON = datetime(2026, 5, 3, 12, 0, tzinfo=timezone.utc)


def table(env):
    settings = Settings.from_env(env)
    return settings, sql.Identifier(settings.source_schema, settings.source_table)


def insert(env, rows):
    settings, _ = table(env)
    with psycopg.connect(env["MEMORY_PIPELINE_DATABASE_URL"], autocommit=True) as conn:
        sample.create_n8n_table(conn, settings)
        sample.insert_rows(conn, settings, rows)


def fetch(env, query, params=()):
    settings, source = table(env)
    with psycopg.connect(env["MEMORY_PIPELINE_DATABASE_URL"], autocommit=True) as conn:
        text = sql.SQL(query).format(source=source, schema=sql.Identifier(settings.schema_name))
        return conn.execute(text, params).fetchall()


def said(key, text, at):
    return sample.SampleRow(key, {"type": "human", "content": text}, at)


def test_a_blank_keys_rows_are_archived_with_their_reason_and_purged(cli_env):
    insert(cli_env, [said("", "I live in Oslo.", NOON), said("   ", "I like tea.", NOON + timedelta(minutes=1)),
                     said("alice", "I live in Rome.", NOON + timedelta(minutes=2))])
    done = run_cli(cli_env, "materialize", "--date", "2026-05-03")
    assert done.returncode == 0, done.stderr[-3000:]
    assert fetch(cli_env, "SELECT id FROM {source}") == []  # nothing left in n8n's table
    archived = fetch(cli_env, "SELECT a.session_id, r.reason FROM {schema}.chat_archive AS a "
                              "LEFT JOIN {schema}.message_rejections AS r ON r.message_id = a.id ORDER BY a.id")
    assert archived == [("", "blank_session_key"), ("   ", "blank_session_key"), ("alice", None)]


def test_a_late_row_is_flagged_with_its_day_until_that_day_is_run_again(cli_env):
    insert(cli_env, [said("alice", "I live in Rome.", NOON - timedelta(days=2))])
    assert run_cli(cli_env, "materialize", "--date", "2026-05-01").returncode == 0
    insert(cli_env, [said("bob", "I live in Lima.", NOON - timedelta(days=2, hours=1))])  # late, for May 1st
    # Not the night of May 2nd (its catch-up, May 1st, reads it) nor of May 3rd (a conversation of May 2nd, up to
    # 24 hours long, could still hold it): the night of May 4th.
    assert "left behind" not in run_cli(cli_env, "materialize", "--date", "2026-05-03").stdout
    late = run_cli(cli_env, "materialize", "--date", "2026-05-04")
    assert late.returncode == 0, late.stderr[-3000:]  # not blocking: the night itself is consolidated
    assert "  1 row of n8n's table left behind, dated 2026-05-01: materialize those days again" in late.stdout
    assert len(fetch(cli_env, "SELECT id FROM {source}")) == 1

    assert run_cli(cli_env, "materialize", "--date", "2026-05-01").returncode == 0  # the day named
    assert fetch(cli_env, "SELECT id FROM {source}") == []
    again = run_cli(cli_env, "materialize", "--date", "2026-05-04")
    assert again.returncode == 0 and "left behind" not in again.stdout


def test_forget_by_row_id_reaches_rows_no_user_key_names(cli_env):
    insert(cli_env, [said("", "I live in Oslo.", NOON), said("alice", "I live in Rome.", NOON)])
    (blank,), (alice,) = fetch(cli_env, "SELECT id FROM {source} ORDER BY session_id")
    assert run_cli(cli_env, "materialize", "--date", "2026-05-03").returncode == 0  # both archived
    refused = one_line_error(run_cli(cli_env, "forget", "--row", str(alice)))
    assert refused.startswith("a conversation of a user holds one of these rows: erase it with `forget --user KEY`")
    done = run_cli(cli_env, "forget", "--row", str(blank))
    assert done.returncode == 0, done.stderr[-3000:]
    assert "(rows)" in done.stdout and "message_rejections 1, chat_archive 1, source 0" in done.stdout
    assert fetch(cli_env, "SELECT id FROM {schema}.chat_archive") == [(alice,)]
    assert fetch(cli_env, "SELECT message_id FROM {schema}.message_rejections") == []
    assert fetch(cli_env, "SELECT scope FROM {schema}.erasure_log") == [("rows",)]
    assert one_line_error(run_cli(cli_env, "forget", "--row", str(blank), "--fact", "1")).startswith("--fact goes")


def test_forget_by_conversation_hash_erases_its_rows(cli_env):
    insert(cli_env, [said(" ", "I live in Oslo.", NOON), said(" ", "I like tea.", NOON + timedelta(minutes=1))])
    assert run_cli(cli_env, "materialize", "--date", "2026-05-03").returncode == 0
    ((conversation,),) = fetch(cli_env, "SELECT DISTINCT conversation_id FROM {schema}.message_rejections")
    done = run_cli(cli_env, "forget", "--conversation", conversation)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "4 rows removed (message_rejections 2, chat_archive 2, source 0)" in done.stdout
    assert fetch(cli_env, "SELECT id FROM {schema}.chat_archive") == []
    assert one_line_error(run_cli(cli_env, "forget", "--conversation", conversation)).startswith(
        f"no row of conversation {conversation} is known")
