"""`memory-pipeline eval`: run a backend over gold sets and report precision, recall, traps, reconciliation
and rejected quotes. Plain Python over the domain functions (no Dagster, no database).

Gold sets (memory_pipeline/eval_data/README.md documents their format and matching rules):
- `cases`: behaviour cases (the team's shared cases extended with issue 5's);
- `n8n`: the n8n row shapes with the facts their human rows carry;
- `multilingual`: behaviour cases in many languages, each with its `language`;
- `memorybank`: hobbies MemoryBank users state in the bundled chats, recalled as preferences;
- `summaries`: conversation summaries scored on chats with their key points (`evaluation.summaries`);
- a user's own cases (`gold_files`), a gold set named by the file's stem: behaviour cases (the `cases` format), or
  summary cases (the `summaries` format, told apart by their `key_points`);
- a LoCoMo file the user downloads (`--locomo PATH`).

With `ceiling` (the LLM settings), the case sets run a second time through the `openai` backend against a scripted
model answering right (`evaluation.ceiling`): the pipeline's own losses, beside the backend's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from memory_pipeline.evaluation import report
from memory_pipeline.evaluation.details import DETAIL_CHOICES, details as case_details
from memory_pipeline.evaluation.gold import (
    GoldCase, GoldSetError, behaviour_cases, gold_file_cases, message_shape_cases, multilingual_cases)
from memory_pipeline.evaluation.locomo import evaluate_locomo
from memory_pipeline.evaluation.memorybank import evaluate_memory_bank
from memory_pipeline.evaluation.runs import ExtractionRun, Progress, extract, relate
from memory_pipeline.evaluation.scoring import CaseScore, score_case
from memory_pipeline.evaluation.summaries import (
    EVAL_CHUNK_TOKENS, SummaryCase, SummaryScore, evaluate_chunked, evaluate_summaries, is_summary_file,
    summaries_table, summary_cases, summary_cases_table, summary_details)
from memory_pipeline.extractors.base import Extractor
from memory_pipeline.settings import Settings

CASE_SETS = {"cases": behaviour_cases, "n8n": message_shape_cases, "multilingual": multilingual_cases}
GOLD_SETS = (*CASE_SETS, "memorybank", "summaries")

__all__ = ["DETAIL_CHOICES", "GOLD_SETS", "GoldSetError", "evaluate"]

# (gold set, case name, progress of one of its conversations) -> None
OnProgress = Callable[[str, str, Progress], None]


def _selected(cases: list[GoldCase], names: Iterable[str], limit: int | None) -> list[GoldCase]:
    wanted = set(names)
    chosen = [c for c in cases if c.name in wanted] if wanted else cases
    return chosen[:limit] if limit is not None else chosen


def case_sets(gold_sets: Iterable[str], gold_files: Iterable[Path] = (), names: Iterable[str] = (),
              limit: int | None = None) -> dict[str, list[GoldCase]]:
    """The behaviour cases to run, per gold set: the shipped case sets named in `gold_sets`, then each gold
    file's that is not a summary file (named by its stem), each cut by `names` and `limit`. Every file is read
    here, before any backend runs. Raises GoldSetError on an unknown set name, two sets of one name, or a
    malformed file."""
    wanted = list(dict.fromkeys(gold_sets))
    unknown = [name for name in wanted if name not in GOLD_SETS]
    if unknown:
        raise GoldSetError(f"unknown gold set {unknown[0]!r}: choose from {', '.join(GOLD_SETS)}")
    names = list(names)
    chosen = {name: _selected(loader(), names, limit) for name, loader in CASE_SETS.items() if name in wanted}
    for path in dict.fromkeys(Path(p) for p in gold_files):
        if is_summary_file(path):
            continue
        cases = gold_file_cases(path)
        if path.stem in chosen or path.stem in GOLD_SETS:
            raise GoldSetError(f"{path}: a gold set named {path.stem!r} is already chosen: rename the file")
        chosen[path.stem] = _selected(cases, names, limit)
    return chosen


def summary_sets(gold_sets: Iterable[str], gold_files: Iterable[Path] = (), names: Iterable[str] = (),
                 limit: int | None = None, taken: Iterable[str] = ()) -> dict[str, list[SummaryCase]]:
    """The summary cases to run, per gold set: the shipped `summaries` when named in `gold_sets`, then each
    summary gold file's (`is_summary_file`, named by its stem), cut as `case_sets` cuts. Raises GoldSetError on a
    malformed file or a name already taken (by a shipped set, another file, or `taken`: the behaviour sets)."""
    chosen = {"summaries": _selected(summary_cases(), names, limit)} if "summaries" in gold_sets else {}
    taken = set(taken)
    for path in dict.fromkeys(Path(p) for p in gold_files):
        if not is_summary_file(path):
            continue
        if path.stem in chosen or path.stem in GOLD_SETS or path.stem in taken:
            raise GoldSetError(f"{path}: a gold set named {path.stem!r} is already chosen: rename the file")
        chosen[path.stem] = _selected(summary_cases(path), names, limit)
    return chosen


def _run_cases(extractor: Extractor, chosen: dict[str, list[GoldCase]], scores: list[CaseScore],
               runs: dict[str, ExtractionRun], progress: OnProgress | None, label: str = "",
               before_case: Callable[[GoldCase], None] | None = None) -> None:
    """Extract and score every case of `chosen`, appending to `scores` (so an interrupted run keeps the cases
    finished) and adding each set's run to `runs`. `label` heads the progress labels; `before_case` is called
    before each case is run."""
    for name, cases in chosen.items():
        total = runs[name] = ExtractionRun()
        for number, case in enumerate(cases, 1):
            if before_case:
                before_case(case)
            where = f"{label}{name} {number}/{len(cases)} {case.name}"
            run = extract(extractor, case.rows, progress and (lambda p, where=where: progress(name, where, p)))
            relate(extractor, run)
            scores.append(score_case(case, run))
            total.add(run)


def _ceiling(settings: Settings, chosen: dict[str, list[GoldCase]], scores: list[CaseScore],
             progress: OnProgress | None) -> None:
    """Run the cases the ceiling can run (`ceiling.in_ceiling`) against the right-answer model."""
    # Imported here: the ceiling needs the openai SDK and the test server, an offline eval neither.
    from memory_pipeline.evaluation.ceiling import in_ceiling, right_answer_backend, serve_answers_of

    runnable = {name: [c for c in cases if in_ceiling(c)] for name, cases in chosen.items()}
    with right_answer_backend(settings) as (extractor, server):
        _run_cases(extractor, runnable, scores, {}, progress, "ceiling ", lambda case: serve_answers_of(server, case))


def evaluate(extractor: Extractor, gold_sets: Iterable[str] = GOLD_SETS, locomo: Path | None = None, *,
             gold_files: Iterable[Path] = (), limit: int | None = None, cases: Iterable[str] = (),
             progress: OnProgress | None = None, ceiling: Settings | None = None, details: str = "problems"
             ) -> report.EvalReport:
    """Run `extractor` over the named gold sets, the `gold_files` (and a LoCoMo file) and build the report's
    tables. `limit`: only the first N cases of each case set; `cases`: only the cases of these names;
    `progress`: called after each conversation of the case sets; `ceiling`: also run the case sets against the
    right-answer model with these LLM settings; `details`: which cases get per-case details (`DETAIL_CHOICES`).
    Ctrl-C (KeyboardInterrupt) stops the run: the report then holds the cases finished before it and says so in
    `interrupted`. Raises GoldSetError on a malformed gold or LoCoMo file, FileNotFoundError on a missing
    LoCoMo file."""
    if details not in DETAIL_CHOICES:  # before the run, not after it
        raise ValueError(f"details: {details!r}, not one of {', '.join(DETAIL_CHOICES)}")
    wanted = list(dict.fromkeys(gold_sets))
    chosen = case_sets(wanted, gold_files, cases, limit)
    summaries = summary_sets(wanted, gold_files, cases, limit, taken=chosen)
    scores: list[CaseScore] = []
    ceiling_scores: list[CaseScore] = []
    runs: dict[str, ExtractionRun] = {}
    out = report.EvalReport(backend=f"{extractor.name} (model {extractor.model}, prompt {extractor.prompt_version})")
    memory_bank = locomo_score = None
    summary_scores: list[SummaryScore] = []
    chunked_scores: list[SummaryScore] = []
    try:
        _run_cases(extractor, chosen, scores, runs, progress)
        for name, chats in summaries.items():
            summary_scores += evaluate_summaries(extractor, chats, name)
        for name, chats in summaries.items():
            chunked_scores += evaluate_chunked(extractor, chats, name)
        if "memorybank" in wanted:
            memory_bank = evaluate_memory_bank(extractor)
            runs["memorybank"] = memory_bank.run
        if locomo:
            locomo_score = evaluate_locomo(extractor, locomo)
            runs["locomo"] = locomo_score.run
        if ceiling is not None:
            _ceiling(ceiling, chosen, ceiling_scores, progress)
    except KeyboardInterrupt:
        out.interrupted = f"Ctrl-C: figures of the {len(scores)} cases finished before it"
        if ceiling_scores:
            out.interrupted += f" (and {len(ceiling_scores)} of the ceiling)"
    _tables(out, scores, runs, memory_bank, locomo_score)
    if summary_scores:
        out.tables["Summaries: key points recalled, names/numbers/dates not grounded, sentences, requests"] = (
            summaries_table(summary_scores))
        out.tables["Summaries per case"] = summary_cases_table(summary_scores)
    if chunked_scores:
        out.tables[f"Summaries of the chats split at {EVAL_CHUNK_TOKENS} transcript tokens a request, "
                   "the parts combined"] = summaries_table(chunked_scores)
    if ceiling is not None:
        _ceiling_tables(out, scores, ceiling_scores)
    if details != "none":
        out.details["backend"] = case_details(scores, details) + summary_details(summary_scores, details)
        if ceiling is not None:
            out.details["ceiling (right answers)"] = case_details(ceiling_scores, details)
    return out


def _tables(out: report.EvalReport, scores: list[CaseScore], runs: dict[str, ExtractionRun], memory_bank,
            locomo_score) -> None:
    """The backend's tables, in print order."""
    if scores:
        out.tables["Summary: extraction (recall, precision, traps) apart from updating, per gold set"] = (
            report.summary_table(scores, runs))
        if any(s.language for s in scores):
            out.tables["Summary per case language"] = report.languages_table(scores)
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


def _ceiling_tables(out: report.EvalReport, scores: list[CaseScore], ceiling_scores: list[CaseScore]) -> None:
    """The ceiling beside the backend: per gold set, per case language (when cases give one), per case."""
    out.tables["Ceiling: the backend and the pipeline on right answers (scripted model), on the cases with "
               "answers, per gold set"] = report.ceiling_table(scores, ceiling_scores, "gold_set")
    if any(s.language for s in (*scores, *ceiling_scores)):
        out.tables["Ceiling per case language"] = report.ceiling_table(scores, ceiling_scores, "language")
    out.tables["Ceiling per case"] = report.ceiling_cases_table(scores, ceiling_scores)
