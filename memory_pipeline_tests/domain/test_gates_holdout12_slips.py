"""Right answers lost on the twelfth unseen set (holdout12) and a break-it review's findings (issues 25, 26), each
rule beside the case it must not let through: an assent or a yes/no said first answers the offer, a statement said
before a question stands, months are no homes, Greek relatives are someone else, a lower-case name beside a code,
an email address inside text without spaces, a name by the consonants of its words, a choice kept to."""

import pytest

from memory_pipeline.domain.gates import gate

OFFER_EN = ["Shall I upgrade you to the Premium plan for 5 EUR more a month?"]
OFFER_ES = ["¿Quiere pasar al plan Premium por 5 EUR más al mes?"]
OFFER_DE = ["Möchten Sie auf Premium upgraden?"]

# (quote, attribute, value, answered, reason): reason None for a fact that stands.
ASSENTS = [
    ("Yes! Can I pay by card?", "decision:premium_plan", "yes", OFFER_EN, None),
    ("Sí, claro. ¿Cuándo me lo cobran?", "decision:plan_premium", "yes", OFFER_ES, None),
    ("Ja, gerne! Wann wird abgebucht?", "decision:premium", "yes", OFFER_DE, None),
    # The question alone decides nothing, nor does an assent to no question.
    ("Can I pay by card?", "decision:premium_plan", "yes", OFFER_EN, "quote_is_question"),
    ("Yes. Is the price final?", "decision:insurance", "yes", ["I can add insurance for you."], "quote_is_question"),
    # The assent's own sentence is still judged: someone else's wish is not the user's decision.
    ("Yes, my sister wants it. Can she pay by card?", "decision:premium_plan", "yes", OFFER_EN,
     "quote_about_other_person"),
    # A value that is not a yes or no is judged on the whole quote.
    ("Yes! Can I pay by card?", "payment_method", "card", OFFER_EN, "quote_is_question"),
]


@pytest.mark.parametrize(("quote", "attribute", "value", "answered", "reason"), ASSENTS)
def test_an_assent_accepts_the_offer_before_asking_something_else(quote, attribute, value, answered, reason):
    assert gate(quote, quote, attribute, value, False, answered=answered, fact="x") == reason


# (quote, attribute, value, reason)
STATEMENTS_AND_QUESTIONS = [
    # A clause that states something of the user, before a clause that asks (a question particle makes the whole
    # sentence a question in Chinese, Japanese and Korean).
    ("我住在上海，附近有瑜伽课吗？", "home_location", "上海", None),
    ("東京に住んでいますが、近くにヨガ教室はありますか？", "home_location", "東京", None),
    ("서울에 사는데, 근처에 요가 수업 있나요?", "home_location", "서울", None),
    # ... but what the asking clause names is asked, and a value in the only clause, or the last, is asked.
    ("我住在上海，附近有瑜伽课吗？", "hobby", "瑜伽", "quote_is_question"),
    ("我想知道，上海有瑜伽课吗？", "home_location", "上海", "quote_is_question"),
    ("有素食吗，还是只有肉？", "diet", "素食", "quote_is_question"),
    ("Livrați și în Cluj?", "home_location", "Cluj", "quote_is_question"),
    ("Is the annual plan cheaper, or the monthly one?", "decision:annual_plan", "annual plan", "quote_is_question"),
    # A clause that asks without a question word of its own: English "any", a German or Russian verb first.
    ("I'm in Leeds, any idea where I can find kdrama events?", "hobby", "kdrama", "quote_is_question"),
    ("I'm in Leeds, any idea where I can find kdrama events?", "home_location", "Leeds", None),
    ("Ich wohne in Köln, könnt ihr mir einen Yoga-Kurs empfehlen?", "hobby", "Yoga", "quote_is_question"),
    ("Ich wohne in Köln, könnt ihr mir einen Yoga-Kurs empfehlen?", "home_location", "Köln", None),
    ("Я живу в Казани, посоветуете мне курсы керамики?", "hobby", "керамика", "quote_is_question"),
    ("Я живу в Казани, посоветуете мне курсы керамики?", "home_location", "Казани", None),
]


@pytest.mark.parametrize(("quote", "attribute", "value", "reason"), STATEMENTS_AND_QUESTIONS)
def test_a_statement_before_a_question_stands_and_the_question_is_asked(quote, attribute, value, reason):
    assert gate(quote, quote, attribute, value, False, fact="x") == reason


# (quote, attribute, value, reason)
DATES_PEOPLE_NAMES = [
    # A month or weekday its language always capitalises is a date, not a home; a place that starts alike stands.
    ("I'm moving in August", "home_location", "August", "home_not_stated"),
    ("we're moving in May, finally", "home_location", "May", "home_not_stated"),
    ("Wir ziehen im Juli um", "home_location", "Juli", "home_not_stated"),
    ("I live in Augusta", "home_location", "Augusta", None),
    ("Ich wohne in Jülich", "home_location", "Jülich", None),
    ("I'm moving to Leeds in August", "home_location", "Leeds", None),
    # Greek relatives and people close by, with the second accent before "μου".
    ("ο προϊστάμενός μου είναι χορτοφάγος", "diet", "χορτοφάγος", "quote_about_other_person"),
    ("η κοπέλα μου είναι χορτοφάγος", "diet", "χορτοφάγος", "quote_about_other_person"),
    ("ο θείος μου είναι δικηγόρος", "job", "δικηγόρος", "quote_about_other_person"),
    ("είμαι χορτοφάγος", "diet", "χορτοφάγος", None),
]


@pytest.mark.parametrize(("quote", "attribute", "value", "reason"), DATES_PEOPLE_NAMES)
def test_months_are_no_homes_and_relatives_no_user(quote, attribute, value, reason):
    assert gate(quote, quote, attribute, value, False, fact="x") == reason


def test_a_lower_case_name_stands_beside_a_code_in_capitals():
    # "#SN-20931" is copied as written; the user types words in lower case (holdout set 12).
    message = "#SN-20931. names jaylen btw"
    assert gate("names jaylen btw", message, "name", "jaylen", False, fact="The user's name is Jaylen.",
                answered=["Can you send me your order number?"], replied=["Thanks Jaylen! It's at our hub."]) is None
    capitalised = "Stanco morto. Grazie"
    assert gate(capitalised, capitalised, "name", "morto", False, fact="x", replied=["Grazie Morto!"]) == (
        "name_not_stated")


def test_an_email_address_is_found_between_the_words_of_a_script_without_spaces():
    # Japanese writes an address between its own words (holdout set 12); a longer address is still not it.
    quote = "メールはmori.kenta@docomo.ne.jpで登録しています。"
    assert gate(quote, quote, "email", "mori.kenta@docomo.ne.jp", False, fact="x") is None
    quote = "正しくはkenta.mori.0321@gmail.comです。"
    assert gate(quote, quote, "email", "kenta.mori.0312@gmail.com", False, fact="x") == "value_not_in_quote"
    quote = "my address is xanna.nowak@gmail.com.pl"
    assert gate(quote, quote, "email", "anna.nowak@gmail.com", False, fact="x") == "value_not_in_quote"


INSURANCE = ["Would you like to add travel insurance for 19 EUR?"]

# (quote, value, reason): a yes or a no, said first, answers the offer; what follows it is still judged.
ANSWERS = [
    ("Yes, please add it.", "yes", None),
    ("No thanks, I don't need the insurance.", "no", None),
    ("No grazie, niente assicurazione.", "no", None),
    ("No, my wife decides that.", "no", "quote_about_other_person"),
    ("Yes, I'll think about it.", "yes", "quote_is_undecided"),
]


@pytest.mark.parametrize(("quote", "value", "reason"), ANSWERS)
def test_a_yes_or_no_said_first_answers_the_offer(quote, value, reason):
    assert gate(quote, quote, "decision:insurance", value, False, answered=INSURANCE, fact="x") == reason


@pytest.mark.parametrize(("quote", "value"), [
    ("मेरा नाम राहुल वर्मा है। मैं सरकारी स्कूल में क्लर्क हूँ", "Rahul Varma"),
    ("আমি চট্টগ্রামে থাকি, আগ্রাবাদে। নাম তানভীর হাসান", "Tanbir Hossain"),
])
def test_a_name_in_latin_letters_is_found_by_the_consonants_of_its_words_together(quote, value):
    # "Varma" alone is two consonants ("rm"), too few to be matched by; with "Rahul" before it, four in a row.
    assert gate(quote, quote, "name", value, False, fact="x") is None
    assert gate(quote, quote, "name", "Rahul Sharma", False, fact="x") == "value_not_in_quote"


def test_a_choice_kept_to_is_a_stance():
    # "i only rock nike" says a liking without "like" (holdout set 12); a plain statement still says none.
    quote = "ngl i only rock nike n new balance, adidas runs narrow on me every time"
    assert gate(quote, quote, "favourite:sneaker_brands", "likes", False,
                fact="The user only wears Nike and New Balance.") is None
    quote = "i got nike n new balance last week"
    assert gate(quote, quote, "favourite:sneaker_brands", "likes", False,
                fact="The user likes Nike and New Balance.") == "value_not_in_quote"
