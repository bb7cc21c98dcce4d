"""The README and docs/ stay short, linked and true: the README a five-minute read whose test command is CI's,
every relative link pointing at a file (and heading) that exists, the configuration table and the command list
the ones the code defines."""

import argparse
import re
from pathlib import Path

import pytest

from memory_pipeline.cli import build_parser
from memory_pipeline.settings import ENV_PREFIX, Settings

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
OPERATIONS = ROOT / "docs" / "operations.md"

FENCE = re.compile(r"^```.*?^```", re.S | re.M)
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#{1,6} +(.+?) *$", re.M)


def prose(path: Path) -> str:
    """The page without its fenced code blocks (a `#` comment in a shell block is not a heading)."""
    return FENCE.sub("", path.read_text())


def github_anchor(heading: str) -> str:
    """The id GitHub gives a heading: lower case, punctuation other than `-` and `_` dropped, spaces to `-`."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def relative_links(path: Path):
    for target in LINK.findall(prose(path)):
        if not re.match(r"[a-z]+:", target):
            yield target


@pytest.mark.parametrize("page", [README, *DOCS], ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_points_to_an_existing_file_and_heading(page):
    broken = []
    for target in relative_links(page):
        file_part, _, anchor = target.partition("#")
        file = (page.parent / file_part).resolve() if file_part else page
        if not file.exists():
            broken.append(target)
        elif anchor and file.suffix == ".md":
            if anchor not in {github_anchor(h) for h in HEADING.findall(prose(file))}:
                broken.append(target)
    assert broken == []


def test_docs_folder_holds_pages_and_the_readme_links_each_one():
    linked = {(ROOT / t.partition("#")[0]).resolve() for t in relative_links(README)}
    assert len(DOCS) >= 5 and [p for p in DOCS if p.resolve() not in linked] == []


def test_readme_stays_a_five_minute_read():
    assert len(README.read_text().splitlines()) < 120


def test_readme_test_command_is_the_one_ci_runs():
    ci_command = (ROOT / ".ci" / "run").read_text().strip().splitlines()[-1]
    assert ci_command.startswith("python3 -m venv .venv") and "pytest" in ci_command
    assert ci_command in README.read_text().splitlines()


def test_configuration_table_lists_exactly_the_settings():
    documented = set(re.findall(rf"^\| `({ENV_PREFIX}[A-Z_]+)` \|", OPERATIONS.read_text(), re.M))
    assert documented == {ENV_PREFIX + name.upper() for name in Settings.model_fields}


def subcommands(parser: argparse.ArgumentParser, prefix: str = ""):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                nested = list(subcommands(sub, f"{prefix}{name} "))
                yield from nested or [f"{prefix}{name}"]


def test_operations_page_shows_every_command():
    page = " ".join(OPERATIONS.read_text().split())
    commands = list(subcommands(build_parser()))
    assert "db url" in commands and "benchmark" in commands
    assert [c for c in commands if not re.search(rf"memory-pipeline {re.escape(c)}(?![\w-])", page)] == []
