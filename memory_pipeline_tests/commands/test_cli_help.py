"""Every command explains itself with --help, `db url --help` included, and counts agree with their nouns."""

import subprocess
import sys
from pathlib import Path

import pytest

from memory_pipeline.cli import build_parser
from memory_pipeline.commands.common import plural

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


def test_help_imports_neither_dagster_nor_the_database_driver():
    # -X importtime lists every module the process imported, on stderr.
    done = subprocess.run([sys.executable, "-X", "importtime", "-c",
                           "import sys; from memory_pipeline.cli import main; sys.exit(main(['--help']))"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "usage: memory-pipeline" in done.stdout
    imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines() if "|" in line}
    assert "memory_pipeline.cli" in imported
    assert not {m for m in imported if m.split(".")[0] in ("dagster", "psycopg", "openai", "pydantic")}


@pytest.mark.parametrize("module", ["recall", "database", "eval"])
def test_read_only_commands_import_no_dagster(module):
    # What `recall`, `db url` and `eval` import to run: their command module and everything it imports.
    code = (f"import sys; import memory_pipeline.cli, memory_pipeline.commands.{module}; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'dagster' or 'memory_pipeline.defs' in m))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
