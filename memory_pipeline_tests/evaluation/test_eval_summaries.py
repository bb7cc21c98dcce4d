"""`eval --gold-set summaries`: key points recalled, what is not grounded, sentences and requests, scored on tiny
sets; the LLM backend over real HTTP against the scripted OpenAI-compatible server."""

import json

import pytest

from memory_pipeline.evaluation import evaluate
from memory_pipeline.evaluation.gold import GoldSetError
from memory_pipeline.evaluation.runs import conversations_of
from memory_pipeline.evaluation.summaries import (
    SummaryCase, evaluate_chunked, evaluate_summaries, score_summary, summaries_table, summary_cases,
    summary_cases_table)
from memory_pipeline.extractors.offline import OfflineExtractor
from memory_pipeline.extractors.openai_backend import OpenAIExtractor
from memory_pipeline.settings import Settings
from memory_pipeline_tests.openai_server import Reply, ScriptedOpenAIServer, transcript_responder

CASE = SummaryCase.model_validate({
    "case": "tiny", "language": "en", "messages": [
        {"role": "human", "content": "I'm Lucy. Invoice 4821 was charged twice.", "at": "2026-03-04T09:00:00+00:00"},
        {"role": "ai", "content": "I refunded 49 euros.", "at": "2026-03-04T09:01:00+00:00"}],
    "key_points": [{"kind": "who", "keywords": ["Lucy"]}, {"kind": "asked", "keywords": ["4821|invoice", "twice"]},
                   {"kind": "outcome", "keywords": ["refund", "49"]}]})


def conversation():
    return conversations_of(CASE.rows())[0]


def test_key_points_are_recalled_by_every_keyword():
    score = score_summary(CASE, "Lucy's invoice was charged twice. It was refunded.", conversation(), 1)
    assert (score.recalled, score.key_points) == (2, 3)  # "49" missing: the outcome is not recalled
    assert score.unheld == [] and score.rejected is None and score.sentences == 2


def test_what_is_not_grounded_is_counted_and_the_summary_rejected():
    score = score_summary(CASE, "The user Maria had invoice 9999 refunded on 2026-05-01.", conversation(), 1)
    assert score.unheld == ["date", "number", "name"] and score.rejected == "summary_date_not_in_chat"
    table = summaries_table([score, score_summary(CASE, "Lucy. Twice 4821. Refund 49.", conversation(), 1)])
    row = table.iloc[0]
    assert row["not_grounded"] == 3 and row["rejected"] == 1 and row["recalled"] == 0.5
    assert row["sentences_mean"] == 2.0 and row["share_3_to_5"] == 0.5 and row["requests_per_conversation"] == 1.0


@pytest.fixture
def llm(monkeypatch):
    def make(responder):
        server = ScriptedOpenAIServer(responder).__enter__()
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.delenv("OPENAI_API_KEY", raising=False)
        servers.append(server)
        return OpenAIExtractor(Settings(extractor="openai", llm_max_retries=0, llm_timeout_seconds=10)), server
    servers = []
    yield make
    for server in servers:
        server.__exit__(None, None, None)


def test_the_scripted_server_returning_ungrounded_sentences_is_scored_with_them_dropped(llm):
    extractor, server = llm(lambda body: Reply(content=json.dumps(
        {"facts": [], "summary": "The user Maria reported invoice 9999. It was refunded on 2026-05-01."})))
    scores = evaluate_summaries(extractor, [CASE])
    row = summaries_table(scores).iloc[0]
    assert row["dropped"] == 2 and row["not_grounded"] == 0 and row["rejected"] == 0
    assert row["requests_per_conversation"] == 1.0 and len(server.chat_requests()) == 1
    assert summary_cases_table(scores).iloc[0]["dropped"] == 2


def test_a_summary_is_one_request_at_the_default_budget_and_the_long_chats_are_chunked_again(llm):
    extractor, server = llm(transcript_responder)
    before = extractor.chunk_tokens
    cases = summary_cases()
    assert all(s.requests == 1 for s in evaluate_summaries(extractor, cases))  # summary and facts: one request
    chunked = evaluate_chunked(extractor, cases)
    assert sorted(s.case for s in chunked) == sorted(c.case for c in cases if "-long-" in c.case)
    assert len(chunked) == 3 and all(s.requests >= 2 and s.sentences <= 5 for s in chunked)  # parts combined
    assert extractor.chunk_tokens == before
    assert evaluate_chunked(OfflineExtractor(), cases) == []  # a backend that does not chunk


def test_the_shipped_set_has_its_languages_and_the_offline_backend_is_grounded():
    cases = summary_cases()
    assert len(cases) >= 25 and len({c.language for c in cases}) >= 10
    report = evaluate(OfflineExtractor(), ["summaries"], cases=["en-refund-double-charge", "zh-cancel-order"])
    table = report.tables["Summaries: key points recalled, names/numbers/dates not grounded, sentences, requests"]
    assert table.iloc[0]["cases"] == 2 and table.iloc[0]["not_grounded"] == 0


def test_a_malformed_line_names_the_file_and_line(tmp_path):
    path = tmp_path / "mine.jsonl"
    path.write_text(json.dumps(CASE.model_dump(mode="json")) + "\n" + '{"case": "x"}\n')
    with pytest.raises(GoldSetError, match="mine.jsonl line 2"):
        summary_cases(path)


SPANISH = SummaryCase.model_validate({
    "case": "es-tiny", "language": "es", "messages": [
        {"role": "human", "content": "Hola, soy Lucía. Necesito cambiar mi vuelo a Madrid del viernes.",
         "at": "2026-06-08T09:00:00+00:00"},
        {"role": "ai", "content": "Hecho: su vuelo a Madrid sale el domingo. El cambio cuesta 35 euros.",
         "at": "2026-06-08T09:06:00+00:00"}],
    "key_points": [{"kind": "who", "keywords": ["Lucía"]}, {"kind": "outcome", "keywords": ["domingo", "35"]}]})


def test_sentences_in_another_language_than_the_chats_are_counted():
    spanish = conversations_of(SPANISH.rows())[0]
    score = score_summary(SPANISH, "The user wants to change the flight. Lucía cambia su vuelo a Madrid al domingo.",
                          spanish, 1)
    assert score.other_language == 1 and summaries_table([score]).iloc[0]["other_language"] == 1


def test_the_llm_backends_english_sentences_for_a_spanish_chat_are_dropped_and_the_lines_said_kept(llm):
    """A 1.5B model summarised 19 of the summary set's 22 chats in other languages in English (issue 27)."""
    extractor, server = llm(lambda body: Reply(content=json.dumps(
        {"facts": [], "summary": "The user wants to change the flight. The assistant confirmed the change."})))
    score = evaluate_summaries(extractor, [SPANISH])[0]
    assert score.dropped == 2 and score.other_language == 0 and score.sentences >= 3
    assert (score.recalled, score.key_points) == (2, 2)  # the chat's own lines, in Spanish
    assert score.requests == 1 and len(server.chat_requests()) == 1


def test_a_gold_file_of_summary_cases_is_scored_as_its_own_summary_gold_set(tmp_path):
    path = tmp_path / "my_chats.jsonl"
    path.write_text(json.dumps(SPANISH.model_dump(mode="json")) + "\n" + json.dumps(CASE.model_dump(mode="json")))
    report = evaluate(OfflineExtractor(), ["summaries"], gold_files=[path], cases=["es-tiny", CASE.case,
                                                                                  "zh-cancel-order"])
    table = report.tables["Summaries: key points recalled, names/numbers/dates not grounded, sentences, requests"]
    assert list(table["gold_set"]) == ["summaries", "my_chats"]
    assert list(table["cases"]) == [1, 2]
    per_case = report.tables["Summaries per case"]
    assert sorted(per_case[per_case.gold_set == "my_chats"]["case"]) == sorted(["es-tiny", CASE.case])
    assert not any(name.startswith("Summary: extraction") for name in report.tables)  # not run as behaviour cases


def test_a_summary_gold_file_alone_needs_no_gold_set_and_a_name_taken_twice_is_refused(tmp_path):
    path = tmp_path / "summaries.jsonl"
    path.write_text(json.dumps(SPANISH.model_dump(mode="json")) + "\n")
    with pytest.raises(GoldSetError, match="already chosen"):
        evaluate(OfflineExtractor(), [], gold_files=[path])
    mine = tmp_path / "mine.jsonl"
    mine.write_text(json.dumps(SPANISH.model_dump(mode="json")) + "\n")
    table = evaluate(OfflineExtractor(), [], gold_files=[mine]).tables[
        "Summaries: key points recalled, names/numbers/dates not grounded, sentences, requests"]
    assert table.iloc[0]["gold_set"] == "mine" and table.iloc[0]["recalled"] == 1.0


def test_the_details_show_a_summary_and_the_key_points_it_missed(tmp_path):
    """A user scoring their own chats must see why a case scored 1/2 (a newcomer found no way to, session 15)."""
    case = SummaryCase.model_validate({**SPANISH.model_dump(), "key_points": [
        *SPANISH.model_dump()["key_points"], {"kind": "open", "keywords": ["reembolso"]}]})
    path = tmp_path / "mine.jsonl"
    path.write_text(json.dumps(case.model_dump(mode="json")) + "\n")
    report = evaluate(OfflineExtractor(), [], gold_files=[path])
    (record,) = report.details["backend"]
    assert record["case"] == "es-tiny" and not record["passed"]
    assert record["summary"]["missed"] == ["open: reembolso"]
    assert "Madrid" in record["summary"]["text"]
    text = report.render()
    assert "   summary  \"" in text and "   missed   open: reembolso" in text
    assert evaluate(OfflineExtractor(), [], gold_files=[path], details="none").details == {}
    passed = tmp_path / "passed.jsonl"
    passed.write_text(json.dumps(SPANISH.model_dump(mode="json")) + "\n")
    assert evaluate(OfflineExtractor(), [], gold_files=[passed]).details["backend"] == []  # problems only
    assert evaluate(OfflineExtractor(), [], gold_files=[passed], details="all").details["backend"][0]["passed"]
