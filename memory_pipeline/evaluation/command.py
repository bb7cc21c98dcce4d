"""The `memory-pipeline eval` command: its arguments and its run, so the CLI module only wires them in
(`add_arguments(subparser)`, `set_defaults(func=run)`).

Progress goes to stderr, one line per conversation (gold set, case, seconds, facts proposed and accepted, or the
failure's reason: never chat text); the report to stdout, as tables or with `--json` as one JSON object. Ctrl-C
stops the run and prints the report of the cases finished before it (exit status 130).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from memory_pipeline.evaluation import GOLD_SETS, GoldSetError, evaluate
from memory_pipeline.evaluation.runs import Progress


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of `eval` on its subparser."""
    parser.add_argument("--gold-set", action="append", choices=list(GOLD_SETS),
                        help="only this gold set (repeatable); default all three")
    parser.add_argument("--locomo", type=Path, metavar="PATH",
                        help="also score a LoCoMo file you downloaded (locomo10.json; CC BY-NC, never shipped)")
    parser.add_argument("--limit", type=_positive_int, metavar="N",
                        help="only the first N cases of each of the cases and n8n gold sets")
    parser.add_argument("--case", action="append", default=[], metavar="NAME",
                        help="only the case of this name (repeatable; a session key for the n8n set)")
    parser.add_argument("--json", action="store_true", help="print the report as one JSON object")
    parser.add_argument("--quiet", action="store_true", help="no progress lines on stderr")


def _print_progress(gold_set: str, label: str, p: Progress) -> None:
    outcome = f"failed: {p.failed}" if p.failed else f"{p.proposed} proposed, {p.accepted} accepted"
    print(f"eval {label}: conversation {p.number}/{p.total} {p.seconds:.1f} s, {outcome}", file=sys.stderr,
          flush=True)


def run(args: argparse.Namespace) -> int:
    """Score the configured backend (`args.settings`) against the chosen gold sets; print the report.
    Returns 0, 2 on a malformed gold or LoCoMo file, 130 when interrupted (the partial report is printed)."""
    from memory_pipeline.extractors import make_extractor

    extractor = make_extractor(args.settings)
    try:
        result = evaluate(extractor, args.gold_set or GOLD_SETS, args.locomo, limit=args.limit, cases=args.case,
                          progress=None if args.quiet else _print_progress)
    except GoldSetError as exc:
        print(f"memory-pipeline: {exc}", file=sys.stderr)
        return 2
    print(result.to_json() if args.json else result.render(), flush=True)
    return 130 if result.interrupted else 0
