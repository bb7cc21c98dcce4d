"""The offline backend's extractive summary keeps the decisive lines and the outcome, drops greetings and
thanks, 3-5 sentences in the chat's language (extractors/offline/summary.py)."""

from datetime import datetime, timedelta, timezone

from memory_pipeline.domain.conversations import Conversation
from memory_pipeline.domain.grounding import unheld
from memory_pipeline.domain.messages import ParsedRow
from memory_pipeline.domain.summaries import split_sentences
from memory_pipeline.extractors.offline import OfflineExtractor

SAID = datetime(2026, 3, 4, 18, 0, tzinfo=timezone.utc)


def chat(*turns: tuple[str, str]) -> Conversation:
    rows = tuple(ParsedRow(i, SAID + timedelta(minutes=i), "turn", role=role, text=text)
                 for i, (role, text) in enumerate(turns, 1))
    return Conversation("c1", "tg:1", "tg:1", SAID.date(), rows[0].at, rows[-1].at, rows, False)


REFUND = chat(("human", "Hi! My name is Lucy and I live in Lyon."), ("ai", "Hello Lucy! How can I help?"),
              ("human", "My invoice 4821 was charged twice. I want a refund."),
              ("ai", "I see the double charge. I have issued a refund of 49 euros, it arrives in 3 days."),
              ("human", "Great, thanks a lot!"), ("ai", "You're welcome!"))


def summary(conversation: Conversation) -> list[str]:
    return split_sentences(OfflineExtractor().summarize(conversation).text)


def test_the_summary_keeps_who_the_request_and_the_outcome_and_drops_pleasantries():
    sentences = summary(REFUND)
    assert 3 <= len(sentences) <= 5
    assert sentences[0] == "My name is Lucy and I live in Lyon."
    assert "I want a refund." in sentences
    assert sentences[-1] == "I have issued a refund of 49 euros, it arrives in 3 days."  # the outcome
    for pleasantry in ("Hi!", "Great, thanks a lot!", "You're welcome!", "Hello Lucy!", "How can I help?"):
        assert pleasantry not in sentences


def test_the_summary_is_in_the_chats_language_and_grounded():
    chinese = chat(("human", "你好！我叫李雷，住在上海。"), ("ai", "你好李雷！有什么可以帮你？"),
                   ("human", "我的订单晚了三天，我想取消。"), ("ai", "好的，我已经为你取消了订单，退款会在五天内到账。"),
                   ("human", "谢谢！"))
    sentences = summary(chinese)
    assert sentences == ["我叫李雷，住在上海。", "我的订单晚了三天，我想取消。", "好的，我已经为你取消了订单，退款会在五天内到账。"]
    assert unheld(OfflineExtractor().summarize(chinese).text, chinese) == []
    assert unheld(OfflineExtractor().summarize(REFUND).text, REFUND) == []


def test_a_long_chat_keeps_at_most_five_sentences_with_its_decision():
    filler = [("human", f"Here is some filler sentence number {i} about the weather.") if i % 2 == 0
              else ("ai", f"Filler answer {i} about the weather.") for i in range(20)]
    long = chat(("human", "I need a new laptop for video editing."), *filler,
                ("human", "I decided to buy the 16-inch model."), ("ai", "Your order 7731 ships on Friday."))
    sentences = summary(long)
    assert len(sentences) == 5
    assert sentences[0] == "I need a new laptop for video editing."
    assert "I decided to buy the 16-inch model." in sentences and sentences[-1] == "Your order 7731 ships on Friday."


# Swahili: a language of which the pipeline holds no words at all.
TRANSFER = chat(("human", "Habari, nimetuma shilingi 15,000 kwa namba isiyo sahihi jana."),
                ("ai", "Pole sana. Naomba jina lako kamili?"), ("human", "Amina Mwangi."),
                ("ai", "Asante Amina. Nimefungua ombi la kurejesha shilingi 15,000, nambari SR-2207. "
                       "Utapata jibu ndani ya siku 3."),
                ("human", "Asante sana kwa msaada wako mzuri!"), ("ai", "Karibu sana, siku njema!"))


def test_a_bare_answer_the_assistant_echoes_is_kept_in_a_language_without_word_lists():
    assert "Amina Mwangi." in summary(TRANSFER)  # a name given alone, then "Asante Amina."


def test_a_closing_exchange_that_names_nothing_gives_way_to_the_last_one_that_does():
    sentences = summary(TRANSFER)
    assert "Nimefungua ombi la kurejesha shilingi 15,000, nambari SR-2207." in sentences
    assert sentences[-1] == "Utapata jibu ndani ya siku 3."  # the outcome, not the closing thanks
    assert "Asante sana kwa msaada wako mzuri!" not in sentences and "Karibu sana, siku njema!" not in sentences


def test_a_name_the_assistant_said_first_or_opens_a_sentence_with_echoes_nothing():
    sam = chat(("ai", "Hi, I'm Sam, your assistant for billing."), ("human", "I was charged twice this month."),
               ("ai", "Sorry about that, I refunded the second charge today."), ("human", "Thanks, Sam."),
               ("ai", "Sam here again. Sure, anything else?"), ("human", "Sure thing."))
    assert "Thanks, Sam." not in summary(sam) and "Sure thing." not in summary(sam)


def test_a_last_request_before_a_closing_thanks_stays_the_last_exchange():
    printer = chat(("human", "My printer stopped working yesterday."), ("human", "HP 4520."),
                   ("ai", "Thanks, the HP 4520 needs a firmware update."),
                   ("human", "that worked but now the paper jams every time."),
                   ("ai", "Open the rear tray and remove the torn sheet."), ("human", "Thanks!"))
    sentences = summary(printer)
    assert sentences[-2:] == ["that worked but now the paper jams every time.",
                              "Open the rear tray and remove the torn sheet."]


def test_a_bare_number_said_alone_is_not_glued_to_the_next_sentence():
    order = chat(("human", "My order number is below and it is late."), ("ai", "Which order?"), ("human", "12345"),
                 ("human", "450 euros were charged."), ("ai", "Order 12345: 450 euros refunded."))
    text = OfflineExtractor().summarize(order).text
    assert "12345\n450 euros were charged." in text and unheld(text, order) == []


def test_a_line_naming_what_the_summary_already_holds_gives_way_to_one_naming_something_new():
    # Estonian, no word list for it: the chosen lines name the order once; the amount and the date of the outcome
    # are what a later line adds, not the order number said again.
    refund = chat(("human", "Tere, tellimus TR-4410 saabus katkisena."), ("ai", "Vabandust, vaatan tellimust TR-4410."),
                  ("human", "Jah, tellimus TR-4410 on see, kus oli kolm tooli."),
                  ("ai", "Tellimus TR-4410 on leitud ja kaup on registreeritud."),
                  ("ai", "Tagastame 542 eurot kreeditarvega kuni 20. veebruar."),
                  ("human", "Kas kuller tuleb tooli järele?"), ("ai", "Jah, kuller Omniva tuleb reedel kell 10."),
                  ("human", "Aitäh!"))
    sentences = summary(refund)
    assert "Tagastame 542 eurot kreeditarvega kuni 20. veebruar." in sentences
    assert sum("TR-4410" in s for s in sentences) <= 2


def test_a_chat_of_pleasantries_only_has_an_empty_summary():
    assert OfflineExtractor().summarize(chat(("human", "Hi!"), ("ai", "Hello!"), ("human", "Thanks!"))).text == ""


def test_every_offline_summary_of_the_gold_sets_is_grounded_as_the_stage_skips_its_check():
    """The summary stage does not check an extractive summary again (`lines_said`): on every conversation of the
    shipped and unseen gold sets, the grounding check finds nothing it names that the chat does not hold."""
    from memory_pipeline.evaluation import GOLD_SETS, case_sets
    from memory_pipeline.evaluation.runs import conversations_of

    conversations = [c for cases in case_sets([s for s in GOLD_SETS if s != "summaries"]).values()
                     for case in cases for c in conversations_of(case.rows)]
    assert len(conversations) > 150
    for conversation in conversations:
        result = OfflineExtractor().summarize(conversation)
        assert result.lines_said
        assert unheld(result.text, conversation) == [], conversation.conversation_id
