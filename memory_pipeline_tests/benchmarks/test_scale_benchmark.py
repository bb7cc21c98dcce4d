"""The scale benchmark runs a whole night end to end at a tiny size (figures are printed, never asserted: speed
is not tested)."""

import pytest

from memory_pipeline.benchmarks import scale as benchmark_scale, shards as benchmark_shards
from memory_pipeline.db import get_pool


def test_scale_benchmark_runs_every_stage_measures_the_floor_and_drops_its_tables(pg_url, capsys):
    figures = benchmark_scale.run(messages=600)
    assert figures.messages == 600
    assert list(figures.stage_seconds) == ["closed_sessions", "session_summaries", "extracted_facts",
                                           "active_facts", "archived_sessions"]
    assert figures.facts > 0 and figures.floor_seconds > 0
    assert 0 < figures.extractor_seconds < sum(figures.stage_seconds.values())
    assert list(figures.stage_cpu) == list(figures.stage_seconds)  # CPU seconds of each stage, printed beside
    out = capsys.readouterr().out
    assert "600 messages of 8 session keys" in out and "non-LLM stages / SQL floor" in out
    assert out.count(" CPU ") == 5 and "+ server" in out
    assert "legacy)" in out and "0 legacy" not in out  # legacy rows are generated and consolidated
    with get_pool(pg_url).connection() as conn:
        assert conn.execute("SELECT count(*) AS n FROM pg_namespace WHERE nspname LIKE 'mp_bench%'").fetchone()["n"] == 0
        assert conn.execute("SELECT count(*) AS n FROM pg_class WHERE relname LIKE 'mp_bench%'").fetchone()["n"] == 0


def test_scale_benchmark_with_history_reconciles_the_same_users(pg_url, capsys):
    figures = benchmark_scale.run(messages=300, history_days=3)
    out = capsys.readouterr().out
    assert "after 3 days of the same users' consolidated history" in out
    # 3 history days x 4 users, 2 accepted candidates each: a contact channel said every day (one version per
    # user) and a hobby a day (up to 3 per user); all archived within the 30-day retention.
    assert "history: 12 conversations, 24 accepted candidates, 12 summaries, 120 archive rows within retention" in out
    history_versions = int(out.split("120 archive rows within retention, ")[1].split()[0])
    assert 4 + 4 <= history_versions <= 4 + 12
    assert figures.facts > history_versions


def test_sizes_map_to_message_counts():
    assert [benchmark_scale.size_to_messages(s) for s in ("10k", "100K", "1m")] == [10_000, 100_000, 1_000_000]
    with pytest.raises(ValueError, match="size must be one of"):
        benchmark_scale.size_to_messages("2m")


def test_packaged_row_shapes_are_the_fixture():
    from importlib import resources

    from memory_pipeline_tests.conftest import fixture_lines

    packaged = resources.files("memory_pipeline.sample_data").joinpath("message_shapes.jsonl").read_text()
    assert packaged.splitlines() == fixture_lines("message_shapes.jsonl")


def test_targets_table_runs_each_night_in_its_own_process_and_compares_the_three_targets(pg_url, capfd):
    from memory_pipeline.benchmarks import targets as benchmark_targets

    ratios = benchmark_targets.run(history_days=2, sizes=(300, 600))
    out = capfd.readouterr().out
    # Each night printed its own figures (from its own process), then the table of the three targets.
    assert "300 messages of 4 session keys" in out and "600 messages of 8 session keys" in out
    assert "after 2 days of the same users' consolidated history" in out
    for line in ("non-LLM stages / SQL floor at 600 messages", "peak RSS 600 / 300 messages",
                 "night after 2 days of history / without"):
        assert line in out
    assert set(ratios) == {"floor_ratio", "rss_ratio", "history_ratio"}
    assert all(value > 0 for value in ratios.values())


def test_shard_benchmark_runs_the_night_whole_and_in_shards_with_the_same_facts(pg_url, capsys):
    one, many = benchmark_shards.run(messages=600, count=2)
    assert one[3] == many[3] > 0  # the same night, the same facts, whichever way it was split
    out = capsys.readouterr().out
    assert "one run (the whole night)" in out and "2 shards at once" in out and "shard speed-up: 2 shards" in out
    with get_pool(pg_url).connection() as conn:
        assert conn.execute("SELECT count(*) AS n FROM pg_namespace WHERE nspname LIKE 'mp_bench%'").fetchone()["n"] == 0
