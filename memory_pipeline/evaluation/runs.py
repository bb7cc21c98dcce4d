"""Run a backend over n8n rows the way the pipeline does, without a database: split into conversations,
summarise, extract, validate each candidate, and reconcile a user's accepted facts."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import timedelta

from memory_pipeline.domain.conversations import (
    Conversation,
    build_conversations,
    group_chat_matcher,
    partition_window,
)
from memory_pipeline.domain.facts import Candidate, validate_candidate
from memory_pipeline.domain.messages import SourceRow
from memory_pipeline.domain.near_duplicates import NearDuplicateRule
from memory_pipeline.domain.reconcile import MULTI_VALUED_ATTRIBUTES, AcceptedFact, FactVersion, reconcile_user
from memory_pipeline.domain.relations import by_user, describe, judge_from, pairs_to_judge, relation_key
from memory_pipeline.extractors.base import ExtractionResult, Extractor, ExtractorError
from memory_pipeline.settings import DEFAULT_TTL_DAYS, Settings

# Gold sets are written for the pipeline's defaults (3 h idle gap, UTC days, backlog on the partitions start),
# so the evaluation uses them whatever the environment says: the figures do not move with local settings.
_DEFAULTS = Settings()
# The gold sets' group chats, declared as a user declares theirs (MEMORY_PIPELINE_GROUP_CHAT_SESSION_KEYS).
GOLD_GROUP_CHATS = r"tg:group:.*|tg:500300"


@dataclass
class ExtractionRun:
    """What a backend proposed for a set of rows: every validated candidate (accepted and rejected), the
    conversations it failed on, and the tokens it reported."""

    conversations: list[Conversation] = field(default_factory=list)
    candidates: list[Candidate] = field(default_factory=list)
    failed_by_reason: Counter[str] = field(default_factory=Counter)
    input_tokens: int = 0
    output_tokens: int = 0
    seconds: list[float] = field(default_factory=list)
    prompt_growth: float | None = None
    relations: dict[str, str] = field(default_factory=dict)  # {relation_key: verdict} (domain.relations)
    relation_requests_failed: int = 0

    def add(self, other: "ExtractionRun") -> None:
        """Count `other`'s conversations, candidates, failures, tokens and times in this run too."""
        self.conversations += other.conversations
        self.candidates += other.candidates
        self.failed_by_reason += other.failed_by_reason
        self.input_tokens += other.input_tokens
        self.output_tokens += other.output_tokens
        self.seconds += other.seconds
        self.relations.update(other.relations)
        self.relation_requests_failed += other.relation_requests_failed
        if other.prompt_growth is not None:
            self.prompt_growth = max(self.prompt_growth or 0.0, other.prompt_growth)

    @property
    def conversations_failed(self) -> int:
        """Conversations the backend failed on (any reason)."""
        return sum(self.failed_by_reason.values())

    def note_requests(self, prompt_tokens: Sequence[int]) -> None:
        """Record one conversation's request prompt sizes: `prompt_growth` is the largest ratio of a request's
        prompt to the conversation's first prompt (1.0 without a retry; the issue's bound is 1.5)."""
        if prompt_tokens and prompt_tokens[0] > 0:
            growth = max(prompt_tokens) / prompt_tokens[0]
            self.prompt_growth = max(self.prompt_growth or 0.0, growth)

    @property
    def accepted(self) -> list[Candidate]:
        """Candidates whose quote was found in a user turn."""
        return [c for c in self.candidates if c.status == "accepted"]


def conversations_of(rows: Iterable[SourceRow]) -> list[Conversation]:
    """The conversations the pipeline would build from `rows` with the default settings (session key = user)."""
    return build_conversations(
        rows,
        idle_gap=timedelta(minutes=_DEFAULTS.idle_gap_minutes),
        timezone=_DEFAULTS.timezone,
        backlog_date=_DEFAULTS.effective_backlog_date,
        user_key=lambda key: key,
        max_chars=_DEFAULTS.max_message_chars,
        max_span=timedelta(hours=_DEFAULTS.max_conversation_hours),
        group_chat=group_chat_matcher(GOLD_GROUP_CHATS),
    )


def _propose(extractor: Extractor, conversation: Conversation) -> ExtractionResult | ExtractorError:
    """The facts the pipeline's two LLM stages would get for `conversation`: the summary request's facts when the
    backend returned them with the summary (one request for both stages), else the extraction request's; the
    summary's tokens are added. A failure is returned, not raised; any other exception becomes an
    ExtractorError (reason `backend_error`), as in the stages."""
    try:
        summary = extractor.summarize(conversation)
        facts = getattr(summary, "facts", None)
        if facts is not None:
            result = ExtractionResult(facts=facts)
        else:
            result = extractor.extract(conversation, summary.text)
    except ExtractorError as exc:
        return exc
    except Exception as exc:  # noqa: BLE001 - a backend bug or odd answer fails this conversation only
        return ExtractorError(type(exc).__name__)  # the exception's name only: its text may quote the transcript
    return result.model_copy(update={
        "input_tokens": result.input_tokens + summary.input_tokens,
        "output_tokens": result.output_tokens + summary.output_tokens,
        "request_prompt_tokens": summary.request_prompt_tokens + result.request_prompt_tokens})


@dataclass(frozen=True)
class Progress:
    """One conversation done: its place (`number` of `total` in the rows given), what came of it, how long it
    took. Counts only: no conversation text."""

    number: int
    total: int
    seconds: float
    proposed: int
    accepted: int
    failed: str | None


def _timed(extractor: Extractor, conversation: Conversation) -> tuple[ExtractionResult | ExtractorError, float]:
    start = time.monotonic()
    result = _propose(extractor, conversation)
    return result, time.monotonic() - start


def _results(extractor: Extractor, conversations: list[Conversation]) -> Iterator[tuple]:
    """(result, seconds) per conversation, in order. One in flight: in this thread, so Ctrl-C interrupts the
    request at once. More: a thread pool; on Ctrl-C the queued conversations are dropped and the backend's
    client closed (`close()`, when it has one), so the requests in flight end too."""
    in_flight = max(1, int(getattr(extractor, "max_in_flight", 1) or 1))
    if in_flight == 1:
        for conversation in conversations:
            yield _timed(extractor, conversation)
        return
    pool = ThreadPoolExecutor(max_workers=in_flight, thread_name_prefix="eval")
    try:
        futures = [pool.submit(_timed, extractor, c) for c in conversations]
        for future in futures:
            yield future.result()
    except KeyboardInterrupt:
        pool.shutdown(wait=False, cancel_futures=True)
        close = getattr(extractor, "close", None)
        if close is not None:
            close()
        raise
    finally:
        pool.shutdown()


def extract(extractor: Extractor, rows: Sequence[SourceRow],
            progress: Callable[[Progress], None] | None = None) -> ExtractionRun:
    """Summarise and extract every conversation of `rows` with `extractor`, validating each proposed fact as
    the `extracted_facts` stage does. Requests run `extractor.max_in_flight` at a time when the backend sets
    it (1 otherwise). A conversation that fails is counted in `failed_by_reason` and skipped (its facts are
    then missing from the scores). `progress` is called after each conversation. KeyboardInterrupt is not
    caught (the caller reports what it has)."""
    run = ExtractionRun(conversations=conversations_of(rows))
    backlog_start = partition_window(_DEFAULTS.effective_backlog_date, _DEFAULTS.timezone)[0]
    total = len(run.conversations)
    for number, (result, seconds) in enumerate(_results(extractor, run.conversations), 1):
        conversation = run.conversations[number - 1]
        run.seconds.append(seconds)
        if isinstance(result, ExtractorError):
            reason = getattr(result, "reason", None) or "backend_error"
            run.failed_by_reason[reason] += 1
            if progress:
                progress(Progress(number, total, seconds, 0, 0, reason))
            continue
        run.input_tokens += result.input_tokens
        run.output_tokens += result.output_tokens
        run.note_requests(result.request_prompt_tokens)
        fallback = backlog_start if conversation.is_legacy else None
        candidates = [validate_candidate(f, conversation, i, fallback) for i, f in enumerate(result.facts)]
        run.candidates.extend(candidates)
        if progress:
            progress(Progress(number, total, seconds, len(candidates),
                              sum(1 for c in candidates if c.status == "accepted"), None))
    return run


def accepted_fact(candidate: Candidate) -> AcceptedFact:
    """The reconciler's input for an accepted candidate (a retraction included, with its flag)."""
    return AcceptedFact(
        candidate_id=candidate.candidate_id, user_key=candidate.user_key, category=candidate.category,
        attribute=candidate.attribute, value=candidate.value, fact=candidate.fact, quote=candidate.quote,
        quote_message_id=candidate.quote_message_id, quote_speaker=candidate.quote_speaker,
        conversation_id=candidate.conversation_id, said_at=candidate.said_at, position=candidate.position,
        retraction=candidate.retraction,
    )


def _accepted_by_user(candidates: Iterable[Candidate]) -> dict[str, list[AcceptedFact]]:
    """{user key: the reconciler's input of each accepted, dated candidate}, each user's in said order."""
    facts = [accepted_fact(c) for c in candidates if c.status == "accepted" and c.said_at is not None]
    return {user: sorted(found, key=lambda f: f.said_order) for user, found in by_user(facts).items()}


def relate(extractor: Extractor, run: ExtractionRun) -> None:
    """Judge the pairs of each user's accepted facts that the owner rules leave apart (`relations.pairs_to_judge`)
    with the backend's `relate` (the LLM backend; the offline rules have none), as the nightly `active_facts`
    does, into `run.relations`; its tokens are counted. A failed request leaves its pairs unjudged and is counted
    in `relation_requests_failed`."""
    judge = getattr(extractor, "relate", None)
    if judge is None:
        return
    pairs = [pair for facts in _accepted_by_user(run.candidates).values() for pair in pairs_to_judge((), facts)]
    if not pairs:
        return
    try:
        verdicts, cost = judge([(describe(old), describe(new)) for old, new in pairs])
    except ExtractorError:
        run.relation_requests_failed += 1
        return
    run.input_tokens += cost.input_tokens
    run.output_tokens += cost.output_tokens
    run.relations.update({relation_key(old, new): v for (old, new), v in zip(pairs, verdicts) if v})


def reconcile(candidates: Iterable[Candidate], relations: dict[str, str] | None = None) -> list[FactVersion]:
    """Fact versions of every user of the accepted `candidates`, each user reconciled on their own by the
    pipeline's own fold: the default near-duplicate rule (MEMORY_PIPELINE_NEAR_DUPLICATE_THRESHOLD's default)
    included, and the model's verdicts on pairs (`relations`, {relation_key: verdict}: `relate`), as the
    nightly `active_facts` applies them."""
    rule = NearDuplicateRule(_DEFAULTS.near_duplicate_threshold, MULTI_VALUED_ATTRIBUTES)
    judged = judge_from(relations) if relations else None
    versions: list[FactVersion] = []
    for user_key, facts in sorted(_accepted_by_user(candidates).items()):
        versions.extend(reconcile_user(facts, DEFAULT_TTL_DAYS, rule.same, judged=judged))
    return versions

