"""Per case, what went wrong, with the text: the wrong facts, the missed gold facts and why, the traps sprung, and
the reconciliation checks that failed beside the case's fact versions.

The gold sets are written for the project, not users' data, so their text may be printed here (never in logs);
a user's `--gold-file` is their own. Records are plain dicts: the same ones go to the text report and to JSON.
"""

from __future__ import annotations

from collections.abc import Iterable

from memory_pipeline.domain.facts import Candidate
from memory_pipeline.evaluation.gold import GoldFact, GoldRetraction, keywords_found, quotes_overlap
from memory_pipeline.evaluation.scoring import RETRACTION, CaseScore

DETAIL_CHOICES = ("all", "problems", "none")
NOT_PROPOSED = "not proposed"


def fact_record(candidate: Candidate) -> dict:
    """A proposed fact as the details show it: category, attribute, value, fact, quote (and the flag of a
    retraction)."""
    record = {"category": candidate.category, "attribute": candidate.attribute, "value": candidate.value,
              "fact": candidate.fact, "quote": candidate.quote}
    if candidate.retraction:
        record["retraction"] = True
    return record


def _quotes(gold: GoldFact | GoldRetraction) -> list[str]:
    quotes = [getattr(gold, "quote", None), gold.answer.quote if gold.answer else None]
    return [q for q in quotes if q]


def _related(gold: GoldFact | GoldRetraction, candidate: Candidate) -> bool:
    """True when `candidate` was about this gold fact: its quote overlaps the gold's (or the answer's) quote, or
    its fact (for a retraction: fact, attribute, value) holds the gold keywords."""
    text = " ".join(filter(None, [candidate.fact, candidate.attribute, candidate.value]))
    return (any(quotes_overlap(q, candidate.quote) for q in _quotes(gold))
            or keywords_found(gold.keywords, text if isinstance(gold, GoldRetraction) else candidate.fact))


def _accepted_but_unmatched(gold: GoldFact | GoldRetraction, candidate: Candidate) -> str:
    """Why an accepted candidate about this gold fact did not count for it."""
    if isinstance(gold, GoldRetraction):
        return "accepted, but not as a retraction naming the keywords" if not candidate.retraction else (
            "accepted, but counted for another retraction")
    if candidate.category not in gold.categories:
        return f"accepted as {candidate.category}, not {gold.category}"
    if gold.user and gold.user.casefold() not in candidate.user_key.casefold():
        return f"accepted for user {candidate.user_key}, not {gold.user}"
    if not gold.matches(candidate):
        return "accepted without the keywords"
    return "accepted, but counted for another gold fact"


def why_missed(gold: GoldFact | GoldRetraction, candidates: Iterable[Candidate]) -> list[str]:
    """The rejection reasons of the candidates about `gold` (`_related`), then what kept an accepted one from
    counting; [NOT_PROPOSED] when no candidate was about it."""
    related = [c for c in candidates if _related(gold, c)]
    reasons = [c.reason for c in related if c.status == "rejected" and c.reason]
    reasons += [_accepted_but_unmatched(gold, c) for c in related if c.status == "accepted"]
    return list(dict.fromkeys(reasons)) or [NOT_PROPOSED]


def missed_record(gold: GoldFact | GoldRetraction, candidates: Iterable[Candidate]) -> dict:
    """A missed gold fact: its description, quote, why (`why_missed`), and the rejected candidates about it
    (`fact_record` with the rejection `reason`), so the model's answer shows beside the rule that refused it."""
    if isinstance(gold, GoldRetraction):
        description, quote = f"{RETRACTION}:{'+'.join(gold.keywords)}", None
    else:
        description, quote = gold.describe(), gold.quote
    candidates = list(candidates)
    rejected = [{**fact_record(c), "reason": c.reason} for c in candidates
                if c.status == "rejected" and c.reason and _related(gold, c)]
    return {"gold": description, "quote": quote, "why": why_missed(gold, candidates), "rejected": rejected}


def reconciliation_detail(score: CaseScore) -> dict | None:
    """The reconciliation checks that failed and the case's fact versions after reconciliation (active ones, then
    superseded ones with the fact that superseded them, when one did, and the rule that related them: `relation`;
    each with its repeats by rule); None when every check passed or the case checks none."""
    if not score.failed_checks:
        return None
    by_key = {v.version_key: v for v in score.versions}

    def version(v) -> dict:
        record = {"fact": v.fact, "attribute": v.attribute, "repeats": dict(v.repeats)}
        if not v.is_active:
            successor = by_key.get(v.superseded_by_key) if v.superseded_by_key else None
            record["superseded_by"] = successor.fact if successor else None
            record["relation"] = v.relation
        return record

    return {"failed": score.failed_checks,
            "active": [version(v) for v in score.versions if v.is_active],
            "superseded": [version(v) for v in score.versions if not v.is_active]}


def case_details(score: CaseScore) -> dict:
    """What went wrong in one case: wrong facts, missed gold (with why), traps sprung (kind and fact),
    reconciliation (`reconciliation_detail`), failed conversations by reason."""
    return {
        "gold_set": score.gold_set, "case": score.case, "language": score.language, "passed": score.passed,
        "wrong": [fact_record(c) for c in score.wrong_facts],
        "missed": [missed_record(g, score.candidates) for g in score.missed_gold],
        "traps": [{"kind": kind, **fact_record(c)} for kind, c in score.sprung_by],
        "reconciliation": reconciliation_detail(score),
        "failed_conversations": dict(score.failed_by_reason),
    }


def details(scores: Iterable[CaseScore], which: str = "problems") -> list[dict]:
    """`case_details` of every case (`which` = all), of the cases not passed (problems), or none."""
    if which == "none":
        return []
    return [case_details(s) for s in scores if which == "all" or not s.passed]


def _fact_line(record: dict) -> str:
    slot = record["attribute"] or "-"
    if record["value"]:
        slot += f" = {record['value']}"
    kind = "retraction " if record.get("retraction") else ""
    return f"{kind}{record['category']} [{slot}] \"{record['fact']}\" quote \"{record['quote']}\""


def render_details(records: list[dict]) -> str:
    """The records as indented text, one block per case."""
    lines = []
    for r in records:
        language = f" [{r['language']}]" if r["language"] else ""
        lines.append(f"-- {r['gold_set']} / {r['case']}{language}: {'passed' if r['passed'] else 'not passed'}")
        if "summary" in r:
            lines += _summary_lines(r["summary"])
            continue
        lines += [f"   wrong    {_fact_line(w)}" for w in r["wrong"]]
        for m in r["missed"]:
            quote = f" quote \"{m['quote']}\"" if m["quote"] else ""
            lines.append(f"   missed   {m['gold']}{quote}: {', '.join(m['why'])}")
            lines += [f"            rejected {_fact_line(c)}: {c['reason']}" for c in m.get("rejected", ())]
        lines += [f"   trap     {t['kind']}: {_fact_line(t)}" for t in r["traps"]]
        if r["reconciliation"]:
            lines += [f"   update   {why}" for why in r["reconciliation"]["failed"]]
            for state in ("active", "superseded"):
                for v in r["reconciliation"][state]:
                    after = f" -> \"{v['superseded_by']}\"" if v.get("superseded_by") else ""
                    after += f" [{v['relation']}]" if v.get("relation") else ""
                    after += "".join(f" [repeated: {rule} x{n}]" for rule, n in v["repeats"].items())
                    lines.append(f"            {state:<10} \"{v['fact']}\" ({v['attribute'] or '-'}){after}")
        lines += [f"   failed   {n} conversation(s): {reason}" for reason, n in r["failed_conversations"].items()]
    return "\n".join(lines)


def _summary_lines(summary: dict) -> list[str]:
    """A summary case's record (`evaluation.summaries.summary_details`) as indented lines."""
    lines = [f"   failed   {summary['failed']}"] if summary["failed"] else [f"   summary  \"{summary['text']}\""]
    lines += [f"   missed   {point}" for point in summary["missed"]]
    lines += [f"   not grounded {said}" for said in summary["not_grounded"]]
    if summary["other_language"]:
        lines.append(f"   other language: {summary['other_language']} sentence(s)")
    if summary["rejected"]:
        lines.append(f"   rejected {summary['rejected']}")
    return lines
