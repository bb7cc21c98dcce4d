"""Score one case's extraction against its gold: facts recalled and wrong per category, traps sprung,
reconciliation outcome, candidates rejected by reason."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from memory_pipeline.domain.facts import CATEGORIES, Candidate
from memory_pipeline.evaluation.gold import GoldCase, keywords_found
from memory_pipeline.evaluation.runs import ExtractionRun, reconcile

RETRACTION = "retraction"  # the fourth row of the facts table: retractions are scored like a category


@dataclass
class CaseScore:
    """Counts for one case. Per row of `ROWS`: `gold` facts, `recalled` (gold facts matched, one candidate per
    gold fact), `accepted` candidates and `correct` ones (matching a gold or optional fact). `traps`/`sprung`:
    trap kinds of the case and those a candidate sprang. `resolved`: None when the case does not check
    reconciliation, else whether the expected facts are active/superseded. `missed`: gold descriptions."""

    gold_set: str
    case: str
    gold: Counter[str] = field(default_factory=Counter)
    recalled: Counter[str] = field(default_factory=Counter)
    accepted: Counter[str] = field(default_factory=Counter)
    correct: Counter[str] = field(default_factory=Counter)
    traps: list[str] = field(default_factory=list)
    sprung: list[str] = field(default_factory=list)
    resolved: bool | None = None
    unresolved_because: str = ""
    missed: list[str] = field(default_factory=list)
    rejected: Counter[str] = field(default_factory=Counter)
    conversations_failed: int = 0

    @property
    def wrong(self) -> int:
        """Accepted candidates that match no gold fact."""
        return sum(self.accepted.values()) - sum(self.correct.values())

    @property
    def passed(self) -> bool:
        """Nothing missed, nothing wrong, no trap sprung, reconciliation as expected, no failed conversation."""
        return not (self.missed or self.wrong or self.sprung or self.resolved is False or self.conversations_failed)


ROWS = (*CATEGORIES, RETRACTION)


def _max_matching(gold_count: int, edges: dict[int, list[int]], preferred: dict[int, list[int]]) -> set[int]:
    """Gold indexes matched in a maximum one-to-one matching of gold facts to candidates (augmenting paths;
    a case has a handful of each). One sentence backing two gold facts needs two candidates to recall both.
    `preferred` edges (keyword matches) are tried first, so a candidate goes to the gold fact it names rather
    than to another one it merely shares a quote with."""
    owner: dict[int, int] = {}

    def assign(g: int, seen: set[int], graph: dict[int, list[int]]) -> bool:
        for c in graph.get(g, []):
            if c in seen:
                continue
            seen.add(c)
            if c not in owner or assign(owner[c], seen, graph):
                owner[c] = g
                return True
        return False

    for graph in (preferred, edges):
        for g in range(gold_count):
            if g not in owner.values():
                assign(g, set(), graph)
    return set(owner.values())


def score_case(case: GoldCase, run: ExtractionRun) -> CaseScore:
    """Score `run` (the backend's extraction of `case.rows`) against `case.expect`."""
    expect = case.expect
    score = CaseScore(case.gold_set, case.name, conversations_failed=run.conversations_failed)
    score.rejected.update(c.reason for c in run.candidates if c.reason)
    accepted = run.accepted
    facts = [c for c in accepted if not c.retraction]
    retractions = [c for c in accepted if c.retraction]

    edges = {g: [i for i, c in enumerate(facts) if gold.matches(c)] for g, gold in enumerate(expect.gold)}
    named = {g: [i for i in edges[g] if keywords_found(gold.keywords, facts[i].fact)] for g, gold in enumerate(expect.gold)}
    recalled = _max_matching(len(expect.gold), edges, named)
    for g, gold in enumerate(expect.gold):
        score.gold[gold.categories[0]] += 1
        if g in recalled:
            score.recalled[gold.categories[0]] += 1
        else:
            score.missed.append(gold.describe())
    for candidate in facts:
        score.accepted[candidate.category] += 1
        if any(g.matches(candidate) for g in (*expect.gold, *expect.optional)):
            score.correct[candidate.category] += 1

    redges = {g: [i for i, c in enumerate(retractions) if r.matches(c)] for g, r in enumerate(expect.retractions)}
    rrecalled = _max_matching(len(expect.retractions), redges, redges)
    score.gold[RETRACTION] += len(expect.retractions)
    score.recalled[RETRACTION] += len(rrecalled)
    score.missed += [f"{RETRACTION}:{'+'.join(r.keywords)}" for g, r in enumerate(expect.retractions)
                     if g not in rrecalled]
    score.accepted[RETRACTION] += len(retractions)
    score.correct[RETRACTION] += sum(1 for c in retractions if any(r.matches(c) for r in expect.retractions))

    for trap in expect.all_traps:
        score.traps.append(trap.kind)
        if any(trap.sprung_by(c) for c in accepted):
            score.sprung.append(trap.kind)

    if expect.checks_reconciliation:
        score.resolved, score.unresolved_because = _reconciliation_outcome(case, accepted)
    return score


def _reconciliation_outcome(case: GoldCase, accepted: list[Candidate]) -> tuple[bool, str]:
    expect = case.expect
    versions = reconcile(accepted)
    active = [v.fact for v in versions if v.is_active]
    superseded = [v.fact for v in versions if not v.is_active]
    if expect.active_count is not None and len(active) != expect.active_count:
        return False, f"{len(active)} active facts, expected {expect.active_count}"
    if expect.active_min is not None and len(active) < expect.active_min:
        return False, f"{len(active)} active facts, expected at least {expect.active_min}"
    for keywords in expect.active_facts:
        if not any(keywords_found(keywords, f) for f in active):
            return False, f"no active fact with {'+'.join(keywords)}"
    for keywords in expect.superseded_facts:
        if any(keywords_found(keywords, f) for f in active):
            return False, f"{'+'.join(keywords)} still active"
        if not any(keywords_found(keywords, f) for f in superseded):
            return False, f"no superseded fact with {'+'.join(keywords)}"
    return True, ""
