"""A model's answer with harmless variations (case, extra keys) is read; a 200 whose body is not JSON is a
server error; text PostgreSQL cannot store (NUL) does not fail the night."""


import pytest

from memory_pipeline.domain.facts import validate_candidate
from memory_pipeline_tests.extractors.test_openai_extractor import answer, conversation, fact, make, server  # noqa: F401


# -- harmless variations in a model's answer must not fail the conversation ---------------------------------
def test_category_and_attribute_case_and_extra_keys_are_read_leniently(server, make):  # noqa: F811
    chat = conversation(("human", "I live in Lyon now."))
    variant = {**fact("I live in Lyon now.", 1, " Client_Info ", "Home_Location ", "Lyon", "User lives in Lyon."),
               "confidence": 0.9}
    server.script.append(answer(variant, summary=None))
    extracted = make(server).extract(chat).facts
    assert len(server.chat_requests()) == 1  # accepted at once, not asked again
    candidate = validate_candidate(extracted[0], chat, 0)
    assert (candidate.status, candidate.category, candidate.attribute) == ("accepted", "client_info", "home_location")


# -- a server answering 200 with a body that is not JSON -------------------------------------------------------
def test_a_200_whose_body_is_not_json_is_a_server_error(server, make):  # noqa: F811
    from memory_pipeline.extractors.base import ExtractorError
    from memory_pipeline_tests.openai_server import Reply
    server.script.append(Reply(body="<html>gateway says: I live in Lyon</html>"))
    with pytest.raises(ExtractorError) as error:
        make(server).extract(conversation(("human", "I live in Lyon now.")))
    assert error.value.reason == "server_error" and "Lyon" not in str(error.value)


# -- model text PostgreSQL cannot store must not fail the night ------------------------------------------------
def test_nul_in_a_models_answer_does_not_fail_the_night(make_settings, monkeypatch):
    import json

    from memory_pipeline import sample
    from memory_pipeline_tests.openai_server import Reply, ScriptedOpenAIServer
    from memory_pipeline_tests.test_pipeline_end_to_end import Pipeline

    def responder(body):
        said = "I live in Oslo." if "I live in Oslo." in json.dumps(body["messages"]) else "I live in Rome."
        place = said.split()[-1].rstrip(".")
        return Reply(content=json.dumps({"summary": "The user\u0000 talked.", "facts": [{
            "category": "client_info", "attribute": "home_location", "value": place + "\u0000",
            "fact": f"User lives in {place}.\u0000", "quote": said, "message_id": None, "retraction": False}]}))

    with ScriptedOpenAIServer(responder) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        p = Pipeline(make_settings(extractor="openai", llm_max_retries=0))
        p.load(sample.fixture_rows([json.dumps({
            "id": i, "session_id": f"s{i}", "created_at": "2026-05-03T12:00:00Z",
            "message": {"type": "human", "content": text}}) for i, text in ((1, "I live in Oslo."),
                                                                            (2, "I live in Rome."))]))
        assert p.run("2026-05-03").success
    assert {(f["user_key"], f["fact"]) for f in p.rows("SELECT * FROM {schema}.agent_facts")} == {
        ("s1", "User lives in Oslo."), ("s2", "User lives in Rome.")}
