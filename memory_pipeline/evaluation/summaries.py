"""`memory-pipeline eval --gold-set summaries`: a backend's conversation summaries scored on chats with their key
points (format: memory_pipeline/eval_data/README.md, "Summary cases").

Per summary: the key points it recalls (a key point is recalled when every keyword of it is in the summary, by
`gold.keywords_found`: an alternative starts a word, case-insensitive; anywhere in a script without spaces), what
it names that its chat does not hold (`domain.grounding.unheld`: names, numbers, dates), whether grounding
rejects it, its sentences (`domain.summaries.sentence_count`), those in another language than the chat's
(`domain.summaries.in_language`) and the requests it took, at the backend's own chunk budget
(`evaluate_summaries`). Then the chats a chunking backend (the LLM backend: `chunk_count`) splits at
EVAL_CHUNK_TOKENS per request are summarised again so (`evaluate_chunked`): the set's three long chats (about
1,050 tokens each) in two or more parts, combined, as a longer chat is at the default budget.
"""

from __future__ import annotations

import json
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from importlib import resources
from pathlib import Path
from typing import Iterator

import pandas as pd
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from memory_pipeline.domain.grounding import rejection, unheld
from memory_pipeline.domain.messages import SourceRow
from memory_pipeline.domain.summaries import MAX_SENTENCES, MIN_SENTENCES, chat_language, in_language, sentence_count
from memory_pipeline.evaluation.gold import GoldSetError, keywords_found
from memory_pipeline.evaluation.runs import conversations_of
from memory_pipeline.extractors.base import Extractor, ExtractorError

EVAL_CHUNK_TOKENS = 600
SUMMARY_FILE = "summary_cases.jsonl"


class KeyPoint(BaseModel):
    """What a good summary of the chat says: `kind` who | asked | decided | outcome | open; `keywords`: strings
    (each with `|` alternatives) that must all be in the summary."""

    model_config = ConfigDict(extra="forbid")

    kind: str
    keywords: list[str] = Field(min_length=1)


class SummaryMessage(BaseModel):
    model_config = ConfigDict(extra="forbid")

    role: str
    content: str
    at: datetime | None


class SummaryCase(BaseModel):
    """One chat (`messages`, one conversation) and its `key_points`; `language` its BCP-47 tag; `src` what it
    models (not scored)."""

    model_config = ConfigDict(extra="forbid")

    case: str
    language: str
    src: str = ""
    messages: list[SummaryMessage] = Field(min_length=1)
    key_points: list[KeyPoint] = Field(min_length=1)

    @property
    def name(self) -> str:
        """The case's name (as `GoldCase.name`, for `eval --case`)."""
        return self.case

    def rows(self) -> list[SourceRow]:
        """The chat as n8n rows of one session key, ids 1, 2, ... in order."""
        return [SourceRow(i, f"summary:{self.case}", {"type": m.role, "content": m.content}, m.at)
                for i, m in enumerate(self.messages, 1)]


def is_summary_file(path: Path) -> bool:
    """Whether the gold file at `path` holds summary cases: its first case has `key_points` (behaviour cases have
    `expect`). False for a file that cannot be read or parsed: the behaviour cases' reader reports it."""
    try:
        with path.open(encoding="utf-8") as lines:
            first = next((line for line in lines if line.strip()), "")
        return "key_points" in json.loads(first)
    except (OSError, ValueError, TypeError):
        return False


def summary_cases(path: Path | None = None) -> list[SummaryCase]:
    """The cases of `path` (default: the shipped SUMMARY_FILE). Raises GoldSetError naming the file and line."""
    name = str(path) if path else SUMMARY_FILE
    text = path.read_text() if path else resources.files("memory_pipeline.eval_data").joinpath(
        SUMMARY_FILE).read_text(encoding="utf-8")
    cases = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            cases.append(SummaryCase.model_validate(json.loads(line)))
        except (ValueError, ValidationError) as exc:
            raise GoldSetError(f"{name} line {number}: {str(exc).splitlines()[0]}") from None
    return cases


@dataclass
class SummaryScore:
    """One case's summary figures (no summary text: `unheld` holds the kinds of what was not grounded)."""

    case: str
    language: str
    key_points: int
    recalled: int
    unheld: list[str] = field(default_factory=list)
    rejected: str | None = None
    sentences: int = 0
    requests: int = 0
    conversations: int = 1
    failed: str | None = None
    dropped: int = 0
    other_language: int = 0
    gold_set: str = "summaries"
    text: str = ""  # the summary (eval's details print it: gold sets and --gold-file cases are the user's own)
    missed: list[str] = field(default_factory=list)  # the key points not recalled, as "kind: keywords"
    unheld_said: list[str] = field(default_factory=list)  # what was not grounded, in the summary's words


@contextmanager
def _chunked(extractor: Extractor) -> Iterator[None]:
    """The extractor with at most EVAL_CHUNK_TOKENS per request while the set runs (module docstring)."""
    before = getattr(extractor, "chunk_tokens", None)
    if before is not None:
        extractor.chunk_tokens = min(before, EVAL_CHUNK_TOKENS)
    try:
        yield
    finally:
        if before is not None:
            extractor.chunk_tokens = before


def score_summary(case: SummaryCase, text: str, conversation, requests: int, dropped: int = 0,
                  gold_set: str = "summaries") -> SummaryScore:
    """The figures of summary `text` of `case`'s `conversation` (a case of `gold_set`), which took `requests`
    requests and lost `dropped` sentences of the backend's answer (not grounded, or not in the chat's language)."""
    missed = [f"{p.kind}: {' + '.join(p.keywords)}" for p in case.key_points if not keywords_found(p.keywords, text)]
    found = unheld(text, conversation)
    return SummaryScore(case.case, case.language, len(case.key_points), len(case.key_points) - len(missed),
                        [u.kind for u in found], rejection(text, conversation),
                        sentence_count(text), requests, dropped=dropped,
                        other_language=in_language(text, chat_language(conversation))[1], text=text, missed=missed,
                        unheld_said=[f"{u.kind} {u.said!r}" for u in found], gold_set=gold_set)


def _conversation(case: SummaryCase):
    conversations = conversations_of(case.rows())
    if len(conversations) != 1:
        raise GoldSetError(f"summary case {case.case} is {len(conversations)} conversations, not 1")
    return conversations[0]


def _summarised(extractor: Extractor, case: SummaryCase, gold_set: str) -> SummaryScore:
    conversation = _conversation(case)
    try:
        result = extractor.summarize(conversation)
    except ExtractorError as exc:
        return SummaryScore(case.case, case.language, len(case.key_points), 0, failed=exc.reason,
                            gold_set=gold_set)
    return score_summary(case, result.text, conversation, len(result.request_prompt_tokens),
                         result.dropped_sentences, gold_set)


def evaluate_summaries(extractor: Extractor, cases: list[SummaryCase], gold_set: str = "summaries"
                       ) -> list[SummaryScore]:
    """Summarise each case's chat with `extractor` as configured and score it, as part of `gold_set`; a failure
    is scored as recalling nothing."""
    return [_summarised(extractor, case, gold_set) for case in cases]


def evaluate_chunked(extractor: Extractor, cases: list[SummaryCase], gold_set: str = "summaries"
                     ) -> list[SummaryScore]:
    """The cases whose chat `extractor` splits in two or more chunks at EVAL_CHUNK_TOKENS per request, summarised
    so and scored; empty for a backend that does not chunk (no `chunk_count`)."""
    if not hasattr(extractor, "chunk_count"):
        return []
    with _chunked(extractor):
        return [_summarised(extractor, case, gold_set) for case in cases
                if extractor.chunk_count(_conversation(case)) > 1]


def summaries_table(scores: list[SummaryScore]) -> pd.DataFrame:
    """One row per gold set (`SummaryScore.gold_set`, in order of first appearance): key points recalled (share),
    names/numbers/dates not grounded (count), sentences of the backend's answers dropped as not grounded or not in
    the chat's language (count), sentences in another language than the chat's (count,
    `domain.summaries.in_language`), sentences per summary (mean), share of summaries of MIN_SENTENCES to
    MAX_SENTENCES sentences, summaries rejected, failures, requests per conversation."""
    sets = dict.fromkeys(s.gold_set for s in scores)
    return pd.DataFrame([_summaries_row(name, [s for s in scores if s.gold_set == name]) for name in sets])


def _summaries_row(gold_set: str, scores: list[SummaryScore]) -> dict:
    done = [s for s in scores if s.failed is None]
    points = sum(s.key_points for s in scores)
    return {
        "gold_set": gold_set, "cases": len(scores), "languages": len({s.language for s in scores}),
        "key_points": points, "recalled": round(sum(s.recalled for s in scores) / points, 3) if points else None,
        "not_grounded": sum(len(s.unheld) for s in done), "dropped": sum(s.dropped for s in done),
        "other_language": sum(s.other_language for s in done),
        "sentences_mean": round(sum(s.sentences for s in done) / len(done), 2) if done else None,
        "share_3_to_5": round(sum(MIN_SENTENCES <= s.sentences <= MAX_SENTENCES for s in done) / len(done), 3)
        if done else None,
        "rejected": sum(s.rejected is not None for s in done), "failed": len(scores) - len(done),
        "requests_per_conversation": round(sum(s.requests for s in done) / len(done), 2) if done else None,
    }


def summary_cases_table(scores: list[SummaryScore]) -> pd.DataFrame:
    """One row per case: its gold set, language, key points recalled of all, what was not grounded (kinds), the
    rejection reason, the answer's sentences dropped, sentences in another language, sentences, requests, the
    failure's reason."""
    return pd.DataFrame([{
        "gold_set": s.gold_set, "case": s.case, "language": s.language, "recalled": f"{s.recalled}/{s.key_points}",
        "not_grounded": ",".join(s.unheld) or "-", "rejected": s.rejected or "-", "dropped": s.dropped,
        "other_language": s.other_language, "sentences": s.sentences, "requests": s.requests,
        "failed": s.failed or "-"} for s in scores])


def summary_details(scores: list[SummaryScore], which: str = "problems") -> list[dict]:
    """Per case (all, or `problems`: those with a key point missed, anything not grounded, a sentence in another
    language, a rejection or a failure; none): the summary text and what it missed, as records
    `evaluation.details.render_details` prints."""
    if which == "none":
        return []
    records = []
    for s in scores:
        passed = not (s.missed or s.unheld or s.other_language or s.rejected or s.failed)
        if which == "all" or not passed:
            records.append({"gold_set": s.gold_set, "case": s.case, "language": s.language, "passed": passed,
                            "summary": {"text": s.text, "missed": s.missed, "not_grounded": s.unheld_said,
                                        "other_language": s.other_language, "rejected": s.rejected,
                                        "failed": s.failed}})
    return records
