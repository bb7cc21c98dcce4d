"""`memory-pipeline eval`: run a backend over gold sets and report precision, recall, traps, reconciliation
and rejected quotes. Plain Python over the domain functions (no Dagster, no database).

Gold sets (memory_pipeline/eval_data/README.md documents their format and matching rules):
- `cases`: behaviour cases (the team's shared cases extended with issue 5's);
- `n8n`: the n8n row shapes with the facts their human rows carry;
- `memorybank`: hobbies MemoryBank users state in the bundled chats, recalled as preferences;
- a LoCoMo file the user downloads (`--locomo PATH`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from memory_pipeline.evaluation import report
from memory_pipeline.evaluation.gold import GoldCase, GoldSetError, behaviour_cases, message_shape_cases
from memory_pipeline.evaluation.locomo import evaluate_locomo
from memory_pipeline.evaluation.memorybank import evaluate_memory_bank
from memory_pipeline.evaluation.runs import ExtractionRun, Progress, extract
from memory_pipeline.evaluation.scoring import CaseScore, score_case
from memory_pipeline.extractors.base import Extractor

GOLD_SETS = ("cases", "n8n", "memorybank")

__all__ = ["GOLD_SETS", "GoldSetError", "evaluate"]

# (gold set, case name, progress of one of its conversations) -> None
OnProgress = Callable[[str, str, Progress], None]


def _selected(cases: list[GoldCase], names: Iterable[str], limit: int | None) -> list[GoldCase]:
    wanted = set(names)
    chosen = [c for c in cases if c.name in wanted] if wanted else cases
    return chosen[:limit] if limit is not None else chosen


def evaluate(extractor: Extractor, gold_sets: Iterable[str] = GOLD_SETS, locomo: Path | None = None, *,
             limit: int | None = None, cases: Iterable[str] = (), progress: OnProgress | None = None
             ) -> report.EvalReport:
    """Run `extractor` over the named gold sets (and a LoCoMo file) and build the report's tables.
    `limit`: only the first N cases of each of `cases` and `n8n`; `cases`: only the cases of these names;
    `progress`: called after each conversation of those two sets. Ctrl-C (KeyboardInterrupt) stops the run:
    the report then holds the cases finished before it and says so in `interrupted`.
    Raises GoldSetError on a malformed gold or LoCoMo file, FileNotFoundError on a missing one."""
    wanted = list(dict.fromkeys(gold_sets))
    unknown = [name for name in wanted if name not in GOLD_SETS]
    if unknown:
        raise GoldSetError(f"unknown gold set {unknown[0]!r}: choose from {', '.join(GOLD_SETS)}")
    names = list(cases)
    scores: list[CaseScore] = []
    runs: dict[str, ExtractionRun] = {}
    out = report.EvalReport(backend=f"{extractor.name} (model {extractor.model}, prompt {extractor.prompt_version})")
    memory_bank = locomo_score = None
    try:
        for name, loader in (("cases", behaviour_cases), ("n8n", message_shape_cases)):
            if name not in wanted:
                continue
            total = runs[name] = ExtractionRun()
            chosen = _selected(loader(), names, limit)
            for number, case in enumerate(chosen, 1):
                label = f"{name} {number}/{len(chosen)} {case.name}"
                run = extract(extractor, case.rows, progress and (lambda p, label=label: progress(name, label, p)))
                scores.append(score_case(case, run))
                total.add(run)
        if "memorybank" in wanted:
            memory_bank = evaluate_memory_bank(extractor)
            runs["memorybank"] = memory_bank.run
        if locomo:
            locomo_score = evaluate_locomo(extractor, locomo)
            runs["locomo"] = locomo_score.run
    except KeyboardInterrupt:
        out.interrupted = f"Ctrl-C: figures of the {len(scores)} cases finished before it"
    if scores:
        out.tables["Summary: extraction (recall, precision, traps) apart from updating, per gold set"] = (
            report.summary_table(scores, runs))
        out.tables["Facts per category: precision and recall against gold facts"] = report.facts_table(scores)
        out.tables["Trap cases that wrongly produced a fact"] = report.traps_table(scores)
        out.tables["Contradiction cases resolved right (active/superseded after reconciliation)"] = (
            report.contradictions_table(scores))
    out.tables["Quotes not found: candidates rejected, by reason"] = report.rejections_table(runs)
    if memory_bank:
        out.tables["MemoryBank: hobbies stated in the chats, recalled as preferences (by quote)"] = (
            report.memory_bank_table(memory_bank))
    if locomo_score:
        out.tables["LoCoMo: recall by quote of the user's observations, facts grounded in the user's turns"] = (
            report.locomo_table(locomo_score))
    out.tables["Runs: conversations, failures and tokens per gold set"] = report.runs_table(runs)
    if scores:
        out.tables["Per case"] = report.cases_table(scores)
        out.tables["Cases not passed"] = report.cases_not_passed_table(scores)
    return out
