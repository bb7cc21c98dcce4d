"""The LLM backend over real HTTP: the real openai SDK against ScriptedOpenAIServer (no database here)."""

import json
from dataclasses import replace
from datetime import date, datetime, timedelta, timezone

import pydantic
import pytest

from memory_pipeline import cli
from memory_pipeline.domain.conversations import Conversation
from memory_pipeline.domain.facts import validate_candidate
from memory_pipeline.domain.messages import ParsedRow
from memory_pipeline.domain.summaries import split_sentences
from memory_pipeline.domain.reconcile import AcceptedFact, reconcile_user
from memory_pipeline.extractors import make_extractor, prompts
from memory_pipeline.extractors.base import ExtractorError
from memory_pipeline.domain.summaries import sentence_count
from memory_pipeline.extractors.llm_output import SummaryAndFactsAnswer, strict_json_schema
from memory_pipeline.extractors.openai_backend import LOCAL_SERVER_KEY, OpenAIExtractor
from memory_pipeline.defs.resources import MemoryPipelineResource
from memory_pipeline.settings import DEFAULT_TTL_DAYS, Settings
from memory_pipeline_tests.openai_server import Reply, ScriptedOpenAIServer, transcript_responder
from memory_pipeline.stages.llm_calls import call_each

SAID = datetime(2025, 3, 4, 18, 0, tzinfo=timezone.utc)  # a Tuesday


def conversation(*turns: tuple[str, str], start: datetime = SAID, cid: str = "c1") -> Conversation:
    """Turns (role, text) with message ids 1, 2, ... one minute apart."""
    rows = tuple(ParsedRow(i, start + timedelta(minutes=i), "turn", role=role, text=text)
                 for i, (role, text) in enumerate(turns, 1))
    return Conversation(cid, "tg:1", "tg:1", start.date(), rows[0].at, rows[-1].at, rows, False)


def fact(quote: str, message_id: int, category="preference", attribute=None, value=None, text=None, retraction=False):
    return {"category": category, "attribute": attribute, "value": value, "fact": text or f"User said: {quote}",
            "quote": quote, "message_id": message_id, "retraction": retraction}


def answer(*facts, summary: str | None = "The user talked.") -> Reply:
    body = {"facts": list(facts)}
    if summary is not None:
        body["summary"] = summary
    return Reply(content=json.dumps(body))


@pytest.fixture
def server():
    with ScriptedOpenAIServer() as s:
        yield s


@pytest.fixture
def make(monkeypatch):
    """Factory: an OpenAIExtractor on `server` (base URL only, no key, as for a local server)."""

    def factory(server, **overrides):
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.delenv("OPENAI_API_KEY", raising=False)
        values = {"extractor": "openai", "llm_max_retries": 0, "llm_timeout_seconds": 10, **overrides}
        return OpenAIExtractor(Settings(**values))

    return factory


CHAT = conversation(("human", "Hi! I live in Lyon and I prefer email."), ("ai", "Noted."),
                    ("human", "Thanks, that's all."))


# -- structured output ------------------------------------------------------------------------------------
def test_strict_json_schema_request_and_answer_become_facts(server, make):
    server.script.append(answer(fact("I live in Lyon", 1, "client_info", "home_location", "Lyon"),
                                summary="User lives in Lyon."))
    result = make(server).summarize(CHAT)
    assert result.text.startswith("User lives in Lyon.")
    assert [(f.attribute, f.quote, f.quote_message_id) for f in result.facts] == [("home_location", "I live in Lyon", 1)]
    assert result.input_tokens > 0 and result.output_tokens > 0  # the server's usage figures
    body = server.chat_requests()[0]
    assert body["model"] == "gpt-4o-mini"
    rf = body["response_format"]
    assert rf["type"] == "json_schema" and rf["json_schema"]["strict"] is True
    schema = rf["json_schema"]["schema"]
    fact_schema = schema["$defs"]["LLMFact"]
    assert schema["additionalProperties"] is False and fact_schema["additionalProperties"] is False
    assert set(fact_schema["required"]) == {"category", "attribute", "value", "fact", "quote", "message_id",
                                            "retraction"}
    assert "default" not in json.dumps(schema)
    # Static instructions first (provider prompt caching), then the transcript with ids, local time, speaker.
    assert body["messages"][0] == {"role": "system", "content": prompts.COMBINED_SYSTEM}
    assert "[1|2025-03-04 18:01 Tue|user] Hi! I live in Lyon and I prefer email." in body["messages"][1]["content"]
    assert "[-|2025-03-04 18:02 Tue|assistant] Noted." in body["messages"][1]["content"]  # never quoted: no id


def test_transcript_times_are_in_the_partitions_timezone(server, make):
    server.script.append(answer())
    make(server, timezone="Asia/Tokyo").summarize(CHAT)
    assert "[1|2025-03-05 03:01 Wed|user]" in server.chat_requests()[0]["messages"][1]["content"]


def test_llama_cpp_json_schema_refusal_lands_on_json_object_and_stays(make):
    with ScriptedOpenAIServer(transcript_responder, refuse_json_schema=True) as server:
        extractor = make(server, llm_max_retries=2, llm_max_in_flight=3)
        chats = [replace(CHAT, conversation_id=f"c{i}") for i in range(5)]
        results = list(call_each(extractor.summarize, chats, 3))
        assert all(not isinstance(r, ExtractorError) for _, r in results)
        assert all(r.facts and r.facts[0].quote_message_id == 1 for _, r in results)
        kinds = [(b.get("response_format") or {}).get("type") for b in server.chat_requests()]
        # One refused json_schema probe (not retried by the SDK), then json_object with the schema, for the run.
        assert kinds == ["json_schema"] + ["json_object"] * 5
        assert all("schema" in b["response_format"] for b in server.chat_requests()[1:])
        assert extractor.structured_output == "json_object_schema"
        extractor.extract(CHAT)
        assert server.chat_requests()[-1]["response_format"]["type"] == "json_object"


def test_a_server_taking_no_response_format_gets_the_shape_in_the_prompt(make):
    def plain_only(body):
        if body.get("response_format"):
            return Reply(status=400, body=json.dumps({"error": {"message": "response_format is not supported"}}))
        return transcript_responder(body)

    with ScriptedOpenAIServer(plain_only) as server:
        extractor = make(server)
        first = extractor.summarize(CHAT)
        second = extractor.extract(CHAT)
        formats = [(b.get("response_format") or {}).get("type") for b in server.chat_requests()]
        assert formats == ["json_schema", "json_object", "json_object", None, None]
        assert extractor.structured_output == "prompt"
        assert first.facts and second.facts
        assert prompts.FACTS_SHAPE in server.chat_requests()[-1]["messages"][0]["content"]


def test_fixed_json_object_mode_never_sends_json_schema(server, make):
    server.script.append(answer())
    make(server, structured_output="json_object").summarize(CHAT)
    assert server.chat_requests()[0]["response_format"]["type"] == "json_object"


def test_strict_schema_keeps_validation_lenient():
    schema = strict_json_schema(SummaryAndFactsAnswer)
    assert schema["required"] == ["facts", "summary"]  # facts first: a summary cut at max_tokens leaves them
    parsed = SummaryAndFactsAnswer.model_validate_json(
        '{"summary": "s", "facts": [{"category": "decision", "fact": "f", "quote": "q"}]}')
    assert parsed.facts[0].retraction is False and parsed.facts[0].message_id is None


# -- validation retry, refusals, transport failures -------------------------------------------------------
def test_invalid_answer_is_asked_again_once_with_the_error(server, make):
    server.script.extend([Reply(content='{"summary": "x", "facts": [{"category": "mood"'), answer()])
    result = make(server).summarize(CHAT)
    assert result.text.startswith("The user talked.")
    first, retry = [body["messages"] for body in server.chat_requests()]
    assert [m["role"] for m in retry] == ["system", "user"]  # the broken answer is not sent back
    note = retry[1]["content"].removeprefix(first[1]["content"])
    assert note.strip().startswith("(Your previous answer was rejected:") and "json" in note.lower()


def test_twice_invalid_answer_fails_with_invalid_output(server, make):
    server.script.extend([Reply(content='{"facts": [{"quote": "I live in Lyon", "message_id": 1'),
                          Reply(content="not json at all")])
    with pytest.raises(ExtractorError) as failure:
        make(server).summarize(CHAT)
    assert failure.value.reason == "invalid_output"
    assert len(server.chat_requests()) == 2
    assert "Lyon" not in str(failure.value)  # no chat text in the error


def test_a_code_fenced_answer_validates(server, make):
    server.script.append(Reply(content="```json\n" + answer().content + "\n```"))
    assert make(server).summarize(CHAT).text.startswith("The user talked.")


def test_refusal_is_recorded_as_refusal(server, make):
    server.script.append(Reply(refusal="I can't help with that."))
    with pytest.raises(ExtractorError) as failure:
        make(server).summarize(CHAT)
    assert failure.value.reason == "refusal" and len(server.chat_requests()) == 1


def test_429_is_retried_after_retry_after(server, make):
    server.script.extend([Reply(status=429, headers={"Retry-After": "1"}), answer()])
    result = make(server, llm_max_retries=2, structured_output="json_schema").summarize(CHAT)
    assert result.text.startswith("The user talked.")
    first, second = [r["at"] for r in server.requests]
    assert second - first >= 0.9  # the SDK waited what Retry-After asked, not its 0.5 s default backoff


def test_429_beyond_the_retries_is_rate_limited(server, make):
    server.script.extend([Reply(status=429, headers={"Retry-After": "0"})] * 2)
    with pytest.raises(ExtractorError) as failure:
        make(server, llm_max_retries=1, structured_output="json_schema").summarize(CHAT)
    assert failure.value.reason == "rate_limited" and len(server.requests) == 2


def test_500_is_retried_then_recorded_as_server_error(server, make):
    server.script.extend([Reply(status=500), answer()])
    assert make(server, llm_max_retries=1, structured_output="json_schema").summarize(CHAT).text
    server.script.extend([Reply(status=500), Reply(status=503)])
    with pytest.raises(ExtractorError) as failure:
        make(server, llm_max_retries=1, structured_output="json_schema").summarize(CHAT)
    assert failure.value.reason == "server_error" and len(server.requests) == 4


def test_a_transient_error_while_probing_is_not_taken_for_a_format_refusal(server, make):
    server.script.extend([Reply(status=503), answer()])
    extractor = make(server, llm_max_retries=1)
    assert extractor.summarize(CHAT).text
    assert extractor.structured_output == "json_schema"


def test_a_pinned_json_schema_mode_on_llama_cpp_is_format_refused(make):
    with ScriptedOpenAIServer(transcript_responder, refuse_json_schema=True) as server:
        with pytest.raises(ExtractorError) as failure:
            make(server, structured_output="json_schema").summarize(CHAT)
    assert failure.value.reason == "format_refused"


def test_a_model_refusing_temperature_gets_its_default(make):
    def reasoning_model(body):
        if "temperature" in body:
            return Reply(status=400, body=json.dumps({"error": {
                "message": "Unsupported value: 'temperature' does not support 0 with this model."}}))
        return transcript_responder(body)

    with ScriptedOpenAIServer(reasoning_model) as server:
        extractor = make(server, structured_output="json_schema")
        assert extractor.summarize(CHAT).facts and extractor.extract(CHAT).facts
        assert [("temperature" in b) for b in server.chat_requests()] == [True, False, False]


def test_a_chat_without_user_lines_sends_no_request(server, make):
    chat = conversation(("ai", "Hello! How can I help?"), ("tool", "weather: sunny"))
    extractor = make(server)
    assert extractor.summarize(chat).facts == [] and extractor.extract(chat).facts == []
    assert server.requests == []


def test_timeout(server, make):
    server.script.append(Reply(delay=1.5, content=answer().content))
    with pytest.raises(ExtractorError) as failure:
        make(server, llm_timeout_seconds=0.3, structured_output="json_schema").summarize(CHAT)
    assert failure.value.reason == "timeout"


def test_requests_in_flight_are_bounded(make):
    with ScriptedOpenAIServer(lambda body: replace(transcript_responder(body), delay=0.3)) as server:
        extractor = make(server, structured_output="json_schema")
        chats = [replace(CHAT, conversation_id=f"c{i}") for i in range(9)]
        results = list(call_each(extractor.extract, chats, 3))
        assert len(results) == 9 and [c.conversation_id for c, _ in results] == [c.conversation_id for c in chats]
        assert 2 <= server.max_concurrent <= 3


def test_one_failing_call_does_not_stop_the_others(server, make):
    server.script.extend([answer(), Reply(content="nope"), Reply(content="nope"), answer()])
    chats = [replace(CHAT, conversation_id=f"c{i}") for i in range(3)]
    results = list(call_each(make(server, structured_output="json_schema").summarize, chats, 1))
    assert [type(r).__name__ for _, r in results] == ["SummaryResult", "ExtractorError", "SummaryResult"]


# -- quotes: the gate the model cannot pass with words the user did not say -------------------------------
TOOLED = conversation(("human", "Find me a hotel."), ("tool", "Hotel Azur: guests say I love the sea view."),
                      ("ai", "Shall I book Hotel Azur for you?"), ("human", "Yes, do that."),
                      ("human", "I love the sea view too."))


@pytest.mark.parametrize("quote,message_id,reason", [
    ("I adore Paris.", 1, "quote_not_found"),                         # hallucinated
    ("Shall I book Hotel Azur for you?", 3, "quote_not_from_user"),   # the assistant's words
    ("guests say I love the sea view", 2, "quote_from_tool_output"),  # tool output
    ("You are a helpful assistant.", 1, "quote_not_found"),            # a system prompt: not in the transcript
])
def test_quotes_the_user_did_not_say_are_rejected(server, make, quote, message_id, reason):
    server.script.append(answer(fact(quote, message_id, "decision"), summary=None))
    extracted = make(server).extract(TOOLED).facts
    candidate = validate_candidate(extracted[0], TOOLED, 0)
    assert candidate.status == "rejected" and candidate.reason == reason


# -- each prompt rule: stated in the prompt sent, and an answer obeying it goes through ----------------------
def ask_facts(server, make, chat, *facts):
    server.script.append(answer(*facts, summary=None))
    extracted = make(server).extract(chat).facts
    system = server.chat_requests()[-1]["messages"][0]["content"]
    return [validate_candidate(f, chat, i) for i, f in enumerate(extracted)], system


def test_rule_only_the_users_own_statements(server, make):
    chat = conversation(("human", "My sister lives in Rome. Would I like Rome? Maybe I'll move there someday. "
                                  "Thanks a lot!"),
                        ("human", "[Image description: a man holding a sign that says I am vegan]"))
    candidates, system = ask_facts(server, make, chat)  # a model obeying the rule returns nothing
    assert prompts.RULES["self_only"] in system and prompts.RULES["exclusions"] in system
    assert candidates == []


def test_rule_relative_dates_resolved_against_the_message_date(server, make):
    chat = conversation(("human", "I'd like to book a table for tomorrow at 7pm."))
    candidates, system = ask_facts(server, make, chat, fact(
        "I'd like to book a table for tomorrow at 7pm.", 1, "decision", "decision:table_booking",
        "2025-03-05 19:00", "User booked a table for 2025-03-05 at 19:00."))
    assert prompts.RULES["relative_dates"] in system
    assert "[1|2025-03-04 18:01 Tue|user]" in server.chat_requests()[-1]["messages"][1]["content"]
    (c,) = candidates
    assert c.status == "accepted" and c.value == "2025-03-05 19:00" and c.said_at.date() == date(2025, 3, 4)


def test_rule_accepted_offer_is_a_decision_quoting_the_reply(server, make):
    candidates, system = ask_facts(server, make, TOOLED, fact(
        "Yes, do that.", 4, "decision", "decision:hotel_booking", "Hotel Azur", "User booked Hotel Azur."))
    assert prompts.RULES["accepted_offer"] in system
    (c,) = candidates
    assert (c.status, c.category, c.quote_message_id, c.quote_speaker) == ("accepted", "decision", 4, "human")


def test_rule_changed_favourite_replaces_the_old_one(server, make):
    chat = conversation(("human", "My favourite show is Dark."), ("ai", "Nice."),
                        ("human", "My current favourite is Severance, after the last season."))
    candidates, system = ask_facts(
        server, make, chat,
        fact("My favourite show is Dark.", 1, "preference", "favourite:show", "Dark", "User's favourite show is Dark."),
        fact("My current favourite is Severance, after the last season.", 3, "preference", "favourite:show",
             "Severance", "User's favourite show is Severance."))
    assert prompts.RULES["same_attribute"] in system
    accepted = [AcceptedFact(c.candidate_id, c.user_key, c.category, c.attribute, c.value, c.fact, c.quote,
                             c.quote_message_id, c.quote_speaker, c.conversation_id, c.said_at, c.position)
                for c in candidates if c.status == "accepted"]
    active = [v.value for v in reconcile_user(accepted, DEFAULT_TTL_DAYS) if v.is_active]
    assert active == ["Severance"]


def test_rule_retraction_comes_back_flagged_with_its_attribute(server, make):
    chat = conversation(("human", "I no longer like Vim."), ("human", "Forget my phone number."))
    candidates, system = ask_facts(
        server, make, chat,
        fact("I no longer like Vim.", 1, "preference", "opinion:vim", None, "User no longer likes Vim.", True),
        fact("Forget my phone number.", 2, "client_info", "phone_number", None, "User withdrew their phone number.",
             True))
    assert prompts.RULES["retraction"] in system
    assert [(c.status, c.attribute, c.retraction) for c in candidates] == [
        ("accepted", "opinion:vim", True), ("accepted", "phone_number", True)]


def test_a_retraction_without_its_attribute_is_a_recorded_rejection(server, make):
    chat = conversation(("human", "I no longer like Vim."))
    candidates, _ = ask_facts(server, make, chat, fact("I no longer like Vim.", 1, "preference", None, None,
                                                       "User no longer likes Vim.", True))
    assert [(c.status, c.reason) for c in candidates] == [("rejected", "retraction_without_attribute")]
    assert len(server.chat_requests()) == 1  # one fact's flaw does not cost the conversation a second request


def test_rule_facts_stay_in_the_conversations_language(server, make):
    chat = conversation(("human", "J'habite à Lyon depuis deux ans."))
    candidates, system = ask_facts(server, make, chat, fact(
        "J'habite à Lyon", 1, "client_info", "home_location", "Lyon", "L'utilisateur habite à Lyon."))
    assert prompts.RULES["language"] in system
    assert candidates[0].status == "accepted" and candidates[0].fact == "L'utilisateur habite à Lyon."


def test_prompts_are_static_and_compact():
    # The budget is 3,000 prompt tokens per MemoryBank conversation, summary included: instructions stay small.
    from memory_pipeline.extractors.tokens import token_counter

    count = token_counter("gpt-4o-mini")
    assert count(prompts.COMBINED_SYSTEM) < 800 and count(prompts.SUMMARY_SYSTEM) < 150
    for name in prompts.RULES:
        assert prompts.RULES[name] in prompts.COMBINED_SYSTEM and prompts.RULES[name] in prompts.EXTRACTION_SYSTEM


# -- long conversations -----------------------------------------------------------------------------------
def test_a_fact_in_the_last_chunk_of_a_long_conversation_is_kept(make):
    filler = [("human", f"Here is filler sentence number {i} about nothing in particular at all.") if i % 2 == 0
              else ("ai", f"Filler answer {i}, nothing to remember here either.") for i in range(40)]
    chat = conversation(("human", "My name is Ada."), *filler, ("human", "I live in Tromsø."))
    with ScriptedOpenAIServer(transcript_responder) as server:
        extractor = make(server, llm_chunk_tokens=200)
        result = extractor.extract(chat)
        summary = extractor.summarize(chat)
        bodies = server.chat_requests()
    extract_requests = [b for b in bodies if b["messages"][0]["content"] == prompts.EXTRACTION_SYSTEM]
    assert len(extract_requests) > 2
    last_id = chat.turns[-1].message_id
    assert f"[{last_id}|" in extract_requests[-1]["messages"][1]["content"]
    assert "part 1 of" in extract_requests[0]["messages"][1]["content"]
    facts = {(f.attribute, f.quote_message_id) for f in result.facts}
    assert ("home_location", last_id) in facts and ("name", 1) in facts
    candidates = [validate_candidate(f, chat, i) for i, f in enumerate(result.facts)]
    assert all(c.status == "accepted" for c in candidates)
    assert len(result.facts) == len({(f.attribute, f.quote) for f in result.facts})  # overlap read once
    assert summary.facts and {f.attribute for f in summary.facts} >= {"name", "home_location"}


def test_a_chunked_conversation_gets_one_summary_of_at_most_five_sentences(make):
    """Each chunk's three-sentence summary is combined: the opening, each part's end, the last part's end."""
    filler = [("human", f"Here is filler sentence number {i} about nothing in particular at all.") if i % 2 == 0
              else ("ai", f"Filler answer {i}, nothing to remember here either.") for i in range(40)]
    chat = conversation(("human", "My name is Ada."), *filler)
    parts = []

    def responder(body):
        parts.append(len(parts) + 1)
        n = parts[-1]
        return Reply(content=json.dumps({"facts": [], "summary": f"Part {n} opens. Part {n} goes on. Part {n} ends."}))

    with ScriptedOpenAIServer(responder) as server:
        text = make(server, llm_chunk_tokens=200).summarize(chat).text
    assert len(parts) >= 3  # chunked
    sentences = split_sentences(text)
    assert len(sentences) == 5
    assert sentences[0] == "Part 1 opens." and sentences[-1] == f"Part {parts[-1]} ends."
    assert f"Part {parts[-2]} ends." in sentences  # the part before the last keeps its outcome


# -- settings: backend selection and the key -------------------------------------------------------------
def test_openai_needs_a_key_or_a_base_url(monkeypatch, capsys):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    with pytest.raises(pydantic.ValidationError, match="OPENAI_API_KEY"):
        Settings(extractor="openai")
    monkeypatch.setenv("MEMORY_PIPELINE_EXTRACTOR", "openai")
    assert cli.main(["init-db"]) == 2
    assert capsys.readouterr().err.startswith("memory-pipeline: invalid setting MEMORY_PIPELINE_EXTRACTOR:")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")  # a local server needs no key
    extractor = make_extractor(Settings.from_env())
    assert isinstance(extractor, OpenAIExtractor) and extractor.chat._client.api_key == LOCAL_SERVER_KEY


def test_the_key_never_reaches_the_resource(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-never-shown")
    settings = Settings(extractor="openai", summary_model="small", extraction_model="big")
    resource = MemoryPipelineResource.from_settings(settings)
    assert "sk-test-never-shown" not in json.dumps(resource.model_dump())
    extractor = resource.get_extractor()
    assert (extractor.summary_model, extractor.model, extractor.combined) == ("small", "big", False)


def test_transcript_line_names_the_group_sender_and_marks_machine_text():
    from datetime import datetime, timezone

    from memory_pipeline.domain.messages import SourceRow, parse_row
    from memory_pipeline.extractors.prompts import format_line

    row = parse_row(SourceRow(7, "tg:-1", {"type": "human", "content":
                                           "## Message from Marta Silva (@marta):\nLook at this!\n[Image analysis] "
                                           "The photo shows a T-shirt printed with: I love Berlin."},
                              datetime(2025, 3, 4, 18, 0, tzinfo=timezone.utc)), group_chat=True)
    line = format_line(row, "UTC")
    assert line.startswith("[7|2025-03-04 18:00 Tue|user Marta Silva] Look at this!")
    assert "{machine-written, not the user's words:" in line and "I love Berlin" in line.split("{", 1)[1]


def test_a_summary_of_one_sentence_is_completed_with_the_chats_decisive_lines(server, make):
    # Qwen2.5-Coder 1.5B wrote 1.6 sentences a summary on the summary gold set; the seed asks for 3 to 5.
    chat = conversation(("human", "Hi! I'm Ana, I run a bakery in Porto."), ("ai", "Nice to meet you, Ana!"),
                        ("human", "I want to switch my invoices to the annual plan for 12 seats."),
                        ("ai", "Done: the annual plan for 12 seats starts on May 1."), ("human", "Thanks!"))
    server.script.append(answer(summary="Ana asked about invoices."))
    text = make(server).summarize(chat).text
    assert text.startswith("Ana asked about invoices.") and 3 <= sentence_count(text) <= 5
    assert "annual plan for 12 seats" in text and "Thanks" not in text


def test_an_answer_that_repeats_itself_or_runs_long_is_cut_to_five_distinct_sentences(server, make):
    # Qwen2.5-Coder 1.5B on an unseen English chat: its four sentences, then the same four again.
    four = "The user lives in Lyon. The user prefers email. Nothing else was asked. The chat ended."
    server.script.append(answer(summary=f"{four} {four}"))
    assert make(server).summarize(CHAT).text == four
    words = "one two three four five six seven eight".split()
    server.script.append(answer(summary=" ".join(f"Point {word} is here." for word in words)))
    assert split_sentences(make(server).summarize(CHAT).text) == [
        f"Point {word} is here." for word in ("one", "five", "six", "seven", "eight")]  # the opening, the end


def test_a_summary_of_three_sentences_is_kept_as_the_model_wrote_it(server, make):
    server.script.append(answer(summary="Ana runs a bakery. She moved to the annual plan. Nothing stays open."))
    assert make(server).summarize(CHAT).text == "Ana runs a bakery. She moved to the annual plan. Nothing stays open."

