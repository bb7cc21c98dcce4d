"""A small OpenAI-compatible HTTP server for the tests and the LLM benchmark: real HTTP, the real `openai` SDK on
the other side. Shipped in the package so `memory-pipeline benchmark --llm` can start it from any install.

It serves `POST /v1/chat/completions` and `POST /v1/embeddings` on 127.0.0.1 (a free port) from a thread.
Chat answers come from a script (`Reply` objects consumed in order) or, when the script is empty, from
`responder(request_body) -> Reply`; each reply can carry a status code, headers (Retry-After), a delay, a
refusal, or a raw body (malformed JSON). `refuse_json_schema=True` answers a `response_format` of type
`json_schema` the way llama-cpp-python's server 0.3.36 does (HTTP 500, "Input should be 'text' or
'json_object'"). A request's `max_tokens` (or `max_completion_tokens`) is honoured as a real server does: an
answer longer than that many tokens (`approx_tokens`) is cut there with finish_reason `length`. Embeddings are deterministic: a bag of hashed words, L2-normalised, so texts sharing words
are close. Every request is recorded in `requests` (path, headers, parsed body, monotonic arrival time `at`) so
tests can count calls and prompt tokens; `max_concurrent` is the most chat requests it ever held at once.

`transcript_responder` answers like a model that follows the prompt, by reading the transcript lines back and
applying the offline extractor's rules to the user's lines. The failures real small models show (issue 16:
Qwen2.5-Coder 0.5B and 1.5B behind llama.cpp) are scripted too: `looping_answer` (one sentence repeated inside a quote until the token
cap), `example_copier` (every phrase the prompt quotes, returned as the chat's facts), `fact_answer` (any facts:
an injection line's tail, a wrong message id, a value not in its quote, a slot in the wrong category). Run it as a server for the demo:

    python -m memory_pipeline.testing.openai_server --port 8765 [--latency 0.2] [--refuse-json-schema]
"""

from __future__ import annotations

import base64
import hashlib
import json
import math
import re
import signal
import struct
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

LLAMA_CPP_JSON_SCHEMA_ERROR = "Input should be 'text' or 'json_object'"


@dataclass
class Reply:
    """One scripted answer. `content`: the assistant message text (JSON for structured output).
    `status` != 200 sends an OpenAI-style error body; `body` (str) is sent as it is instead of any JSON.
    `delay` seconds before answering; `refusal`: the model's refusal text (content is then None)."""

    content: str | None = None
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    refusal: str | None = None
    body: str | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    finish_reason: str = "stop"


_TOKEN = re.compile(r"\w+|[^\w\s]")


def approx_tokens(text: str) -> int:
    """A stand-in tokenizer for usage figures: words and punctuation marks."""
    return len(_TOKEN.findall(text))


def cut_at_tokens(text: str, limit: int) -> str | None:
    """`text` up to its `limit`-th token (`approx_tokens`), or None when it has no more than `limit` tokens."""
    for count, match in enumerate(_TOKEN.finditer(text), 1):
        if count > limit:
            return text[:match.start()]
    return None


def hashed_embedding(text: str, dimensions: int) -> list[float]:
    """Deterministic embedding: each lower-cased word adds 1 to a bucket chosen by its sha1; L2-normalised."""
    vector = [0.0] * dimensions
    for word in re.findall(r"\w+", text.casefold()):
        vector[int(hashlib.sha1(word.encode()).hexdigest()[:8], 16) % dimensions] += 1.0
    norm = math.sqrt(sum(v * v for v in vector)) or 1.0
    return [v / norm for v in vector]


class _QuietServer(ThreadingHTTPServer):
    """A client that hung up before its answer (a run worker killed mid-request) is no error of the server's."""

    def handle_error(self, request, client_address) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


class ScriptedOpenAIServer:
    """Start with `with ScriptedOpenAIServer() as server:`; point the SDK at `server.base_url`."""

    def __init__(self, responder: Callable[[dict[str, Any]], Reply] | None = None, *,
                 refuse_json_schema: bool = False, embedding_dimensions: int = 16, port: int = 0):
        self.script: deque[Reply] = deque()
        self.max_concurrent = 0
        self._active = 0
        self.responder = responder
        self.refuse_json_schema = refuse_json_schema
        self.embedding_dimensions = embedding_dimensions
        # A text this predicate holds for makes its embeddings request fail with 400 (as a text too long does).
        self.refuse_embedding: Callable[[str], bool] | None = None
        self.requests: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        self._httpd = _QuietServer(("127.0.0.1", port), self._handler_class())
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        """`http://127.0.0.1:<port>/v1`, what OPENAI_BASE_URL takes."""
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def __enter__(self) -> "ScriptedOpenAIServer":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def chat_requests(self) -> list[dict[str, Any]]:
        """Bodies of the chat completion requests received so far."""
        with self._lock:
            return [r["body"] for r in self.requests if r["path"].endswith("/chat/completions")]

    def _next_reply(self, body: dict[str, Any]) -> Reply:
        with self._lock:
            if self.script:
                return self.script.popleft()
        if self.responder is None:
            return Reply(status=500, body=json.dumps({"error": {"message": "no scripted reply left"}}))
        return self.responder(body)

    def _handler_class(self):
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            # Headers and body go out in two writes: without TCP_NODELAY, Nagle's algorithm and the client's
            # delayed ACK hold each answer back ~40 ms, which would swamp scripted latencies.
            disable_nagle_algorithm = True

            def log_message(self, *args: object) -> None:  # quiet test output
                pass

            def _send(self, status: int, payload: str, headers: dict[str, str] | None = None) -> None:
                data = payload.encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)

            def do_POST(self) -> None:  # noqa: N802 - http.server's naming
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                try:
                    body = json.loads(raw or b"{}")
                except ValueError:
                    body = {}
                with server._lock:
                    server.requests.append({"path": self.path, "headers": dict(self.headers), "body": body,
                                            "at": time.monotonic()})
                if self.path.endswith("/embeddings"):
                    self._embeddings(body)
                elif self.path.endswith("/chat/completions"):
                    with server._lock:
                        server._active += 1
                        server.max_concurrent = max(server.max_concurrent, server._active)
                    try:
                        self._chat(body)
                    finally:
                        with server._lock:
                            server._active -= 1
                else:
                    self._send(404, json.dumps({"error": {"message": f"no route {self.path}"}}))

            def _embeddings(self, body: dict[str, Any]) -> None:
                inputs = body.get("input")
                inputs = [inputs] if isinstance(inputs, str) else list(inputs or [])
                if server.refuse_embedding and any(server.refuse_embedding(str(t)) for t in inputs):
                    error = {"error": {"message": "input too long", "type": "invalid_request_error"}}
                    self._send(400, json.dumps(error))
                    return
                dims = int(body.get("dimensions") or server.embedding_dimensions)
                vectors = [hashed_embedding(str(text), dims) for text in inputs]
                if body.get("encoding_format") == "base64":
                    # As OpenAI answers it: little-endian float32s, base64. n8n's client (the openai JS SDK)
                    # asks for this by default and decodes without checking the format.
                    vectors = [base64.b64encode(struct.pack(f"<{dims}f", *v)).decode() for v in vectors]
                data = [{"object": "embedding", "index": i, "embedding": vector} for i, vector in enumerate(vectors)]
                tokens = sum(approx_tokens(str(t)) for t in inputs)
                self._send(200, json.dumps({"object": "list", "data": data, "model": body.get("model", "test"),
                                            "usage": {"prompt_tokens": tokens, "total_tokens": tokens}}))

            def _chat(self, body: dict[str, Any]) -> None:
                response_format = body.get("response_format") or {}
                if server.refuse_json_schema and response_format.get("type") == "json_schema":
                    self._send(500, json.dumps({"error": {"message": LLAMA_CPP_JSON_SCHEMA_ERROR,
                                                          "type": "internal_server_error"}}))
                    return
                reply = server._next_reply(body)
                if reply.delay:
                    time.sleep(reply.delay)
                if reply.body is not None:
                    self._send(reply.status, reply.body, reply.headers)
                    return
                if reply.status != 200:
                    error = {"error": {"message": f"scripted status {reply.status}", "type": "scripted"}}
                    self._send(reply.status, json.dumps(error), reply.headers)
                    return
                prompt = "\n".join(str(m.get("content") or "") for m in body.get("messages", []))
                prompt_tokens = reply.prompt_tokens if reply.prompt_tokens is not None else approx_tokens(prompt)
                completion_tokens = (reply.completion_tokens if reply.completion_tokens is not None
                                     else approx_tokens(reply.content or reply.refusal or ""))
                content, finish_reason = reply.content, reply.finish_reason
                cap = body.get("max_tokens") or body.get("max_completion_tokens")
                cut = cut_at_tokens(content, int(cap)) if content and cap else None
                if cut is not None:  # a real server stops generating at the cap
                    content, finish_reason = cut, "length"
                    completion_tokens = int(cap)
                message = {"role": "assistant", "content": content, "refusal": reply.refusal}
                payload = {
                    "id": f"chatcmpl-{len(server.requests)}", "object": "chat.completion",
                    "created": int(time.time()), "model": body.get("model", "test"),
                    "choices": [{"index": 0, "message": message, "finish_reason": finish_reason}],
                    "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                              "total_tokens": prompt_tokens + completion_tokens},
                }
                self._send(200, json.dumps(payload), reply.headers)

        return Handler


# -- a responder that reads the prompt back ---------------------------------------------------------------
# `[id|when|speaker] text`; a group chat's speaker is `user NAME`; a machine-written block follows in braces.
TRANSCRIPT_LINE = re.compile(
    r"^\[(\d+|-)\|[^|\]]*\|(user|assistant|tool)(?: [^\]]*)?\] (.*?)(?: \{machine-written, [^{}]*\})?$")
_ROLES = {"user": "human", "assistant": "ai", "tool": "tool"}


def transcript_responder(body: dict[str, Any], latency: float = 0.0) -> Reply:
    """Answer a memory_pipeline prompt as a well-behaved model would: read the transcript lines
    (`[id|when|speaker] text`) of the first user message, run the offline extractor's rules on the user's
    lines, cite each quote's message id, and return the JSON the system prompt's shape line asks for
    (summary, facts, or both; a relation request's pairs all "different", `unrelated_pairs`)."""
    from datetime import date

    from memory_pipeline.domain.conversations import Conversation
    from memory_pipeline.domain.quotes import normalize_for_quote
    from memory_pipeline.domain.messages import ParsedRow
    from memory_pipeline.extractors.offline import OfflineExtractor
    from memory_pipeline.extractors.prompts import SHAPE_PREFIX

    messages = body.get("messages") or []
    system = next((m.get("content") or "" for m in messages if m.get("role") == "system"), "")
    chat = next((m.get("content") or "" for m in messages if m.get("role") == "user"), "")
    shape = next((line for line in system.splitlines() if line.startswith(SHAPE_PREFIX)), "")
    rows = []
    for line in chat.splitlines():
        match = TRANSCRIPT_LINE.match(line)
        if match:
            rows.append(ParsedRow(int(match.group(1).replace("-", "0")), None, "turn", role=_ROLES[match.group(2)],
                                  text=match.group(3)))
    if '"relations"' in shape:
        return Reply(content=unrelated_pairs(chat), delay=latency)
    conversation = Conversation("scripted", "scripted", "scripted", date(2000, 1, 1), None, None, tuple(rows), False)
    extractor = OfflineExtractor()
    answer: dict[str, Any] = {}
    if '"summary"' in shape:
        answer["summary"] = extractor.summarize(conversation).text or "An empty chat."
    if '"facts"' in shape:
        facts = []
        for fact in extractor.extract(conversation, "").facts:
            quote = normalize_for_quote(fact.quote)
            cited = next((r.message_id for r in rows if r.role == "human" and quote in normalize_for_quote(r.text)),
                         None)
            facts.append({"category": fact.category, "attribute": fact.attribute, "value": fact.value,
                          "fact": fact.fact, "quote": fact.quote, "message_id": cited,
                          "retraction": getattr(fact, "retraction", False)})
        answer["facts"] = facts
    return Reply(content=json.dumps(answer, ensure_ascii=False), delay=latency)


def relations_answer(verdicts: list[str]) -> str:
    """A relation request's answer (`llm_output.RelateAnswer`): `verdicts` in line order, each with its number."""
    return json.dumps({"relations": [{"line": n, "relation": v} for n, v in enumerate(verdicts, 1)]})


def unrelated_pairs(chat: str) -> str:
    """The answer to a relation request (`prompts.relate_message`) that relates none of its pairs."""
    return relations_answer(["different"] * chat.count(" | NEW: "))


# -- the failures of real small models ----------------------------------------------------------------------
def _answer(body: dict[str, Any], facts: list[dict[str, Any]]) -> str:
    """`facts` in the JSON shape the system prompt asks for (with a summary when it asks for one); a relation
    request relates none of its pairs (`unrelated_pairs`)."""
    system = next((m.get("content") or "" for m in body.get("messages") or [] if m.get("role") == "system"), "")
    answer: dict[str, Any] = {"facts": facts}
    shape = system.splitlines()[-1] if system else ""
    if '"relations"' in shape:
        chat = next((m.get("content") or "" for m in body.get("messages") or [] if m.get("role") == "user"), "")
        return unrelated_pairs(chat)
    if '"summary"' in shape:
        answer["summary"] = "A chat."
    return json.dumps(answer, ensure_ascii=False)


def fact(quote: str, message_id: int | None, attribute: str | None = None, value: str | None = None,
         category: str = "preference", text: str | None = None, retraction: bool = False) -> dict[str, Any]:
    """One fact as a model writes it (`text` defaults to a sentence made of the quote)."""
    return {"message_id": message_id, "quote": quote, "attribute": attribute, "value": value, "category": category,
            "fact": text or f"The user said: {quote}", "retraction": retraction}


def fact_answer(*facts: dict[str, Any]) -> Callable[[dict[str, Any]], Reply]:
    """A responder answering every request with these facts, in the shape its prompt asks for."""
    return lambda body: Reply(content=_answer(body, list(facts)))


def looping_answer(complete: list[dict[str, Any]], sentence: str, repeats: int = 2000
                   ) -> Callable[[dict[str, Any]], Reply]:
    """A responder answering like a small model that loops: the `complete` facts, then a fact whose quote
    repeats `sentence` `repeats` times and never ends (no closing quote: a server without a cap would stream it
    until its own limit, here finish_reason `length` on the whole text)."""
    def respond(body: dict[str, Any]) -> Reply:
        head = _answer(body, complete)
        head = head[:head.rindex("]")] + (", " if complete else "")
        return Reply(content=head + '{"message_id": 1, "quote": "' + (sentence + " ") * repeats,
                     finish_reason="length")

    return respond


_QUOTED = re.compile(r'"([^"{}\[\]:]{8,}?)"')


def example_copier(body: dict[str, Any]) -> Reply:
    """Answer like a small model that copies the prompt instead of reading the chat: every quoted phrase of the
    system prompt (its examples) becomes a fact quoting it, cited at the chat's first user line."""
    messages = body.get("messages") or []
    system = next((m.get("content") or "" for m in messages if m.get("role") == "system"), "")
    chat = next((m.get("content") or "" for m in messages if m.get("role") == "user"), "")
    first = next((int(m.group(1)) for m in map(TRANSCRIPT_LINE.match, chat.splitlines())
                  if m and m.group(2) == "user"), 1)
    phrases = dict.fromkeys(p for p in _QUOTED.findall(system) if p.strip(". ") and " " in p)
    return Reply(content=_answer(body, [fact(p, first, value=p) for p in phrases]))


def main(argv: list[str] | None = None) -> None:
    """Serve `transcript_responder` on 127.0.0.1:PORT until Ctrl-C (for the README's LLM demo)."""
    import argparse

    parser = argparse.ArgumentParser(description="OpenAI-compatible test server answering from the transcript")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--latency", type=float, default=0.0, help="seconds before each chat answer")
    parser.add_argument("--refuse-json-schema", action="store_true", help="answer json_schema like llama.cpp")
    args = parser.parse_args(argv)
    # SIGTERM stops it whatever its parent left: an ignored signal stays ignored across exec, and a process that
    # ran Dagster in-process while SIGINT was ignored (a background job of a non-interactive shell) has SIGTERM
    # ignored too (Dagster's setup_interrupt_handlers gives SIGTERM SIGINT's handler).
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    server = ScriptedOpenAIServer(lambda body: transcript_responder(body, args.latency),
                                  refuse_json_schema=args.refuse_json_schema, port=args.port)
    with server:
        print(f"OpenAI-compatible test server on {server.base_url} (Ctrl-C stops it)", flush=True)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    main()
