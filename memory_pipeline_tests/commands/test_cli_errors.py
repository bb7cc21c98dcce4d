"""Every command's bad input ends with one line naming the cause and exit status 2, never a traceback (issue 29):
through the installed `memory-pipeline` script, on the embedded PostgreSQL of the session."""

import itertools
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

BIN = Path(sys.executable).parent / "memory-pipeline"
DAY = "2026-05-03"
_counter = itertools.count()


def run_cli(env, *args, timeout=300):
    return subprocess.run([str(BIN), *args], env=env, capture_output=True, text=True, timeout=timeout)


def one_line_error(done) -> str:
    """The single stderr line of a command refused with exit status 2 (asserted), without its prefix."""
    assert done.returncode == 2, (done.returncode, done.stdout[-2000:], done.stderr[-3000:])
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr[-3000:]
    assert lines[0].startswith("memory-pipeline: ") and "Traceback" not in done.stderr
    return lines[0].removeprefix("memory-pipeline: ")


@pytest.fixture
def cli_env(pg_url, tmp_path):
    """Environment of a command on the test server: a schema and n8n table of its own, a fresh home."""
    n = next(_counter)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MEMORY_PIPELINE_", "DAGSTER_"))}
    env.update({"MEMORY_PIPELINE_DATABASE_URL": pg_url, "MEMORY_PIPELINE_HOME": str(tmp_path / "home"),
                "MEMORY_PIPELINE_SCHEMA_NAME": f"mp_cli_{n}", "MEMORY_PIPELINE_SOURCE_TABLE": f"chat_cli_{n}",
                "MEMORY_PIPELINE_DAGSTER_SCHEMA": f"dagster_cli_{n}",
                "MEMORY_PIPELINE_PARTITIONS_START": "2026-01-01"})
    return env


# -- 1. out-of-range dates name the argument --------------------------------------------------------------
@pytest.mark.parametrize("value", ["9999-12-31", "0001-01-01", "1969-12-31", "3000-01-01"])
def test_recall_as_of_out_of_range_names_the_argument(cli_env, value):
    message = one_line_error(run_cli(cli_env, "recall", "--user", "u1", "--as-of", value))
    assert message == f"--as-of {value} is out of range: use a date between 1970-01-01 and 2999-12-31"


def test_recall_as_of_that_is_no_date_names_the_argument(cli_env):
    assert one_line_error(run_cli(cli_env, "recall", "--user", "u1", "--as-of", "2023-13-01")).startswith(
        "--as-of '2023-13-01' is not a date: use YYYY-MM-DD")


def test_materialize_dates_out_of_range_name_their_argument(cli_env):
    assert one_line_error(run_cli(cli_env, "materialize", "--date", "9999-12-31")).startswith("--date 9999-12-31 is out")
    assert one_line_error(run_cli(cli_env, "materialize", "--date", DAY, "--to", "9999-12-31")).startswith(
        "--to 9999-12-31 is out of range")


# -- 2. a home that is a regular file ---------------------------------------------------------------------
@pytest.mark.parametrize("below", [False, True])
def test_a_home_that_is_a_regular_file_names_the_setting(cli_env, tmp_path, below):
    regular = tmp_path / "not-a-dir"
    regular.write_text("")
    home = regular / "home" if below else regular
    env = {**cli_env, "MEMORY_PIPELINE_HOME": str(home)}
    env.pop("MEMORY_PIPELINE_DATABASE_URL")  # the embedded server would be made in it
    for command in (["db", "url"], ["init-db"], ["recall", "--user", "u1"]):
        message = one_line_error(run_cli(env, *command))
        assert message.startswith("invalid setting MEMORY_PIPELINE_HOME: ") and "not a directory" in message
        assert str(regular) in message


# -- 4. an empty user key is refused by recall as by forget ------------------------------------------------
@pytest.mark.parametrize("command", ["recall", "forget"])
@pytest.mark.parametrize("key", ["", "  "])
def test_an_empty_user_key_is_refused(cli_env, command, key):
    assert one_line_error(run_cli(cli_env, command, "--user", key)).startswith("--user is empty")


# -- 3. a missing n8n table -------------------------------------------------------------------------------
@pytest.mark.parametrize("command", [["materialize", "--date", DAY], ["materialize", "--date", DAY, "--to", "2026-05-04"],
                                     ["materialize", "--today"], ["forget", "--user", "u1"], ["add-time-column"]])
def test_a_missing_source_table_is_one_line_naming_it_and_the_fix(cli_env, command):
    done = run_cli({**cli_env, "MEMORY_PIPELINE_SOURCE_TABLE": "nope"}, *command)
    message = one_line_error(done)
    assert message.startswith("n8n's chat memory table public.nope does not exist: point "
                              "MEMORY_PIPELINE_SOURCE_SCHEMA / MEMORY_PIPELINE_SOURCE_TABLE at")
    assert "db n8n-credential" in message  # how to create it
    assert done.stdout == "" and "dagster" not in done.stderr.lower()  # no run was started, no step failed


def test_a_database_without_n8ns_table_is_the_same_line(cli_env):
    env = {k: v for k, v in cli_env.items() if k != "MEMORY_PIPELINE_SOURCE_TABLE"}  # n8n's default name
    env["MEMORY_PIPELINE_SOURCE_SCHEMA"] = "no_n8n_here"
    assert one_line_error(run_cli(env, "materialize", "--date", DAY)).startswith(
        "n8n's chat memory table no_n8n_here.n8n_chat_histories does not exist")


# -- 6. a listener that is not PostgreSQL -----------------------------------------------------------------
@pytest.fixture
def silent_listener():
    """A TCP listener on a free port of 127.0.0.1 that accepts connections and never answers."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    accepted = []

    def accept():
        while True:
            try:
                accepted.append(server.accept()[0])
            except OSError:
                return

    threading.Thread(target=accept, daemon=True).start()
    yield server.getsockname()[1]
    server.close()
    for connection in accepted:
        connection.close()


def test_a_listener_that_is_not_postgresql_is_named_by_host_and_port_quickly(cli_env, silent_listener):
    env = {**cli_env, "MEMORY_PIPELINE_DATABASE_URL": f"postgresql://u:s3cret@127.0.0.1:{silent_listener}/db"}
    started = time.monotonic()
    message = one_line_error(run_cli(env, "recall", "--user", "u1"))
    # The check's connect timeout is 3 s (libpq may try twice); without one libpq waits on a silent listener for
    # ever. The bound leaves room for the CLI's own start on a loaded machine (11 s seen at load average 9).
    assert time.monotonic() - started < 30
    assert message.startswith(f"cannot connect to the database at 127.0.0.1:{silent_listener} (connection timeout")
    assert "does not answer as PostgreSQL" in message and "s3cret" not in message


def test_a_malformed_argument_is_one_line_with_exit_status_2():
    done = subprocess.run([str(BIN), "forget", "--row", "abc"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        "memory-pipeline forget: argument --row: invalid int value: 'abc' (see memory-pipeline forget --help)"]


def test_a_reader_that_goes_away_ends_the_command_without_a_traceback():
    """`memory-pipeline recall --all-users | head -5` ended with BrokenPipeError's traceback (a newcomer, session
    15). The pipe is closed before the command writes, so the write fails every time, not by a race."""
    process = subprocess.Popen([str(BIN), "eval", "--gold-set", "summaries", "--quiet"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    process.stdout.close()
    stderr = process.stderr.read()
    assert process.wait(timeout=300) == 141, stderr
    assert "Traceback" not in stderr and "BrokenPipe" not in stderr, stderr
