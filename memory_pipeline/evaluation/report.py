"""The tables `memory-pipeline eval` prints (pandas DataFrames), built from case scores and gold-set runs."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import pandas as pd

from memory_pipeline.evaluation.details import render_details
from memory_pipeline.evaluation.locomo import LocomoScore
from memory_pipeline.evaluation.memorybank import MemoryBankScore
from memory_pipeline.evaluation.runs import ExtractionRun
from memory_pipeline.evaluation.scoring import ROWS, UPDATE_OUTCOMES, CaseScore


def _share(part: int, whole: int) -> float | None:
    return round(part / whole, 3) if whole else None


def facts_table(scores: Sequence[CaseScore]) -> pd.DataFrame:
    """Per gold set and category (plus `retraction` and `all`): gold facts, recalled, recall, accepted
    candidates, correct ones, precision (None where there is nothing to divide by)."""
    records = []
    for gold_set in dict.fromkeys(s.gold_set for s in scores):
        mine = [s for s in scores if s.gold_set == gold_set]
        for row in (*ROWS, "all"):
            rows = ROWS if row == "all" else (row,)
            gold = sum(s.gold[r] for s in mine for r in rows)
            recalled = sum(s.recalled[r] for s in mine for r in rows)
            accepted = sum(s.accepted[r] for s in mine for r in rows)
            correct = sum(s.correct[r] for s in mine for r in rows)
            records.append({"gold_set": gold_set, "category": row, "gold": gold, "recalled": recalled,
                            "recall": _share(recalled, gold), "accepted": accepted, "correct": correct,
                            "precision": _share(correct, accepted)})
    return pd.DataFrame.from_records(records)


def _figures(scores: Sequence[CaseScore]) -> dict:
    """Extraction recall and precision (all categories and retractions), traps sprung of traps, update checks
    right of all, over `scores`."""
    gold = sum(sum(s.gold.values()) for s in scores)
    accepted = sum(sum(s.accepted.values()) for s in scores)
    updates = sum((s.updates for s in scores), start=Counter())
    return {"recall": _share(sum(sum(s.recalled.values()) for s in scores), gold),
            "precision": _share(sum(sum(s.correct.values()) for s in scores), accepted),
            "traps_sprung": f"{sum(len(s.sprung) for s in scores)}/{sum(len(s.traps) for s in scores)}",
            "updates_right": f"{updates['right']}/{sum(updates.values())}"}


def summary_table(scores: Sequence[CaseScore], runs: dict[str, ExtractionRun]) -> pd.DataFrame:
    """Per gold set, extraction apart from updating: cases, conversations and failed ones, relation requests failed
    (their pairs left unjudged: `relations_failed`); extraction recall and
    precision against the gold facts (all categories and retractions); traps sprung of traps; update checks
    right of all, and wrong / missed (`scoring.UPDATE_OUTCOMES`); seconds per conversation (mean, max); the
    largest request prompt over its conversation's first (`prompt_growth`, 1.0 when nothing was asked again)."""
    records = []
    for gold_set in dict.fromkeys(s.gold_set for s in scores):
        mine = [s for s in scores if s.gold_set == gold_set]
        run = runs.get(gold_set, ExtractionRun())
        updates = sum((s.updates for s in mine), start=Counter())
        records.append({
            "gold_set": gold_set, "cases": len(mine), "conversations": len(run.conversations),
            "failed": run.conversations_failed, "relations_failed": run.relation_requests_failed, **_figures(mine),
            **{f"updates_{o}": updates[o] for o in UPDATE_OUTCOMES[1:]},
            "s_per_conversation": round(sum(run.seconds) / len(run.seconds), 1) if run.seconds else None,
            "max_s": round(max(run.seconds), 1) if run.seconds else None,
            "prompt_growth": round(run.prompt_growth, 2) if run.prompt_growth is not None else None,
        })
    return pd.DataFrame.from_records(records)


def languages_table(scores: Sequence[CaseScore]) -> pd.DataFrame:
    """Per case language (cases that give one): cases, recall, precision, traps sprung, updates right."""
    tagged = [s for s in scores if s.language]
    return pd.DataFrame.from_records(
        [{"language": language, "cases": len(mine), **_figures(mine)}
         for language in sorted(dict.fromkeys(s.language for s in tagged))
         for mine in [[s for s in tagged if s.language == language]]],
        columns=["language", "cases", "recall", "precision", "traps_sprung", "updates_right"])


def ceiling_table(backend: Sequence[CaseScore], ceiling: Sequence[CaseScore], by: str) -> pd.DataFrame:
    """Per gold set (`by="gold_set"`) or case language (`by="language"`, cases that give one): the cases, those
    the ceiling ran and those it left out for want of answers (`no_answers`); the backend's figures and the
    ceiling's (`_figures`) on the same cases, the ones the ceiling ran; `kept`: gold facts and retractions with an
    answer that the ceiling recalled, of all with an answer."""
    ran = {(s.gold_set, s.case) for s in ceiling}
    records = []
    groups = dict.fromkeys(getattr(s, by) for s in (*backend, *ceiling) if getattr(s, by))
    for group in groups:
        mine = [s for s in backend if getattr(s, by) == group]
        same = [s for s in mine if (s.gold_set, s.case) in ran]
        theirs = [s for s in ceiling if getattr(s, by) == group]
        kept, answered = sum(s.kept for s in theirs), sum(s.answered for s in theirs)
        records.append({by: group, "cases": len(mine), "ceiling_cases": len(theirs),
                        "no_answers": len(mine) - len(same),
                        **{f"backend_{k}": v for k, v in _figures(same).items()},
                        **{f"ceiling_{k}": v for k, v in _figures(theirs).items()},
                        "kept": f"{kept}/{answered}", "kept_share": _share(kept, answered)})
    return pd.DataFrame.from_records(records)


def ceiling_cases_table(backend: Sequence[CaseScore], ceiling: Sequence[CaseScore]) -> pd.DataFrame:
    """One line per case the ceiling ran: gold recalled by the backend and by the ceiling, the ceiling's correct
    facts, traps sprung and update checks right, `kept` (answered gold recalled) and whether the ceiling passed."""
    by_case = {(s.gold_set, s.case): s for s in backend}
    return pd.DataFrame.from_records([{
        "gold_set": c.gold_set, "case": c.case, "language": c.language,
        "backend_recalled": (f"{sum(b.recalled.values())}/{sum(b.gold.values())}"
                             if (b := by_case.get((c.gold_set, c.case))) else None),
        "ceiling_recalled": f"{sum(c.recalled.values())}/{sum(c.gold.values())}",
        "ceiling_correct": f"{sum(c.correct.values())}/{sum(c.accepted.values())}",
        "ceiling_traps_sprung": f"{len(c.sprung)}/{len(c.traps)}",
        "ceiling_updates_right": f"{c.updates['right']}/{sum(c.updates.values())}" if c.updates else "",
        "kept": f"{c.kept}/{c.answered}", "ceiling_passed": c.passed} for c in ceiling])


def cases_table(scores: Sequence[CaseScore]) -> pd.DataFrame:
    """One line per case: gold facts recalled, accepted candidates correct, traps sprung, update checks right,
    failed conversations, seconds, prompt growth and whether it passed (gold terms and counts only)."""
    return pd.DataFrame.from_records([{
        "gold_set": s.gold_set, "case": s.case, "conversations": s.conversations, "failed": s.conversations_failed,
        "recalled": f"{sum(s.recalled.values())}/{sum(s.gold.values())}",
        "correct": f"{sum(s.correct.values())}/{sum(s.accepted.values())}",
        "traps_sprung": f"{len(s.sprung)}/{len(s.traps)}",
        "updates_right": f"{s.updates['right']}/{sum(s.updates.values())}" if s.updates else "",
        "seconds": round(s.seconds, 1),
        "prompt_growth": round(s.prompt_growth, 2) if s.prompt_growth is not None else None,
        "passed": s.passed} for s in scores])


def traps_table(scores: Sequence[CaseScore]) -> pd.DataFrame:
    """Per gold set and trap kind: traps, and traps a fact wrongly came out of."""
    records: dict[tuple[str, str], dict] = {}
    for s in scores:
        for kind in s.traps:
            record = records.setdefault((s.gold_set, kind), {"gold_set": s.gold_set, "trap": kind, "traps": 0,
                                                             "wrongly_produced_a_fact": 0})
            record["traps"] += 1
        for kind in s.sprung:
            records[(s.gold_set, kind)]["wrongly_produced_a_fact"] += 1
    return pd.DataFrame.from_records(sorted(records.values(), key=lambda r: (r["gold_set"], r["trap"])),
                                     columns=["gold_set", "trap", "traps", "wrongly_produced_a_fact"])


def contradictions_table(scores: Sequence[CaseScore]) -> pd.DataFrame:
    """Per gold set: cases that check reconciliation (contradictions, repeats, retractions) and those whose
    active and superseded facts came out as expected."""
    records = []
    for gold_set in dict.fromkeys(s.gold_set for s in scores):
        checked = [s for s in scores if s.gold_set == gold_set and s.resolved is not None]
        records.append({"gold_set": gold_set, "cases": len(checked),
                        "resolved_right": sum(1 for s in checked if s.resolved)})
    return pd.DataFrame.from_records(records, columns=["gold_set", "cases", "resolved_right"])


def rejections_table(runs: dict[str, ExtractionRun]) -> pd.DataFrame:
    """Per gold set and reason: candidates the quote check (or category/empty-fact check) rejected."""
    records = []
    for gold_set, run in runs.items():
        reasons: dict[str, int] = {}
        for c in run.candidates:
            if c.reason:
                reasons[c.reason] = reasons.get(c.reason, 0) + 1
        records += [{"gold_set": gold_set, "reason": r, "candidates": n} for r, n in sorted(reasons.items())]
    return pd.DataFrame.from_records(records, columns=["gold_set", "reason", "candidates"])


def runs_table(runs: dict[str, ExtractionRun]) -> pd.DataFrame:
    """Per gold set: conversations, failed ones (and why), candidates, accepted, tokens reported by the backend."""
    return pd.DataFrame.from_records([
        {"gold_set": name, "conversations": len(run.conversations), "failed": run.conversations_failed,
         "failed_by_reason": ", ".join(f"{r}:{n}" for r, n in sorted(run.failed_by_reason.items())),
         "candidates": len(run.candidates), "accepted": len(run.accepted), "input_tokens": run.input_tokens,
         "output_tokens": run.output_tokens}
        for name, run in runs.items()])


def cases_not_passed_table(scores: Sequence[CaseScore]) -> pd.DataFrame:
    """One line per case that missed a gold fact, produced a wrong one, sprang a trap, did not reconcile as
    expected or failed: what went wrong, in gold terms only (no user text)."""
    records = [{"gold_set": s.gold_set, "case": s.case, "missed": ", ".join(s.missed), "wrong_facts": s.wrong,
                "traps_sprung": ", ".join(s.sprung),
                "reconciliation": "" if s.resolved is None else ("ok" if s.resolved else s.unresolved_because),
                "failed": s.conversations_failed}
               for s in scores if not s.passed]
    return pd.DataFrame.from_records(records, columns=["gold_set", "case", "missed", "wrong_facts", "traps_sprung",
                                                       "reconciliation", "failed"])


def memory_bank_table(score: MemoryBankScore) -> pd.DataFrame:
    """Hobbies stated in the MemoryBank chats recalled as preferences, by quote."""
    preferences = sum(1 for c in score.run.accepted if c.category == "preference")
    return pd.DataFrame.from_records([{
        "users": score.users, "hobbies": score.hobbies, "stated_in_chats": score.stated,
        "recalled_by_quote": score.recalled, "recall": _share(score.recalled, score.stated),
        "facts_accepted": len(score.run.accepted), "preferences_accepted": preferences}])


def locomo_table(score: LocomoScore) -> pd.DataFrame:
    """LoCoMo: recall by quote of the user's observations and the share of facts grounded in the user's turns."""
    return pd.DataFrame.from_records([{
        "conversations": score.conversations, "user_observations": score.observations,
        "recalled_by_quote": score.recalled, "recall": _share(score.recalled, score.observations),
        "facts_proposed": len(score.run.candidates), "facts_accepted": len(score.run.accepted),
        "grounded_in_user_turns": _share(len(score.run.accepted), len(score.run.candidates))}])


@dataclass
class EvalReport:
    """Every table of one evaluation, keyed by title, in print order; `details`: per run (`backend`, `ceiling`)
    the per-case detail records (`evaluation.details`), printed after the tables."""

    backend: str
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    interrupted: str | None = None
    details: dict[str, list[dict]] = field(default_factory=dict)

    def render(self) -> str:
        """The tables as text, each under its title (every column and row shown), then the per-case details."""
        parts = [f"memory-pipeline eval: backend {self.backend}"]
        if self.interrupted:
            parts.append(f"INTERRUPTED: {self.interrupted}")
        with pd.option_context("display.max_rows", None, "display.max_columns", None, "display.width", 200,
                               "display.max_colwidth", 80):
            for title, table in self.tables.items():
                body = "(none)" if table.empty else table.to_string(index=False, na_rep="-")
                parts.append(f"\n== {title}\n{body}")
        for run, records in self.details.items():
            parts.append(f"\n== Per case details: {run}\n{render_details(records) or '(none)'}")
        return "\n".join(parts)

    def to_json(self) -> str:
        """The report as one JSON object: backend, interrupted (null or what was left out), every table as a
        list of records under its title, and `details` (run -> per-case records)."""
        tables = {title: json.loads(table.to_json(orient="records")) for title, table in self.tables.items()}
        return json.dumps({"backend": self.backend, "interrupted": self.interrupted, "tables": tables,
                           "details": self.details}, ensure_ascii=False, indent=1)
