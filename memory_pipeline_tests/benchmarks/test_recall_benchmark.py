"""The recall benchmark and token budget commands run end to end on a small scale (figures are printed, never
asserted: speed is not tested)."""

from memory_pipeline.benchmarks import recall as benchmark_recall
from memory_pipeline.db import get_pool


def schemas(pg_url, prefix):
    with get_pool(pg_url).connection() as conn:
        return conn.execute("SELECT nspname FROM pg_namespace WHERE nspname LIKE %s", (prefix + "%",)).fetchall()


def test_benchmark_recall_times_every_path_and_drops_its_schema(pg_url, capsys):
    timings = benchmark_recall.run(facts=2000, users=20, dims=8, queries=5)
    assert len(timings) == 7 and all(len(samples) == 5 for samples in timings.values())
    out = capsys.readouterr().out
    assert "2,000 facts of 20 users, 8-dimension vectors" in out and out.count(" p95 ") == 7
    assert schemas(pg_url, "mp_recall_bench") == []


def test_token_budget_compares_the_block_with_n8ns_window(pg_url, capsys):
    results = benchmark_recall.token_budget()
    assert len(results) == 15 and all(r["window_tokens"] > 0 for r in results)
    assert all((r["facts"] > 0) == (r["block_tokens"] > 0) for r in results)
    assert sum(r["block_tokens"] for r in results) < sum(r["window_tokens"] for r in results)
    assert "all 15 users" in capsys.readouterr().out and schemas(pg_url, "mp_tokens") == []


def test_token_estimate_is_a_quarter_of_the_characters():
    assert [benchmark_recall.estimate_tokens(t) for t in ["", "abcd", "abcde"]] == [0, 1, 2]
