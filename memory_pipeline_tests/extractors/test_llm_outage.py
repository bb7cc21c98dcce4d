"""An LLM outage costs at most `timeout x (1 + retries)` per in-flight slot (issue 21, item 2): the in-flight bound
holds when the structured-output probe's first request fails for a reason that says nothing about the format, and
a circuit breaker stops a step's requests once the server is down, every remaining conversation recorded as failed
(`llm_unavailable`) so the next run tries it again. Real HTTP against the scripted server, real PostgreSQL."""

import json
import threading

import pytest

from memory_pipeline.extractors.base import ExtractorError
from memory_pipeline.extractors.circuit import OPEN_REASON, CircuitBreaker
from memory_pipeline.testing.openai_server import Reply, ScriptedOpenAIServer, transcript_responder
from memory_pipeline_tests.test_hostile_input import DAY, said
from memory_pipeline_tests.test_pipeline_end_to_end import Pipeline

USERS = [f"user{i:02d}" for i in range(20)]


def load_users(p, users=USERS):
    p.load([said(user, f"I live in City{i:02d}.", minutes=i) for i, user in enumerate(users)])


def failures(p):
    rows = p.rows("SELECT stage, reason, count(*) AS n FROM {schema}.extraction_failures GROUP BY 1, 2 ORDER BY 1, 2")
    return {(r["stage"], r["reason"]): r["n"] for r in rows}



def test_the_in_flight_bound_holds_when_the_first_request_fails_otherwise(make_settings, llm_env):
    # The first request (the probe that settles the structured-output level) gets a 503, which says nothing about
    # the format. Then the server holds each request until four are waiting at once: only requests sent in
    # parallel get past it (sent one at a time, each would wait alone and be answered 500 `barrier_broken`).
    barrier = threading.Barrier(4, timeout=8)
    first = threading.Event()

    def responder(body):
        if not first.is_set():
            first.set()
            return Reply(status=503)
        try:
            barrier.wait()
        except threading.BrokenBarrierError:
            return Reply(status=500, body=json.dumps({"error": {"message": "barrier_broken"}}))
        return transcript_responder(body)

    with ScriptedOpenAIServer(responder) as server:
        llm_env(server)
        p = Pipeline(make_settings(extractor="openai", llm_max_retries=0, llm_max_in_flight=4,
                                   llm_timeout_seconds=30, llm_breaker_failures=1000))
        load_users(p, USERS[:8])
        p.run(DAY)
    assert failures(p) == {}  # every conversation was answered: each met three others at the barrier
    assert p.rows("SELECT count(*) AS n FROM {schema}.session_summaries")[0]["n"] == 8
    assert server.max_concurrent == 4


def test_a_server_that_is_down_opens_the_breaker_and_every_conversation_is_recorded(make_settings, llm_env):
    with ScriptedOpenAIServer(lambda body: Reply(status=500)) as server:
        llm_env(server)
        p = Pipeline(make_settings(extractor="openai", llm_max_retries=0, llm_max_in_flight=1,
                                   llm_breaker_failures=3))
        load_users(p)
        p.run(DAY)
        # The probe and its resend (2 requests), then two conversations of one request each: three outage
        # failures in a row open the breaker, and the 17 conversations left send nothing.
        assert len(server.chat_requests()) == 4
    assert failures(p) == {("session_summaries", "server_error"): 3, ("session_summaries", OPEN_REASON): 17}
    # Nothing lost: every row is still in n8n's table, and a night with the server back consolidates them all.
    ids = p.source_ids()
    assert len(ids) == len(USERS)
    with ScriptedOpenAIServer(transcript_responder) as server:
        llm_env(server)
        assert p.run(DAY).success
    assert failures(p) == {} and p.source_ids() == set() and p.archive_ids() == ids
    assert p.rows("SELECT count(DISTINCT user_key) AS n FROM {schema}.agent_facts")[0]["n"] == len(USERS)


def test_with_requests_in_flight_the_breaker_lets_at_most_one_wave_more_through(make_settings, llm_env):
    with ScriptedOpenAIServer(lambda body: Reply(status=502)) as server:
        llm_env(server)
        p = Pipeline(make_settings(extractor="openai", llm_max_retries=0, llm_max_in_flight=4,
                                   llm_breaker_failures=4))
        load_users(p)
        p.run(DAY)
        requests = len(server.chat_requests())
    recorded = failures(p)
    assert sum(recorded.values()) == len(USERS)
    # At most `threshold` failures, plus what was in flight when it opened, plus the probe's own request.
    assert recorded[("session_summaries", "server_error")] <= 4 + 4 - 1
    assert requests <= recorded[("session_summaries", "server_error")] + 1


def test_a_failure_of_the_conversation_itself_does_not_count_towards_an_outage():
    breaker = CircuitBreaker(2)

    def fail(reason):
        def call():
            raise ExtractorError(reason, reason=reason)
        return call

    for reason in ("timeout", "invalid_output", "server_error", "refusal", "connection_error"):
        with pytest.raises(ExtractorError):
            breaker.call(fail(reason))
    assert not breaker.is_open  # never two outage failures in a row
    with pytest.raises(ExtractorError):
        breaker.call(fail("rate_limited"))
    assert breaker.is_open
    with pytest.raises(ExtractorError) as raised:
        breaker.call(lambda: "never called")
    assert raised.value.reason == OPEN_REASON
