"""The LLM backend: summaries and facts from any OpenAI-compatible chat server, through the `openai` SDK.

The SDK reads OPENAI_API_KEY and OPENAI_BASE_URL itself (OpenAI, Azure's v1 endpoint, LiteLLM, Ollama, vLLM,
llama.cpp's server); the key never passes through this project's settings. Requests: one per conversation when
both stages use the same model (the summary request asks for the facts too, and the summary stage caches them
for the extraction stage), else one per stage. A conversation longer than MEMORY_PIPELINE_LLM_CHUNK_TOKENS is
sent in chunks on message boundaries (`domain.chunking`), then merged: chunk summaries combined into one of at
most five sentences (`domain.summaries.combine`), facts concatenated with repeats dropped. Every answer is
validated (`structured.StructuredChat`); a quote the user said in another line than the one cited is
re-attributed to the first user line that holds it (small models cite a neighbouring id); the quotes are
verified later, against the cited message, by `domain.facts.validate_candidate`. With MEMORY_PIPELINE_LLM_VERIFY
one more short request per conversation asks whether each fact's quote states it about the user (`verify`); its
verdicts travel with the facts, so the cache keeps them too (the prompt version says the pass was on). `relate`
judges pairs of one user's facts the owner rules leave apart (issue 26, `domain.relations`).
"""

from __future__ import annotations

import os
from collections.abc import Sequence

import openai

from memory_pipeline.domain.chunking import chunk_messages
from memory_pipeline.domain.conversations import Conversation
from memory_pipeline.domain.facts import ExtractedFact, fact_key
from memory_pipeline.domain.quotes import QuoteSources, normalize_for_quote
from memory_pipeline.domain.grounding import grounded
from memory_pipeline.domain.summaries import chat_language, combine, complete, in_language
from memory_pipeline.extractors import prompts
from memory_pipeline.extractors.base import ExtractionResult, SummaryResult
from memory_pipeline.extractors.circuit import CircuitBreaker
from memory_pipeline.extractors.offline import OfflineExtractor
from memory_pipeline.extractors.llm_output import (
    FactsAnswer, LLMFact, RelateAnswer, SummaryAndFactsAnswer, SummaryAnswer, VerifyAnswer)
from memory_pipeline.extractors.structured import StructuredChat
from memory_pipeline.extractors.tokens import token_counter
from memory_pipeline.settings import Settings

# Stands in for the key when only OPENAI_BASE_URL is set: local servers (Ollama, vLLM, llama.cpp) ignore it,
# but the SDK refuses to start without one.
LOCAL_SERVER_KEY = "not-needed-for-a-local-server"
CHUNK_OVERLAP_MESSAGES = 1
# Pairs per relation request: an answer short enough that a small model keeps its answers in line order.
RELATE_BATCH = 12


def make_client(settings: Settings) -> openai.OpenAI:
    """The SDK client: key and base URL from the SDK's own environment variables, timeout and retries from
    settings (the SDK retries 408/409/429/5xx and timeouts with exponential backoff, honouring Retry-After)."""
    key = os.environ.get("OPENAI_API_KEY") or (LOCAL_SERVER_KEY if os.environ.get("OPENAI_BASE_URL") else None)
    return openai.OpenAI(api_key=key, timeout=settings.llm_timeout_seconds, max_retries=settings.llm_max_retries)


_LINES_SAID = OfflineExtractor()  # its extractive summary completes a short one (`domain.summaries.complete`)


def merge_facts(facts: list[ExtractedFact]) -> list[ExtractedFact]:
    """Facts in order with repeats dropped: same category and fact text (case, whitespace and end punctuation
    ignored), or same slot, value and quote (the same statement read twice in overlapping chunks)."""
    seen: set[tuple] = set()
    merged = []
    for fact in facts:
        keys = {("fact", fact.category, fact_key(fact.fact), fact.retraction),
                ("slot", fact.attribute, (fact.value or "").casefold(), normalize_for_quote(fact.quote),
                 fact.retraction)}
        if keys & seen:
            continue
        seen |= keys
        merged.append(fact)
    return merged


def reattribute(facts: list[ExtractedFact], conversation: Conversation) -> list[ExtractedFact]:
    """`facts` with each quote that is not in its cited user line (or cites none) pointed at the first user line
    that holds it; a quote no user line holds keeps its id (the quote check then says why it fails)."""
    sources = QuoteSources(conversation)
    out = []
    for fact in facts:
        needle = normalize_for_quote(fact.quote)
        if needle and not (fact.quote_message_id is not None and sources.holding(needle, fact.quote_message_id)):
            holding = sources.holding(needle)
            if holding:
                fact = fact.model_copy(update={"quote_message_id": holding[0][0].message_id})
        out.append(fact)
    return out


class OpenAIExtractor:
    """`Extractor` over an OpenAI-compatible server. `model` is the extraction model, `summary_model` the
    summary one; `prompt_version` keys both caches. Raises ExtractorError (with a reason code) per conversation."""

    name = "openai"
    prompt_version = prompts.PROMPT_VERSION
    relate_version = prompts.RELATE_VERSION
    cache_answers = True

    def __init__(self, settings: Settings, client: openai.OpenAI | None = None):
        self.model = settings.extraction_model
        self.summary_model = settings.summary_model
        self.max_in_flight = settings.llm_max_in_flight
        self.client = client or make_client(settings)
        self.chat = StructuredChat(self.client, settings.structured_output, max_tokens=settings.llm_max_tokens)
        self.breaker = CircuitBreaker(settings.llm_breaker_failures)  # a server that is down ends the step's calls
        self.verify_facts = settings.llm_verify
        if self.verify_facts:  # verdicts are part of the cached answer: a run with the pass is a prompt of its own
            self.prompt_version = f"{prompts.PROMPT_VERSION}+verify"
        self._timezone = settings.timezone
        self.chunk_tokens = settings.llm_chunk_tokens  # transcript tokens per request (a longer chat is chunked)

    def close(self) -> None:
        """Close the HTTP client: requests in flight on other threads end with a connection error."""
        self.client.close()

    @property
    def structured_output(self) -> str:
        """The structured-output level this run uses (for metadata): json_schema, json_object_schema, ..."""
        return self.chat.level

    @property
    def combined(self) -> bool:
        """True when one request per conversation serves both stages (same model for both)."""
        return self.summary_model == self.model

    def _chunks(self, conversation: Conversation, model: str) -> list[list[str]]:
        count = token_counter(model)
        lines = [prompts.format_line(t, self._timezone) for t in conversation.turns]
        return chunk_messages(lines, count, self.chunk_tokens, CHUNK_OVERLAP_MESSAGES)

    def chunk_count(self, conversation: Conversation) -> int:
        """How many requests the summary of `conversation` takes at `chunk_tokens` (its chunks)."""
        return len(self._chunks(conversation, self.summary_model))

    def summarize(self, conversation: Conversation) -> SummaryResult:
        """Summary of the conversation (a chunked one's chunk summaries combined, `domain.summaries.combine`);
        with `combined`, its facts too."""
        if not any(t.role == "human" for t in conversation.turns):
            # Nothing the user said (an agent's greeting, tool rows): no fact is possible, no request is worth it.
            return SummaryResult(text="", facts=[] if self.combined else None)
        output = SummaryAndFactsAnswer if self.combined else SummaryAnswer
        system = prompts.COMBINED_SYSTEM if self.combined else prompts.SUMMARY_SYSTEM
        summaries: list[str] = []
        facts: list[ExtractedFact] = []
        tokens_in = tokens_out = 0
        requests: list[int] = []
        chunks = self._chunks(conversation, self.summary_model)
        for index, lines in enumerate(chunks, 1):
            message = prompts.transcript_message(lines, index, len(chunks))
            answer = self.breaker.call(lambda: self.chat.ask(self.summary_model, system, message, output))
            summaries.append(answer.value.summary.strip())
            if self.combined:
                facts += [f.to_extracted() for f in answer.value.facts]
            tokens_in += answer.input_tokens
            tokens_out += answer.output_tokens
            requests += answer.prompt_tokens
        # One answer goes through `combine` too: a 1.5B model wrote its four sentences twice over (eight), and
        # the seed's summary has at most five.
        written = combine(summaries)
        # A sentence naming a date, number or name the chat does not hold is dropped (a 1.5B model's English
        # summary of a Polish chat says "Sunday" for "w sobotę"); the rest of the answer stays.
        text, dropped = grounded(written, conversation, self._timezone)
        # A sentence in another language than the chat's is dropped too: the summary is in the conversation's
        # language (a 1.5B model writes English for a Spanish chat); the lines said below are in it.
        text, other_language = in_language(text, chat_language(conversation))
        dropped += other_language
        # A short answer (small models write one or two sentences) is completed with the chat's own decisive
        # lines, chosen as the offline backend chooses them: 3 to 5 sentences, none ungrounded. An answer left
        # empty (all dropped, or cut at max_tokens before the summary field) is those lines alone.
        said = _LINES_SAID.summarize(conversation).text
        text = complete(text, said) if text else said
        if not self.combined:
            return SummaryResult(text=text, input_tokens=tokens_in, output_tokens=tokens_out,
                                 request_prompt_tokens=requests, dropped_sentences=dropped)
        facts, verify = self._finish(facts, conversation)
        return SummaryResult(text=text, input_tokens=tokens_in + verify.input_tokens,
                             output_tokens=tokens_out + verify.output_tokens, facts=facts,
                             request_prompt_tokens=requests + verify.request_prompt_tokens,
                             dropped_sentences=dropped)

    def extract(self, conversation: Conversation, summary: str = "") -> ExtractionResult:
        """Facts of the conversation from the extraction-only prompt (the summary is not sent: the transcript
        is the evidence, and the summary would cost tokens for nothing the model cannot read there)."""
        if not any(t.role == "human" for t in conversation.turns):
            return ExtractionResult()
        facts: list[LLMFact] = []
        tokens_in = tokens_out = 0
        requests: list[int] = []
        chunks = self._chunks(conversation, self.model)
        for index, lines in enumerate(chunks, 1):
            message = prompts.transcript_message(lines, index, len(chunks))
            answer = self.breaker.call(lambda: self.chat.ask(self.model, prompts.EXTRACTION_SYSTEM, message,
                                                             FactsAnswer))
            facts += answer.value.facts
            tokens_in += answer.input_tokens
            tokens_out += answer.output_tokens
            requests += answer.prompt_tokens
        kept, verify = self._finish([f.to_extracted() for f in facts], conversation)
        return ExtractionResult(facts=kept, input_tokens=tokens_in + verify.input_tokens,
                                output_tokens=tokens_out + verify.output_tokens,
                                request_prompt_tokens=requests + verify.request_prompt_tokens)

    def _finish(self, facts: list[ExtractedFact], conversation: Conversation
                ) -> tuple[list[ExtractedFact], ExtractionResult]:
        """Facts merged and re-attributed, then verified when the pass is on; the second item holds the
        verification request's tokens (zero without it)."""
        facts = reattribute(merge_facts(facts), conversation)
        if not (self.verify_facts and facts):
            return facts, ExtractionResult()
        return self.verify(facts)

    def verify(self, facts: list[ExtractedFact]) -> tuple[list[ExtractedFact], ExtractionResult]:
        """One short request asking, for each fact, whether its quote states it about the user: each fact gets
        `verified` True/False (None for all when the verdicts do not match the facts one to one)."""
        answer = self.chat.ask(self.model, prompts.VERIFY_SYSTEM,
                               prompts.verify_message((f.fact, f.quote) for f in facts), VerifyAnswer)
        verdicts = answer.value.verdicts
        cost = ExtractionResult(input_tokens=answer.input_tokens, output_tokens=answer.output_tokens,
                                request_prompt_tokens=answer.prompt_tokens)
        if len(verdicts) != len(facts):
            return facts, cost
        return [f.model_copy(update={"verified": v}) for f, v in zip(facts, verdicts)], cost

    def relate(self, pairs: Sequence[tuple[str, str]]) -> tuple[list[str | None], ExtractionResult]:
        """The model's verdict on each (older, newer) pair of one user's facts (each as `relations.describe`
        writes it): "update", "same" or "different", one request per RELATE_BATCH pairs, each verdict taken by its
        line number (the first for a number given twice); None for a pair the answer gives none. The second item
        holds the requests' tokens. Raises ExtractorError (the server failed, or its answer never validated)."""
        verdicts: list[str | None] = []
        cost = ExtractionResult()
        for start in range(0, len(pairs), RELATE_BATCH):
            batch = pairs[start:start + RELATE_BATCH]
            answer = self.breaker.call(lambda: self.chat.ask(self.model, prompts.RELATE_SYSTEM,
                                                             prompts.relate_message(batch), RelateAnswer))
            by_line: dict[int, str] = {}
            for item in answer.value.relations:
                by_line.setdefault(item.line, item.relation)
            verdicts += [by_line.get(n) for n in range(1, len(batch) + 1)]
            cost = ExtractionResult(input_tokens=cost.input_tokens + answer.input_tokens,
                                    output_tokens=cost.output_tokens + answer.output_tokens,
                                    request_prompt_tokens=cost.request_prompt_tokens + answer.prompt_tokens)
        return verdicts, cost
