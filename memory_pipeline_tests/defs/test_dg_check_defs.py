"""`dg check defs` and `dg list defs` (Dagster's `dg` CLI, `[tool.dg]` in pyproject.toml) load the defs folder from
the repository root: the five assets, the nightly job and the erasure job, each once."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_dg(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    # DAGSTER_HOME: an empty instance directory, so dg does not read the repository's dagster.yaml from the working
    # directory (its storage is the pipeline's PostgreSQL, named by an environment variable); VIRTUAL_ENV: this
    # interpreter's, the project's own.
    env = {**os.environ, "DAGSTER_HOME": str(tmp_path), "VIRTUAL_ENV": sys.prefix,
           "MEMORY_PIPELINE_HOME": str(tmp_path / "home")}
    return subprocess.run([str(Path(sys.executable).parent / "dg"), *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300)


def test_dg_check_defs_passes_from_the_repository_root(tmp_path):
    result = run_dg(tmp_path, "check", "defs")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "All definitions loaded successfully" in result.stdout + result.stderr


def test_dg_list_defs_shows_each_asset_and_job_once(tmp_path):
    result = run_dg(tmp_path, "list", "defs", "--json")
    assert result.returncode == 0, result.stdout + result.stderr
    listed = json.loads(result.stdout)
    assets = sorted(a["asset_key"] for a in listed["assets"])
    assert assets == ["active_facts", "archived_sessions", "closed_sessions", "extracted_facts", "session_summaries"]
    assert sorted(j["name"] for j in listed["jobs"]) == ["erase_user", "nightly_consolidation"]
