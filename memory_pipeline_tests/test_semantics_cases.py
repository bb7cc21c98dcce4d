"""Issue 17's six cases (fixtures/semantics_cases.jsonl, each rebuilt from the public report in its `src`) end to
end: the five stages on the embedded PostgreSQL, with the offline backend and with the LLM backend over real HTTP
against the scripted server, both answering from the offline rules (`transcript_responder`) and answering as a
model that words facts its own way (other sentences, slots, an unresolved "yesterday")."""

import json
import re
import unicodedata
from datetime import datetime, timezone

import pytest

from memory_pipeline.extractors import make_extractor
from memory_pipeline_tests.conftest import fixture_lines
from memory_pipeline_tests.openai_server import Reply, ScriptedOpenAIServer, transcript_responder
from memory_pipeline_tests.test_forget import Install

CASES = {c["case"]: c for c in map(json.loads, fixture_lines("semantics_cases.jsonl"))}
USER = "u1"

# What a model might answer for each user sentence: its own wording and slots (quote -> fact fields).
MODEL_FACTS = {
    "We decided that production deploys are allowed on Fridays.":
        ("decision", "decision:friday_deploys", "allowed", "User's team allows production deploys on Fridays."),
    "Correction: we decided that production deploys are not allowed on Fridays.":
        ("decision", "decision:friday_deploys", "not allowed",
         "User's team does not allow production deploys on Fridays."),
    "My phone number is 415-555-0199.":
        ("client_info", "phone_number", "415-555-0199", "User's phone is 415-555-0199."),
    "Can you forget my phone number?": ("client_info", "phone_number", None, "User withdrew their phone number."),
    "I bought a suitcase yesterday.": ("client_info", None, None, "User bought a suitcase yesterday."),
    "我喜欢小狗。": ("preference", "opinion:狗", "likes", "用户喜欢小狗。"),
    "我现在更喜欢小猫，不太喜欢小狗了。": ("preference", "opinion:狗", "does not like", "用户现在不太喜欢小狗。"),
    "我现在更喜欢小猫": ("preference", "opinion:猫", "likes", "用户现在更喜欢小猫。"),
    "We're planning a road trip to Hohhot in August.":
        ("decision", None, "Hohhot", "User is planning a road trip to Hohhot in August."),
    "Change of plan: we're going to Ulanqab, not Hohhot.":
        ("decision", None, "Ulanqab", "User's road trip goes to Ulanqab."),
}
_LINE = re.compile(r"^\[(\d+)\|[^\]]*\|user\] (.*)$")


def model_responder(body):
    """The transcript responder's summary, with the facts a model would word its own way (MODEL_FACTS)."""
    answer = json.loads(transcript_responder(body).content)
    if "facts" in answer:
        chat = next(m["content"] for m in body["messages"] if m["role"] == "user")
        answer["facts"] = [
            {"category": c, "attribute": a, "value": v, "fact": f, "quote": text, "message_id": int(mid),
             "retraction": text.startswith("Can you forget")}
            for mid, line in (m.groups() for m in map(_LINE.match, chat.splitlines()) if m)
            # The transcript is shown in NFKC (domain.messages.clean_text): "，" reaches the model as ",".
            for text, (c, a, v, f) in MODEL_FACTS.items() if unicodedata.normalize("NFKC", text) in line]
    return Reply(content=json.dumps(answer, ensure_ascii=False))


@pytest.fixture(params=["offline", "llm_offline_rules", "llm_own_wording"])
def backend(request, monkeypatch):
    """(settings overrides, label) of a backend; the LLM ones through the scripted server."""
    if request.param == "offline":
        yield {}
        return
    responder = transcript_responder if request.param == "llm_offline_rules" else model_responder
    with ScriptedOpenAIServer(responder) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-scripted")
        yield {"extractor": "openai", "llm_max_retries": 0}


def run_case(make_settings, overrides, name):
    """Load a case's sessions (a day apart) and run each day's partition; returns the install."""
    settings = make_settings(**overrides)
    p = Install(settings)
    from memory_pipeline import sample

    days = []
    for session in CASES[name]["sessions"]:
        rows = []
        for m in session["messages"]:
            at = datetime.fromisoformat(m["at"].replace("Z", "+00:00"))
            rows.append(sample.SampleRow(session["session_id"], {"type": m["role"], "content": m["content"]}, at))
        p.load(rows)
        days.append(rows[-1].created_at.date())
    extractor = make_extractor(settings)
    for day in sorted(set(days)):
        p.run(day, extractor=extractor)
    return p


def active(p):
    return [f["fact"] for f in p.facts(USER) if f["superseded_at"] is None]


def superseded(p):
    return [f["fact"] for f in p.facts(USER) if f["superseded_at"] is not None]


def test_a_negated_correction_supersedes_the_decision_it_corrects(make_settings, backend):
    p = run_case(make_settings, backend, "n02_negated_decision_correction")
    (now,) = active(p)
    assert re.search(r"not (?:allowed|allow)", now)
    (before,) = superseded(p)
    assert "not" not in before and "Fridays" in before  # kept as history, never merged into its negation


def test_a_forget_request_phrased_as_a_question_erases_the_phone_number(make_settings, backend):
    p = run_case(make_settings, backend, "n07_forget_as_question")
    assert p.facts(USER) == []  # no version, active or superseded
    said = p.rows("SELECT fact, quote FROM {schema}.fact_candidates")
    assert not any("415-555-0199" in r["fact"] or "415-555-0199" in (r["quote"] or "") for r in said)
    assert p.rows("SELECT scope FROM {schema}.erasure_log") == [{"scope": "retraction"}]
    assert p.count("forgotten_facts") > 0  # a re-extraction of the day cannot bring it back


def test_yesterday_is_dated_and_a_past_purchase_is_not_a_decision(make_settings, backend):
    p = run_case(make_settings, backend, "n08_yesterday_purchase")
    (bought,) = p.facts(USER)
    assert bought["fact"] == "User bought a suitcase on 2026-02-20."
    assert bought["valid_from"] == datetime(2026, 2, 20, tzinfo=timezone.utc)  # valid from the day it happened
    assert bought["category"] != "decision"


def test_a_chinese_preference_change_supersedes_the_old_liking(make_settings, backend):
    p = run_case(make_settings, backend, "n11_zh_dogs_then_cats")
    assert "用户喜欢小狗。" in superseded(p)
    assert all("用户喜欢小狗" not in f for f in active(p))
    assert any("小猫" in f for f in active(p))


def test_someone_elses_words_retold_are_not_the_users_facts(make_settings, backend):
    p = run_case(make_settings, backend, "n14_quoted_speech_other_person")
    assert p.facts(USER) == []
    assert p.count("fact_candidates", "status = 'accepted'") == 0


def test_a_change_of_destination_supersedes_the_trip(make_settings, backend):
    p = run_case(make_settings, backend, "n20_trip_destination_changed")
    (now,) = active(p)
    assert "Ulanqab" in now and "Hohhot" not in now
    assert any("Hohhot" in f for f in superseded(p))
