"""Score one case's extraction against its gold: facts recalled and wrong per category, traps sprung,
reconciliation outcome, candidates rejected by reason.

Extraction and updating are scored apart, as HaluMem (Chen et al. 2025, "HaluMem: Evaluating Hallucinations in
Memory Systems of Agents") does: extraction by recall and precision against the gold memory points; updating by
each expected state after reconciliation (`UPDATE_OUTCOMES`): `right`; `wrong` (a fact that should be active
was superseded or ended, or fewer facts are active than expected); `missed_update` (the facts were extracted but
the old one is still active, or more are active than expected); `missed_extraction` (no fact holds the
keywords at all: an extraction miss, not an update one)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from memory_pipeline.domain.facts import CATEGORIES, Candidate
from memory_pipeline.domain.reconcile import FactVersion
from memory_pipeline.evaluation.gold import GoldCase, GoldFact, GoldRetraction, keywords_found
from memory_pipeline.evaluation.runs import ExtractionRun, reconcile

RETRACTION = "retraction"  # the fourth row of the facts table: retractions are scored like a category


@dataclass
class CaseScore:
    """Counts for one case. Per row of `ROWS`: `gold` facts, `recalled` (gold facts matched, one candidate per
    gold fact), `accepted` candidates and `correct` ones (matching a gold or optional fact). `traps`/`sprung`:
    trap kinds of the case and those a candidate sprang. `resolved`: None when the case does not check
    reconciliation, else whether the expected facts are active/superseded. `missed`: gold descriptions.
    `answered`: gold facts and retractions with an `answer`; `kept`: those recalled.
    What went wrong, for the per-case details (`evaluation.details`): `wrong_facts` (accepted candidates matching
    no gold), `missed_gold`, `sprung_by` (trap kind, the accepted candidate that sprang it), `failed_checks`
    (reconciliation's reasons), `versions` (the case's reconciled fact versions), `candidates` (all, rejected
    ones included) and `failed_by_reason` (conversations the backend failed on)."""

    gold_set: str
    case: str
    language: str | None = None
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
    conversations: int = 0
    updates: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0
    prompt_growth: float | None = None
    answered: int = 0
    kept: int = 0
    wrong_facts: list[Candidate] = field(default_factory=list)
    missed_gold: list[GoldFact | GoldRetraction] = field(default_factory=list)
    sprung_by: list[tuple[str, Candidate]] = field(default_factory=list)
    failed_checks: list[str] = field(default_factory=list)
    versions: list[FactVersion] = field(default_factory=list)
    candidates: list[Candidate] = field(default_factory=list)
    failed_by_reason: Counter[str] = field(default_factory=Counter)

    @property
    def wrong(self) -> int:
        """Accepted candidates that match no gold fact."""
        return sum(self.accepted.values()) - sum(self.correct.values())

    @property
    def passed(self) -> bool:
        """Nothing missed, nothing wrong, no trap sprung, reconciliation as expected, no failed conversation."""
        return not (self.missed or self.wrong or self.sprung or self.resolved is False or self.conversations_failed)


ROWS = (*CATEGORIES, RETRACTION)
UPDATE_OUTCOMES = ("right", "wrong", "missed_update", "missed_extraction")


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
    score = CaseScore(case.gold_set, case.name, case.language, conversations_failed=run.conversations_failed,
                      conversations=len(run.conversations), seconds=sum(run.seconds),
                      prompt_growth=run.prompt_growth, candidates=list(run.candidates),
                      failed_by_reason=Counter(run.failed_by_reason))
    score.rejected.update(c.reason for c in run.candidates if c.reason)
    accepted = run.accepted
    facts = [c for c in accepted if not c.retraction]
    retractions = [c for c in accepted if c.retraction]

    edges = {g: [i for i, c in enumerate(facts) if gold.matches(c)] for g, gold in enumerate(expect.gold)}
    named = {g: [i for i in edges[g] if keywords_found(gold.keywords, facts[i].fact)] for g, gold in enumerate(expect.gold)}
    recalled = _max_matching(len(expect.gold), edges, named)
    for g, gold in enumerate(expect.gold):
        score.gold[gold.categories[0]] += 1
        score.answered += gold.answer is not None
        if g in recalled:
            score.recalled[gold.categories[0]] += 1
            score.kept += gold.answer is not None
        else:
            score.missed.append(gold.describe())
            score.missed_gold.append(gold)
    for candidate in facts:
        score.accepted[candidate.category] += 1
        if any(g.matches(candidate) for g in (*expect.gold, *expect.optional)):
            score.correct[candidate.category] += 1
        else:
            score.wrong_facts.append(candidate)

    redges = {g: [i for i, c in enumerate(retractions) if r.matches(c)] for g, r in enumerate(expect.retractions)}
    rrecalled = _max_matching(len(expect.retractions), redges, redges)
    score.gold[RETRACTION] += len(expect.retractions)
    score.recalled[RETRACTION] += len(rrecalled)
    for g, retraction in enumerate(expect.retractions):
        score.answered += retraction.answer is not None
        if g in rrecalled:
            score.kept += retraction.answer is not None
        else:
            score.missed.append(f"{RETRACTION}:{'+'.join(retraction.keywords)}")
            score.missed_gold.append(retraction)
    score.accepted[RETRACTION] += len(retractions)
    for candidate in retractions:
        if any(r.matches(candidate) for r in expect.retractions):
            score.correct[RETRACTION] += 1
        else:
            score.wrong_facts.append(candidate)

    for trap in expect.all_traps:
        score.traps.append(trap.kind)
        springing = next((c for c in accepted if trap.sprung_by(c)), None)
        if springing is not None:
            score.sprung.append(trap.kind)
            score.sprung_by.append((trap.kind, springing))

    if expect.checks_reconciliation:
        score.versions = reconcile(accepted, run.relations)
        checks = _reconciliation_checks(case, score.versions, {c.fact for c in score.wrong_facts})
        score.updates.update(outcome for outcome, _ in checks)
        score.failed_checks = [why for outcome, why in checks if outcome != "right"]
        score.resolved = not score.failed_checks
        score.unresolved_because = score.failed_checks[0] if score.failed_checks else ""
    return score


def _reconciliation_checks(case: GoldCase, versions: list[FactVersion], wrong: set[str] = frozenset()
                           ) -> list[tuple[str, str]]:
    """(outcome in UPDATE_OUTCOMES, why when not right) per expected state of the case after reconciliation
    (`versions`: the case's reconciled fact versions). `wrong`: the fact texts of the case's wrong facts, which
    the counts (`active_count`, `active_min`) leave out: a wrong fact standing in for a right one is no update
    resolved (a 1.5B model's wrong job once made "1 active fact, expected 1" right)."""
    expect = case.expect
    active = [v.fact for v in versions if v.is_active]
    superseded = [v.fact for v in versions if not v.is_active]
    counted = [f for f in active if f not in wrong]
    note = f" ({len(active) - len(counted)} wrong not counted)" if len(counted) < len(active) else ""
    checks: list[tuple[str, str]] = []
    if expect.active_count is not None:
        n = len(counted)
        outcome = "right" if n == expect.active_count else ("missed_update" if n > expect.active_count else "wrong")
        checks.append((outcome, f"{n} active facts, expected {expect.active_count}{note}"))
    if expect.active_min is not None:
        n = len(counted)
        checks.append(("right" if n >= expect.active_min else "missed_extraction",
                       f"{n} active facts, expected at least {expect.active_min}{note}"))
    for keywords in expect.active_facts:
        name = "+".join(keywords)
        if any(keywords_found(keywords, f) for f in active):
            checks.append(("right", ""))
        elif any(keywords_found(keywords, f) for f in superseded):
            checks.append(("wrong", f"{name} superseded, expected active"))
        else:
            checks.append(("missed_extraction", f"no active fact with {name}"))
    for keywords in expect.superseded_facts:
        name = "+".join(keywords)
        if any(keywords_found(keywords, f) for f in active):
            checks.append(("missed_update", f"{name} still active"))
        elif any(keywords_found(keywords, f) for f in superseded):
            checks.append(("right", ""))
        else:
            checks.append(("missed_extraction", f"no superseded fact with {name}"))
    return checks
