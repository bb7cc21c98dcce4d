"""A quote backs a fact only when it is the user's own words: a whole clause, not one word; the same words in
another Unicode form or with invisible characters; a short quote accepted before the length rule still passes
the verbatim check."""

import unicodedata
from datetime import date, datetime, timezone

import pytest

from memory_pipeline.domain.conversations import Conversation
from memory_pipeline.domain.facts import ExtractedFact, validate_candidate
from memory_pipeline.domain.quotes import contains_words
from memory_pipeline.domain.messages import ParsedRow
from memory_pipeline.domain.value_support import backs_value
from memory_pipeline.stages.checks import check_quotes_verbatim
from memory_pipeline_tests.extractors.test_openai_extractor import answer, conversation, fact, make, server  # noqa: F401


# -- a quote too short to back a fact ----------------------------------------------------------------------
def test_a_one_word_quote_cannot_back_an_invented_fact(server, make):  # noqa: F811
    chat = conversation(("human", "I like chess."))
    server.script.append(answer(fact("I", 1, "client_info", "email", "evil@example.com",
                                     "User's email is evil@example.com."), summary=None))
    extracted = make(server).extract(chat).facts
    candidate = validate_candidate(extracted[0], chat, 0)
    assert (candidate.status, candidate.reason) == ("rejected", "quote_too_short")


@pytest.mark.parametrize("text,quote,accepted", [
    ("I like chess.", "I", False),                       # one word out of a sentence
    ("My email is ana@example.com.", "My email", False),  # two words out of a sentence
    ("我喜欢茶。", "茶", False),                            # one character of a script without spaces
    ("I like chess.", "I like chess", True),             # three words
    ("Hi! I'm vegan, so no meat please.", "I'm vegan", True),  # a whole clause
    ("Vim.", "Vim", True),                               # a whole message (an answer to a question)
    ("Yes.", "Yes.", True),
    ("我喜欢茶。", "我喜欢茶", True),
    ("evet onaylıyorum 👍", "evet onaylıyorum", True),  # an emoji ends a clause as a full stop does
    ("evet onaylıyorum yarın", "evet onaylıyorum", False),
    ("Basic 👎 Premium 👍", "Basic", False),              # an emoji between words ends no clause
    ("Carne 🚫", "Carne", False),                         # one word before an emoji: not enough
    ("I'm not 🙅 vegetarian", "vegetarian", False),
])
def test_short_quotes_must_be_a_whole_clause(text, quote, accepted):
    chat = conversation(("human", text))
    candidate = validate_candidate(ExtractedFact(category="preference", fact="User said so.", quote=quote,
                                                 quote_message_id=1), chat, 0)
    assert (candidate.status == "accepted") is accepted
    assert candidate.reason in (None, "quote_too_short")


@pytest.mark.parametrize("text,quote,attribute,value,accepted", [
    # A language that drops the subject or joins the verb states a fact in two words (issue 25).
    ("Oi! Sou fisioterapeuta e moro em Recife.", "Sou fisioterapeuta", "job", "fisioterapeuta", True),
    ("Geçen ay İzmir'e taşındım ve işimi değiştirdim.", "İzmir'e taşındım", "home_location", "İzmir", True),
    ("이름은 박서진이고 이메일은 seojin.park@hanmail.net 입니다.", "이름은 박서진이고", "name", "박서진", True),
    ("Adoro pizza e odeio coentro.", "Adoro pizza", "favourite:pizza", "likes", True),  # the object backs it
    # ... but two words must hold the value, beside another word.
    ("My email is ana@example.com.", "My email", "email", "ana@example.com", False),
    ("My email is ana@example.com.", "is ana@example.com", "email", "ana@example.com", True),  # three words
    ("Paris est belle mais Lyon me plaît.", "mais Lyon", "home_location", "", False),  # no value
    ("I like chess and go.", "chess and", "hobby", "chess and", False),  # nothing beside the value
])
def test_a_two_word_quote_backs_a_fact_when_it_holds_its_value(text, quote, attribute, value, accepted):
    chat = conversation(("human", text))
    candidate = validate_candidate(ExtractedFact(category="client_info", fact="User said so.", quote=quote,
                                                 attribute=attribute, value=value or None, quote_message_id=1),
                                   chat, 0)
    assert (candidate.reason != "quote_too_short") is accepted, candidate.reason


# -- Unicode forms: the same words in another encoding are still the user's words -------------------------
@pytest.mark.parametrize("said,quote", [
    ("Je suis allé à Zürich hier.", unicodedata.normalize("NFD", "Je suis allé à Zürich")),  # decomposed
    ("I like ch\u200bess a lot.", "I like chess"),      # a zero-width space in the message
    ("I like chess a lot.", "I like\u200d chess"),      # a zero-width joiner in the quote
    ("I like chess a lot.", "I\u00a0like chess"),       # a no-break space
])
def test_quote_check_ignores_unicode_form_and_invisible_characters(said, quote):
    chat = conversation(("human", unicodedata.normalize("NFC", said)))
    candidate = validate_candidate(ExtractedFact(category="preference", fact="User likes chess.", quote=quote,
                                                 quote_message_id=1), chat, 0)
    assert candidate.status == "accepted"


def test_invisible_characters_do_not_make_other_words_pass():
    chat = conversation(("human", "I like chess a lot."))
    candidate = validate_candidate(ExtractedFact(category="preference", fact="User likes chessboxing.",
                                                 quote="I like chess\u200bboxing", quote_message_id=1), chat, 0)
    assert (candidate.status, candidate.reason) == ("rejected", "quote_not_found")


def test_short_quotes_accepted_before_the_length_rule_do_not_fail_the_verbatim_check(make_settings):
    import json
    from datetime import date

    from memory_pipeline import sample
    from memory_pipeline.store import Store
    from memory_pipeline_tests.test_pipeline_end_to_end import Pipeline
    p = Pipeline(make_settings())
    p.load(sample.fixture_rows([json.dumps({"id": 1, "session_id": "s1", "created_at": "2026-05-03T12:00:00Z",
                                            "message": {"type": "human", "content": "I live in Oslo."}})]))
    assert p.run("2026-05-03").success
    # An installation upgraded from before the rule: an accepted candidate quoting one word of its message.
    p.rows("UPDATE {schema}.fact_candidates SET quote = 'Oslo' WHERE status = 'accepted' RETURNING 1")
    with p.pool.connection() as conn:
        assert check_quotes_verbatim(Store(p.settings), conn, date(2026, 5, 3)).passed
        p.rows("UPDATE {schema}.fact_candidates SET quote = 'Bergen' WHERE status = 'accepted' RETURNING 1")
        assert not check_quotes_verbatim(Store(p.settings), conn, date(2026, 5, 3)).passed


def test_a_hebrew_or_arabic_quote_may_start_after_a_joined_prefix_not_inside_a_longer_word():
    assert contains_words("קוראים לי נועה ואני מעצבת גרפית.", "אני מעצבת גרפית")
    assert contains_words("أعمل والعمل ممتع", "العمل ممتع")
    assert not contains_words("I like chess ZQXMARKERBIG.", "like chess ZQXMARK")


def test_a_one_word_quote_is_enough_when_it_is_the_value_with_a_verbs_ending():
    message = "selam ben emre izmirde yaşıyorum yazılımcıyım bi de evde iki tane kedim var"
    turn = ParsedRow(1, datetime(2026, 3, 4, tzinfo=timezone.utc), "turn", role="human", text=message)
    conversation = Conversation("c1", "u:1", "u:1", date(2026, 3, 4), turn.at, turn.at, (turn,), False)

    def reason(quote, value):
        fact = ExtractedFact(fact="Kullanıcı yazılımcı.", quote=quote, category="client_info", attribute="job",
                             value=value)
        return validate_candidate(fact, conversation, 0).reason
    assert reason("yazılımcıyım", "yazılımcı") is None
    assert reason("yazılımcıyım", "yazılımcıyım") == "quote_too_short"  # the word itself: nothing joined to it
    # "sugar-free", "catalog": an ending, but not one of the language's statement endings.
    assert not backs_value("şeker", "favourite:şeker", "şekersiz") and not backs_value("cat", "pet", "catalog")
