"""Quote checks, rejection reasons, dedup keys and candidate ids."""

from datetime import date, datetime, timedelta, timezone

import pytest

from memory_pipeline.domain.conversations import build_conversations
from memory_pipeline.domain.facts import ExtractedFact, fact_key, validate_candidate
from memory_pipeline.domain.quotes import locate_quote, normalize_whitespace
from memory_pipeline.domain.messages import SourceRow

T0 = datetime(2026, 5, 3, 9, 0, tzinfo=timezone.utc)


def conversation(*turns):
    rows = [SourceRow(i + 1, "s", message, T0 + timedelta(seconds=i)) for i, message in enumerate(turns)]
    return build_conversations(rows, idle_gap=timedelta(hours=3), timezone="UTC", backlog_date=date(2026, 1, 1),
                               user_key=lambda k: k)[0]


CONV = conversation(
    {"type": "human", "content": "Please   contact me\nby email only, not phone."},
    {"type": "ai", "content": "[Used tools: Tool: crm, Input: {}, Result: {\"plan\":\"gold\"}] Noted, email it is."},
    {"type": "tool", "content": "customer plan is gold"},
)


def test_quote_found_whitespace_normalised():
    reason, turn = locate_quote("Please contact me by email only, not phone.", CONV)
    assert reason is None and turn.message_id == 1 and turn.role == "human"


@pytest.mark.parametrize("quote,reason", [
    ("", "no_quote"),
    ("   ", "no_quote"),
    ("customer plan is gold", "quote_from_tool_output"),
    ('Result: {"plan":"gold"}', "quote_from_tool_output"),
    ("Noted, email it is.", "quote_not_from_user"),
    ("I never said this.", "quote_not_found"),
    ("please contact me by email only", "quote_not_found"),  # case differs: not verbatim
])
def test_quote_rejections(quote, reason):
    assert locate_quote(quote, CONV)[0] == reason


@pytest.mark.parametrize("fact,category,reason", [
    ("", "preference", "empty_fact"),
    ("User prefers email.", "opinion", "unknown_category"),
    ("User prefers email.", "PREFERENCE", None),
])
def test_validation_reasons(fact, category, reason):
    extracted = ExtractedFact(category=category, fact=fact, quote="Please contact me by email only, not phone.")
    candidate = validate_candidate(extracted, CONV, 0)
    assert candidate.reason == reason
    assert candidate.status == ("rejected" if reason else "accepted")


def test_accepted_candidate_points_at_its_message_and_time():
    c = validate_candidate(ExtractedFact(category="preference", fact="x", quote="by email only"), CONV, 0)
    assert (c.quote_message_id, c.quote_speaker, c.said_at) == (1, "human", T0)


def test_legacy_quote_uses_fallback_time():
    legacy = build_conversations([SourceRow(1, "s", {"type": "human", "content": "I live in Oslo."}, None)],
                                 idle_gap=timedelta(hours=3), timezone="UTC", backlog_date=date(2026, 1, 1),
                                 user_key=lambda k: k)[0]
    fallback = datetime(2026, 1, 1, tzinfo=timezone.utc)
    c = validate_candidate(ExtractedFact(category="client_info", fact="x", quote="I live in Oslo."), legacy, 0,
                           fallback)
    assert c.said_at == fallback


def test_candidate_id_is_deterministic_and_content_sensitive():
    e = ExtractedFact(category="preference", fact="User prefers email.", quote="by email only")
    a, b = validate_candidate(e, CONV, 0), validate_candidate(e, CONV, 0)
    assert a.candidate_id == b.candidate_id
    assert a.candidate_id != validate_candidate(e, CONV, 1).candidate_id


def test_fact_key_ignores_case_spacing_and_final_punctuation():
    assert fact_key("User  prefers EMAIL.") == fact_key("user prefers email")
    assert fact_key("User prefers email.") != fact_key("User prefers phone.")
    assert normalize_whitespace(" a\n\tb ") == "a b"


def test_quote_check_ignores_typographic_quote_marks_only():
    conv = conversation({"type": "human", "content": "I\u2019m a \u201cnight owl\u201d, I don't do calls before 10."})
    assert locate_quote("I'm a \"night owl\", I don't do calls before 10.", conv)[0] is None
    assert locate_quote("I\u2019m a night owl", conv)[0] == "quote_not_found"  # words and other marks must match


def test_cited_message_must_hold_the_quote():
    conv = conversation({"type": "human", "content": "I live in Oslo."}, {"type": "ai", "content": "Nice."},
                        {"type": "human", "content": "I like skiing."})
    reason, turn = locate_quote("I like skiing.", conv, message_id=3)
    assert reason is None and turn.message_id == 3
    assert locate_quote("I like skiing.", conv, message_id=1)[0] == "quote_not_in_cited_message"
    assert locate_quote("Nice.", conv, message_id=2)[0] == "quote_not_from_user"
    extracted = ExtractedFact(category="preference", fact="User likes skiing.", quote="I like skiing.",
                              quote_message_id=1)
    assert validate_candidate(extracted, conv, 0).reason == "quote_not_in_cited_message"


def test_retraction_flag_is_kept_and_changes_the_candidate_id():
    plain = ExtractedFact(category="preference", fact="User likes email.", quote="by email only")
    retracted = plain.model_copy(update={"retraction": True})
    a, b = validate_candidate(plain, CONV, 0), validate_candidate(retracted, CONV, 0)
    assert (a.retraction, b.retraction) == (False, True)
    assert a.candidate_id != b.candidate_id


def test_a_quote_may_end_before_a_face_typed_in_hangul_letters():
    # "... please leave the cucumber out of my salad ㅠㅠ" (holdout set 8): the crying face is no part of a word
    said = conversation({"type": "human", "content": "저 오이 진짜 싫어해서 샐러드에 오이 빼주세요ㅠㅠ"})
    assert locate_quote("저 오이 진짜 싫어해서 샐러드에 오이 빼주세요", said)[0] is None
    assert locate_quote("저 오이 진짜 싫어해서 샐러드에 오이 빼주", said)[0] == "quote_not_found"
