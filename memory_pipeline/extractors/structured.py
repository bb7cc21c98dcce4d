"""Ask an OpenAI-compatible chat server for JSON that validates against a pydantic model, on any server.

Structured-output support differs by server: OpenAI, Ollama and vLLM take `response_format: json_schema`;
llama-cpp-python's server (0.3.36) answers it with HTTP 500 "Input should be 'text' or 'json_object'" and
takes `json_object` with a `schema`; some gateways take only plain `json_object`, and some nothing at all. So
the request walks down these levels until the server accepts one, and remembers it for the rest of the run
(one `StructuredChat` per extractor, i.e. per Dagster step):

    json_schema         response_format {"type": "json_schema", "json_schema": {strict schema}}
    json_object_schema  response_format {"type": "json_object", "schema": {schema}}   (llama.cpp's form)
    json_object         response_format {"type": "json_object"}
    prompt              no response_format; the JSON shape is in the instructions only

The system prompt always describes the JSON shape, so every level gets the same messages. Every request sends
`max_tokens` (MEMORY_PIPELINE_LLM_MAX_TOKENS; `max_completion_tokens` for a server that refuses the older name):
small models loop until the cap. Whatever the level, the answer is validated with pydantic. An answer cut at
the cap (finish_reason `length`) or partly malformed keeps its complete facts (`llm_output.complete_parts`); one
with none is asked again once, the user message followed by a one-line note naming the error (a loop, a cut, the
fields that failed), never the broken answer (echoing it doubled the prompt and, at temperature 0, looped
again); then the call fails with reason `invalid_output`. Transient errors (429, 5xx, timeouts) are retried by the openai SDK
itself (`max_retries`, honouring Retry-After); what is left after its retries becomes an `ExtractorError` with a
reason code, and no chat text.
"""

from __future__ import annotations

import logging
import re
import threading
from dataclasses import dataclass
from typing import Any, TypeVar

import openai
from pydantic import BaseModel, ValidationError

from memory_pipeline.extractors.base import ExtractorError
from memory_pipeline.extractors.llm_output import complete_parts, strict_json_schema
from memory_pipeline.extractors.prompts import retry_message

log = logging.getLogger(__name__)

M = TypeVar("M", bound=BaseModel)

LEVELS = ("json_schema", "json_object_schema", "json_object", "prompt")
# Setting MEMORY_PIPELINE_STRUCTURED_OUTPUT -> (first level, last level) it may use. `auto` walks them all; an
# explicit mode stays within itself (json_object drops the schema key only if the server refuses that key).
MODE_LEVELS = {"auto": (0, 3), "json_schema": (0, 0), "json_object": (1, 2), "prompt": (3, 3)}

# Words an error about an unsupported response_format carries (llama.cpp: "Input should be 'text' or
# 'json_object'"; OpenAI/vLLM/LiteLLM: "response_format", "json_schema", "Unrecognized ... schema").
_FORMAT_ERROR = re.compile(r"response_format|json_schema|json_object|\bschema\b|Input should be 'text'", re.I)
_FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.S)
# A run of 12-200 characters written three times in a row: how a small model's loop looks ("I like it. I like
# it. I like it."). Ordinary answers repeat keys and short values, never a 12-character run back to back.
_LOOP = re.compile(r"(.{12,200}?)\1\1", re.S)

FAILURE_REASONS = ("invalid_output", "refusal", "timeout", "rate_limited", "server_error", "connection_error",
                   "auth_error", "bad_request", "format_refused")


@dataclass
class Answer:
    """A validated answer and the tokens its request(s) cost, as the server reported them. `prompt_tokens`:
    each request's prompt tokens, in order (a retry's prompt can be compared with the first one). `cut`: the
    answer kept is what was complete in an answer cut at max_tokens or partly malformed."""

    value: BaseModel
    input_tokens: int
    output_tokens: int
    requests: int
    prompt_tokens: list[int]
    cut: bool = False


def looping(text: str) -> bool:
    """True when `text` repeats one run of 12-200 characters three times back to back (a model's loop)."""
    return _LOOP.search(text) is not None


def failure_reason(exc: openai.OpenAIError) -> str:
    """Reason code of an SDK error left after the SDK's own retries."""
    if isinstance(exc, openai.APITimeoutError):
        return "timeout"
    if isinstance(exc, openai.APIConnectionError):
        return "connection_error"
    if isinstance(exc, openai.RateLimitError):
        return "rate_limited"
    if isinstance(exc, (openai.AuthenticationError, openai.PermissionDeniedError)):
        return "auth_error"
    if isinstance(exc, openai.APIStatusError) and exc.status_code >= 500:
        return "server_error"
    return "bad_request"


def _refuses_format(exc: openai.OpenAIError) -> bool:
    """True when the server's error says it does not take this response_format (400/422/500/501)."""
    if not isinstance(exc, openai.APIStatusError) or exc.status_code not in (400, 422, 500, 501):
        return False
    return bool(_FORMAT_ERROR.search(f"{exc.message} {exc.body}"))


def _reason(exc: openai.OpenAIError) -> str:
    return "format_refused" if _refuses_format(exc) else failure_reason(exc)


def _response_format(level: str, model: type[BaseModel]) -> dict[str, Any] | None:
    if level == "json_schema":
        return {"type": "json_schema",
                "json_schema": {"name": model.__name__, "strict": True, "schema": strict_json_schema(model)}}
    if level == "json_object_schema":
        return {"type": "json_object", "schema": strict_json_schema(model)}
    if level == "json_object":
        return {"type": "json_object"}
    return None


def _validation_summary(exc: ValidationError) -> str:
    """The errors' locations and messages, without the input values (they may quote chat text)."""
    parts = [f"{'.'.join(str(p) for p in e['loc']) or 'answer'}: {e['msg']}" for e in exc.errors(include_input=False)]
    return "; ".join(parts)[:800]


class StructuredChat:
    """Chat completions that return validated pydantic objects; thread-safe (one per extractor, shared by the
    step's worker threads). `mode` is MEMORY_PIPELINE_STRUCTURED_OUTPUT. `temperature` 0 asks for the most
    likely answer; a server that refuses a temperature (reasoning models) gets none for the rest of the run."""

    def __init__(self, client: openai.OpenAI, mode: str = "auto", temperature: float | None = 0.0,
                 max_tokens: int | None = None):
        first, last = MODE_LEVELS[mode]
        self._client = client
        self._level, self._last = first, last
        self._settled = first == last  # a fixed mode has nothing to find out
        self._probe = threading.Lock()
        self._temperature = temperature
        self._max_tokens = max_tokens
        self._max_tokens_key = "max_tokens"  # OpenAI's reasoning models take only max_completion_tokens

    @property
    def level(self) -> str:
        """The structured-output level in use (settled after the first accepted request in `auto`)."""
        return LEVELS[self._level]

    def ask(self, model: str, system: str, user: str, output: type[M]) -> Answer:
        """Validated `output` for one (system, user) exchange. Raises ExtractorError (reason in FAILURE_REASONS)."""
        note = ""
        tokens_in = tokens_out = 0
        prompts: list[int] = []
        for attempt in (1, 2):
            messages = [{"role": "system", "content": system},
                        {"role": "user", "content": f"{user}\n\n{note}" if note else user}]
            response = self._create(model, messages, output)
            usage = response.usage
            prompts.append((usage.prompt_tokens or 0) if usage else 0)
            tokens_in += prompts[-1]
            tokens_out += (usage.completion_tokens or 0) if usage else 0
            choice = response.choices[0] if response.choices else None
            message = choice.message if choice else None
            if message is not None and (getattr(message, "refusal", None) or choice.finish_reason == "content_filter"):
                raise ExtractorError("the model refused to answer", reason="refusal")
            content = (message.content if message else None) or ""
            fenced = _FENCE.match(content)
            text = fenced.group(1) if fenced else content
            cut = choice is not None and choice.finish_reason == "length"
            error = ""
            if not cut:
                try:
                    return Answer(output.model_validate_json(text), tokens_in, tokens_out, attempt, prompts)
                except ValidationError as exc:
                    error = _validation_summary(exc)
            kept = complete_parts(text, output)
            if kept is not None:
                log.info("kept %d complete facts of a %s answer", len(getattr(kept, "facts", [])),
                         "cut" if cut else "malformed")
                return Answer(kept, tokens_in, tokens_out, attempt, prompts, cut=True)
            if attempt == 2:
                raise ExtractorError("no valid answer in two attempts", reason="invalid_output")
            if looping(text):
                error = "it repeated the same words until it was cut off; give each fact once, with a short quote"
            elif cut:
                error = "it was cut off before the JSON ended; keep each quote and fact short"
            note = retry_message(error or "it was not the JSON object asked for")
        raise AssertionError("unreachable")

    def _create(self, model: str, messages: list[dict[str, str]], output: type[BaseModel]) -> Any:
        while True:
            if not self._settled:
                response = self._probe_level(model, messages, output)
                if response is not None:
                    return response
            level = self._level
            try:
                return self._send(model, messages, output, LEVELS[level], probe=False)
            except ExtractorError as exc:
                # Settled without having seen the server's answer (it failed otherwise at first), and it now
                # refuses the format: probe again from the next level.
                with self._probe:
                    if exc.reason != "format_refused" or self._level != level or level >= self._last:
                        raise
                    self._level, self._settled = level + 1, False

    def _probe_level(self, model: str, messages: list[dict[str, str]], output: type[BaseModel]) -> Any:
        """Under the probe lock, find the level with this request: its response, or None when the level is settled
        without an answer (by another request meanwhile, or because this one failed for a reason that says
        nothing about the format). Holding the lock for one probe request at most keeps the other requests from
        waiting behind a server that is down: `llm_max_in_flight` holds from the first failure on."""
        with self._probe:  # one request finds the level; the others wait for it instead of each probing
            while not self._settled:
                level = LEVELS[self._level]
                try:
                    response = self._send(model, messages, output, level, probe=True)
                except openai.OpenAIError as exc:
                    if _refuses_format(exc) and self._level < self._last:
                        log.info("server refused response_format %s; falling back to %s for this run",
                                    level, LEVELS[self._level + 1])
                        self._level += 1
                        continue
                    if _refuses_format(exc):
                        raise ExtractorError(f"server refused response_format {level}", reason="format_refused") from None
                    # Not about the format (429, a 5xx, a timeout): keep the level; this request is sent again
                    # with the SDK's retries outside the lock, alongside the others.
                    self._settled = True
                    return None
                self._settled = True
                return response
            return None

    def _send(self, model: str, messages: list[dict[str, str]], output: type[BaseModel], level: str, probe: bool):
        # A probe is sent once, without the SDK's retries: a refused format must not be retried with backoff.
        client = self._client.with_options(max_retries=0) if probe else self._client
        kwargs: dict[str, Any] = {}
        response_format = _response_format(level, output)
        if response_format is not None:
            kwargs["response_format"] = response_format
        if self._temperature is not None:
            kwargs["temperature"] = self._temperature
        if self._max_tokens is not None:
            kwargs[self._max_tokens_key] = self._max_tokens
        try:
            return client.chat.completions.create(model=model, messages=messages, **kwargs)
        except openai.BadRequestError as exc:
            said = f"{exc.message} {exc.body}".lower()
            if self._max_tokens_key == "max_tokens" and "max_tokens" in said and "max_completion_tokens" in said:
                # OpenAI's reasoning models: "Unsupported parameter: 'max_tokens' ... use 'max_completion_tokens'".
                log.info("server refused max_tokens; sending max_completion_tokens for this run")
                self._max_tokens_key = "max_completion_tokens"
                return self._send(model, messages, output, level, probe)
            if self._temperature is not None and "temperature" in said:
                # Reasoning models (o1, gpt-5, ...) take only their default temperature: drop it for the run.
                log.info("server refused temperature=%s; using the model's default for this run", self._temperature)
                self._temperature = None
                return self._send(model, messages, output, level, probe)
            if probe:
                raise
            raise ExtractorError(f"{type(exc).__name__} from the LLM server", reason=_reason(exc)) from None
        except openai.OpenAIError as exc:
            if probe:
                raise
            raise ExtractorError(f"{type(exc).__name__} from the LLM server", reason=_reason(exc)) from None
        except ValueError:
            # A 200 whose body is not JSON (a proxy's HTML page, a cut connection): the server's fault, not the
            # model's; the body is not quoted (it may echo the prompt).
            raise ExtractorError("unreadable answer from the LLM server", reason="server_error") from None
