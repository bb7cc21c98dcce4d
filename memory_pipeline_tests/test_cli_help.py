"""Every command explains itself with --help, `db url --help` included, and counts agree with their nouns."""

import subprocess
import sys
from pathlib import Path

import pytest

from memory_pipeline.cli import build_parser, plural

BIN = Path(sys.executable).parent / "memory-pipeline"


@pytest.mark.parametrize("command, expected", [
    (["demo"], "MemoryBank"),
    (["init-db"], "Safe to run again"),
    (["add-time-column"], "without blocking n8n's writes"),
    (["ui"], "address the webserver listens on"),
    (["db", "url"], "Print the libpq URL"),
    (["db", "stop"], "Stop the embedded PostgreSQL"),
    (["benchmark-backfill"], "launched through the webserver"),
])
def test_each_command_has_its_own_help(command, expected, capsys):
    with pytest.raises(SystemExit) as exit_:
        build_parser().parse_args([*command, "--help"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: memory-pipeline {' '.join(command)} ")
    assert expected in " ".join(out.split())


def test_ui_port_help_from_the_installed_script():
    done = subprocess.run([str(BIN), "ui", "--help"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "--port PORT  port of the webserver (default 3000)" in done.stdout


def test_plural_agrees_with_the_count():
    assert plural(1, "active fact") == "1 active fact"
    assert plural(0, "row") == "0 rows" and plural(2, "row") == "2 rows"
    assert plural(3, "entry", "entries") == "3 entries"
