"""A summary naming what its chat does not hold, from the scripted OpenAI-compatible server over real HTTP, through
the Dagster job on the real embedded PostgreSQL. The LLM backend drops the answer's sentences that do so and keeps
the rest (completed with lines said), counted per partition; a summary that still reaches the stage ungrounded (a
backend that does not check its sentences) is rejected with its reason and without its text, the conversation
keeps its facts, the `summaries_grounded` check goes red (ERROR) and the partition's counts plot per day."""

import json

import dagster as dg
import pytest

from memory_pipeline.domain.summaries import split_sentences
from memory_pipeline.extractors import openai_backend
from memory_pipeline_tests.openai_server import Reply, ScriptedOpenAIServer, transcript_responder
from memory_pipeline_tests.test_pipeline_end_to_end import MB_DAYS, Pipeline, mb_slice, metadata

GROUNDED = "The user talked with the assistant."
INVENTED = "The user met Zorblax Quuxington at Frobnicate Industries on 2099-07-13 and paid 987654 dollars."
DAY = MB_DAYS[0]


@pytest.fixture
def llm(monkeypatch):
    """Answers from the transcript; the summary of a chat holding `state["marker"]` is `state["summary"]`."""
    state = {"marker": None, "summary": INVENTED}

    def responder(body):
        reply = transcript_responder(body)
        if state["marker"] and state["marker"] in json.dumps(body["messages"], ensure_ascii=False):
            answer = json.loads(reply.content)
            answer["summary"] = state["summary"]
            reply = Reply(content=json.dumps(answer, ensure_ascii=False))
        return reply

    with ScriptedOpenAIServer(responder) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.delenv("OPENAI_API_KEY", raising=False)
        server.state = state
        yield server


def test_an_invented_sentence_is_dropped_and_the_rest_of_the_summary_kept_and_counted(llm, make_settings):
    pipeline = Pipeline(make_settings(extractor="openai", llm_max_retries=0))
    pipeline.load(mb_slice())
    lucy_first = pipeline.rows("SELECT min(id) AS id FROM {source} WHERE session_id = 'memorybank:lucy' "
                               "AND created_at::date = %s", [DAY])[0]["id"]
    llm.state.update(marker=f"[{lucy_first}|", summary=f"{GROUNDED} {INVENTED}")
    result = pipeline.run(DAY)
    assert result.success
    check = {e.check_name: e for e in result.get_asset_check_evaluations()}["summaries_grounded"]
    assert check.passed

    lucy = pipeline.rows("SELECT s.summary, s.rejected_reason, s.sentences, s.sentences_dropped "
                         "FROM {schema}.session_summaries s JOIN {schema}.conversations c USING (conversation_id) "
                         "WHERE c.session_key = 'memorybank:lucy'")[0]
    assert lucy["summary"].startswith(GROUNDED) and "Zorblax" not in lucy["summary"]
    assert lucy["rejected_reason"] is None and lucy["sentences_dropped"] == 1 and lucy["sentences"] >= 3
    figures = metadata(result, "session_summaries")
    assert figures["partition_sentences_dropped"] == 1 and figures["partition_summaries_rejected"] == 0
    assert "Zorblax" not in repr(result.all_events)

    # A re-run reads the cache: nothing asked, the count stays.
    before = len(llm.requests)
    again = pipeline.run(DAY)
    assert len(llm.requests) == before
    assert metadata(again, "session_summaries")["partition_sentences_dropped"] == 1


def test_an_answer_with_no_grounded_sentence_becomes_the_lines_said(llm, make_settings):
    pipeline = Pipeline(make_settings(extractor="openai", llm_max_retries=0))
    pipeline.load(mb_slice())
    lucy_first = pipeline.rows("SELECT min(id) AS id FROM {source} WHERE session_id = 'memorybank:lucy' "
                               "AND created_at::date = %s", [DAY])[0]["id"]
    llm.state["marker"] = f"[{lucy_first}|"
    result = pipeline.run(DAY)
    lucy = pipeline.rows("SELECT s.summary, s.sentences_dropped, c.transcript "
                         "FROM {schema}.session_summaries s JOIN {schema}.conversations c USING (conversation_id) "
                         "WHERE c.session_key = 'memorybank:lucy'")[0]
    assert lucy["sentences_dropped"] == 1 and "Zorblax" not in lucy["summary"]
    said = " ".join(turn["text"] for turn in lucy["transcript"])
    assert split_sentences(lucy["summary"])[0] in said  # the chat's own lines
    assert {e.check_name: e for e in result.get_asset_check_evaluations()}["summaries_grounded"].passed


def test_an_ungrounded_summary_is_rejected_the_check_goes_red_and_the_facts_stay(llm, make_settings, monkeypatch):
    # A backend that does not check its own sentences: the stage's check is the net.
    monkeypatch.setattr(openai_backend, "grounded", lambda text, conversation, timezone: (text, 0))
    pipeline = Pipeline(make_settings(extractor="openai", llm_max_retries=0))
    pipeline.load(mb_slice())
    lucy_first = pipeline.rows("SELECT min(id) AS id FROM {source} WHERE session_id = 'memorybank:lucy' "
                               "AND created_at::date = %s", [DAY])[0]["id"]
    llm.state["marker"] = f"[{lucy_first}|"
    result = pipeline.run(DAY)
    assert result.success  # not blocking: the night goes on, the check is red

    check = {e.check_name: e for e in result.get_asset_check_evaluations()}["summaries_grounded"]
    assert not check.passed and check.severity == dg.AssetCheckSeverity.ERROR
    assert check.metadata["summaries_rejected"].value == 1
    assert check.metadata["rejected_by_reason"].value == {"summary_date_not_in_chat": 1}

    rows = pipeline.rows("SELECT s.conversation_id, s.summary, s.rejected_reason, s.sentences, c.session_key "
                         "FROM {schema}.session_summaries s JOIN {schema}.conversations c USING (conversation_id)")
    rejected = [r for r in rows if r["rejected_reason"]]
    assert [(r["session_key"], r["summary"], r["sentences"]) for r in rejected] == [("memorybank:lucy", None, None)]
    assert check.metadata["rejected_conversation_ids"].value == [rejected[0]["conversation_id"]]
    assert all(r["summary"] and r["sentences"] >= 1 for r in rows if not r["rejected_reason"])
    # The conversation keeps its facts.
    facts = pipeline.rows("SELECT 1 FROM {schema}.agent_facts WHERE source_session = %s",
                          [rejected[0]["conversation_id"]])
    assert facts
    # The rejected text is stored nowhere and published nowhere.
    cached = pipeline.rows("SELECT summary, rejected_reason FROM {schema}.summary_cache WHERE rejected_reason "
                           "IS NOT NULL")
    assert cached == [{"summary": "", "rejected_reason": "summary_date_not_in_chat"}]
    assert "Zorblax" not in repr(result.all_events)

    figures = metadata(result, "session_summaries")
    assert figures["partition_summaries_rejected"] == figures["run_summaries_rejected"] == 1
    assert figures["partition_summaries"] == len(rows) - 1
    assert isinstance(figures["partition_sentences_mean"], float) and figures["partition_sentences_mean"] >= 1
    for key in ("partition_summaries_rejected", "partition_sentences_mean", "partition_summaries",
                "run_summaries_rejected"):
        assert len(key) <= 30  # the UI cuts longer keys

    # A re-run asks nothing again: the cache keeps the rejection; the check stays red.
    before = len(llm.requests)
    again = pipeline.run(DAY)
    assert len(llm.requests) == before
    assert not {e.check_name: e for e in again.get_asset_check_evaluations()}["summaries_grounded"].passed
    assert metadata(again, "session_summaries")["partition_summaries_rejected"] == 1
