"""A summary names nothing its conversation does not hold (domain.grounding): one test per rule, in several
scripts; each fails when its rule is taken out."""

from datetime import datetime, timedelta, timezone

import pytest

from memory_pipeline.domain.conversations import Conversation
from memory_pipeline.domain.grounding import REASONS, grounded, rejection, unheld
from memory_pipeline.domain.messages import ParsedRow

SAID = datetime(2026, 3, 4, 18, 0, tzinfo=timezone.utc)  # a Wednesday


def chat(*turns: tuple[str, str], start: datetime = SAID) -> Conversation:
    rows = tuple(ParsedRow(i, start + timedelta(minutes=i), "turn", role=role, text=text)
                 for i, (role, text) in enumerate(turns, 1))
    return Conversation("c1", "tg:1", "tg:1", start.date(), rows[0].at, rows[-1].at, rows, False)


ORDER = chat(("human", "Hi, I'm Алексей from Kazan. Order 48213 is late and I paid $1,500 for it."),
             ("ai", "Sorry! Acme Logistics will deliver it tomorrow at 7pm."),
             ("human", "Fine, three boxes please. Thanks."))


def kinds(summary: str, conversation: Conversation = ORDER) -> list[str]:
    return [u.kind for u in unheld(summary, conversation)]


def test_a_grounded_summary_passes():
    summary = ("Alexey from Kazan reported that order 48213 was late; he paid 1500 dollars. Acme Logistics "
               "delivers it on 2026-03-05 at 19:00. He asked for 3 boxes.")
    assert unheld(summary, ORDER) == [] and rejection(summary, ORDER) is None


# -- numbers -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("summary", ["The user reported order 48214 as late.",
                                     "The user paid 1,600 dollars.",
                                     "The user paid 1500.99 dollars.",  # cents the chat does not hold
                                     "用户的订单48214晚了。",
                                     "طلب المستخدم رقم ٤٨٢١٤ متأخر."])
def test_a_number_the_chat_does_not_hold_is_found_in_any_script(summary):
    assert kinds(summary) == ["number"]
    assert rejection(summary, ORDER) == "summary_number_not_in_chat"


def test_a_number_in_other_digits_or_separators_is_held():
    arabic = chat(("human", "رقم طلبي ٤٨٢١٣ وقد دفعت ١٥٠٠ دولار."))
    assert kinds("طلب المستخدم رقم 48213 ودفع 1 500 دولار.", arabic) == []
    assert kinds("The user paid 1,500.00 dollars for order 48213.") == []


def test_a_small_count_is_held_by_its_word_and_a_large_one_is_not():
    assert kinds("The user wants 3 boxes.") == []
    french = chat(("human", "Je voudrais trois billets et quatorze places."))
    assert kinds("L'utilisateur veut 3 billets.", french) == []
    assert kinds("L'utilisateur veut 14 places.", french) == ["number"]
    assert kinds("The user wants two boxes and eleven labels.") == []  # counts in words are not checked


def test_a_time_of_day_is_held_by_its_hour():
    assert kinds("Delivery is at 7 pm.") == []
    assert kinds("Delivery is at 21:30.") == ["number"]


# -- dates ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("summary, held", [
    ("Acme delivers on 2026-03-05.", True),  # "tomorrow" said on 2026-03-04
    ("Acme delivers on 2026-03-06.", False),
    ("Acme delivers on March 5.", True),
    ("Acme delivers on March 9, 2026.", False),
    ("The user wrote on 4 March 2026.", True),  # the day the chat was held
    ("Acme liefert am 9. März.", False),
    ("Acme livre le 5 mars 2026.", True),
    ("Acme 在3月5日送货。", True),
    ("Acme 在3月9日送货。", False),
    ("The order is from 05/03/2026.", True),  # read as 5 March or May 3: one reading is held
    ("The order is from 09/03/2026.", False),
    ("Delivery on Thursday.", True),  # 2026-03-05 is a Thursday
    ("Delivery on Saturday.", False),
    ("It was planned in January.", False),
])
def test_a_date_is_held_by_the_chat_or_a_resolved_relative_date(summary, held):
    assert (kinds(summary) == []) is held, unheld(summary, ORDER)


def test_a_week_or_month_named_relatively_holds_its_days():
    planning = chat(("human", "Let's meet next week and pay next month."))
    assert kinds("They meet on 2026-03-11 and pay in April 2026.", planning) == []
    assert kinds("They meet on 2026-03-18.", planning) == ["date"]


# -- names ---------------------------------------------------------------------------------------------------
def test_a_name_the_chat_does_not_hold_is_found():
    assert kinds("The user Maria asked Globex for a refund.") == ["name", "name"]
    assert rejection("The user Maria asked for a refund.", ORDER) == "summary_name_not_in_chat"


def test_a_name_in_latin_letters_is_held_by_its_spelling_in_another_script():
    assert kinds("The user is Alexey.") == [] and kinds("The user is Aleksei.") == []
    hindi = chat(("human", "मेरा नाम प्रिया है और मैं पुणे में रहती हूँ।"))
    assert kinds("The user is Priya from Pune.", hindi) == []
    assert kinds("The user is Priya from Delhi.", hindi) == ["name"]


def test_cyrillic_names_are_checked_with_their_inflections():
    russian = chat(("human", "Меня зовут Алексей, я живу в Казани."))
    assert kinds("Пользователь Алексей живёт в Казани.", russian) == []
    assert kinds("Пользователь Алексей живёт в Москве.", russian) == ["name"]


def test_a_sentence_opening_with_a_two_word_name_is_checked_but_a_plain_opening_is_not():
    assert kinds("Maria Lopez asked for a refund.") == ["name", "name"]
    assert kinds("Later the user asked for a refund.") == []


def test_german_capitalised_nouns_pass_but_numbers_and_dates_are_checked():
    german = chat(("human", "Ich habe am Montag 48213 bestellt."))
    assert kinds("Der Nutzer hat eine Bestellung mit der Nummer 48213 aufgegeben und wartet auf die Lieferung.",
                 german) == []
    assert kinds("Der Nutzer hat eine Bestellung mit der Nummer 48214 aufgegeben und wartet auf die Lieferung.",
                 german) == ["number"]


def test_latin_names_inside_a_caseless_script_are_checked():
    chinese = chat(("human", "我在Berlin工作，我叫李雷。"))
    assert kinds("用户李雷在Berlin工作。", chinese) == []
    assert kinds("用户李雷在Munich工作。", chinese) == ["name"]


def test_every_reason_is_named():
    assert set(REASONS) == {"summary_date_not_in_chat", "summary_number_not_in_chat", "summary_name_not_in_chat"}


def test_a_weekday_or_month_said_in_the_chats_language_holds_its_english_name():
    polish = chat(("human", "Chcę je obejrzeć w sobotę, najpóźniej w październiku."))
    assert kinds("The user wants to see it on Saturday, in October at the latest.", polish) == []
    assert kinds("The user wants to see it on Sunday.", polish) == ["date"]
    chinese = chat(("human", "已为你报名，九月七日开课。"))
    assert kinds("The class starts on September 7.", chinese) == []
    assert kinds("The class starts on September 8.", chinese) == ["date"]


def test_a_name_in_han_or_an_abjad_is_held_by_its_transliteration():
    chinese = chat(("human", "你好!我叫李雷,住在上海。我要两张票。"))
    assert kinds("The user is Li Lei, who lives in Shanghai.", chinese) == []
    assert kinds("The user Zhang asked for tickets.", chinese) == ["name"]  # one syllable: 两张 is "two tickets"
    assert kinds("The user is Wang Fang, who lives in Beijing.", chinese) == ["name", "name", "name"]
    arabic = chat(("human", "مرحبا، اسمي كريم."))
    assert kinds("The user Kareem asked for help.", arabic) == []
    assert kinds("The user Samir asked for help.", arabic) == ["name"]
    assert kinds("The user Sara asked for help.", chat(("human", "كم السعر؟"))) == ["name"]  # two consonants


def test_grounded_drops_only_the_sentences_that_name_what_the_chat_does_not_hold():
    text, dropped = grounded("The user asked about order 48213. Maria from Globex called. It will come tomorrow.",
                             ORDER)
    assert (text, dropped) == ("The user asked about order 48213. It will come tomorrow.", 1)
    assert grounded("The user asked about order 48213.", ORDER) == ("The user asked about order 48213.", 0)
