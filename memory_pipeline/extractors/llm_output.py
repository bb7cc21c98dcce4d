"""Pydantic shapes of what the LLM answers, and the strict JSON schema sent as `response_format`.

Every answer, whatever the structured-output mode that produced it, is validated against these models; an
answer that does not validate is asked again once, then recorded as failed (`invalid_output`).
"""

from __future__ import annotations

import copy
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, field_validator, model_validator

from memory_pipeline.domain.facts import ExtractedFact
from memory_pipeline.domain.messages import clean_text


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

    # (Not in the docstring: it is sent as the schema's description.) Lenient where a model's harmless variation
    # would otherwise fail the whole conversation's answer: keys outside the schema ("confidence") are ignored,
    # category and attribute are read regardless of case and surrounding whitespace (" Preference",
    # "Home_Location"): the reconciler's slots are lower case, and "Home_Location" must not be a second slot.
    model_config = ConfigDict(extra="ignore")

    category: Literal["preference", "decision", "client_info"]
    attribute: str | None = None
    value: str | None = None
    fact: str
    quote: str
    message_id: int | None = None
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
    def _retraction_names_its_slot(self) -> "LLMFact":
        # Reconciliation ends the active fact of the retracted slot: without the slot there is nothing to end.
        if self.retraction and not (self.attribute or "").strip():
            raise ValueError("a retraction needs the attribute it withdraws")
        return self

    def to_extracted(self) -> ExtractedFact:
        """The backend-neutral `ExtractedFact` (the quote is verified later, against `message_id`'s text)."""
        return ExtractedFact(category=self.category, fact=self.fact, quote=self.quote,
                             attribute=(self.attribute or "").strip() or None, value=self.value,
                             quote_message_id=self.message_id, retraction=self.retraction)


class SummaryAnswer(_Strict):
    """Answer of the summary-only prompt. An empty summary is accepted: refusing it would leave a trivial chat
    unconsolidated night after night."""

    summary: str


class FactsAnswer(_Strict):
    """Answer of the extraction-only prompt; an empty list is a normal answer."""

    facts: list[LLMFact]


class SummaryAndFactsAnswer(_Strict):
    """Answer of the combined prompt (one request serves both LLM stages when they use the same model)."""

    summary: str
    facts: list[LLMFact]


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
