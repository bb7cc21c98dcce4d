"""Pydantic shapes of what the LLM answers, and the strict JSON schema sent as `response_format`.

Every answer, whatever the structured-output mode that produced it, is validated against these models; an
answer cut at max_tokens or partly malformed keeps its complete facts (`complete_parts`); one with none is asked
again once, then recorded as failed (`invalid_output`).
"""

from __future__ import annotations

import copy
import json
import re
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from memory_pipeline.domain.facts import CATEGORIES, ExtractedFact
from memory_pipeline.domain.value_support import supported
from memory_pipeline.domain.messages import clean_text
from memory_pipeline.extractors.slots import category_of, contact_detail

M = TypeVar("M", bound=BaseModel)


def _storable(value: object) -> object:
    # The model's text is stored in PostgreSQL, which cannot hold NUL, and encoded as UTF-8, which has no lone
    # surrogates (JSON "\u0000", "\ud800"): one such answer would fail the stage's write, every night. Cleaned
    # as the users' own text is (`clean_text`), so a quote stays comparable with the message it copies.
    return clean_text(value) if isinstance(value, str) else value


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")

    @field_validator("*", mode="after")
    @classmethod
    def _storable_text(cls, value: object) -> object:
        return _storable(value)


class LLMFact(BaseModel):
    """One fact as the model returns it. `message_id` is the id of the user line the quote is copied from;
    `attribute` is the reconciliation slot (None for a fact that fills no slot)."""

    # (Not in the docstring: it is sent as the schema's description.) Fields in the order a model writes them:
    # the line and the words first, then what they say (evidence before the claim). Lenient where a model's
    # variation should become a recorded rejection of one fact (`domain.facts.validate_candidate`: empty_fact,
    # no_quote, unknown_category) rather than fail the whole conversation's answer: keys outside the schema
    # ("confidence") are ignored, category and attribute are read regardless of case and surrounding whitespace
    # (the reconciler's slots are lower case), and a slot that fixes the category overrides the model's one.
    model_config = ConfigDict(extra="ignore")

    message_id: int | None = None
    quote: str = ""
    attribute: str | None = None
    value: str | None = None
    category: str = Field("", json_schema_extra={"enum": list(CATEGORIES)})
    fact: str = ""
    retraction: bool = False

    @field_validator("category", "attribute", mode="before")
    @classmethod
    def _lower_case(cls, value: object) -> object:
        return value.strip().casefold() if isinstance(value, str) else value

    @field_validator("*", mode="after")
    @classmethod
    def _storable_text(cls, value: object) -> object:
        return _storable(value)

    @model_validator(mode="after")
    def _category_from_slot(self) -> "LLMFact":
        self.attribute = contact_detail(self.attribute, self.value) or self.attribute
        self.category = category_of(self.attribute, self.quote) or self.category
        return self

    def to_extracted(self) -> ExtractedFact:
        """The backend-neutral `ExtractedFact` (the quote is verified later, against `message_id`'s text). A
        retraction keeps its value only when the quote names it ("I don't live in Paris anymore"): reconciliation
        then ends the slot only while it holds that value, and a value the model made up ("removed",
        "dislikes") would end nothing."""
        value = self.value
        if self.retraction and value and not supported(value, self.quote):
            value = None
        return ExtractedFact(category=self.category, fact=self.fact, quote=self.quote,
                             attribute=(self.attribute or "").strip() or None, value=value,
                             quote_message_id=self.message_id, retraction=self.retraction)


class SummaryAnswer(_Strict):
    """Answer of the summary-only prompt. An empty summary is accepted: refusing it would leave a trivial chat
    unconsolidated night after night."""

    summary: str


class FactsAnswer(_Strict):
    """Answer of the extraction-only prompt; an empty list is a normal answer."""

    facts: list[LLMFact]


class SummaryAndFactsAnswer(_Strict):
    """Answer of the combined prompt (one request serves both LLM stages when they use the same model). Facts
    come first: an answer cut at max_tokens (a summary that loops) then still holds them."""

    facts: list[LLMFact]
    summary: str


class VerifyAnswer(_Strict):
    """Answer of the verification prompt: one verdict per numbered fact, in order (True: the quote states it)."""

    verdicts: list[bool]


class LineRelation(_Strict):
    """One numbered pair's verdict (`domain.relations.VERDICTS`)."""

    line: int
    relation: Literal["different", "same", "update"]


class RelateAnswer(_Strict):
    """Answer of the relation prompt: a verdict per numbered pair, each with its line number (small models wrote
    one verdict too many or too few in a bare list: the number keeps each verdict on its pair)."""

    relations: list[LineRelation]


_FACTS_KEY = re.compile(r'"facts"\s*:\s*\[')
_SUMMARY_KEY = re.compile(r'"summary"\s*:\s*(?=")')


def complete_parts(text: str, output: type[M]) -> M | None:
    """What a cut or partly malformed answer still holds, as `output`: each fact object that is complete JSON
    and validates (in order, up to the first one that is not), and the summary if its string is complete (else
    empty). None when no fact survives (nothing worth keeping: ask again). Read with the stdlib's raw decoder,
    object by object, so a fact is kept only if its closing brace was written."""
    if "facts" not in output.model_fields:
        return None
    key = _FACTS_KEY.search(text)
    if key is None:
        return None
    decoder = json.JSONDecoder()
    facts: list[LLMFact] = []
    position = key.end()
    while True:
        while position < len(text) and text[position] in " \t\r\n,":
            position += 1
        if position >= len(text) or text[position] == "]":
            break
        try:
            raw, position = decoder.raw_decode(text, position)
            facts.append(LLMFact.model_validate(raw))
        except (ValueError, ValidationError):  # cut inside this object, or not a fact: stop here
            break
    if not facts:
        return None
    values: dict[str, Any] = {"facts": facts}
    if "summary" in output.model_fields:
        summary = _SUMMARY_KEY.search(text)
        try:
            values["summary"] = decoder.raw_decode(text, summary.end())[0] if summary else ""
        except ValueError:
            values["summary"] = ""
    return output.model_validate(values)


def strict_json_schema(model: type[BaseModel]) -> dict[str, Any]:
    """`model`'s JSON schema made acceptable to OpenAI's strict structured outputs: every object closed
    (`additionalProperties: false`), every property required, no `default` keys (OpenAI's documented rules for
    `strict: true`). Validation stays lenient: a server that omits a defaulted field still validates."""
    schema = copy.deepcopy(model.model_json_schema())

    def close(node: Any) -> None:
        if isinstance(node, dict):
            node.pop("default", None)
            if node.get("type") == "object" and "properties" in node:
                node["additionalProperties"] = False
                node["required"] = list(node["properties"])
            for value in node.values():
                close(value)
        elif isinstance(node, list):
            for value in node:
                close(value)

    close(schema)
    return schema
