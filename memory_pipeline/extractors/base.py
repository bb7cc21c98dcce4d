"""The interface every summariser/extractor backend implements (offline rules now, an LLM later)."""

from __future__ import annotations

from typing import Protocol

from pydantic import BaseModel, Field

from memory_pipeline.domain.conversations import Conversation
from memory_pipeline.domain.facts import ExtractedFact


class SummaryResult(BaseModel):
    """A conversation summary with the tokens it cost (0 for the offline backend). `request_prompt_tokens`: the
    prompt tokens of each request sent for it, in order (empty for the offline backend), as in ExtractionResult.

    `facts`: set by a backend whose summary request also extracted the conversation's facts (the LLM backend
    when both stages use one model); the summary stage caches them so the extraction stage sends no request.
    None when the backend did not extract.

    `dropped_sentences`: sentences the backend's answer held that named what the conversation does not
    (`domain.grounding.grounded`), left out of `text`.

    `lines_said`: every sentence of `text` is a sentence of the conversation's messages as written (an
    extractive summary), so it names nothing the conversation does not hold and the stage does not check its
    grounding again."""

    text: str
    input_tokens: int = Field(0, ge=0)
    output_tokens: int = Field(0, ge=0)
    facts: list[ExtractedFact] | None = None
    request_prompt_tokens: list[int] = Field(default_factory=list)
    dropped_sentences: int = Field(0, ge=0)
    lines_said: bool = False


class ExtractionResult(BaseModel):
    """Facts proposed for one conversation; an empty list is a normal result."""

    facts: list[ExtractedFact] = Field(default_factory=list)
    input_tokens: int = Field(0, ge=0)
    output_tokens: int = Field(0, ge=0)
    request_prompt_tokens: list[int] = Field(default_factory=list)


class Extractor(Protocol):
    """A backend. `name`, `model` and `prompt_version` key the summary cache: a re-run with the same three and
    the same transcript hash pays no tokens twice.

    Implementations must not raise on odd text; a backend error for one conversation (network, malformed
    output) raises `ExtractorError`, which the asset records and skips without sinking the run.

    Optional attributes the stages read when present: `summary_model` (model keying the summary cache, default
    `model`), `max_in_flight` (requests a step may run at once, default 1) and `cache_answers` (True: extraction
    answers are cached by (transcript hash, prompt version, model); default False, for rule backends whose
    output changes with their code, not their prompt version) and `free_answers` (True: an answer costs no
    tokens nor model time to compute again, so the stages write them in larger batches; default False).
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
    """One conversation could not be summarised or extracted; the message carries no conversation text.

    `reason` is a short code recorded with the failure (invalid_output, refusal, timeout, rate_limited,
    server_error, connection_error, auth_error, bad_request, format_refused, or backend_error by default)."""

    def __init__(self, message: str = "", *, reason: str = "backend_error"):
        super().__init__(message)
        self.reason = reason
