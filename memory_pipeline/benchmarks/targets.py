"""`memory-pipeline benchmark --size all`: the scale benchmark at 10k, 100k and 1M messages and a night after a
year of history, each in a fresh process, then one table of issue 10's three targets.

The targets (the project's scale issue, measured here and never asserted by a test):
- non-LLM stages (the five stages minus the extractor's own calls) within 3x of the SQL floor at 1M messages;
- peak resident memory of the 1M night at most 1.5x that of the 10k night;
- the 10k night after `history_days` (default 365) of the same users' consolidated history within 1.2x of the
  same night without (all five stages, seconds).

Each night runs in its own spawned interpreter so that its peak RSS (`ru_maxrss`, which only grows within a
process) is its own and not the largest night's so far.
"""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

from memory_pipeline.benchmarks import scale as benchmark_scale
from memory_pipeline.benchmarks.scale import ScaleFigures

FLOOR_TARGET = 3.0  # non-LLM stages / SQL floor at 1M messages
RSS_TARGET = 1.5  # peak RSS at 1M / peak RSS at 10k
HISTORY_TARGET = 1.2  # a night after a year of history / the same night without


def _night_in_fresh_process(messages: int, history_days: int) -> ScaleFigures:
    with ProcessPoolExecutor(max_workers=1, mp_context=get_context("spawn")) as pool:
        return pool.submit(benchmark_scale.run, messages, history_days).result()


def run(history_days: int = 365, sizes: tuple[int, ...] = (10_000, 100_000, 1_000_000)) -> dict[str, float]:
    """Run a night of each size in `sizes` (messages, smallest first), then the smallest again after
    `history_days` of history (printing each night's figures as `benchmark --size` does), then print the
    targets table, the largest size standing for 1M and the smallest for 10k. Returns {"floor_ratio",
    "rss_ratio", "history_ratio"} (dimensionless ratios)."""
    nights = [_night_in_fresh_process(messages, 0) for messages in sizes]
    with_history = _night_in_fresh_process(sizes[0], history_days)
    small, large = nights[0], nights[-1]
    ratios = {
        "floor_ratio": large.floor_ratio,
        "rss_ratio": max(large.peak_rss_mib.values()) / max(small.peak_rss_mib.values()),
        "history_ratio": with_history.total_seconds / small.total_seconds,
    }
    print("\n    messages   non-LLM s  floor s  non-LLM/floor  peak RSS MiB")
    for f in nights:
        print(f"{f.messages:12,d} {f.non_llm_seconds:10.1f} {f.floor_seconds:8.2f} {f.floor_ratio:13.1f}x"
              f" {max(f.peak_rss_mib.values()):13.0f}")
    print(f"{small.messages:12,d} after {history_days} days of history: all five stages "
          f"{with_history.total_seconds:.1f} s against {small.total_seconds:.1f} s without")
    rows = [
        (f"non-LLM stages / SQL floor at {large.messages:,} messages", ratios["floor_ratio"], FLOOR_TARGET),
        (f"peak RSS {large.messages:,} / {small.messages:,} messages", ratios["rss_ratio"], RSS_TARGET),
        (f"night after {history_days} days of history / without", ratios["history_ratio"], HISTORY_TARGET),
    ]
    print("\ntarget                                            measured  target  met")
    for name, measured, target in rows:
        print(f"{name:48s} {measured:8.2f}x {target:6.1f}x  {'yes' if measured <= target else 'NO'}")
    return ratios
