"""LLM benchmark: the two LLM stages against a scripted OpenAI-compatible server the command starts itself.

`memory-pipeline benchmark --llm` measures what issue 5 asks of the LLM backend, in a scratch table and schema
of the configured database (dropped at the end), with `memory_pipeline.testing.openai_server` in a child
process (real HTTP, the real `openai` SDK; answers read back from the transcript by the offline rules, so they
are valid JSON quoting what the user said):

1. throughput: `conversations` closed conversations of one night (MemoryBank conversations repeated under
   distinct session keys) through `session_summaries` and `extracted_facts`, the server answering each request
   `latency` seconds after it arrived; the wall time of the two stages is compared with conversations x requests
   per conversation x latency / requests in flight (`MEMORY_PIPELINE_LLM_MAX_IN_FLIGHT` or `in_flight`), the
   time it would take if nothing but the server's latency cost time (issue 5's target: within 1.25x);
2. cost per MemoryBank conversation: the bundled conversations, each request traced to its conversation by the
   message ids of its transcript lines; requests and prompt tokens per conversation, summary included, counted
   from what the server received, two ways: the server's own count (its stand-in tokenizer, words and
   punctuation marks, what it reports as usage) and the configured model's tokenizer (exact for OpenAI models,
   offline). Targets (issue 5): at most 2 requests and 3,000 prompt tokens. Then `active_facts`, whose relation
   requests (pairs of one user's facts, `stages.relations`; they name no conversation) are counted apart and
   spread over the conversations (issue 26: at most 1,500 prompt tokens per conversation in all);
3. a second materialization of the same days: requests sent (target: zero, the caches answer).

Figures are printed, never asserted: they depend on the machine and its load (printed with them).
"""

from __future__ import annotations

import multiprocessing
import os
import re
import statistics
import time
from collections import Counter
from dataclasses import dataclass, replace
from datetime import date, datetime, timezone

import openai

from memory_pipeline import sample
from memory_pipeline.db import ensure_schema, get_pool, resolve_database_url
from memory_pipeline.extractors.openai_backend import LOCAL_SERVER_KEY, OpenAIExtractor
from memory_pipeline.extractors.tokens import token_counter
from memory_pipeline.settings import Settings
from memory_pipeline.store import Store
from memory_pipeline.stages.active_facts import active_facts
from memory_pipeline.stages.closed_sessions import closed_sessions
from memory_pipeline.stages.extracted_facts import extracted_facts
from memory_pipeline.stages.session_summaries import session_summaries

BENCH_DAY = date(2023, 5, 1)  # the throughput night: any past day, its conversations are all closed
# Transcript lines of a prompt start with "[<message id>|": how a request is traced to its conversation.
_MESSAGE_ID = re.compile(r"^\[(\d+)\|", re.MULTILINE)


@dataclass(frozen=True)
class ThroughputFigures:
    """The throughput night: `seconds` of each LLM stage, `requests` the server received."""

    conversations: int
    requests: int
    latency: float
    in_flight: int
    seconds: dict[str, float]

    @property
    def wall_seconds(self) -> float:
        """Both LLM stages."""
        return sum(self.seconds.values())

    @property
    def ideal_seconds(self) -> float:
        """conversations x requests per conversation x latency / in-flight limit."""
        return self.requests * self.latency / self.in_flight

    @property
    def ratio(self) -> float:
        """Wall time / ideal (NaN with zero latency)."""
        return self.wall_seconds / self.ideal_seconds if self.ideal_seconds else float("nan")


@dataclass(frozen=True)
class CostFigures:
    """Per MemoryBank conversation (same order in each list): requests, prompt tokens by the server's count and
    by the model's tokenizer; `unattributed` requests whose transcript named no single conversation;
    `rerun_requests` sent by the second materialization of the same `days`; `relation_requests` and
    `relation_server_tokens` (their prompt tokens, the server's count) of active_facts."""

    days: int
    requests: list[int]
    server_prompt_tokens: list[int]
    model_prompt_tokens: list[int]
    unattributed: int
    rerun_requests: int
    relation_requests: int = 0
    relation_server_tokens: int = 0


class ServerProcess:
    """The scripted server in a child process (`spawn`), so its own work (parsing requests, reading the
    transcript back) does not take this process's interpreter lock from the pipeline, as with a real server.
    It answers each chat request `latency` seconds after it arrived (see `set_latency`). Use as a context
    manager."""

    def __init__(self):
        context = multiprocessing.get_context("spawn")
        self._pipe, child = context.Pipe()
        self._process = context.Process(target=_serve, args=(child,), daemon=True)
        self.base_url = ""

    def __enter__(self) -> "ServerProcess":
        self._process.start()
        self.base_url = self._pipe.recv()
        return self

    def __exit__(self, *exc: object) -> None:
        self._pipe.send(("stop", None))
        self._process.join(timeout=10)
        if self._process.is_alive():
            self._process.terminate()

    def set_latency(self, seconds: float) -> None:
        """Answer the next requests `seconds` after they arrive."""
        self._pipe.send(("latency", seconds))
        self._pipe.recv()

    def request_count(self) -> int:
        """Chat completion requests the server received so far."""
        self._pipe.send(("count", None))
        return self._pipe.recv()

    def chat_requests(self, start: int = 0) -> list[dict]:
        """Bodies of the chat completion requests the server received, from the `start`-th on."""
        self._pipe.send(("bodies", start))
        return self._pipe.recv()


def _serve(pipe) -> None:
    from memory_pipeline.testing.openai_server import ScriptedOpenAIServer, transcript_responder

    latency = {"seconds": 0.0}

    def respond(body):
        started = time.monotonic()  # the latency counts from arrival: composing the answer is part of it
        reply = transcript_responder(body)
        reply.delay = max(0.0, latency["seconds"] - (time.monotonic() - started))
        return reply

    with ScriptedOpenAIServer(respond) as server:
        pipe.send(server.base_url)
        while True:
            command, argument = pipe.recv()
            if command == "stop":
                return
            if command == "latency":
                latency["seconds"] = argument
                pipe.send(None)
                continue
            bodies = server.chat_requests()
            pipe.send(len(bodies) if command == "count" else bodies[argument:])


def night_rows(conversations: int, day: date = BENCH_DAY) -> list[sample.SampleRow]:
    """`conversations` MemoryBank conversations (one user's day each, cycled) moved onto `day`, each under its
    own session key `bench<k>:<name>`, times of day kept (08:00-20:00 UTC: all closed once the day is over)."""
    groups: dict[tuple[str, date], list[sample.SampleRow]] = {}
    for row in sample.memory_bank_rows(sample.load_memory_bank()):
        groups.setdefault((row.session_id, row.created_at.date()), []).append(row)
    ordered = list(groups.items())
    rows = []
    for k in range(conversations):
        (session_id, original_day), group = ordered[k % len(ordered)]
        shift = datetime.combine(day, datetime.min.time(), timezone.utc) - datetime.combine(
            original_day, datetime.min.time(), timezone.utc)
        key = f"bench{k}:{session_id.split(':', 1)[1]}"
        rows += [replace(r, session_id=key, created_at=r.created_at + shift) for r in group]
    return rows


def _scratch(base: Settings, suffix: str, **updates) -> tuple[Settings, Store]:
    tag = f"mp_bench_llm_{os.getpid()}_{suffix}"
    settings = base.model_copy(update={"schema_name": tag, "source_table": tag, "extractor": "openai", **updates})
    settings = settings.model_copy(update={"database_url": resolve_database_url(settings)})
    return settings, Store(settings)


def _extractor(settings: Settings, base_url: str) -> OpenAIExtractor:
    # The server's URL is given to this client only: OPENAI_BASE_URL and OPENAI_API_KEY stay untouched.
    client = openai.OpenAI(base_url=base_url, api_key=LOCAL_SERVER_KEY, timeout=settings.llm_timeout_seconds,
                           max_retries=settings.llm_max_retries)
    return OpenAIExtractor(settings, client=client)


def _llm_stages(store: Store, conn, days: list[date], extractor: OpenAIExtractor,
                relations: bool = False) -> dict[str, float]:
    """Seconds of each LLM stage over `days`; with `relations`, active_facts too (its relation requests)."""
    seconds = {"session_summaries": 0.0, "extracted_facts": 0.0}
    stages = [("session_summaries", session_summaries), ("extracted_facts", extracted_facts)]
    if relations:
        stages.append(("active_facts", lambda store, conn, day, extractor: active_facts(
            store, conn, day, extractor=extractor)))
    for day in days:
        for name, stage in stages:
            started = time.perf_counter()
            stage(store, conn, day, extractor)
            seconds[name] = seconds.get(name, 0.0) + time.perf_counter() - started
    return seconds


def measure_throughput(base: Settings, server: ServerProcess, conversations: int, latency: float,
                       in_flight: int) -> ThroughputFigures:
    """Load one night of `conversations`, close it, then time the two LLM stages against `server`."""
    settings, store = _scratch(base, "night", llm_max_in_flight=in_flight)
    pool = get_pool(settings.database_url)
    try:
        with pool.connection() as conn:
            ensure_schema(conn, settings)
            sample.create_n8n_table(conn, settings)
            sample.insert_rows(conn, settings, night_rows(conversations))
            closed_sessions(store, conn, BENCH_DAY)
            server.set_latency(latency)
            before = server.request_count()
            seconds = _llm_stages(store, conn, [BENCH_DAY], _extractor(settings, server.base_url))
            requests = server.request_count() - before
    finally:
        with pool.connection() as conn:
            conn.execute(store.query(conn, "drop_pipeline_and_source"))
    return ThroughputFigures(conversations, requests, latency, in_flight, seconds)


def measure_cost(base: Settings, server: ServerProcess, users: int | None = None) -> CostFigures:
    """The bundled MemoryBank conversations (of the first `users` users; None = all 15) through the two LLM
    stages for every day, then again; requests and prompt tokens per conversation from what the server got."""
    from memory_pipeline.testing.openai_server import approx_tokens

    settings, store = _scratch(base, "memorybank")
    count_model = token_counter(settings.extraction_model)
    data = sample.load_memory_bank()
    data = {name: data[name] for name in sorted(data, key=str.strip)[:users]}
    days = [date.fromisoformat(d) for d in sample.memory_bank_days(data, settings.timezone)]
    pool = get_pool(settings.database_url)
    try:
        with pool.connection() as conn:
            ensure_schema(conn, settings)
            sample.create_n8n_table(conn, settings)
            sample.insert_rows(conn, settings, sample.memory_bank_rows(data))
            conversation_of: dict[int, str] = {}
            for day in days:
                closed_sessions(store, conn, day)
                for record in store.conversations_of_partition(conn, day):
                    conversation_of.update(dict.fromkeys(record["message_ids"], record["conversation_id"]))
            extractor = _extractor(settings, server.base_url)
            server.set_latency(0.0)
            before = server.request_count()
            _llm_stages(store, conn, days, extractor, relations=True)
            bodies = server.chat_requests(before)
            _llm_stages(store, conn, days, extractor, relations=True)  # the second materialization of the same days
            rerun = server.request_count() - before - len(bodies)
    finally:
        with pool.connection() as conn:
            conn.execute(store.query(conn, "drop_pipeline_and_source"))
    requests: Counter[str] = Counter()
    server_tokens: Counter[str] = Counter()
    model_tokens: Counter[str] = Counter()
    unattributed = relation_requests = relation_tokens = 0
    for body in bodies:
        contents = [str(m.get("content") or "") for m in body.get("messages", [])]
        if contents and '"relations"' in contents[0]:
            relation_requests += 1
            relation_tokens += approx_tokens("\n".join(contents))
            continue
        said = [str(m.get("content") or "") for m in body.get("messages", []) if m.get("role") == "user"]
        owners = {conversation_of.get(int(i)) for text in said for i in _MESSAGE_ID.findall(text)}  # not the example
        if len(owners) != 1 or None in owners:
            unattributed += 1
            continue
        owner = owners.pop()
        requests[owner] += 1
        server_tokens[owner] += approx_tokens("\n".join(contents))  # what the server reports as prompt_tokens
        model_tokens[owner] += sum(count_model(text) for text in contents)
    keys = sorted(set(conversation_of.values()))
    return CostFigures(len(days), [requests[k] for k in keys], [server_tokens[k] for k in keys],
                       [model_tokens[k] for k in keys], unattributed, rerun, relation_requests, relation_tokens)


def run(conversations: int = 2000, latency: float = 0.2, in_flight: int | None = None,
        memory_bank_users: int | None = None) -> tuple[ThroughputFigures, CostFigures]:
    """Measure and print the three figures. `in_flight` None = MEMORY_PIPELINE_LLM_MAX_IN_FLIGHT."""
    base = Settings.from_env()
    in_flight = in_flight or base.llm_max_in_flight
    with ServerProcess() as server:
        night = measure_throughput(base, server, conversations, latency, in_flight)
        cost = measure_cost(base, server, memory_bank_users)
    requests_per = night.requests / night.conversations if night.conversations else 0
    print(f"LLM stages against the scripted OpenAI-compatible server (models {base.summary_model} / "
          f"{base.extraction_model}; machine load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    print(f"  throughput: {night.conversations} conversations, {night.requests} requests ({requests_per:.2f} per "
          f"conversation), {night.latency * 1000:.0f} ms latency, {night.in_flight} in flight")
    print(f"    session_summaries {night.seconds['session_summaries']:.1f} s + extracted_facts "
          f"{night.seconds['extracted_facts']:.1f} s = {night.wall_seconds:.1f} s; ideal {night.ideal_seconds:.1f} s "
          f"(conversations x requests per conversation x latency / in flight): ratio {night.ratio:.2f} "
          f"(target <= 1.25); session_summaries alone {night.seconds['session_summaries'] / night.ideal_seconds:.2f}"
          if night.ideal_seconds else "    (no latency: no ideal to compare with)")
    n = len(cost.requests)
    print(f"  per MemoryBank conversation ({n} conversations, {cost.days} days): requests max {max(cost.requests)}, "
          f"mean {statistics.mean(cost.requests):.2f} (target <= 2)" if n else "  no MemoryBank conversation")
    if n:
        print(f"    prompt tokens, summary included: server's count max {max(cost.server_prompt_tokens)}, mean "
              f"{statistics.mean(cost.server_prompt_tokens):.0f}; {base.extraction_model} tokenizer max "
              f"{max(cost.model_prompt_tokens)}, mean {statistics.mean(cost.model_prompt_tokens):.0f} "
              "(target <= 3000)")
        spread = cost.relation_server_tokens / n
        print(f"    active_facts' relation requests: {cost.relation_requests}, {cost.relation_server_tokens} prompt "
              f"tokens (server's count), {spread:.0f} per conversation; with them, mean "
              f"{statistics.mean(cost.server_prompt_tokens) + spread:.0f} per conversation (target <= 1500)")
    if cost.unattributed:
        print(f"    {cost.unattributed} requests named no single conversation")
    print(f"  second materialization of the same {cost.days} days: {cost.rerun_requests} requests (target 0)")
    return night, cost
