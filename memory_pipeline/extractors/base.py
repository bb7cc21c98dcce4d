"""The interface every summariser/extractor backend implements (offline rules now, an LLM later)."""

from __future__ import annotations

from typing import Protocol

from pydantic import BaseModel, Field

from memory_pipeline.domain.conversations import Conversation
from memory_pipeline.domain.facts import ExtractedFact


class SummaryResult(BaseModel):
    """A conversation summary with the tokens it cost (0 for the offline backend)."""

    text: str
    input_tokens: int = Field(0, ge=0)
    output_tokens: int = Field(0, ge=0)


class ExtractionResult(BaseModel):
    """Facts proposed for one conversation; an empty list is a normal result."""

    facts: list[ExtractedFact] = Field(default_factory=list)
    input_tokens: int = Field(0, ge=0)
    output_tokens: int = Field(0, ge=0)


class Extractor(Protocol):
    """A backend. `name`, `model` and `prompt_version` key the summary cache: a re-run with the same three and
    the same transcript hash pays no tokens twice.

    Implementations must not raise on odd text; a backend error for one conversation (network, malformed
    output) raises `ExtractorError`, which the asset records and skips without sinking the run.
    """

    name: str
    model: str
    prompt_version: str

    def summarize(self, conversation: Conversation) -> SummaryResult:
        """A short decision-oriented summary (who, what, outcome). Raises ExtractorError on backend failure."""
        ...

    def extract(self, conversation: Conversation, summary: str) -> ExtractionResult:
        """Proposed facts of the conversation; the caller validates each. Raises ExtractorError on failure."""
        ...


class ExtractorError(RuntimeError):
    """One conversation could not be summarised or extracted; the message carries no conversation text."""
