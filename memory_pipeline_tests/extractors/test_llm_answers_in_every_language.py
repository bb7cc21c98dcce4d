"""Over real HTTP with the scripted OpenAI-compatible server (issue 25): a 1.5B model's wrong answers to the design's
own pitfalls are rejected, and right answers in languages whose words the gates do not know are kept, through the
extractor and the candidate checks every backend meets."""

from datetime import datetime, timedelta, timezone

import pytest

from memory_pipeline.domain.conversations import Conversation
from memory_pipeline.domain.facts import validate_candidate
from memory_pipeline.domain.messages import ParsedRow
from memory_pipeline.extractors.openai_backend import OpenAIExtractor
from memory_pipeline.settings import Settings
from memory_pipeline.testing.openai_server import ScriptedOpenAIServer, fact, fact_answer

SAID = datetime(2026, 3, 4, 18, 0, tzinfo=timezone.utc)


def conversation(*turns: tuple[str, str]) -> Conversation:
    rows = tuple(ParsedRow(i, SAID + timedelta(minutes=i), "turn", role=role, text=text)
                 for i, (role, text) in enumerate(turns, 1))
    return Conversation("c1", "tg:1", "tg:1", SAID.date(), rows[0].at, rows[-1].at, rows, False)


@pytest.fixture
def judged(monkeypatch):
    """(status, reason) of each fact the scripted server answers for `chat`, through OpenAIExtractor and
    validate_candidate."""
    def run(chat, *facts):
        with ScriptedOpenAIServer(fact_answer(*facts)) as server:
            monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
            monkeypatch.delenv("OPENAI_API_KEY", raising=False)
            extractor = OpenAIExtractor(Settings(extractor="openai", llm_max_retries=0, llm_timeout_seconds=10))
            found = extractor.summarize(chat).facts
        return [(c.status, c.reason) for c in (validate_candidate(f, chat, i) for i, f in enumerate(found))]

    return run


def test_the_pitfall_answers_of_a_small_model_are_rejected(judged):
    # Qwen2.5-Coder 1.5B on conversations written for issue 25: a price question put off, an open choice and a
    # value the user is leaving, each made a fact.
    chat = conversation(("human", "How much is the annual plan?"), ("ai", "It is 120 euros a year."),
                        ("human", "OK, I'll think about it."),
                        ("human", "I'm hesitating between the Team plan and the Business plan, I'll decide next week."),
                        ("human", "Our invoices keep coming in dollars. We need them in euros, always."))
    think = fact("OK, I'll think about it.", 3, None, None, "decision",
                 "The user decides to think about buying an annual plan.")
    plans = fact("I'm hesitating between the Team plan and the Business plan, I'll decide next week.", 4,
                 "decision:plan", "Business plan", "decision", "The user decided on the Business plan.")
    dollars = fact("Our invoices keep coming in dollars.", 5, "invoice_currency", "dollars", "preference",
                   "The user's invoices are in dollars.")
    euros = fact("We need them in euros, always.", 5, "invoice_currency", "euros", "preference",
                 "The user needs invoices in euros.")
    assert judged(chat, think, plans, dollars, euros) == [
        ("rejected", "quote_is_undecided"), ("rejected", "quote_is_undecided"), ("rejected", "value_moved_away"),
        ("accepted", None)]


def test_right_answers_in_italian_russian_thai_and_arabic_are_kept(judged):
    chat = conversation(("human", "Ciao! Mi chiamo Giulia e abito a Torino."), ("ai", "Piacere, Giulia!"),
                        ("human", "Меня зовут Алексей, я живу в Казани."),
                        ("human", "ฉันชื่อสมชาย ผมอาศัยอยู่ที่เชียงใหม่"),
                        ("human", "اسمي ليلى، وأسكن في عمّان."))
    answers = [
        fact("Mi chiamo Giulia", 1, "name", "Giulia", "client_info", "L'utente si chiama Giulia."),
        fact("abito a Torino", 1, "home_location", "Torino", "client_info", "L'utente abita a Torino."),
        fact("Меня зовут Алексей", 3, "name", "Алексей", "client_info", "Пользователя зовут Алексей."),
        fact("я живу в Казани", 3, "home_location", "Казань", "client_info", "Пользователь живёт в Казани."),
        fact("ฉันชื่อสมชาย", 4, "name", "สมชาย", "client_info", "ผู้ใช้ชื่อสมชาย"),
        fact("ผมอาศัยอยู่ที่เชียงใหม่", 4, "home_location", "เชียงใหม่", "client_info", "ผู้ใช้อาศัยอยู่ที่เชียงใหม่"),
        fact("اسمي ليلى", 5, "name", "ليلى", "client_info", "اسم المستخدمة ليلى."),
        fact("وأسكن في عمّان", 5, "home_location", "عمان", "client_info", "تسكن المستخدمة في عمّان."),
    ]
    assert judged(chat, *answers) == [("accepted", None)] * len(answers)


def test_a_name_that_is_no_name_is_still_rejected_in_a_language_without_naming_words(judged):
    chat = conversation(("human", "Il mio sito è giulia-foto.it, ci trovi tutto."))
    site = fact("Il mio sito è giulia-foto.it", 1, "name", "giulia-foto.it", "client_info",
                "L'utente si chiama giulia-foto.it.")
    assert judged(chat, site) == [("rejected", "name_not_stated")]


def test_a_forget_request_withdraws_the_slot_it_names_whatever_the_model_flagged(monkeypatch):
    # Qwen2.5-Coder 1.5B on the cases set: a forget request asked as a question became a decision, and a flagged
    # retraction carried the value "deleted", which ended nothing.
    chat = conversation(("human", "Can you forget my phone number?"), ("ai", "Done."),
                        ("human", "Could you please delete my email address?"))
    as_decision = fact("Can you forget my phone number?", 1, "decision:phone_number", "forget", "decision",
                       "The user decides to forget their phone number.")
    deleted = fact("Could you please delete my email address?", 3, "email", "deleted", "client_info",
                   "The user's email address was deleted.", retraction=True)
    with ScriptedOpenAIServer(fact_answer(as_decision, deleted)) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.delenv("OPENAI_API_KEY", raising=False)
        extractor = OpenAIExtractor(Settings(extractor="openai", llm_max_retries=0, llm_timeout_seconds=10))
        found = extractor.summarize(chat).facts
    candidates = [validate_candidate(f, chat, i) for i, f in enumerate(found)]
    assert [(c.status, c.retraction, c.attribute, c.value) for c in candidates] == [
        ("accepted", True, "phone_number", None), ("accepted", True, "email", None)]


def test_the_slips_a_small_model_made_on_unseen_chats_are_rejected_and_its_miscited_home_is_kept(judged):
    # Qwen2.5-Coder 1.5B (prompt llm-v4) on the holdout set, its answers as it gave them: a Thai question with no
    # question mark made a home, a complaint a cancellation, a greeting a name, "I love it" an opinion on
    # "love"; and a right home cited from the greeting two lines before it.
    chat = conversation(("human", "こんにちは。週末に行けるカフェを探しています。"), ("ai", "どちらにお住まいですか？"),
                        ("human", "大阪の天王寺に住んでいます。"),
                        ("human", "ร้านส้มตำที่อร่อยที่สุดในกรุงเทพอยู่ที่ไหนคะ"),
                        ("human", "my order #5520 never arrived."),
                        ("human", "வணக்கம்! என் பெயர் கார்த்திக்."),
                        ("human", "I love it and that'll keep my confidence up."))
    answers = [
        fact("こんにちは。週末に行けるカフェを探しています。", 1, "home_location", "大阪", "client_info",
             "The user lives in Osaka."),
        fact("ร้านส้มตำที่อร่อยที่สุดในกรุงเทพอยู่ที่ไหนคะ", 4, "home_location", "กรุงเทพ", "client_info",
             "The user lives in Bangkok."),
        fact("my order #5520 never arrived.", 5, "decision:order", "cancel", "decision", "The user cancels order #5520."),
        fact("வணக்கம்! என் பெயர் கார்த்திக்.", 6, "name", "வணக்கம்", "client_info", "The user is Vanna Kamman."),
        fact("I love it and that'll keep my confidence up.", 7, "opinion:love", "likes", "preference",
             "The user loves the new cleanup approach."),
    ]
    assert judged(chat, *answers) == [("accepted", None), ("rejected", "quote_is_question"),
                                      ("rejected", "value_not_in_quote"), ("rejected", "name_not_stated"),
                                      ("rejected", "value_not_in_quote")]
