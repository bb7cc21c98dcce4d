"""The benchmark commands: `benchmark` (stages, scale, LLM), `benchmark-recall`, `token-budget`,
`benchmark-backfill`, `benchmark-conversation-search`; each prints its figures (memory_pipeline/benchmarks/)."""

from __future__ import annotations

import argparse


def benchmark(args: argparse.Namespace) -> int:
    """Time each stage on synthetic MemoryBank-based chat memory (memory_pipeline/benchmarks/stages.py), or with
    --llm the two LLM stages against a scripted OpenAI-compatible server (memory_pipeline/benchmarks/llm.py)."""
    if args.llm:
        from memory_pipeline.benchmarks import llm as benchmark_llm

        benchmark_llm.run(args.conversations, args.latency, args.in_flight)
        return 0
    from memory_pipeline.benchmarks import scale as benchmark_scale, stages as benchmark

    if args.size == "all":
        from memory_pipeline.benchmarks import targets as benchmark_targets

        benchmark_targets.run(args.history_days or 365)
    elif (args.size or args.messages) and args.shards > 1:
        from memory_pipeline.benchmarks import shards as benchmark_shards

        benchmark_shards.run(args.messages or benchmark_scale.size_to_messages(args.size), args.shards)
    elif args.size or args.messages:
        messages = args.messages or benchmark_scale.size_to_messages(args.size)
        benchmark_scale.run(messages, args.history_days)
    else:
        benchmark.run(args.users, args.days, args.history_days)
    return 0


def benchmark_recall(args: argparse.Namespace) -> int:
    """Time recall on synthetic facts (see memory_pipeline/benchmarks/recall.py)."""
    from memory_pipeline.benchmarks import recall as benchmark_recall

    benchmark_recall.run(args.facts, args.users, args.dims, args.queries)
    return 0


def token_budget(args: argparse.Namespace) -> int:
    """Tokens of the facts block vs n8n's default window, on the MemoryBank sample."""
    from memory_pipeline.benchmarks import recall as benchmark_recall

    benchmark_recall.token_budget()
    return 0


def benchmark_backfill(args: argparse.Namespace) -> int:
    """Time a backfill through the webserver against `materialize` for the same days (benchmarks/backfill.py)."""
    from memory_pipeline.benchmarks import backfill as backfill_benchmark

    backfill_benchmark.run(args.days)
    return 0


def benchmark_conversation_search(args: argparse.Namespace) -> int:
    """Top-1 share of the conversation search on its gold set (benchmarks/conversation_search.py)."""
    from memory_pipeline.benchmarks import conversation_search

    conversation_search.run()
    return 0
