"""Gold sets of `memory-pipeline eval`: their shapes (pydantic), loaders, and the rules that match a proposed
fact to a gold fact.

Matching rules (documented again in memory_pipeline/eval_data/README.md):
- a keyword matches where one of its `|`-separated alternatives starts a word of the text, case-insensitive
  ("like" matches "likes", not "dislikes"); in a script written without spaces, anywhere in the text;
- two quotes overlap when, after whitespace and quote marks are normalised and case is folded, one contains the
  other;
- a gold fact is matched by an accepted candidate of one of its categories (`|`-separated) whose fact text holds
  every keyword, or, unless the gold is `strict`, whose quote overlaps the gold quote; with `user`, the
  candidate's user key must contain it; any of its `alternatives` may match instead.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from memory_pipeline.domain.facts import Candidate
from memory_pipeline.domain.quotes import normalize_for_quote
from memory_pipeline.domain.value_support import SPACELESS_CHARS
from memory_pipeline.domain.messages import SourceRow


class GoldSetError(ValueError):
    """A gold file (or a LoCoMo file) is not in the documented shape; the message names the file and place."""


# Scripts written without spaces between words (Chinese, Japanese kana, Thai, Lao, Myanmar, Khmer): a word start
# cannot be told there, so a keyword opening with one of their letters matches anywhere, and any keyword matches
# right after one of them ("1000元" in "预算1000元左右").
_UNSPACED = re.compile(f"[{SPACELESS_CHARS}]")
_WORD_START = rf"(?<![^\W{SPACELESS_CHARS}])"


@lru_cache(maxsize=512)
def _keyword_pattern(keyword: str) -> re.Pattern[str]:
    alternatives = [a.strip() for a in keyword.split("|") if a.strip()]
    return re.compile("|".join(("" if _UNSPACED.match(a) else _WORD_START) + re.escape(a) for a in alternatives),
                      re.IGNORECASE)


def keyword_found(keyword: str, text: str) -> bool:
    """True when one `|`-separated alternative of `keyword` starts a word of `text` (case-insensitive); in a
    script without spaces (`_UNSPACED`), when it is anywhere in `text`, or follows one of its letters."""
    return bool(_keyword_pattern(keyword).search(text))


def keywords_found(keywords: list[str], text: str) -> bool:
    """True when every keyword is found in `text` (an empty list is never found: it would match anything)."""
    return bool(keywords) and all(keyword_found(k, text) for k in keywords)


def quotes_overlap(a: str, b: str) -> bool:
    """True when one quote contains the other after `normalize_for_quote` and case folding."""
    na, nb = normalize_for_quote(a).casefold(), normalize_for_quote(b).casefold()
    return bool(na) and bool(nb) and (na in nb or nb in na)


class GoldAnswer(BaseModel):
    """What a model that answers right returns for a gold fact or retraction (the scripted right-answer model of
    `eval`'s ceiling): the slot `attribute` (None: no slot), its `value`, the `fact` sentence in the
    conversation's language, and the `quote`, the user's exact words (None: the gold's own `quote`). The category
    is the gold's first one."""

    model_config = ConfigDict(extra="forbid")

    fact: str
    attribute: str | None = None
    value: str | None = None
    quote: str | None = None


class GoldFact(BaseModel):
    """A fact a correct extraction proposes. `category`: one or several categories separated by `|`;
    `keywords`: strings (each with `|` alternatives) that must all be in the fact text; `quote`: the user's
    words the fact rests on; `strict`: the keywords are required (a date the model must resolve);
    `user`: a string the candidate's user key must contain (group chats); `alternatives`: other acceptable
    shapes of the same fact; `answer`: what a model answering right returns for it (`GoldAnswer`)."""

    model_config = ConfigDict(extra="forbid")

    category: str
    keywords: list[str] = Field(default_factory=list)
    quote: str | None = None
    strict: bool = False
    user: str | None = None
    alternatives: list["GoldFact"] = Field(default_factory=list)
    answer: GoldAnswer | None = None

    @model_validator(mode="after")
    def _answer_has_a_quote(self) -> "GoldFact":
        if self.answer and not (self.answer.quote or self.quote):
            raise ValueError("an answer needs a quote: its own, or the gold fact's")
        return self

    @property
    def categories(self) -> list[str]:
        """The accepted categories; the first one is where the gold fact is counted."""
        return [c.strip() for c in self.category.split("|") if c.strip()]

    def matches(self, candidate: Candidate) -> bool:
        """True when the accepted `candidate` states this fact (module docstring's rule)."""
        if self._matches_self(candidate):
            return True
        return any(alternative.matches(candidate) for alternative in self.alternatives)

    def _matches_self(self, candidate: Candidate) -> bool:
        if candidate.category not in self.categories:
            return False
        if self.user and self.user.casefold() not in candidate.user_key.casefold():
            return False
        if keywords_found(self.keywords, candidate.fact):
            return True
        return not self.strict and self.quote is not None and quotes_overlap(self.quote, candidate.quote)

    def describe(self) -> str:
        """`category:keyword+keyword` (gold text only, never user text), for the table of missed facts."""
        return f"{self.categories[0]}:{'+'.join(self.keywords) or (self.quote or '')[:30]}"


class GoldRetraction(BaseModel):
    """A retraction a correct extraction proposes: a candidate with `retraction=True` whose fact, attribute or
    value holds every keyword."""

    model_config = ConfigDict(extra="forbid")

    keywords: list[str]
    answer: GoldAnswer | None = None

    @model_validator(mode="after")
    def _answer_has_a_quote(self) -> "GoldRetraction":
        if self.answer and not self.answer.quote:
            raise ValueError("a retraction's answer needs its quote")
        return self

    def matches(self, candidate: Candidate) -> bool:
        """True when `candidate` is a retraction naming these keywords."""
        text = " ".join(filter(None, [candidate.fact, candidate.attribute, candidate.value]))
        return candidate.retraction and keywords_found(self.keywords, text)


class Trap(BaseModel):
    """Something that must never become a fact. Without `forbidden`, `forbidden_in_fact` and `quotes`, any
    accepted candidate of the case springs it; otherwise a candidate whose fact or quote holds a `forbidden`
    keyword, whose fact holds a `forbidden_in_fact` one (words the quote may hold: "blue" in "My favourite colour
    is blue, just kidding, it is green."), or whose quote overlaps one of `quotes`."""

    model_config = ConfigDict(extra="forbid")

    kind: str
    forbidden: list[str] = Field(default_factory=list)
    forbidden_in_fact: list[str] = Field(default_factory=list)
    quotes: list[str] = Field(default_factory=list)

    def sprung_by(self, candidate: Candidate) -> bool:
        """True when the accepted `candidate` is what this trap forbids."""
        if not self.forbidden and not self.forbidden_in_fact and not self.quotes:
            return True
        text = f"{candidate.fact} {candidate.quote}"
        return (any(keyword_found(k, text) for k in self.forbidden)
                or any(keyword_found(k, candidate.fact) for k in self.forbidden_in_fact)
                or any(quotes_overlap(q, candidate.quote) for q in self.quotes))


class Expect(BaseModel):
    """What a correct consolidation of a case gives. `gold` lists every fact expected (a candidate matching
    none of `gold` or `optional` is a wrong fact); `trap` (a kind) makes the whole case a trap; `traps` are
    finer ones. Reconciliation is checked when any of `active_facts`, `superseded_facts` (lists of keyword
    lists: some active, resp. some superseded and no active, fact holds them all), `active_count` or
    `active_min` is given. Prose fields of the shared file (`note`, `active`, `superseded`) are ignored."""

    model_config = ConfigDict(extra="ignore")

    gold: list[GoldFact]
    optional: list[GoldFact] = Field(default_factory=list)
    retractions: list[GoldRetraction] = Field(default_factory=list)
    trap: str | None = None
    traps: list[Trap] = Field(default_factory=list)
    active_facts: list[list[str]] = Field(default_factory=list)
    superseded_facts: list[list[str]] = Field(default_factory=list)
    active_count: int | None = None
    active_min: int | None = None

    @property
    def all_traps(self) -> list[Trap]:
        """`traps` plus the whole-case trap."""
        return ([Trap(kind=self.trap)] if self.trap else []) + self.traps

    @property
    def checks_reconciliation(self) -> bool:
        """True when the case says which facts stay active after reconciliation."""
        return bool(self.active_facts or self.superseded_facts) or self.active_count is not None or (
            self.active_min is not None)


class _Message(BaseModel):
    role: str
    content: Any
    at: datetime | None


class _Session(BaseModel):
    session_id: str
    messages: list[_Message]


# A BCP-47 tag as people write them ("it", "pt-BR", "zh-Hant", "es-419"): a language subtag, then subtags.
BCP47 = r"^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$"


class _CaseLine(BaseModel):
    case: str
    language: str | None = Field(None, pattern=BCP47)
    sessions: list[_Session]
    expect: Expect


class _ShapeExpectLine(BaseModel):
    session_id: str
    expect: Expect


@dataclass(frozen=True)
class GoldCase:
    """One case: n8n rows (`SourceRow`, ids ascending in the order said) and what their consolidation gives;
    `language`: the case's BCP-47 tag when its line gives one ("it", "pt-BR"), for the per-language figures."""

    gold_set: str
    name: str
    rows: tuple[SourceRow, ...]
    expect: Expect
    language: str | None = None


def _lines(text: str, source: str) -> list[tuple[int, dict]]:
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            out.append((number, json.loads(line)))
        except json.JSONDecodeError as exc:
            raise GoldSetError(f"{source} line {number}: not JSON ({exc.msg})") from None
    return out


def _first_error(exc: ValidationError) -> str:
    """`expect.gold.0.category: Field required`: where the first error is and what it is, on one line."""
    error = exc.errors()[0]
    place = ".".join(str(part) for part in error["loc"])
    return f"{place}: {error['msg']}" if place else error["msg"]


def parse_behaviour_cases(text: str, source: str = "extraction_cases.jsonl", gold_set: str = "cases"
                          ) -> list[GoldCase]:
    """Cases of the `{"case", "language"?, "sessions": [{"session_id", "messages": [{"role", "content", "at"}]}],
    "expect"}` shape, in gold set `gold_set`; rows get ids 1, 2, ... in file order. Raises GoldSetError naming
    `source` and the line on a malformed line."""
    cases = []
    for number, record in _lines(text, source):
        try:
            line = _CaseLine.model_validate(record)
        except ValidationError as exc:
            raise GoldSetError(f"{source} line {number}: {_first_error(exc)}") from None
        rows = []
        for session in line.sessions:
            for message in session.messages:
                rows.append(SourceRow(len(rows) + 1, session.session_id,
                                      {"type": message.role, "content": message.content}, message.at))
        cases.append(GoldCase(gold_set, line.case, tuple(rows), line.expect, line.language))
    return cases


def parse_message_shape_cases(rows_text: str, expect_text: str) -> list[GoldCase]:
    """One case per session key of `message_shapes.jsonl` that `message_shapes_expect.jsonl` gives an
    expectation for (rows: `id`, `session_id`, `created_at` ISO-8601 or null, `message`; `_case` ignored)."""
    by_session: dict[str, list[SourceRow]] = {}
    for number, record in _lines(rows_text, "message_shapes.jsonl"):
        try:
            created = record.get("created_at")
            row = SourceRow(int(record["id"]), str(record["session_id"]), record.get("message"),
                            datetime.fromisoformat(created.replace("Z", "+00:00")) if created else None)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise GoldSetError(f"message_shapes.jsonl line {number}: {exc!r}") from None
        by_session.setdefault(row.session_id, []).append(row)
    cases = []
    for number, record in _lines(expect_text, "message_shapes_expect.jsonl"):
        try:
            line = _ShapeExpectLine.model_validate(record)
        except ValidationError as exc:
            raise GoldSetError(f"message_shapes_expect.jsonl line {number}: {exc.errors()[0]['msg']}") from None
        if line.session_id not in by_session:
            raise GoldSetError(f"message_shapes_expect.jsonl line {number}: no rows of that session key")
        cases.append(GoldCase("n8n", line.session_id, tuple(by_session[line.session_id]), line.expect))
    return cases


def eval_data(name: str) -> str:
    """Text of a file shipped in `memory_pipeline/eval_data/`."""
    return resources.files("memory_pipeline.eval_data").joinpath(name).read_text(encoding="utf-8")


def behaviour_cases() -> list[GoldCase]:
    """The shipped behaviour cases (the shared cases extended with issue 5's)."""
    return parse_behaviour_cases(eval_data("extraction_cases.jsonl"))


def message_shape_cases() -> list[GoldCase]:
    """The shipped n8n row shapes with their expected facts."""
    return parse_message_shape_cases(eval_data("message_shapes.jsonl"), eval_data("message_shapes_expect.jsonl"))


def multilingual_cases() -> list[GoldCase]:
    """The shipped multilingual behaviour cases (`multilingual_cases.jsonl`, each with its `language`)."""
    return parse_behaviour_cases(eval_data("multilingual_cases.jsonl"), "multilingual_cases.jsonl", "multilingual")


def gold_file_cases(path: Path) -> list[GoldCase]:
    """A user's own behaviour cases (the `extraction_cases.jsonl` format), in a gold set named by the file's
    stem. Raises GoldSetError naming the file (and the line) when it is missing, not UTF-8, empty or malformed."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise GoldSetError(f"{path}: no such file") from None
    except UnicodeDecodeError as exc:
        line = path.read_bytes()[:exc.start].count(b"\n") + 1
        raise GoldSetError(f"{path} line {line}: not UTF-8 text") from None
    except OSError as exc:
        raise GoldSetError(f"{path}: {exc.strerror}") from None
    cases = parse_behaviour_cases(text, str(path), path.stem)
    if not cases:
        raise GoldSetError(f"{path}: no case in it (one JSON object a line)")
    return cases
