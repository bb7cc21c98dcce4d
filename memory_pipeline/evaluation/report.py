"""The tables `memory-pipeline eval` prints (pandas DataFrames), built from case scores and gold-set runs."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import pandas as pd

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


def summary_table(scores: Sequence[CaseScore], runs: dict[str, ExtractionRun]) -> pd.DataFrame:
    """Per gold set, extraction apart from updating: cases, conversations and failed ones; extraction recall and
    precision against the gold facts (all categories and retractions); traps sprung of traps; update checks
    right of all, and wrong / missed (`scoring.UPDATE_OUTCOMES`); seconds per conversation (mean, max); the
    largest request prompt over its conversation's first (`prompt_growth`, 1.0 when nothing was asked again)."""
    records = []
    for gold_set in dict.fromkeys(s.gold_set for s in scores):
        mine = [s for s in scores if s.gold_set == gold_set]
        run = runs.get(gold_set, ExtractionRun())
        gold = sum(sum(s.gold.values()) for s in mine)
        accepted = sum(sum(s.accepted.values()) for s in mine)
        updates = sum((s.updates for s in mine), start=Counter())
        records.append({
            "gold_set": gold_set, "cases": len(mine), "conversations": len(run.conversations),
            "failed": run.conversations_failed,
            "recall": _share(sum(sum(s.recalled.values()) for s in mine), gold),
            "precision": _share(sum(sum(s.correct.values()) for s in mine), accepted),
            "traps_sprung": f"{sum(len(s.sprung) for s in mine)}/{sum(len(s.traps) for s in mine)}",
            "updates_right": f"{updates['right']}/{sum(updates.values())}",
            **{f"updates_{o}": updates[o] for o in UPDATE_OUTCOMES[1:]},
            "s_per_conversation": round(sum(run.seconds) / len(run.seconds), 1) if run.seconds else None,
            "max_s": round(max(run.seconds), 1) if run.seconds else None,
            "prompt_growth": round(run.prompt_growth, 2) if run.prompt_growth is not None else None,
        })
    return pd.DataFrame.from_records(records)


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
    """Every table of one evaluation, keyed by title, in print order."""

    backend: str
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    interrupted: str | None = None

    def render(self) -> str:
        """The tables as text, each under its title (every column and row shown)."""
        parts = [f"memory-pipeline eval: backend {self.backend}"]
        if self.interrupted:
            parts.append(f"INTERRUPTED: {self.interrupted}")
        with pd.option_context("display.max_rows", None, "display.max_columns", None, "display.width", 200,
                               "display.max_colwidth", 80):
            for title, table in self.tables.items():
                body = "(none)" if table.empty else table.to_string(index=False, na_rep="-")
                parts.append(f"\n== {title}\n{body}")
        return "\n".join(parts)

    def to_json(self) -> str:
        """The report as one JSON object: backend, interrupted (null or what was left out), and every table as
        a list of records under its title."""
        tables = {title: json.loads(table.to_json(orient="records")) for title, table in self.tables.items()}
        return json.dumps({"backend": self.backend, "interrupted": self.interrupted, "tables": tables},
                          ensure_ascii=False, indent=1)
