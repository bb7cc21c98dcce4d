"""`memory-pipeline eval`: the configured backend scored against the gold sets."""

from __future__ import annotations

import argparse
import sys


def run(args: argparse.Namespace) -> int:
    """Score the configured backend against the gold sets (see memory_pipeline/evaluation); prints tables."""
    from memory_pipeline.evaluation import GoldSetError, evaluate
    from memory_pipeline.extractors import make_extractor

    extractor = make_extractor(args.settings)
    try:
        result = evaluate(extractor, args.gold_set or ("cases", "n8n", "memorybank"), args.locomo)
    except GoldSetError as exc:
        print(f"memory-pipeline: {exc}", file=sys.stderr)
        return 2
    print(result.render())
    return 0
