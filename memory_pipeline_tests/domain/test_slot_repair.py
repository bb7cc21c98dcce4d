"""The user's words correct the slot a model filed a fact under (issue 26): a liking said to have ended is a
retraction, not a new dislike; a home the user grew up in is a hometown, which leaves the home they live in now
active. Language data, read by one engine: a language without it keeps the fact as the model filed it."""

from datetime import date, datetime, timedelta, timezone

import pytest

from memory_pipeline.domain.conversations import build_conversations
from memory_pipeline.domain.facts import ExtractedFact, validate_candidate
from memory_pipeline.domain.messages import SourceRow
from memory_pipeline.domain.slot_repair import HOMETOWN_SLOT, ended_liking, origin_slot

T0 = datetime(2026, 5, 3, 9, 0, tzinfo=timezone.utc)


def said(text):
    rows = [SourceRow(1, "s", {"type": "human", "content": text}, T0)]
    return build_conversations(rows, idle_gap=timedelta(hours=3), timezone="UTC", backlog_date=date(2026, 1, 1),
                               user_key=lambda k: k)[0]


@pytest.mark.parametrize("quote", [
    "I no longer like Vim.",                     # the cases set: a 1.5B model answered opinion:vim = dislikes
    "I don't like pineapple on pizza anymore.",
    "Je n'aime plus le café.",
    "Ich mag Kaffee nicht mehr.",
    "Ya no me gusta el café.",
    "Non mi piace più il caffè.",
    "Não gosto mais de café.",
    "Я больше не люблю кофе.",
    "我不再喜欢咖啡了。",
    "Kahveyi artık sevmiyorum.",
])
def test_a_dislike_said_as_a_liking_that_ended_is_a_retraction(quote):
    assert ended_liking("dislikes", quote)
    candidate = validate_candidate(ExtractedFact(category="preference", fact="The user dislikes it now.", quote=quote,
                                                 attribute="opinion:coffee", value="dislikes"), said(quote), 0)
    assert candidate.retraction and candidate.value is None and candidate.attribute == "opinion:coffee"


@pytest.mark.parametrize("value, quote", [
    ("dislikes", "I can't stand coffee."),                          # a dislike said now
    ("dislikes", "Il caffè ormai non lo sopporto più."),            # can't stand it any more: a dislike (3 gold sets)
    ("dislikes", "geen idee eigenlijk, heb de bon niet meer"),      # no longer has the receipt: no liking at all
    ("likes", "I don't like tea anymore, I love coffee now."),      # the new liking stands
    ("dislikes", "Tôi không uống nổi cà phê nữa, thấy ghét luôn."), # "hate" said outright
])
def test_a_dislike_said_now_or_anything_else_is_left_as_filed(value, quote):
    assert not ended_liking(value, quote)


@pytest.mark.parametrize("quote", [
    "I grew up in Ohio, so the weather here is a nice change.",     # the cases set, a 1.5B model's home_location
    "Ich bin in Köln aufgewachsen.",
    "Nací en Sevilla.",
    "我在北京长大。",
    "Я виріс у Харкові.",
])
def test_a_home_the_user_grew_up_in_is_a_hometown(quote):
    assert origin_slot("home_location", quote) == HOMETOWN_SLOT


@pytest.mark.parametrize("attribute, quote", [
    ("home_location", "I live in Berlin but grew up in Ohio."),     # living said too: the model's slot stands
    ("home_location", "We moved to San Francisco last month."),
    ("job", "I was born to be a teacher."),                         # not a home slot
    ("home_location", "Sono nato a Roma ma vivo a Milano."),
])
def test_a_home_said_to_be_lived_in_or_another_slot_is_left_as_filed(attribute, quote):
    assert origin_slot(attribute, quote) is None


def test_a_hometown_passes_where_a_home_without_living_words_would_not():
    quote = "I grew up in Ohio, so the weather here is a nice change."
    candidate = validate_candidate(ExtractedFact(category="client_info", fact="The user grew up in Ohio.",
                                                 quote=quote, attribute="home_location", value="Ohio"), said(quote), 0)
    assert candidate.status == "accepted" and candidate.attribute == HOMETOWN_SLOT
