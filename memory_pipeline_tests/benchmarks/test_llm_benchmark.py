"""`memory-pipeline benchmark --llm` runs end to end on tiny sizes (figures are printed, never asserted on
time): requests counted by the scripted server, traced to each conversation, zero on the second
materialization, scratch data dropped."""

from __future__ import annotations

from memory_pipeline.benchmarks import llm as benchmark_llm
from memory_pipeline.cli import build_parser
from memory_pipeline.db import get_pool


def test_llm_benchmark_runs_on_tiny_sizes(pg_url, monkeypatch, capsys):
    monkeypatch.setenv("MEMORY_PIPELINE_DATABASE_URL", pg_url)
    night, cost = benchmark_llm.run(conversations=3, latency=0.01, in_flight=2, memory_bank_users=1)
    assert (night.conversations, night.requests) == (3, 3)  # one request serves both stages
    assert set(night.seconds) == {"session_summaries", "extracted_facts"}
    # One MemoryBank user: 10 days, one conversation a day, each request traced to its conversation.
    assert cost.days == 10 and cost.requests == [1] * 10 and cost.unattributed == 0
    assert all(t > 0 for t in cost.server_prompt_tokens + cost.model_prompt_tokens)
    assert cost.rerun_requests == 0
    out = capsys.readouterr().out
    assert "3 conversations, 3 requests (1.00 per conversation)" in out and "session_summaries alone" in out
    with get_pool(pg_url).connection() as conn:
        left = conn.execute("SELECT count(*) AS n FROM pg_namespace WHERE nspname LIKE 'mp_bench_llm_%'").fetchone()
    assert left["n"] == 0


def test_benchmark_command_takes_the_llm_options():
    args = build_parser().parse_args(["benchmark", "--llm", "--conversations", "50", "--latency", "0.05",
                                      "--in-flight", "8"])
    assert (args.llm, args.conversations, args.latency, args.in_flight) == (True, 50, 0.05, 8)
    assert build_parser().parse_args(["benchmark"]).llm is False
