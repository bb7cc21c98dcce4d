"""Fault injection, LLM side (issue 21, item 1): a scripted server fails one conversation's every request in each
way met in the field (HTTP 500, 429, a timeout, an HTML page with 200, no choices, invalid JSON, an empty answer, a
2 MB answer). Each time the failure is recorded with its reason, the night is red (a failed blocking check, a
failed run), the other conversations are consolidated, and no message is lost: the failed conversation's rows stay
in n8n's table for the next run, which consolidates them once the server answers."""

import json

import pytest

from memory_pipeline.testing.fault_report import LLM_FAULTS, VICTIM_MARK
from memory_pipeline.testing.openai_server import ScriptedOpenAIServer, transcript_responder
from memory_pipeline_tests.test_hostile_input import DAY, active_facts, said
from memory_pipeline_tests.extractors.test_llm_outage import failures
from memory_pipeline_tests.test_pipeline_end_to_end import Pipeline

# Each way the server fails (the reply to the victim's requests) and the failure reason the pipeline records.
FAULTS = LLM_FAULTS
USERS = ["ann", "bob", "cyd"]


def night(make_settings, llm_env, reply):
    def responder(body):
        return reply if VICTIM_MARK in json.dumps(body["messages"]) else transcript_responder(body)

    with ScriptedOpenAIServer(responder) as server:
        llm_env(server)
        p = Pipeline(make_settings(extractor="openai", llm_max_retries=1, llm_timeout_seconds=1,
                                   llm_max_in_flight=2))
        p.load([said(user, f"I live in City{i}.", minutes=i) for i, user in enumerate(USERS)])
        p.load([said("vic", f"I live in {VICTIM_MARK}.", minutes=5)])
        ids = p.source_ids()
        result = p.run(DAY)
    return p, ids, result



@pytest.mark.parametrize("mode", sorted(FAULTS))
def test_a_failing_conversation_is_recorded_and_the_others_are_consolidated(mode, make_settings, llm_env):
    reply, reason = FAULTS[mode]
    p, ids, result = night(make_settings, llm_env, reply)
    assert failures(p) == {("session_summaries", reason): 1}
    # Red: the blocking check on the last asset fails the run, with the count and the reason.
    assert not result.success
    verdict = {e.check_name: e for e in result.get_asset_check_evaluations()}["every_conversation_consolidated"]
    assert not verdict.passed and verdict.metadata["failed_by_reason"].value == {f"session_summaries: {reason}": 1}
    for i, user in enumerate(USERS):
        assert active_facts(p, user) == [f"User lives in City{i}."]
    assert active_facts(p, "vic") == []
    # Nothing lost: the victim's row waits in n8n's table, the others' are archived.
    assert p.source_ids() | p.archive_ids() == ids and len(p.source_ids()) == 1
    # The next run, with the server answering, consolidates it.
    with ScriptedOpenAIServer(transcript_responder) as server:
        llm_env(server)
        assert p.run(DAY).success
    assert failures(p) == {} and active_facts(p, "vic") == [f"User lives in {VICTIM_MARK}."]
    assert p.source_ids() == set() and p.archive_ids() == ids


def test_the_cli_exits_non_zero_with_the_count_and_the_reasons(make_settings, tmp_path):
    import subprocess
    import sys

    from memory_pipeline_tests.defs.test_run_health import cli_env

    p = Pipeline(make_settings())
    p.load([said(user, f"I live in City{i}.", minutes=i) for i, user in enumerate(USERS)])
    p.load([said("vic", f"I live in {VICTIM_MARK}.", minutes=5)])
    failing = FAULTS["http_500"][0]
    with ScriptedOpenAIServer(lambda body: failing if VICTIM_MARK in json.dumps(body["messages"])
                              else transcript_responder(body)) as server:
        env = {**cli_env(p.settings, "dg_cli_red_night", tmp_path / "home"), "OPENAI_BASE_URL": server.base_url,
               "MEMORY_PIPELINE_EXTRACTOR": "openai", "MEMORY_PIPELINE_LLM_MAX_RETRIES": "0"}
        env.pop("OPENAI_API_KEY", None)
        done = subprocess.run([sys.executable, "-m", "memory_pipeline.cli", "materialize", "--date", DAY], env=env,
                              capture_output=True, text=True, timeout=300)
    assert done.returncode == 1, done.stderr[-2000:]
    assert f"{DAY}: FAILED" in done.stdout
    assert "not consolidated after a failed LLM call: 1 conversation (session_summaries: server_error 1)" \
        in done.stdout
    assert [active_facts(p, user) for user in USERS] == [[f"User lives in City{i}."] for i in range(len(USERS))]
