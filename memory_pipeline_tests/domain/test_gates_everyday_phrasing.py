"""Right answers said the way people say them, in languages whose words the gates know (holdout7, unseen, right
answers): the data holds the everyday phrasings, and a hesitant "hmm okay" stays no assent."""

import pytest

from memory_pipeline.domain.gates import gate

OFFER = ["Want me to switch you to the 4-meal plan for $59.99 a week?"]


@pytest.mark.parametrize("quote, attribute, value", [
    ("our place is in Leeds", "home_location", "Leeds"),
    ("we've upped sticks to Bristol", "current_city", "Bristol"),
    ("I am staying in Whitefield only since last year", "residence", "Whitefield"),
    ("en ce moment je suis sur Lyon", "current_city", "Lyon"),
    ("Soy la Vero", "name", "Vero"),
    ("le lait de vache très peu pour moi", "opinion:lait_de_vache", "dislikes"),
])
def test_an_everyday_phrasing_backs_its_fact(quote, attribute, value):
    assert gate(quote, quote, attribute, value, False) is None


@pytest.mark.parametrize("reply", ["eh go for it", "aight bet, run it", "ok let's do it"])
def test_a_casual_assent_accepts_the_offer_it_answers(reply):
    assert gate(reply, reply, "decision:meal_plan", "4-meal plan", False, answered=OFFER) is None


def test_a_hesitant_okay_accepts_nothing():
    hesitant = "hmm okay, that's a bit pricey"
    assert gate(hesitant, hesitant, "decision:meal_plan", "4-meal plan", False, answered=OFFER) == (
        "value_not_in_quote")
    assert gate("Passt, nehm ich", "Passt, nehm ich", "decision:tarif", "250 Mbit", False,
                answered=["Der 250-Mbit-Tarif kostet 39,99 € im Monat. Soll ich umstellen?"]) is None


def test_a_bare_name_is_taken_as_one_when_the_assistant_calls_the_user_by_the_surname():
    asked = ["Buongiorno, mi scusi per il disagio. Con chi ho il piacere di parlare?"]  # who am I speaking with?
    assert gate("Marco Ferri", "Marco Ferri", "name", "Marco Ferri", False, answered=asked,
                replied=["Grazie, signor Ferri. Purtroppo il primo tecnico disponibile è tra 12 giorni."]) is None


# A review's probes of this session's leniencies: each is a wrong fact a sloppy model could file.
@pytest.mark.parametrize("quote, message, attribute, value, kwargs, reason", [
    # someone the user names, echoed further on in the reply: no vocative
    ("Please ship it to Sarah Lee", "Please ship it to Sarah Lee at 12 Park Road, Leeds.", "name", "Sarah Lee",
     {"replied": ["Done! I've set Sarah Lee as the recipient for this order."]}, "name_not_stated"),
    # the one thanked is not the user
    ("grazie mille giulia", "grazie mille giulia, sei stata gentilissima", "name", "giulia",
     {"fact": "L'utente si chiama Giulia."}, "quote_is_pleasantry"),
    # a pet's name, now that Italian naming phrases are data (only the first person's name the user)
    ("il mio cane si chiama rex", "ciao, il mio cane si chiama rex", "name", "rex",
     {"fact": "Il cane dell'utente si chiama Rex."}, "name_not_stated"),
    # a casual filler then a refusal accepts no offer
    ("alright", "alright, I'll pass for now", "decision:upgrade", "Premium plan",
     {"answered": ["I can upgrade you to the Premium plan for $20/month. Want me to do that?"]}, "value_not_in_quote"),
    # a Thai permission asked ("can I pay by credit card every time?") is a question, not a standing instruction
    ("ผมจ่ายด้วยบัตรเครดิตทุกครั้งได้ไหมครับ", "ผมจ่ายด้วยบัตรเครดิตทุกครั้งได้ไหมครับ", "payment_method", "บัตรเครดิต", {},
     "quote_is_question"),
    # a Lao question parted by spaces still asks as a whole ("is there a vegetarian restaurant in Vientiane?")
    ("ຮ້ານອາຫານເຈ ຢູ່ວຽງຈັນ ມີບໍ່?", "ຮ້ານອາຫານເຈ ຢູ່ວຽງຈັນ ມີບໍ່?", "diet", "ອາຫານເຈ", {}, "quote_is_question"),
    # a value of a vowel sign alone is no name (it raised StopIteration)
    ("मेरा नाम राहुल है", "मेरा नाम राहुल है", "name", "ा", {}, "name_not_stated"),
])
def test_a_leniency_of_this_session_lets_no_wrong_fact_through(quote, message, attribute, value, kwargs, reason):
    assert gate(quote, message, attribute, value, False, **kwargs) == reason


def test_a_place_is_not_its_neighbour_in_latin_letters():
    from memory_pipeline.domain.value_support import supported
    assert not supported("Slovenia", "we ship to Slovakia") and not supported("Toronto", "I live in Torino")
    assert supported("Львів", "Я живу у Львові.")


# Holdout set 9 (unseen, right answers): the everyday phrasings of more languages, as data.
@pytest.mark.parametrize("reply, offer, attribute, value", [
    ("好啊 麻煩你了", "那推薦 999 吃到飽不限速，續約 30 個月，幫您辦理嗎？", "decision:plan", "999 吃到飽"),
    ("haan kar do subah wali", "Pune → Lucknow 28 Oct: IndiGo 6E 2145 subah 7:10 baje ₹6,840, ya Air India shaam "
     "6:45 ₹7,200. Window seat ke saath IndiGo wali book kar doon?", "decision:flight", "IndiGo subah 7:10"),
    ("হ্যাঁ, করে দিন প্লিজ", "আমরা আপনাকে কাল বিনামূল্যে এক্সপ্রেস ডেলিভারি দিতে পারি, করে দেব?", "decision:delivery",
     "এক্সপ্রেস ডেলিভারি"),
    # An Arabic adjective's article, dropped when the offer says it as a predicate ("التركيب مجاني").
    ("إيه زين، ضيفه", "وعندنا عرض الحين: إذا طلبت اليوم التركيب مجاني. تبي أضيفه لطلبك؟", "decision:installation",
     "التركيب المجاني"),
])
def test_an_assent_of_more_languages_accepts_the_offer_it_answers(reply, offer, attribute, value):
    assert gate(reply, reply, attribute, value, False, answered=[offer]) is None


@pytest.mark.parametrize("reply", ["好吃", "好像不行", "好的，不用了", "好吧，那算了", "好喔，我再考慮一下", "好的 我再看看",
                                   "行，你先别下单", "可以 但是我要先问问我老婆"])
def test_a_word_that_starts_with_good_or_an_ok_that_declines_is_no_chinese_assent(reply):
    assert gate(reply, reply, "decision:plan", "999 吃到飽", False,
                answered=["那推薦 999 吃到飽不限速，幫您辦理嗎？"]) in ("value_not_in_quote", "quote_is_undecided")


@pytest.mark.parametrize("quote, attribute, value", [
    ("main Pune mein rehta hoon", "city", "Pune"),                      # Hinglish living words
    ("nama aku Dimas Pratama, domisili Bandung", "city", "Bandung"),     # Indonesian "domicile"
    ("ik lust geen spruitjes", "favourite:spruitjes", "dislikes"),        # Dutch "lusten" (to like a food)
])
def test_a_phrasing_of_living_or_liking_as_data_backs_its_fact(quote, attribute, value):
    assert gate(quote, quote, attribute, value, False) is None


def test_an_eye_roll_at_another_clause_of_the_sentence_leaves_the_users_home_standing():
    message = ("jour 45 872, nuit 19 340. Et sinon j'habite à Namur, pas à Namêche comme c'est marqué sur votre "
               "dernier courrier, faudrait corriger une fois 🙄")
    assert gate("j'habite à Namur", message, "city", "Namur", False) is None
    assert gate("faudrait corriger une fois", message, "opinion:courrier", "dislikes", False) == "quote_is_sarcasm"


@pytest.mark.parametrize("message, quote, value", [
    ("Oui : si vous devez me contacter, envoyez-moi plutôt un SMS sur mon GSM.", "envoyez-moi plutôt un SMS sur mon GSM",
     "SMS"),
    ("If you need to reach me, text me on my mobile.", "text me on my mobile", "text"),
    ("Wenn Sie mich erreichen müssen, schreiben Sie mir bitte per WhatsApp.", "schreiben Sie mir bitte per WhatsApp",
     "WhatsApp"),
    ("si necesita contactarme, mejor por WhatsApp", "mejor por WhatsApp", "WhatsApp"),
])
def test_a_condition_on_reaching_the_user_states_how_to_reach_them(message, quote, value):
    assert gate(quote, message, "contact_channel", value, False) is None


@pytest.mark.parametrize("message, quote, value", [
    ("If I move to Paris, text me the new catalogue.", "text me the new catalogue", "text"),
    ("Si je déménage, envoyez-moi un SMS.", "envoyez-moi un SMS", "SMS"),
])
def test_a_condition_on_the_user_still_makes_the_request_hypothetical(message, quote, value):
    assert gate(quote, message, "contact_channel", value, False) == "quote_is_hypothetical"


@pytest.mark.parametrize("message, quote, value", [
    ("αν χρειαστει κατι παρτε με τηλεφωνο", "αν χρειαστει κατι παρτε με τηλεφωνο", "τηλεφωνο"),  # holdout set 5
    ("If anything comes up, call my mobile.", "call my mobile", "mobile"),
    ("si besoin, appelez-moi sur mon portable", "appelez-moi sur mon portable", "portable"),
])
def test_a_condition_on_a_need_of_the_one_addressed_leaves_the_request_standing(message, quote, value):
    assert gate(quote, message, "contact_channel", value, False) is None


@pytest.mark.parametrize("message, quote, attribute, value", [
    # A break-it review: what the user would do themself stays hypothetical after a need's condition.
    ("If need be, I'll move to Denver", "I'll move to Denver", "home_location", "Denver"),
    ("If needed, I'll upgrade to the Business plan", "I'll upgrade to the Business plan", "decision:plan",
     "Business plan"),
    ("Si besoin, je passerai à l'offre Pro", "je passerai à l'offre Pro", "decision:offre", "Pro"),
    ("If you need to reach me after I move to Berlin, call my mobile", "I move to Berlin", "home_location", "Berlin"),
])
def test_after_a_need_condition_only_a_way_to_reach_the_user_stands(message, quote, attribute, value):
    assert gate(quote, message, attribute, value, False) == "quote_is_hypothetical"


@pytest.mark.parametrize("message, quote, attribute, value", [
    # A break-it review: a stance in an earlier clause of a line with an eye roll is the sarcasm itself.
    ("Love the new update, the app crashes every 5 minutes, 🙄", "Love the new update", "opinion:update", "likes"),
    ("I love my job, 😒", "I love my job", "opinion:job", "likes"),
    ("我太喜欢排队了，🙄", "我太喜欢排队了", "opinion:排队", "likes"),
    # a stance word the language's data does not hold: the fact's stance says it
    ("Amo essa operadora, sem sinal há três dias, maravilha 🙄", "Amo essa operadora", "opinion:operadora", "likes"),
    ("Обожаю вашу доставку, посылка опять потерялась, супер 🙄", "Обожаю вашу доставку", "opinion:доставку", "likes"),
])
def test_an_eye_roll_makes_a_stance_of_its_sentence_sarcasm(message, quote, attribute, value):
    assert gate(quote, message, attribute, value, False) == "quote_is_sarcasm"


@pytest.mark.parametrize("reply, offer", [
    ("জি না, লাগবে না", "আমরা আপনাকে কাল বিনামূল্যে এক্সপ্রেস ডেলিভারি দিতে পারি, করে দেব?"),
    ("ঠিক আছে, পরে জানাবো", "আমরা আপনাকে কাল বিনামূল্যে এক্সপ্রেস ডেলিভারি দিতে পারি, করে দেব?"),
    ("হ্যাঁ, কিন্তু এখন না", "আমরা আপনাকে কাল বিনামূল্যে এক্সপ্রেস ডেলিভারি দিতে পারি, করে দেব?"),
    ("ايه ده", "وعندنا عرض الحين: إذا طلبت اليوم التركيب مجاني. تبي أضيفه لطلبك؟"),
    ("haan bhai, rehne do", "IndiGo subah 7:10 baje, Window seat ke saath IndiGo wali book kar doon?"),
])
def test_a_no_a_later_or_a_what_after_an_offer_accepts_nothing(reply, offer):
    value = "التركيب المجاني" if "التركيب" in offer else ("IndiGo" if "IndiGo" in offer else "এক্সপ্রেস ডেলিভারি")
    assert gate(reply, reply, "decision:offer", value, False, answered=[offer]) == "value_not_in_quote"


@pytest.mark.parametrize("quote, attribute, value", [
    ("Mumbai mein traffic bahut rehta hai", "home_location", "Mumbai"),        # there is traffic, not I live
    ("mera bhai Pune mein rehta hai", "home_location", "Pune"),
    ("Alamat domisili kantor kami di Bandung", "home_location", "Bandung"),   # the office's address
])
def test_a_hinglish_or_indonesian_line_of_someone_or_something_else_is_no_home(quote, attribute, value):
    assert gate(quote, quote, attribute, value, False) == "home_not_stated"


def test_an_arabic_adjective_without_its_article_counts_only_said_right_after_its_noun():
    assert gate("أسكن في القاهرة في شقة جديدة", "أسكن في القاهرة في شقة جديدة", "home_location", "القاهرة الجديدة",
                False) == "value_not_in_quote"  # New Cairo is another city
    offer = ["للأسف التوصيل مش مجاني عندنا. تبي نضيفه؟"]  # delivery is not free
    assert gate("إيه زين، ضيفه", "إيه زين، ضيفه", "decision:delivery", "التوصيل المجاني", False,
                answered=offer) == "value_not_in_quote"


def test_an_acronym_value_is_a_word_to_find_not_a_stop_word():
    # A 1.5B model's job "IT" of a chat that names no IT (holdout set 9): "it" is a stop word, "IT" is not.
    chat = "ねえ聞いて、ノートPC買い替えるやつ、結局MacBook Airに決めた!"
    assert gate(chat, chat, "job", "IT", False, fact="The user is an IT professional.") == "value_not_in_quote"
    assert gate("I work in IT support", "I work in IT support", "job", "IT", False) is None


def test_a_whole_message_quoted_keeps_a_home_said_before_the_clause_an_eye_roll_ends():
    # The 1.5B quoted the whole message (holdout set 9).
    message = ("jour 45 872, nuit 19 340. Et sinon j'habite à Namur, pas à Namêche comme c'est marqué sur votre "
               "dernier courrier, faudrait corriger une fois 🙄")
    assert gate(message, message, "home_location", "Namur", False) is None
    assert gate(message, message, "opinion:courrier", "dislikes", False) == "quote_is_sarcasm"


@pytest.mark.parametrize("answer, value, question", [
    ("杭州，西湖区这边。", "杭州", "理解。请问您在哪个城市？有的地区有宽带优惠。"),     # holdout set 10
    ("Leeds, near the station", "Leeds", "Which city are you in? Some areas get fibre first."),
])
def test_a_bare_place_answering_which_city_the_user_is_in_is_a_home(answer, value, question):
    assert gate(answer, answer, "home_location", value, False, answered=[question]) is None


@pytest.mark.parametrize("quote, message, attribute, value, expected", [
    ("min sambo Jonas", "Hej! Jag och min sambo Jonas ska flytta i maj", "partner_name", "Jonas", None),  # holdout 10
    ("my husband Tom", "my husband Tom loves sushi", "spouse", "Tom", None),
    ("my sister Anna", "my sister Anna lives in Rome", "name", "Anna", "quote_about_other_person"),
    ("my sister Anna lives in Rome", "my sister Anna lives in Rome", "home_location", "Rome",
     "quote_about_other_person"),
    ("my husband Tom loves sushi", "my husband Tom loves sushi", "favourite:sushi", "likes", "quote_about_other_person"),
])
def test_a_relatives_name_said_right_after_who_they_are_is_a_fact_of_the_user_and_nothing_else(
        quote, message, attribute, value, expected):
    assert gate(quote, message, attribute, value, False) == expected


# A second break-it review of session 22's rules: what they must leave as it was.
@pytest.mark.parametrize("quote, message, attribute, value, answered", [
    ("I'm vegetarian", "Oh and if it helps, I'm vegetarian", "diet", "vegetarian", ()),
    ("I'm a teacher", "I'm a teacher, and no, teachers don't get summers off 🙄", "job", "teacher", ()),
    ("I live in Portland", "I live in Portland", "home_location", "Portland, OR", ()),
    ("I work in I.T. support", "I work in I.T. support", "job", "IT", ()),
    ("Миналия май се преместих в Пловдив", "Миналия май се преместих в Пловдив", "home_location", "Пловдив", ()),
    ("Викат ми Пешо", "Викат ми Пешо", "preferred_name", "Пешо", ()),
    ("Kapag gabi, nagtatrabaho ako bilang nurse sa St. Luke's",
     "Kapag gabi, nagtatrabaho ako bilang nurse sa St. Luke's", "job", "nurse", ()),
])
def test_a_fact_said_beside_a_politeness_an_eye_roll_at_a_cliche_or_a_month_stands(quote, message, attribute, value,
                                                                                 answered):
    assert gate(quote, message, attribute, value, False, answered=list(answered)) is None


@pytest.mark.parametrize("quote, message, attribute, value, answered, expected", [
    ("Lisbon", "Lisbon", "home_location", "Lisbon", ["Which city would you like to visit next?"], "home_not_stated"),
    ("제 남편 직장 때문에 세종으로 이사했어요", "제 남편 직장 때문에 세종으로 이사했어요", "home_location", "세종", [], None),
    ("suami saya dokter gigi", "Hai kak, suami saya dokter gigi, toh gaya hidupnya sibuk sekali", "job",
     "dokter gigi", [], "quote_about_other_person"),
])
def test_a_city_to_visit_a_move_for_a_husbands_job_or_an_indonesian_line_keep_their_reading(
        quote, message, attribute, value, answered, expected):
    assert gate(quote, message, attribute, value, False, answered=answered) == expected


def test_an_acronym_inflected_in_its_language_is_still_found():
    # holdout set 8: Czech "SMSkou" (by SMS); only a stop-word acronym ("IT") must be said as itself
    assert gate("SMSkou prosím, maily moc nečtu", "SMSkou prosím, maily moc nečtu", "confirmation_channel", "SMS",
                False) is None


def test_a_korean_relative_without_its_particle_is_the_subject_before_a_word_of_time_only():
    moved = "우리 언니 이번에 회사 때문에 서울로 이사 갔어 ᅲᅲ"          # holdout set 9: the sister moved
    assert gate(moved, moved, "home_location", "서울", False) == "quote_about_other_person"
    ours = "제 남편 직장 때문에 세종으로 이사했어요"                     # we moved for my husband's job
    assert gate(ours, ours, "home_location", "세종", False) is None
