"""`memory-pipeline eval`: run a backend over gold sets and report precision, recall, traps, reconciliation
and rejected quotes. Plain Python over the domain functions (no Dagster, no database).

Gold sets (memory_pipeline/eval_data/README.md documents their format and matching rules):
- `cases`: behaviour cases (the team's shared cases extended with issue 5's);
- `n8n`: the n8n row shapes with the facts their human rows carry;
- `memorybank`: hobbies MemoryBank users state in the bundled chats, recalled as preferences;
- a LoCoMo file the user downloads (`--locomo PATH`).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from memory_pipeline.evaluation import report
from memory_pipeline.evaluation.gold import GoldSetError, behaviour_cases, message_shape_cases
from memory_pipeline.evaluation.locomo import evaluate_locomo
from memory_pipeline.evaluation.memorybank import evaluate_memory_bank
from memory_pipeline.evaluation.runs import ExtractionRun, extract
from memory_pipeline.evaluation.scoring import CaseScore, score_case
from memory_pipeline.extractors.base import Extractor

GOLD_SETS = ("cases", "n8n", "memorybank")

__all__ = ["GOLD_SETS", "GoldSetError", "evaluate"]


def evaluate(extractor: Extractor, gold_sets: Iterable[str] = GOLD_SETS, locomo: Path | None = None) -> report.EvalReport:
    """Run `extractor` over the named gold sets (and a LoCoMo file) and build the report's tables.
    Raises GoldSetError on a malformed gold or LoCoMo file, FileNotFoundError on a missing one."""
    wanted = list(dict.fromkeys(gold_sets))
    unknown = [name for name in wanted if name not in GOLD_SETS]
    if unknown:
        raise GoldSetError(f"unknown gold set {unknown[0]!r}: choose from {', '.join(GOLD_SETS)}")
    scores: list[CaseScore] = []
    runs: dict[str, ExtractionRun] = {}
    for name, loader in (("cases", behaviour_cases), ("n8n", message_shape_cases)):
        if name not in wanted:
            continue
        total = runs[name] = ExtractionRun()
        for case in loader():
            run = extract(extractor, case.rows)
            scores.append(score_case(case, run))
            total.conversations += run.conversations
            total.candidates += run.candidates
            total.failed_by_reason += run.failed_by_reason
            total.input_tokens += run.input_tokens
            total.output_tokens += run.output_tokens
    memory_bank = evaluate_memory_bank(extractor) if "memorybank" in wanted else None
    if memory_bank:
        runs["memorybank"] = memory_bank.run
    locomo_score = evaluate_locomo(extractor, locomo) if locomo else None
    if locomo_score:
        runs["locomo"] = locomo_score.run
    out = report.EvalReport(backend=f"{extractor.name} (model {extractor.model}, prompt {extractor.prompt_version})")
    if scores:
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
        out.tables["Cases not passed"] = report.cases_not_passed_table(scores)
    return out
