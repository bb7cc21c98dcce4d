"""What a 1.5B model got wrong on conversations the code was not written for, held by rules that read no word
list or read language data only (issue 25): a question in a language without question words is told by its
question mark, a Thai question by its question word without one; a decision stands on the value said or
offered, not on its object; a stance word is no object; an opening greeting is no name; a date is no home; a
right value cited from the wrong line is quoted from the line that holds it. Each right answer beside its slip
still stands."""

from datetime import date, datetime, timedelta, timezone

import pytest

from memory_pipeline.domain.conversations import build_conversations
from memory_pipeline.domain.evidence import with_value
from memory_pipeline.domain.facts import ExtractedFact, validate_candidate
from memory_pipeline.domain.gates import gate
from memory_pipeline.domain.messages import SourceRow

# (quote, attribute, value, reason): reason None for a right answer.
SLIPS = [
    # Bengali and Swahili have no question words in the data: the question mark says it.
    ("ঢাকায় ভালো ক্যাফে কোথায়?", "home_location", "ঢাকা", "quote_is_question"),
    ("Mgahawa mzuri uko wapi Mombasa?", "home_location", "Mombasa", "quote_is_question"),
    ("Ninaishi Mombasa, mgahawa mzuri uko wapi?", "home_location", "Mombasa", None),
    ("আমি ঢাকায় থাকি।", "home_location", "ঢাকা", None),
    # Thai writes a question with its question word and a polite particle, no question mark.
    ("ร้านส้มตำที่อร่อยที่สุดในกรุงเทพอยู่ที่ไหนคะ", "home_location", "กรุงเทพ", "quote_is_question"),
    ("ฉันอาศัยอยู่ที่กรุงเทพค่ะ", "home_location", "กรุงเทพ", None),
    # A Vietnamese question word inside the clause that ends the question; the statement before it stands.
    ("Có, quà tân gia nào hợp cho chị ấy?", "decision:gift", "tân gia", "quote_is_question"),
    ("Tôi sống ở Hà Nội, quán cà phê nào ngon?", "home_location", "Hà Nội", None),
    # A decision is its value, said: an object named in a complaint decides nothing.
    ("my order #5520 never arrived.", "decision:order", "cancel", "value_not_in_quote"),
    ("Please cancel my order #5520.", "decision:order", "cancel", None),
    # A stance word is no object: "I love it" names nothing.
    ("I love it and that'll keep my confidence up.", "opinion:love", "likes", "value_not_in_quote"),
    ("I love jazz and that keeps me going.", "opinion:jazz", "likes", None),
    # An opening greeting is no name, in any language.
    ("Bună! Prefer ca întâlnirile să fie dimineața.", "preferred_name", "Bună", "name_not_stated"),
    ("வணக்கம்! என் பெயர் கார்த்திக்.", "name", "வணக்கம்", "name_not_stated"),
    ("Habari! Naitwa Amani Mwangi.", "name", "Amani Mwangi", None),
    # What opens a message before its first comma or "!", said unasked, is a greeting or an interjection: Latvian
    # "labdien" (good day) filed as an employer, Nepali "हुन्छ" (OK) as a name (unseen chats, session 17).
    ("labdien, atkal es par plauktiem", "employer", "labdien", "value_is_greeting"),
    ("हुन्छ, शुभ दिन!", "name", "हुन्छ", "quote_is_pleasantry"),  # Nepali as data (session 18): OK, good day
    ("Oslo, that is where I live now.", "home_location", "Oslo", "value_is_greeting"),
    ("strādāju Rimi, labdien", "employer", "Rimi", None),
    # Kazakh, told apart from Russian and read by its own data: "if I moved to Almaty, how much would a flat cost?"
    ("Сәлем! Егер мен Алматыға көшсем, пәтер жалдау қанша тұрар еді?", "home_location", "Алматы",
     "quote_is_hypothetical"),
    ("Мен Алматыда тұрамын.", "home_location", "Алматы", None),
    # A date is no place, whatever verb of moving stands beside it.
    ("Actually the dentist appointment moved to March 27.", "home_location", "March 27", "home_not_stated"),
    ("Actually we moved to Leeds in March.", "home_location", "Leeds", None),
    # A quote of two sentences: the statement stands, the question beside it asks (found by a break-it review).
    ("Bydlím v Brně. Kde je dobrá kavárna?", "home_location", "Brně", None),
    ("من در تهران زندگی می‌کنم، کافه خوب می‌شناسی؟", "home_location", "تهران", None),
    ("I live in Leeds. Where is a good café?", "home_location", "Leeds", None),
    # Thai words that end a question elsewhere: "ผ้าไหม" is silk, "ไม่ค่อย ... เท่าไหร่" is "not really".
    ("ฉันชอบผ้าไหมค่ะ", "opinion:ผ้าไหม", "likes", None),
    ("ผมไม่ค่อยชอบกาแฟเท่าไหร่ครับ", "opinion:กาแฟ", "dislikes", None),
    # A decision's value in another form of the quote's word, or yes/no, with its object said.
    ("Anuluj moje zamówienie.", "decision:zamówienie", "anulować", None),
    ("I'll keep the laptop.", "decision:laptop", "yes", None),
    ("Yine tarif lazım. Hatırlatayım, ben vejetaryenim.", "decision:vejetaryen_tarifler", "prepare",
     "value_not_in_quote"),
    ("I like it.", "opinion:like", "likes", "value_not_in_quote"),
    # Portuguese said casually: "Tô na dúvida" (I'm in doubt), "vou decidir" (I'll decide).
    ("Hmm. Tô na dúvida entre os dois, vou decidir semana que vem.", "decision", "decide", "quote_is_undecided"),
    # Session 19, a 1.5B model on unseen chats. A fact filed under a speech act, in any language.
    ("hvala. a moze li moj sin doci sa mnom", "question", "može li moj sin doći sa mnom", "quote_is_question"),
    ("hey, quick q about billing", "question", "billing", "quote_is_question"),
    ("hey, good morning", "Greeting", "good morning", "quote_is_pleasantry"),
    # A placeholder is no value; a value of letters beside it still stands.
    ("سلام دوباره، باز یه ایمیل رسمی لازم دارم", "email", "...", "value_not_in_quote"),
    ("my email is ana@example.org", "email", "ana@example.org", None),
    # A value without the shape of its slot, in any language: a formal email asked for is no email address.
    ("سلام دوباره، باز یه ایمیل رسمی لازم دارم", "email", "ایمیل رسمی", "value_not_in_quote"),
    ("call me on my mobile please", "phone_number", "mobile", "value_not_in_quote"),
    ("mi número es el 612 345 678", "phone_number", "612 345 678", None),
    ("моя почта ivan@mail.ru", "contact_email", "ivan@mail.ru", None),
    # Thanks said to someone: the one word after the thanks is who is thanked, not a thing liked.
    ("ok cảm ơn shop 👍", "opinion:shop", "likes", "quote_is_pleasantry"),
    ("makasih min 🙏", "opinion:min", "likes", "quote_is_pleasantry"),
    ("thanks bro", "opinion:bro", "likes", "quote_is_pleasantry"),
    ("I love this shop", "opinion:shop", "likes", None),
    # Right answers of session 19's unseen set (holdout5) the gates dropped: Greek typed without accents, Spanish
    # "si" for "sí" (yes) before an assent word, Swiss German "wohn".
    ("μενω Θεσσαλονικη", "home_location", "Θεσσαλονικη", None),
    ("si claro, es el MX-2231", "customer_number", "MX-2231", None),
    ("Si me mudo a Monterrey, ¿cuánto cuesta?", "home_location", "Monterrey", "quote_is_hypothetical"),
    ("ich wohn übrigens z Winterthur", "home_location", "Winterthur", None),
    ("αν μετακομίσω στην Πάτρα, πόσο κοστίζει;", "home_location", "Πάτρα", "quote_is_hypothetical"),
    # Hungarian and Telugu as data (session 19): a girlfriend's fear of heights, a sister's job.
    ("a barátnőm Zsófi is jön, ő kicsit tériszonyos", "opinion:tériszony", "dislikes", "quote_about_other_person"),
    ("nem szeretem a tériszonyt", "opinion:tériszony", "dislikes", None),
    ("Gergő vagyok amúgy", "name", "Gergő", None),
    ("Budapesten lakom", "home_location", "Budapest", None),
    ("a Mátrában áztunk", "home_location", "Mátra", "home_not_stated"),
    ("మా చెల్లి బెంగళూరులో ఇన్ఫోసిస్‌లో పనిచేస్తుంది", "job", "ఇన్ఫోసిస్", "quote_about_other_person"),
    ("నేను హైదరాబాద్‌లో ఉంటాను", "home_location", "హైదరాబాద్", None),
]


@pytest.mark.parametrize("quote,attribute,value,reason", SLIPS)
def test_a_small_models_slip_is_rejected_and_the_right_answer_beside_it_stands(quote, attribute, value, reason):
    assert gate(quote, quote, attribute, value, False) == reason


def test_a_name_said_with_an_exclamation_answers_the_question_that_asked_for_it():
    assert gate("Jack! Nice to meet you.", "Jack! Nice to meet you.", "name", "Jack", False,
                answered=["Hi! What's your name?"]) is None


def test_an_opening_word_answering_the_assistants_question_stands():
    assert gate("Oslo, I live there since May.", "Oslo, I live there since May.", "home_location", "Oslo", False,
                answered=["Where do you live?"]) is None


def test_a_fact_whose_subject_is_a_relative_is_about_someone_else_in_a_chat_of_any_language():
    # Slovenian has no data: the 1.5B model's own English fact says whose move it is.
    quote = "moja sestra se je ravno preselila v Koper"
    assert gate(quote, quote, "home_location", "Koper", False,
                fact="The user's sister moved to Koper.") == "quote_about_other_person"
    assert gate("živim v Mariboru", "živim v Mariboru", "home_location", "Maribor", False,
                fact="The user lives in Maribor.") is None
    assert gate("moj šef je Ana", "moj šef je Ana", "manager", "Ana", False,
                fact="The user's manager is Ana.") is None


def test_an_offered_decision_stands_on_the_assistant_line_it_answers():
    assert gate("yes, do that", "yes, do that", "decision:order", "cancel", False,
                answered=["Shall I cancel order #5520 for you?"], fact="The user cancels order #5520.") is None


T0 = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)


def conversation(*texts_by_role):
    rows = [SourceRow(i + 1, "s", {"type": role, "content": text}, T0 + timedelta(minutes=i))
            for i, (role, text) in enumerate(texts_by_role)]
    return build_conversations(rows, idle_gap=timedelta(hours=3), timezone="UTC", backlog_date=date(2026, 1, 1),
                               user_key=lambda k: k)[0]


JA = conversation(("human", "こんにちは。週末に行けるカフェを探しています。"), ("ai", "どちらにお住まいですか？"),
                  ("human", "大阪の天王寺に住んでいます。"))


def test_a_value_cited_from_the_wrong_line_is_quoted_from_the_line_that_holds_it():
    # The 1.5B model cited the greeting for a home said two lines later.
    fact = ExtractedFact(category="client_info", fact="ユーザーは大阪に住んでいる。", attribute="home_location",
                         value="大阪", quote="こんにちは。週末に行けるカフェを探しています。", quote_message_id=1)
    candidate = validate_candidate(fact, JA, 0)
    assert candidate.status == "accepted"
    assert candidate.quote == "大阪の天王寺に住んでいます。" and candidate.quote_message_id == 3


@pytest.mark.parametrize("cited,reason", [
    ("أهلاً! يسعدنا ذلك. بأي مدينة ساكنة؟", "quote_not_from_user"),  # the assistant's question, cited for its answer
    ("أنا ساكن في عمان", "quote_not_found"),                           # words no line holds
])
def test_a_value_the_user_said_cited_from_no_user_line_is_quoted_from_the_line_that_holds_it(cited, reason):
    # A 1.5B model (session 19) cited the assistant's "In which city do you live?" for the home said in the reply.
    chat = conversation(("human", "مرحبا، بدي أعمل اشتراك بخدمة توصيل الأدوية"),
                        ("ai", "أهلاً! يسعدنا ذلك. بأي مدينة ساكنة؟"), ("human", "أنا ساكنة في عمّان"))
    fact = ExtractedFact(category="client_info", fact="The user lives in Amman.", attribute="home_location",
                         value="عمّان", quote=cited, quote_message_id=None)
    candidate = validate_candidate(fact, chat, 0)
    assert candidate.status == "accepted" and candidate.quote == "أنا ساكنة في عمّان"
    # A value no user line holds keeps the rejection of its quote.
    elsewhere = fact.model_copy(update={"value": "دبي", "fact": "The user lives in Dubai."})
    assert validate_candidate(elsewhere, chat, 0).reason == reason


def test_a_requoted_value_meets_the_gates_of_the_line_that_holds_it():
    asked = conversation(("human", "週末に行けるカフェを探しています。"), ("human", "大阪でおすすめのカフェはどこですか？"))
    fact = ExtractedFact(category="client_info", fact="ユーザーは大阪に住んでいる。", attribute="home_location",
                         value="大阪", quote="週末に行けるカフェを探しています。", quote_message_id=1)
    candidate = validate_candidate(fact, asked, 0)
    assert candidate.status == "rejected" and candidate.reason == "quote_is_question"


def test_a_place_visited_is_not_requoted_as_a_home_in_a_language_without_living_words():
    visited = conversation(("human", "Habari! Nataka ushauri wa safari."), ("human", "Nilitembelea Paris mwaka jana."))
    fact = ExtractedFact(category="client_info", fact="Mtumiaji anaishi Paris.", attribute="home_location",
                         value="Paris", quote="Nataka ushauri wa safari.", quote_message_id=1)
    candidate = validate_candidate(fact, visited, 0)
    assert candidate.status == "rejected" and candidate.quote == fact.quote


@pytest.mark.parametrize("category,attribute,value", [
    ("preference", "hobby", "大阪"),  # a liking read from another line would be a new fact, not a citation fixed
    ("client_info", "home_location", "東京"),  # no line holds it
])
def test_only_a_client_info_value_one_other_line_holds_is_requoted(category, attribute, value):
    fact = ExtractedFact(category=category, fact="ユーザーは大阪が好き。", attribute=attribute, value=value,
                         quote="こんにちは。週末に行けるカフェを探しています。", quote_message_id=1)
    candidate = validate_candidate(fact, JA, 0)
    assert candidate.status == "rejected" and candidate.quote == fact.quote


@pytest.mark.parametrize("quote,attribute,value,offer", [
    ("Sí, adelante.", "decision:pedido", "cancelar", "¿Cancelo su pedido?"),
    ("Ja, mach das.", "decision:bestellung", "stornieren", "Soll ich Ihre Bestellung stornieren?"),
    ("はい、お願いします。", "decision:注文", "キャンセル", "ご注文をキャンセルしますか？"),
    ("Да, давайте.", "decision:заказ", "отменить", "Отменить ваш заказ?"),
    ("Tak, zrób to.", "decision:zamówienie", "anulować", "Czy anulować zamówienie?"),
    ("네, 해주세요.", "decision:주문", "취소", "주문을 취소할까요?"),
])
def test_an_accepted_offer_stands_in_every_language_whose_assent_words_are_known(quote, attribute, value, offer):
    # A break-it review: assent words were known in English, French and Chinese only.
    assert gate(quote, quote, attribute, value, False, answered=[offer]) is None


def test_a_fact_that_leaves_out_its_exact_value_gets_it_in_brackets():
    # The 1.5B model's third phone number: right slot and value, a fact text without the number.
    assert with_value("The user has a new phone number.", "+7 900 111-22-33") == (
        "The user has a new phone number (+7 900 111-22-33).")
    assert with_value("The user's phone number is +7 900 111-22-33.", "+7 900 111-22-33") == (
        "The user's phone number is +7 900 111-22-33.")
    assert with_value("The user lives in Osaka.", "大阪") == "The user lives in Osaka."  # not an exact value
    assert with_value("The user books a table for 2026-03-13 20:00.", "2026-03-13 20:00") == (
        "The user books a table for 2026-03-13 20:00.")



def test_a_language_of_a_script_of_its_own_is_told_and_not_read_by_a_neighbours_words():
    from memory_pipeline.domain.language import identify

    assert identify("Сәлем! Егер мен Алматыға көшсем, пәтер жалдау қанша тұрар еді?") == "kk"  # not Russian
    assert identify("केही छैन, त्यसै हेलो भन्न आएको, हिजो धेरै मद्दत गर्यौ") == "ne"  # not Hindi
    assert identify("Привет, как дела? Я живу в Москве.") == "ru"
    assert identify("नमस्ते, मेरा नाम राहुल है और मैं दिल्ली में रहता हूँ") == "hi"


@pytest.mark.parametrize("quote,attribute,value,fact,reason", [
    # A 1.5B model (prompt llm-v5) copied a request's words as a job; its own fact said it was a request.
    ("สวัสดีค่ะ ขอสั่งลาเต้เย็นหนึ่งแก้วค่ะ", "job", "สั่งลาเต้", "The user requests a late night tea.", "fact_is_a_wish"),
    ("안녕하세요, 반려동물 보험 문의드려요", "job", "반려동물 보험", "The user is asking about a pet insurance.",
     "fact_is_a_wish"),
    ("szia! hétvégén túrázni mennék a Bükkbe", "job", "túrázni", "The user plans to go hiking.", "fact_is_a_wish"),
    ("Je cherche un poste de graphiste.", "job", "graphiste", "L'utilisateur cherche un poste de graphiste.",
     "fact_is_a_wish"),
    # A job or a home stated, and a name the user wants to be called, stand.
    ("кстати, работаю пекарем", "job", "пекарем", "Пользователь работает пекарем.", None),
    ("I work as a nurse.", "job", "nurse", "The user works as a nurse.", None),
    ("Call me Jack from now on.", "preferred_name", "Jack", "The user wants to be called Jack.", None),
    ("Please send invoices as PDF.", "delivery_instruction", "PDF", "The user wants invoices as PDF.", None),
])
def test_a_job_or_home_whose_fact_says_the_user_wants_or_asks_it_is_a_wish(quote, attribute, value, fact, reason):
    assert gate(quote, quote, attribute, value, False, fact=fact) == reason


@pytest.mark.parametrize("quote, attribute", [
    ("süper tşk", "opinion:tşk"),                                # Turkish chat thanks (holdout5, the 1.5B model)
    ("supert. gleder meg sikkert like mye som sist", "opinion:supert"),  # Norwegian "great." (holdout4)
    ("thanks so much", "favourite:thanks"),
])
def test_a_stance_on_a_pleasantry_word_is_a_pleasantry_not_a_liking(quote, attribute):
    assert gate(quote, quote, attribute, "likes", False) == "quote_is_pleasantry"
    assert gate("süper, kahveyi çok seviyorum", "süper, kahveyi çok seviyorum", "opinion:kahve", "likes",
                False) is None  # a thing liked, beside a pleasantry word


def test_a_georgian_home_needs_a_living_word_now_that_georgian_is_data():
    # "hello, I blocked my card by accident": the 1.5B model filed "card" as the home (holdout5)
    card = "გამარჯობა, ბარათი შემთხვევით დავბლოკე 😅"
    assert gate("ბარათი შემთხვევით დავბლოკე", card, "home_location", "ბარათი", False) == "home_not_stated"
    batumi = "და ახალ ბარათს ბათუმის ფილიალში ავიღებ, იქ ვცხოვრობ"  # "... at the Batumi branch, I live there"
    assert gate("ბათუმის ფილიალში ავიღებ, იქ ვცხოვრობ", batumi, "home_city", "ბათუმის", False) is None


def test_loving_an_ordeal_is_sarcasm_in_the_scandinavian_languages_too():
    # "yeah right, I really love sitting at home all day waiting for a car that never comes" (holdout4, 1.5B model)
    quote = "jada, jeg elsker virkelig å sitte hjemme og vente hele dagen på en bil som aldri kommer"
    assert gate(quote, quote, "opinion:bil", "likes", False) == "quote_is_sarcasm"
    assert gate("jeg elsker å lese krim", "jeg elsker å lese krim", "opinion:krim", "likes", False) is None


def test_a_yoruba_greeting_is_no_hometown_and_a_swedish_maybe_no_dislike():
    # holdout5, the 1.5B model: "good morning" as a hometown; "premium sounds nice but basic may do" as a dislike
    assert gate("ẹ kú àárọ̀ o", "ẹ kú àárọ̀ o", "hometown", "ẹ kú àárọ̀", False) == "quote_is_pleasantry"
    maybe = "hmm, premium låter nice men bas kanske räcker... vet inte riktigt"
    # "vet inte riktigt" (don't really know), a bare choice left open ending the sentence, leaves all of it open
    assert gate(maybe, maybe, "opinion:premium", "dislikes", False) == "quote_is_undecided"
    assert gate("jag gillar inte premium", "jag gillar inte premium", "opinion:premium", "dislikes", False) is None


@pytest.mark.parametrize("quote, attribute, value, reason", [
    # holdout4, the 1.5B model: a Croatian farewell, a Dutch "no idea, no receipt" as a dislike
    ("hvala puno, vidimo se sutra", "decision", "vidimo se sutra", "quote_is_pleasantry"),
    ("geen idee eigenlijk, heb de bon niet meer denk ik", "opinion:bon", "dislikes", "value_not_in_quote"),
    ("ik heb een hekel aan koriander", "opinion:koriander", "dislikes", None),
])
def test_a_farewell_and_a_stance_without_its_word_back_nothing(quote, attribute, value, reason):
    assert gate(quote, quote, attribute, value, False) == reason


def test_a_roman_urdu_question_asks_and_a_khmer_greeting_is_no_name():
    # holdout6, the 1.5B model (read after its figure): "and how much with a personal trainer?" as a job;
    # "hello, brother" as a preferred name
    asked = "acha aur personal trainer ke sath kitna banta hai?"
    assert gate(asked, asked, "job", "trainer", False) == "quote_is_question"
    assert gate("សួស្តីបង 🙏", "សួស្តីបង 🙏", "preferred_name", "សួស្តី", False) == "quote_is_pleasantry"
    assert gate("mai pune mein rehta hoon", "mai pune mein rehta hoon", "home_location", "pune", False) is None


@pytest.mark.parametrize("quote, attribute, value, reason", [
    # holdout7, the 1.5B model (read after its figure)
    ("mummy ko sugar hai, unke liye chahiye thi.", "home_location", "unknown", "value_not_in_quote"),  # a placeholder
    ("Ah benissimo, adoro proprio stare 12 giorni senza lavatrice, complimenti davvero 👏", "opinion:lavatrice",
     "likes", "quote_is_sarcasm"),
    ("adoro il caffè ristretto", "opinion:caffè", "likes", None),
])
def test_a_placeholder_value_and_italian_mock_enthusiasm_back_nothing(quote, attribute, value, reason):
    assert gate(quote, quote, attribute, value, False) == reason


def test_a_colleague_named_after_the_noun_is_someone_else_and_a_job_aimed_at_is_no_job():
    # holdout set 8, the 1.5B model: "my colleague Tanaka changed jobs, now apparently an engineer at an IT
    # start-up; I'm still in sales" as the user's job; "trying to get into tech" as the job "tech"
    said = "そういえば同僚の田中さんが転職して、今はITベンチャーでエンジニアをやっているらしいです。私は相変わらず営業です笑"
    assert gate(said, said, "job", "ITベンチャー", False) == "quote_about_other_person"
    assert gate("私は相変わらず営業です笑", said, "job", "営業", False) is None
    texting = "im a barista at a coffee shop rn, trying to get into tech"
    assert gate("trying to get into tech", texting, "job", "tech", False,
                fact="The user is aiming to get into tech.") == "fact_is_a_wish"
    assert gate("im a barista at a coffee shop rn", texting, "job", "barista", False,
                fact="The user is a barista.") is None
