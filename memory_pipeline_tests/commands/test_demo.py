"""The README's first command: `memory-pipeline demo` on the embedded default (docs/operations.md, "The demo"), run
twice, then the UI's data."""

import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import dagster as dg
import psycopg
import pytest

from memory_pipeline.db import dagster_storage_url

BIN = Path(sys.executable).parent


def run_cli(env, *args):
    return subprocess.run([str(BIN / "memory-pipeline"), *args], env=env, capture_output=True, text=True, timeout=600)


@pytest.fixture
def embedded_env():
    """Environment of a new user: no database URL, a fresh (short) home; the embedded server stopped after."""
    home = Path(tempfile.mkdtemp(prefix="mph"))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MEMORY_PIPELINE_", "DAGSTER_"))}
    env["MEMORY_PIPELINE_HOME"] = str(home)
    yield env
    run_cli(env, "db", "stop")
    shutil.rmtree(home, ignore_errors=True)


def test_demo_on_embedded_default_twice(embedded_env):
    first = run_cli(embedded_env, "demo")
    assert first.returncode == 0, first.stderr[-3000:]
    out = first.stdout
    assert "Loaded 1132 MemoryBank messages" in out
    assert "10/10 partitions materialized; 149 conversations consolidated; 15/15 users with facts; " \
           "0 quotes not found verbatim; " \
           "0 sample rows left in n8n's table, 1132 in the archive." in out
    # 2023's facts are past their time-to-live today, listed as expired; each user's name does not expire.
    blocks = re.findall(r"^memorybank:\S+: (\d+) active facts?, (\d+) past their time-to-live", out, re.MULTILINE)
    assert len(blocks) == 15 and all(int(active) == 1 for active, _ in blocks)
    assert sum(int(expired) for _, expired in blocks) >= 14
    assert len(re.findall(r"^  - \[2023-04-27\] \(client_info\) User's name is [\w ]+\.$", out, re.MULTILINE)) == 15
    assert "NOT FOUND" not in out
    assert "memory-pipeline ui" in out
    # The printed commands carry the home and the program in full: pasted as printed in another directory and a
    # shell without the home's variable, they open this database, not an empty one.
    home = str(Path(embedded_env["MEMORY_PIPELINE_HOME"]).resolve())
    assert out.count(f"MEMORY_PIPELINE_HOME={shlex.quote(home)} /") == 2
    recall = re.search(r"What the agent would receive, as of the sample's last day:  (.+)$", out, re.MULTILINE)[1]
    elsewhere = {k: v for k, v in embedded_env.items() if k != "MEMORY_PIPELINE_HOME"}
    pasted = subprocess.run(recall, shell=True, cwd="/", env=elsewhere, capture_output=True, text=True, timeout=300)
    assert pasted.returncode == 0, pasted.stderr[-2000:]
    assert "User's name is" in pasted.stdout

    second = run_cli(embedded_env, "demo")
    assert second.returncode == 0, second.stderr[-3000:]
    assert "Sample already loaded" in second.stdout
    facts = lambda text: [line for line in text.splitlines() if line.startswith(("  - [", "      quote"))]
    assert facts(second.stdout) == facts(out)

    # `recall` prints each user's block in the prompt format; the 2023 sample is past its time-to-live today,
    # so it is read as of the sample's last day.
    recalled = run_cli(embedded_env, "recall", "--all-users", "--as-of", "2023-05-06")
    assert recalled.returncode == 0, recalled.stderr[-3000:]
    sections = re.split(r"^# (memorybank:\S+)\n", recalled.stdout, flags=re.MULTILINE)[1:]
    blocks = dict(zip(sections[::2], sections[1::2]))
    assert len(blocks) == 15
    for block in blocks.values():
        lines = block.strip().splitlines()
        assert lines and all(re.fullmatch(r"- \[2023-0[45]-\d\d\] \S.*", line) for line in lines), lines
    today = run_cli(embedded_env, "recall", "--user", "memorybank:emily")
    assert today.stdout.strip() == "- [2023-04-27] User's name is Emily."  # today only the name, which never expires
    searched = run_cli(embedded_env, "recall", "--user", "memorybank:emily", "--query", "what do I like?",
                       "--as-of", "2023-05-06")
    assert searched.returncode == 0 and "text rank" in searched.stdout, searched.stderr[-2000:]

    # The runs are in the Dagster instance the UI opens (postgres storage in the same embedded server).
    url = run_cli(embedded_env, "db", "url").stdout.strip()
    os.environ.update({"DAGSTER_HOME": str(Path(embedded_env["MEMORY_PIPELINE_HOME"]) / "dagster"),
                       "MEMORY_PIPELINE_DAGSTER_STORAGE_URL": dagster_storage_url(url, "dagster")})
    try:
        with psycopg.connect(url) as conn:  # Dagster's tables are in their own schema, not next to n8n's
            tables = conn.execute("SELECT table_schema, count(*) FROM information_schema.tables "
                                  "WHERE table_name IN ('runs', 'event_logs') GROUP BY 1").fetchall()
        assert tables == [("dagster", 2)]
        with dg.DagsterInstance.get() as instance:
            runs = instance.get_runs()
            assert len(runs) == 20 and all(r.status == dg.DagsterRunStatus.SUCCESS for r in runs)
            days = {f"2023-{d}" for d in [
                "04-27", "04-28", "04-29", "04-30", "05-01", "05-02", "05-03", "05-04", "05-05", "05-06"]}
            assert {r.tags["dagster/partition"] for r in runs} == days
            # Runs of the job in its code location: listed on the job's page and the Overview timeline.
            listed = instance.get_runs(dg.RunsFilter(job_name="nightly_consolidation",
                                                     tags={".dagster/repository": "__repository__@memory_pipeline"}))
            assert len(listed) == 20
            # The catalog `memory-pipeline ui` shows: the sample's ten days, all materialized, freshness green.
            from memory_pipeline.defs.nightly import JOB_NAME, build_definitions
            from memory_pipeline.settings import Settings
            from memory_pipeline_tests.defs.test_data_team_view import freshness_evaluations

            settings = Settings.from_env(embedded_env)  # with the range the demo saved in the home
            keys = build_definitions(settings).resolve_job_def(JOB_NAME).partitions_def.get_partition_keys()
            assert set(keys) == days
            for asset in ["closed_sessions", "session_summaries", "extracted_facts", "active_facts",
                          "archived_sessions"]:
                assert instance.get_materialized_partitions(dg.AssetKey(asset)) == days
            assert [e.passed for e in freshness_evaluations(settings, instance)] == [True] * 5
    finally:
        os.environ.pop("DAGSTER_HOME")
        os.environ.pop("MEMORY_PIPELINE_DAGSTER_STORAGE_URL")


def test_invalid_setting_is_a_one_line_error(embedded_env):
    done = run_cli({**embedded_env, "MEMORY_PIPELINE_IDLE_GAP_MINUTES": "soon"}, "init-db")
    assert done.returncode == 2
    assert done.stderr.strip().startswith("memory-pipeline: invalid setting MEMORY_PIPELINE_IDLE_GAP_MINUTES:")


def test_materialize_rejects_a_malformed_or_unfinished_day(embedded_env):
    bad = run_cli(embedded_env, "materialize", "--date", "2023-5-1")
    assert bad.returncode == 2 and "use YYYY-MM-DD" in bad.stderr
    future = run_cli(embedded_env, "materialize", "--date", "2999-01-01")
    assert future.returncode == 2 and "a day is materialized once it is over" in future.stderr
    reversed_range = run_cli(embedded_env, "materialize", "--date", "2023-05-03", "--to", "2023-05-01")
    assert reversed_range.returncode == 2 and "is before --date" in reversed_range.stderr


def test_demo_refuses_a_table_with_real_conversations(embedded_env):
    from memory_pipeline import sample
    from memory_pipeline.db import get_pool, resolve_database_url
    from memory_pipeline.settings import Settings

    settings = Settings.from_env(embedded_env)
    with get_pool(resolve_database_url(settings)).connection() as conn:
        sample.create_n8n_table(conn, settings)
        sample.insert_rows(conn, settings, [sample.SampleRow("tg:1", {"type": "human", "content": "hi"}, None)])
    done = run_cli(embedded_env, "demo")
    assert done.returncode == 2 and "not demo rows" in done.stderr


def test_init_db_warns_of_an_embedding_size_mismatch(embedded_env):
    assert run_cli(embedded_env, "init-db").returncode == 0
    done = run_cli({**embedded_env, "MEMORY_PIPELINE_EMBEDDING_DIMENSIONS": "8"}, "init-db")
    assert done.returncode == 0
    assert "agent_facts.embedding is vector(1536) but MEMORY_PIPELINE_EMBEDDING_DIMENSIONS=8" in done.stderr
