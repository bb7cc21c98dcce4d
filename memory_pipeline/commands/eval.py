"""`memory-pipeline eval`: the configured backend scored against the gold sets (and the user's gold files), and
with `--ceiling` the pipeline itself on right answers.

Progress goes to stderr, one line per conversation (gold set, case, seconds, facts proposed and accepted, or the
failure's reason: never chat text); the report to stdout, as tables then per-case details (with the gold sets'
text), or with `--json` as one JSON object. Ctrl-C stops the run and prints the report of the cases finished
before it (exit status 130).
"""

from __future__ import annotations

import argparse
import signal
import sys

from memory_pipeline.evaluation import GOLD_SETS, GoldSetError, evaluate
from memory_pipeline.evaluation.runs import Progress


def _print_progress(gold_set: str, label: str, p: Progress) -> None:
    outcome = f"failed: {p.failed}" if p.failed else f"{p.proposed} proposed, {p.accepted} accepted"
    print(f"eval {label}: conversation {p.number}/{p.total} {p.seconds:.1f} s, {outcome}", file=sys.stderr,
          flush=True)


def _first_interrupt_only():
    """A SIGINT handler raising KeyboardInterrupt on the first signal only: a second Ctrl-C (an impatient user, or
    `timeout -s INT`, which signals the process and its group) must not cut the partial report being printed."""
    seen = []

    def handler(signum, frame):
        seen.append(signum)
        if len(seen) == 1:
            raise KeyboardInterrupt

    return handler


def run(args: argparse.Namespace) -> int:
    """Score the configured backend (`args.settings`) against the chosen gold sets; print the report.
    Without `--gold-set`, every shipped set, or none when `--gold-file` is given (your own cases alone).
    Returns 0, 2 on a malformed gold or LoCoMo file (one line naming the file and line), 130 when interrupted
    (the partial report is printed)."""
    from memory_pipeline.extractors import make_extractor

    extractor = make_extractor(args.settings)
    gold_sets = args.gold_set or ([] if args.gold_file else GOLD_SETS)
    signal.signal(signal.SIGINT, _first_interrupt_only())
    try:
        result = evaluate(extractor, gold_sets, args.locomo, gold_files=args.gold_file, limit=args.limit,
                          cases=args.case, progress=None if args.quiet else _print_progress,
                          ceiling=args.settings if args.ceiling else None, details=args.details)
    except GoldSetError as exc:
        print(f"memory-pipeline: {exc}", file=sys.stderr)
        return 2
    print(result.to_json() if args.json else result.render(), flush=True)
    return 130 if result.interrupted else 0
