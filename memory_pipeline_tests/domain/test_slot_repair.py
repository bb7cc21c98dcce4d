"""The user's words correct the slot a model filed a fact under (issue 26): a liking said to have ended is a
retraction, not a new dislike; a home the user grew up in is a hometown, which leaves the home they live in now
active; a home the user plans a trip to is a decision about the trip. Language data, read by one engine: a language without it keeps the fact as the model filed it."""

from datetime import date, datetime, timedelta, timezone

import pytest

from memory_pipeline.domain.conversations import build_conversations
from memory_pipeline.domain.facts import ExtractedFact, validate_candidate
from memory_pipeline.domain.messages import SourceRow
from memory_pipeline.domain.slot_repair import HOMETOWN_SLOT, TRIP_SLOT, ended_liking, origin_slot, trip_slot

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
    assert ended_liking("dislikes", quote, "opinion:coffee")
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


@pytest.mark.parametrize("quote, value", [
    ("I grew up in Ohio, so the weather here is a nice change.", "Ohio"),  # the cases set, a 1.5B model's home
    ("Ich bin in Köln aufgewachsen.", "Köln"),
    ("Nací en Sevilla.", "Sevilla"),
    ("我在北京长大。", "北京"),
    ("Я виріс у Харкові.", "Харків"),
    ("I live in Berlin but grew up in Ohio.", "Ohio"),
])
def test_a_home_the_user_grew_up_in_is_a_hometown(quote, value):
    assert origin_slot("home_location", quote, value) == HOMETOWN_SLOT


@pytest.mark.parametrize("attribute, quote, value", [
    ("home_location", "I live in Berlin but grew up in Ohio.", "Berlin"),  # living said of the value
    ("home_location", "We moved to San Francisco last month.", "San Francisco"),
    ("job", "I was born to be a teacher.", "teacher"),                     # not a home slot
    ("home_location", "Sono nato a Roma ma vivo a Milano.", "Milano"),      # no living words in Italian's data
    # where the user was born in one clause, where they are now in another (a review of session 21)
    ("home_location", "I was born in Ohio but I've been in Chicago for ten years", "Chicago"),
    ("home_location", "我出生在哈尔滨，现在在上海工作", "上海"),
    ("home_location", "İzmir'de doğdum, şimdi Ankara'da çalışıyorum", "Ankara"),
])
def test_a_home_said_to_be_lived_in_or_another_slot_is_left_as_filed(attribute, quote, value):
    assert origin_slot(attribute, quote, value) is None


@pytest.mark.parametrize("quote, attribute", [
    ("I no longer like Vim, and I really dislike Emacs", "opinion:emacs"),  # the dislike is said now, of Emacs
    ("I don't enjoy cooking, I don't have time anymore", "opinion:cooking"),
    ("I don't like cilantro any more than you do", "opinion:cilantro"),
    ("Il sushi non mi piace più di tanto", "opinion:sushi"),                 # not that much
    ("मुझे अब भी कॉफी पसंद नहीं", "opinion:coffee"),                           # still don't like
])
def test_a_dislike_beside_a_liking_that_ended_or_said_with_anymore_otherwise_stands(quote, attribute):
    assert not ended_liking("dislikes", quote, attribute)


def test_a_hometown_passes_where_a_home_without_living_words_would_not():
    quote = "I grew up in Ohio, so the weather here is a nice change."
    candidate = validate_candidate(ExtractedFact(category="client_info", fact="The user grew up in Ohio.",
                                                 quote=quote, attribute="home_location", value="Ohio"), said(quote), 0)
    assert candidate.status == "accepted" and candidate.attribute == HOMETOWN_SLOT


@pytest.mark.parametrize("quote, value", [
    ("I raised my kids in Denver, we still live there", "Denver"),
    ("Ich wollte ursprünglich nach Wien ziehen, jetzt wohne ich in Graz", "Graz"),
    ("부산에서 태어났고 지금은 서울에서 일해요", "서울"),                     # born in Busan, works in Seoul now
])
def test_raising_children_a_plan_changed_or_a_joined_korean_clause_gives_no_hometown(quote, value):
    assert origin_slot("home_location", quote, value) is None


def test_a_dislike_said_still_in_romanised_hindi_stands():
    assert not ended_liking("dislikes", "mujhe ab bhi coffee pasand nahi hai", "opinion:coffee")
    assert ended_liking("dislikes", "mujhe ab coffee pasand nahi hai", "opinion:coffee")


@pytest.mark.parametrize("quote, value", [
    ("We're planning a road trip to Hohhot in August.", "Hohhot"),   # the cases set: the 1.5B filed it as a home
    ("On part en vacances à Biarritz en juillet.", "Biarritz"),
    ("Im Herbst machen wir einen Ausflug nach Salzburg.", "Salzburg"),
    ("Este verano quiero viajar a Cartagena.", "Cartagena"),
    ("Latem jedziemy na wycieczkę do Zakopanego.", "Zakopanego"),
    ("下个月我们去成都旅游。", "成都"),
    ("来月は京都に旅行します。", "京都"),
    ("다음 달에 부산으로 여행 가요.", "부산"),
])
def test_a_home_the_fact_says_the_user_plans_a_trip_to_is_a_trip_decision(quote, value):
    assert trip_slot("home_location", quote, value, f"The user plans a trip to {value}.") == TRIP_SLOT


@pytest.mark.parametrize("attribute, quote, value, fact", [
    ("home_location", "I visited Paris last summer.", "Paris", "The user visited Paris."),       # no plan: an event
    ("home_location", "We plan to move to Berlin for good.", "Berlin", "The user plans to move to Berlin."),
    ("home_location", "We live in Leeds and plan a trip to York.", "Leeds", "The user plans a trip to York."),
    ("job", "We're planning a road trip to Hohhot in August.", "Hohhot", "The user plans a road trip to Hohhot."),
    ("home_location", "Pianifichiamo di trasferirci a Roma.", "Roma", "The user plans to relocate to Rome."),
    # A break-it review: a move after flat viewings, a refund for a past trip, a residence permit, a passport.
    ("home_location", "We're visiting flats in Bristol this weekend, we want to move there in spring", "Bristol",
     "The user plans to move to Bristol."),
    ("home_location", "My trip to Bali last month was a disaster, I want a refund", "Bali",
     "The user wants a refund for their trip to Bali."),
    ("home_location", "J'ai mon titre de séjour pour Lyon depuis mars", "Lyon", "The user plans to stay in Lyon."),
    ("home_location", "Mein Reisepass ist aus Wien", "Wien", "The user plans to renew a passport in Vienna."),
    ("home_location", "I'm flying to Berlin to sign the contract for our new place", "Berlin",
     "The user plans to relocate to Berlin."),
])
def test_a_move_a_past_visit_a_home_beside_a_trip_or_another_slot_stays_as_filed(attribute, quote, value, fact):
    assert trip_slot(attribute, quote, value, fact) is None


def test_a_planned_trip_filed_as_a_home_is_accepted_as_a_decision_not_rejected_as_no_home():
    quote = "We're planning a road trip to dali in May."
    candidate = validate_candidate(ExtractedFact(category="client_info", fact="The user plans a road trip to Dali.",
                                                 quote=quote, attribute="home_location", value="Dali"), said(quote), 0)
    assert (candidate.status, candidate.category, candidate.attribute) == ("accepted", *TRIP_SLOT)
