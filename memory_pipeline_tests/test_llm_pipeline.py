"""The whole Dagster job with `extractor=openai` against the scripted OpenAI-compatible server (real HTTP, real
SDK, real PostgreSQL): facts, quotes, archive, caches, recorded failures."""

import json

import pytest

from memory_pipeline.domain.messages import SourceRow, parse_row
from memory_pipeline.domain.quotes import normalize_for_quote
from memory_pipeline_tests.openai_server import Reply, ScriptedOpenAIServer, transcript_responder
from memory_pipeline_tests.test_pipeline_end_to_end import MB_DAYS, Pipeline, mb_slice, metadata

SECRET = "sk-e2e-never-in-metadata"


@pytest.fixture
def llm(monkeypatch, request):
    """The scripted server (answering from the transcript unless `fail_marker` is set) and the SDK's variables.
    Parametrized indirectly with True, it refuses json_schema as llama.cpp's server does."""
    state = {"fail_marker": None}

    def responder(body):
        if state["fail_marker"] and state["fail_marker"] in json.dumps(body["messages"]):
            return Reply(content='{"summary": ')  # truncated JSON, every time
        return transcript_responder(body)

    with ScriptedOpenAIServer(responder, refuse_json_schema=getattr(request, "param", False)) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", SECRET)
        server.state = state
        yield server


@pytest.fixture
def pipeline(llm, make_settings):
    p = Pipeline(make_settings(extractor="openai", llm_max_retries=0, llm_max_in_flight=3))
    p.load(mb_slice())
    return p


def human_text_by_id(p):
    texts = {}
    for r in p.rows("SELECT id, session_id, message, created_at FROM {schema}.chat_archive"):
        parsed = parse_row(SourceRow(r["id"], r["session_id"], json.loads(r["message"]), r["created_at"]))
        if parsed.role == "human":
            texts[r["id"]] = normalize_for_quote(parsed.text)
    return texts


@pytest.mark.parametrize("llm", [False, True], indirect=True, ids=["json_schema_server", "llama_cpp_server"])
def test_llm_job_end_to_end_then_zero_requests_on_rematerialization(pipeline, llm):
    all_ids = pipeline.source_ids()
    results = {day: pipeline.run(day) for day in MB_DAYS}
    assert all(r.success for r in results.values())
    conversations = pipeline.rows("SELECT conversation_id FROM {schema}.conversations")
    # One request per conversation: the summary request also returned the facts, cached for extraction. Against
    # llama.cpp, each day's summary step first sends one json_schema probe, refused, then json_object only.
    # Relation requests (pairs of a user's facts, stages.relations) are counted apart.
    formats = [b["response_format"]["type"] for b in llm.chat_requests()
               if '"relations"' not in b["messages"][0]["content"]]
    assert len(conversations) > 0
    if llm.refuse_json_schema:
        assert formats.count("json_schema") == len(MB_DAYS)  # one refused probe per summary step
        assert formats.count("json_object") == len(conversations)
    else:
        assert formats == ["json_schema"] * len(conversations)

    facts = pipeline.rows("SELECT * FROM {schema}.agent_facts")
    assert {"memorybank:emily", "memorybank:frank", "memorybank:lucy"} <= {f["user_key"] for f in facts}
    said = human_text_by_id(pipeline)
    for f in facts:  # each quote is in the very user message the model cited
        assert normalize_for_quote(f["quote"]) in said[f["quote_message_id"]]
    assert pipeline.source_ids() == set() and pipeline.archive_ids() == all_ids

    summaries = metadata(results[MB_DAYS[0]], "session_summaries")
    extracted = metadata(results[MB_DAYS[0]], "extracted_facts")
    assert summaries["summaries_computed"] > 0 and summaries["input_tokens"] > 0
    assert summaries["estimated_cost_usd"] > 0
    assert summaries["structured_output"] == ("json_object_schema" if llm.refuse_json_schema else "json_schema")
    assert extracted["cache_hits"] == summaries["summaries_computed"] and extracted["input_tokens"] == 0
    assert extracted["accepted"] > 0 and extracted["conversations_failed"] == 0
    assert SECRET not in repr([e for r in results.values() for e in r.all_events])

    # Re-materializing the same days sends no request.
    before = len(llm.requests)
    again = {day: pipeline.run(day) for day in MB_DAYS}
    assert all(r.success for r in again.values()) and len(llm.requests) == before
    rerun = metadata(again[MB_DAYS[0]], "session_summaries")
    assert rerun["cache_hits"] == summaries["summaries_computed"] and rerun["input_tokens"] == 0
    # The partition's figures stay what its answers cost, so the UI's latest materialization still shows them.
    assert rerun["partition_input_tokens"] == summaries["input_tokens"] == summaries["partition_input_tokens"]
    assert rerun["partition_estimated_cost_usd"] == summaries["estimated_cost_usd"]

    # A re-split that changes every conversation id but no transcript (a new id salt) sends none either.
    pipeline.rows("UPDATE {schema}.installation SET id_salt = 'another' RETURNING 1")
    third = {day: pipeline.run(day) for day in MB_DAYS}
    assert all(r.success for r in third.values()) and len(llm.requests) == before
    new_ids = {r["conversation_id"] for r in pipeline.rows("SELECT conversation_id FROM {schema}.conversations")}
    assert new_ids and not new_ids & {r["conversation_id"] for r in conversations}
    assert metadata(third[MB_DAYS[0]], "extracted_facts")["cache_hits"] == summaries["summaries_computed"]


def test_a_failing_conversation_is_recorded_and_keeps_its_rows(pipeline, llm):
    frank_first = pipeline.rows("SELECT min(id) AS id FROM {source} WHERE session_id = 'memorybank:frank'")[0]["id"]
    frank_day_ids = {r["id"] for r in pipeline.rows(
        "SELECT id FROM {source} WHERE session_id = 'memorybank:frank' AND created_at::date = %s", [MB_DAYS[0]])}
    llm.state["fail_marker"] = f"[{frank_first}|"
    result = pipeline.run(MB_DAYS[0])
    assert not result.success  # red (every_conversation_consolidated), after the others were consolidated
    summaries = metadata(result, "session_summaries")
    assert summaries["failed_by_reason"] == {"invalid_output": 1}
    assert summaries["failures_recorded_by_reason"] == {"invalid_output": 1}
    assert metadata(result, "extracted_facts")["conversations_without_summary"] == 1
    assert metadata(result, "archived_sessions")["conversations_kept_unconsolidated"] == 1
    failures = pipeline.rows("SELECT * FROM {schema}.extraction_failures")
    assert [(f["stage"], f["reason"]) for f in failures] == [("session_summaries", "invalid_output")]
    assert frank_day_ids and frank_day_ids <= pipeline.source_ids()  # not consolidated, so not purged
    others = pipeline.rows("SELECT count(*) AS n FROM {schema}.agent_facts WHERE user_key <> 'memorybank:frank'")
    assert others[0]["n"] > 0  # the other conversations went on

    llm.state["fail_marker"] = None  # the server recovers: the next run consolidates it and clears the failure
    assert pipeline.run(MB_DAYS[0]).success
    assert pipeline.rows("SELECT * FROM {schema}.extraction_failures") == []
    assert not frank_day_ids & pipeline.source_ids()


def test_separate_models_send_one_request_per_stage(llm, make_settings):
    p = Pipeline(make_settings(extractor="openai", summary_model="small-model", extraction_model="gpt-4o",
                               llm_max_retries=0))
    p.load(mb_slice())
    result = p.run(MB_DAYS[1])
    assert result.success
    n = metadata(result, "session_summaries")["summaries_computed"]
    models = [b["model"] for b in llm.chat_requests()]
    assert sorted(models) == ["gpt-4o"] * n + ["small-model"] * n
    extracted = metadata(result, "extracted_facts")
    assert extracted["input_tokens"] > 0 and extracted["partition_input_tokens"] == extracted["input_tokens"]
    assert p.rows("SELECT DISTINCT model FROM {schema}.session_summaries") == [{"model": "small-model"}]


def test_an_extraction_failure_is_recorded_at_its_stage(llm, make_settings):
    p = Pipeline(make_settings(extractor="openai", summary_model="small-model", extraction_model="gpt-4o",
                               llm_max_retries=0))
    p.load(mb_slice())
    first_lucy = p.rows("SELECT min(id) AS id FROM {source} WHERE session_id = 'memorybank:lucy'")[0]["id"]
    original = llm.responder

    def extraction_refused(body):
        if body["model"] == "gpt-4o" and f"[{first_lucy}|" in body["messages"][1]["content"]:
            return Reply(refusal="I can't help with that.")
        return original(body)

    llm.responder = extraction_refused
    result = p.run(MB_DAYS[0])
    assert not result.success  # red: every_conversation_extracted and every_conversation_consolidated fail
    checks = {e.check_name: e.passed for e in result.get_asset_check_evaluations()}
    assert not checks["every_conversation_extracted"] and not checks["every_conversation_consolidated"]
    assert metadata(result, "session_summaries")["conversations_failed"] == 0
    assert metadata(result, "extracted_facts")["failed_by_reason"] == {"refusal": 1}
    failures = p.rows("SELECT stage, reason, attempts FROM {schema}.extraction_failures")
    assert failures == [{"stage": "extracted_facts", "reason": "refusal", "attempts": 1}]
    assert not p.run(MB_DAYS[0]).success  # refused again: counted again, still not consolidated, still red
    assert p.rows("SELECT attempts FROM {schema}.extraction_failures") == [{"attempts": 2}]
    assert first_lucy in p.source_ids() and first_lucy not in p.archive_ids()
