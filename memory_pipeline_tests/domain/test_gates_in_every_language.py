"""A right answer passes the gates in any language, and the gates stay as strict as before in the languages whose
words they know (issue 25): a gate that rejects for a missing word reads only those languages."""

import pytest

from memory_pipeline.domain.gates import gate, reads
from memory_pipeline.domain.naming import looks_like_name
from memory_pipeline.domain.value_support import supported
from memory_pipeline.domain.language import identify
from memory_pipeline.domain.lexicon import knowing

# (quote, attribute, value): what a model answering right files from the quote, in 24 languages.
RIGHT_ANSWERS = [
    ("Mi chiamo Giulia.", "name", "Giulia"),                               # Italian
    ("Abito a Torino da due anni.", "home_location", "Torino"),
    ("Moro em Curitiba.", "home_location", "Curitiba"),                    # Portuguese
    ("Meu nome é João.", "name", "João"),
    ("Ik woon in Utrecht.", "home_location", "Utrecht"),                   # Dutch
    ("Mijn naam is Sanne.", "name", "Sanne"),
    ("Меня зовут Алексей.", "name", "Алексей"),                            # Russian
    ("Я живу в Казани.", "home_location", "Казань"),
    ("제 이름은 민준입니다.", "name", "민준"),                                # Korean
    ("저는 부산에 살아요.", "home_location", "부산"),
    ("私の名前は佐藤です。", "name", "佐藤"),                                # Japanese
    ("大阪に住んでいます。", "home_location", "大阪"),
    ("Benim adım Elif.", "name", "Elif"),                                   # Turkish
    ("İzmir'de yaşıyorum.", "home_location", "İzmir"),
    ("Jag heter Erik.", "name", "Erik"),                                    # Swedish
    ("Jag bor i Göteborg.", "home_location", "Göteborg"),
    ("Nama saya Budi.", "name", "Budi"),                                    # Indonesian
    ("Saya tinggal di Bandung.", "home_location", "Bandung"),
    ("Tôi tên là Minh.", "name", "Minh"),                                   # Vietnamese
    ("Tôi sống ở Đà Nẵng.", "home_location", "Đà Nẵng"),
    ("اسمي ليلى.", "name", "ليلى"),                                         # Arabic
    ("أسكن في عمّان.", "home_location", "عمان"),
    ("קוראים לי נועה.", "name", "נועה"),                                    # Hebrew
    ("אני גר בחיפה.", "home_location", "חיפה"),
    ("मेरा नाम राहुल है।", "name", "राहुल"),                                 # Hindi
    ("मैं पुणे में रहता हूँ।", "home_location", "पुणे"),
    ("Με λένε Νίκο.", "name", "Νίκο"),                                      # Greek
    ("Μένω στη Θεσσαλονίκη.", "home_location", "Θεσσαλονίκη"),
    ("ฉันชื่อสมชาย", "name", "สมชาย"),                                      # Thai
    ("ผมอาศัยอยู่ที่เชียงใหม่", "home_location", "เชียงใหม่"),
    ("Mam na imię Kasia.", "name", "Kasia"),                                # Polish
    ("Mieszkam w Krakowie.", "home_location", "Kraków"),
    ("Мене звати Олена.", "name", "Олена"),                                 # Ukrainian
    ("Jeg hedder Mette.", "name", "Mette"),                                 # Danish
    ("Minun nimeni on Aino.", "name", "Aino"),                              # Finnish
    ("Jeg bor i Bergen.", "home_location", "Bergen"),                       # Norwegian
    # English said another way, and the five known languages as before
    ("Everyone calls me Bob.", "name", "Bob"),
    ("Our house is in Leeds.", "home_location", "Leeds"),
    ("Home is Bristol these days.", "home_location", "Bristol"),
    ("Je m'appelle Claire.", "name", "Claire"),
    ("Ich wohne in Berlin.", "home_location", "Berlin"),
    ("Me llamo Ana.", "name", "Ana"),
    ("Trabajo desde casa, en Valencia.", "home_location", "Valencia"),   # Spanish: home said by its noun
    ("Mi casa está en Bilbao.", "home_location", "Bilbao"),
    ("我住在上海。", "home_location", "上海"),
    # unseen set 4 (session 18): a feminine verb form, a written short form, a language told apart from its
    # neighbour (Uzbek was untold, so read with every language's words, Turkish's among them)
    ("أنا ساكنة في عمّان", "home_location", "عمّان"),                        # Levantine Arabic, she lives
    ("kat rumah sy di Johor Bahru", "home_location", "Johor Bahru"),       # Malay: "sy" for saya
    ("Samarqandda yashayman", "home_location", "Samarqandda"),            # Uzbek
]


@pytest.mark.parametrize("quote,attribute,value", RIGHT_ANSWERS)
def test_a_right_answer_passes_the_gates_in_any_language(quote, attribute, value):
    assert gate(quote, quote, attribute, value, False) is None


@pytest.mark.parametrize("quote,value", [
    ("Sono molto appassionata di fotografia.", "likes"),   # Italian: no stance word the gates know
    ("Eu curto muito café.", "likes"),                     # Portuguese
])
def test_a_stance_in_a_language_without_stance_words_is_not_rejected_for_lacking_one(quote, value):
    assert gate(quote, quote, "opinion:" + quote.split()[-1].strip("."), value, False) is None


@pytest.mark.parametrize("quote,attribute,value,reason", [
    # the five known languages: as strict as before
    ("I'm tired.", "preferred_name", "tired", "name_not_stated"),
    ("It's raining in Lyon.", "preferred_name", "Lyon", "name_not_stated"),
    ("We're planning a road trip to Hohhot in August.", "home_location", "Hohhot", "home_not_stated"),
    ("Nous partons en vacances à Nice.", "home_location", "Nice", "home_not_stated"),
    ("Wir fahren im Sommer nach Wien.", "home_location", "Wien", "home_not_stated"),
    ("emoji and RTL: 🙂 مرحبا reversed", "opinion:reversed", "dislikes", "value_not_in_quote"),
    # a language whose words are not known: the value must be in the quote and look like a name
    ("Mi chiamo Giulia.", "name", "Giulia2", "name_not_stated"),
    ("Меня зовут Алексей.", "name", "Иван", "value_not_in_quote"),
    ("Il mio sito è www.giulia.it", "name", "www.giulia.it", "name_not_stated"),
    ("Vado spesso a Torino per lavoro.", "preferred_name", "spesso", "name_not_stated"),
    ("Ik woon in Utrecht.", "home_location", "Amsterdam", "value_not_in_quote"),
])
def test_what_the_gates_still_reject(quote, attribute, value, reason):
    assert gate(quote, quote, attribute, value, False) == reason


@pytest.mark.parametrize("code,quote", [
    ("en", "Everyone calls me Bob."), ("fr", "Je m'appelle Claire et j'habite à Lyon."), ("de", "Ich wohne in Berlin."),
    ("zh", "我住在上海。"), ("it", "Mi chiamo Giulia."), ("pt", "Moro em Curitiba."), ("nl", "Ik woon in Utrecht."),
    ("ko", "저는 부산에 살아요."), ("ja", "私の名前は佐藤です。"), ("ar", "أسكن في عمّان."), ("th", "ฉันชื่อสมชาย"),
    ("uz", "Samarqandda yashayman, Registon ko'chasiga yaqin."), ("sq", "Unë jetoj në Tiranë."),
    ("my", "ကျွန်တော် ဖုန်းဝယ်ချင်တယ်"), ("tg", "Ман дар Душанбе зиндагӣ мекунам."),
])
def test_the_language_of_a_one_line_quote_is_identified(code, quote):
    assert identify(quote) == code


@pytest.mark.parametrize("text", ["ok", "Updated.", "Jack here.", "emoji and RTL: 🙂 مرحبا reversed", "12345"])
def test_a_line_too_short_or_mixed_to_tell_is_read_as_a_known_language(text):
    assert identify(text) is None and reads("naming", text)


def test_the_known_languages_are_those_whose_data_holds_the_kind():
    assert {"en", "fr", "de", "es", "zh", "it"} <= knowing("naming") and "sw" not in knowing("naming")
    assert reads("naming", "Je m'appelle Claire.") and not reads("naming", "Jina langu ni Wanjiru na ninaishi Nairobi.")


@pytest.mark.parametrize("value,quote,expected", [
    ("राहुल", "मेरा नाम राहुल है।", True),        # Devanagari: vowel signs are part of the word
    ("रमेश", "मेरा नाम राहुल है।", False),
    ("สมชาย", "ฉันชื่อสมชาย", True),             # Thai: no spaces
    ("민준", "제 이름은 민준입니다.", True),         # Korean: the name joined to its particle
    ("LINE", "用LINE通知我就好，不要打電話", True),   # a Latin name inside a script without spaces
    ("LINE", "LINE으로 연락 주세요", True),            # ... and joined to a Korean particle
    ("LINE", "用WhatsApp通知我", False),
    # an alphabet written without spaces: the value as written, not its letters found apart
    ("မြန်မာ", "အင်္ဂလိပ်လို မဟုတ်ဘဲ မြန်မာလို ပြောပေးပါ", True),
    ("မြန်မာ", "မင်္ဂလာပါ။ ကျွန်တော့်ဆိုင်အတွက် စာရင်းကိုင်ဆော့ဖ်ဝဲ ရှာနေတာပါ", False),   # each letter is in it
    ("冰美式", "我每天早上都是一杯冰的美式", True),      # Han characters are words: found apart, still named
    ("Казань", "Я живу в Казани.", True),         # a declined name shares its stem
    ("חיפה", "אני גר בתל אביב.", False),
])
def test_a_value_is_found_in_its_quote_in_every_script(value, quote, expected):
    assert supported(value, quote) is expected


def test_a_name_looks_like_one():
    assert looks_like_name("Giulia", "mi chiamo giulia", fact="L'utente si chiama Giulia.")  # the user's own casing
    assert looks_like_name("ليلى", "اسمي ليلى.")
    assert not looks_like_name("🙂", "🙂 ciao")
    assert not looks_like_name("Giulia", "Mi chiamo Anna.")


@pytest.mark.parametrize("quote,attribute,value,reason", [
    ("Mio fratello abita a Roma.", "home_location", "Roma", "quote_about_other_person"),
    ("Forse mi trasferisco a Milano l'anno prossimo.", "home_location", "Milano", "quote_is_hypothetical"),
    ("Ci penserò, grazie.", "decision:piano_annuale", "piano annuale", "quote_is_undecided"),
    ("Meu irmão mora em Recife.", "home_location", "Recife", "quote_about_other_person"),
    ("Vou pensar, obrigado.", "decision:plano_anual", "plano anual", "quote_is_undecided"),
])
def test_a_language_added_as_data_gets_its_speech_acts_read(quote, attribute, value, reason):
    # Italian and Portuguese data hold speech-act words but no naming or living phrases.
    assert gate(quote, quote, attribute, value, False) == reason


def test_a_known_languages_words_are_not_read_in_another_language():
    # French "il" (he) opens the Italian sentence; Spanish "y" is no joining word in French.
    assert gate("Il mio nome è Marco.", "Il mio nome è Marco.", "name", "Marco", False) is None
    assert gate("Je vais y réfléchir.", "Je vais y réfléchir.", "decision", None, False) == "quote_is_undecided"


# (quote, attribute, value, fact): a stance slot named in English while the user speaks another language; the
# fact, in the conversation's language, names what the quote speaks of.
STANCES_NAMED_IN_ENGLISH = [
    ("Adoro il caffè ristretto", "favourite:coffee", "likes", "L'utente adora il caffè ristretto."),
    ("jag älskar kanelbullar", "favourite:pastry", "likes", "Användaren älskar kanelbullar."),
    ("Tôi rất thích cà phê sữa đá.", "favourite:coffee", "likes", "Người dùng rất thích cà phê sữa đá."),
    ("ไม่ชอบทุเรียนเลย", "opinion:durian", "dislikes", "ผู้ใช้ไม่ชอบทุเรียน"),
    ("En pidä korianterista ollenkaan.", "opinion:coriander", "dislikes", "Käyttäjä ei pidä korianterista."),
]


@pytest.mark.parametrize("quote,attribute,value,fact", STANCES_NAMED_IN_ENGLISH)
def test_a_stance_slot_named_in_english_is_backed_by_its_fact_in_the_users_language(quote, attribute, value, fact):
    assert gate(quote, quote, attribute, value, False, fact=fact) is None


def test_a_stance_whose_fact_names_something_the_quote_does_not_say_is_rejected():
    assert gate("Adoro il caffè ristretto", "Adoro il caffè ristretto", "favourite:pizza", "likes", False,
                fact="L'utente adora la pizza.") == "value_not_in_quote"
    assert gate("ชอบกินส้มตำ", "ชอบกินส้มตำ", "favourite:pizza", "likes", False,
                fact="ผู้ใช้ชอบพิซซ่า") == "value_not_in_quote"
    assert gate("Ich hasse es", "Ich hasse es", "opinion:crowds", "dislikes", False,
                fact="Der Nutzer hasst Menschenmassen.") == "value_not_in_quote"  # a stance word names nothing


def test_a_phrase_value_may_differ_in_one_inflected_word_a_short_value_may_not():
    assert supported("не ест мясо", "Я не ем мясо уже пять лет.")
    assert not supported("New York", "I live in York.")
    assert not supported("Lyon France", "I live in Lyon.")


def test_a_person_the_user_lives_with_is_no_subject_where_the_verb_alone_says_i():
    quote = "Moro em Curitiba com meu marido."
    assert gate(quote, quote, "home_location", "Curitiba", False, fact="O usuário mora em Curitiba.") is None
    sister = "Minha irmã mora em Curitiba."
    assert gate(sister, sister, "home_location", "Curitiba", False) == "quote_about_other_person"


def test_a_value_written_in_latin_letters_is_found_in_a_quote_of_another_script():
    assert supported("Kazan", "Кстати, живу в Казани")
    assert supported("Priya", "मेरा नाम प्रिया है")
    assert not supported("Moscow", "Кстати, живу в Казани")


# A 1.5B model's answers on the multilingual set that only a language's own speech-act words can read.
SPEECH_ACTS_AS_DATA = [
    ("Min man jobbar som polis och han hatar sushi.", "job", "polis", "quote_about_other_person"),  # sv
    ("Saya masih bingung antara paket Team dan paket Business, minggu depan saya putuskan.",  # id
     "decision:plan", "putuskan", "quote_is_undecided"),
    ("Αν κέρδιζα το λαχείο, θα αγόραζα ένα σπίτι στη Νάξο.", "home_location", "Νάξο", "quote_is_hypothetical"),  # el
    ("الفواتير تصلنا بالدولار دائماً. نريدها بالدرهم الإماراتي، من فضلكم.", "home_location", "الدولار",  # ar
     "home_not_stated"),
    ("أسكن في عمّان منذ عشر سنوات", "home_location", "عمّان", None),
    ("Мене звати Оксана.", "name", "Оксана", None),  # uk, read as Russian, the language beside it with data
]


@pytest.mark.parametrize("quote,attribute,value,reason", SPEECH_ACTS_AS_DATA)
def test_a_language_added_as_data_is_read_by_the_gates(quote, attribute, value, reason):
    assert gate(quote, quote, attribute, value, False) == reason


def test_a_bare_name_answering_a_question_for_the_name_passes_and_must_look_like_one():
    asked = ["Können Sie mir bitte Ihren Namen und die Postleitzahl nennen?"]
    message = "Klar, Sabine Krüger, 44137."
    assert gate("Sabine Krüger", message, "name", "Sabine Krüger", False, answered=asked) is None
    assert gate("Sabine Krüger", message, "name", "Sabine Krüger", False) == "name_not_stated"
    assert gate("Klar, Sabine Krüger, 44137", message, "name", "44137", False, answered=asked) == "name_not_stated"
    other = ["Können Sie mir bitte die Postleitzahl nennen?"]  # a question, but not for the name
    assert gate("Sabine Krüger", message, "name", "Sabine Krüger", False, answered=other) == "name_not_stated"


def test_a_lower_case_name_passes_after_i_or_im_where_the_user_writes_in_lower_case_only():
    message = "selam ben emre izmirde yaşıyorum yazılımcıyım bi de evde iki tane kedim var"
    assert looks_like_name("emre", "ben emre", message)
    assert not looks_like_name("emre", "ben emre", "Selam ben emre, İzmir'de yaşıyorum")
    assert not looks_like_name("stanco morto", "stanco morto", "stanco morto oggi")  # no "I" before it


def test_reported_speech_in_chinese_needs_someone_who_says_it():
    message = "是啊。先说一下，我对花生过敏，挺严重的，推荐餐厅的时候帮我注意一下"
    assert gate("我对花生过敏", message, "allergy", "花生", False) is None
    assert gate("她对花生过敏", "我朋友说她对花生过敏。", "allergy", "花生", False) == "quote_about_other_person"


def test_a_question_after_a_joining_word_asks_and_a_fact_run_into_a_question_stands():
    quote = "oye y cuánto tiempo se tarda en hacer la dorada a la sal?"
    assert gate(quote, quote, "food", "dorada a la sal", False) == "quote_is_question"
    for quote, attribute, value in [("I'm vegan so what can I cook tonight?", "diet", "vegan"),
                                    ("Vivo en Madrid dónde puedo comer bien?", "home_location", "Madrid")]:
        assert gate(quote, quote, attribute, value, False) is None, quote


def test_a_condition_opening_a_sentence_of_the_quote_or_what_follows_a_colon_is_hypothetical():
    for quote, value in [("Domanda curiosa: se abitassi a Roma, quanto spenderei per un bilocale?", "Roma"),
                         ("Caspita. E se lavorassi da remoto per un'azienda tedesca, mi converrebbe?", "remoto")]:
        assert gate(quote, quote, "home_location", value, False) == "quote_is_hypothetical", quote
    for quote, value in [("I live in Rome, if that matters.", "Rome"),
                         ("I'm vegan, if that matters, and I live in Oslo.", "Oslo"),
                         ("Si, j'habite à Lyon.", "Lyon"),
                         ("I live in Rome. If I get the job, I'll move to Zurich.", "Rome")]:
        assert gate(quote, quote, "home_location", value, False) is None, quote


def test_in_laws_are_other_people():
    quote = "uf no sé, a mi suegro le encanta el pescado pero mi cuñado es alérgico al marisco"
    assert gate(quote, quote, "food", "pescado", False) == "quote_about_other_person"


def test_hebrew_and_czech_as_data_a_pronoun_or_a_greeting_is_no_name():
    assert gate("אני צריך עזרה לכתוב קורות חיים", "אני צריך עזרה לכתוב קורות חיים", "name", "אני",
                False) == "name_not_stated"
    assert gate("שמי נועה", "שמי נועה", "name", "נועה", False) is None
    assert gate("Ahoj, jak se máš?", "Ahoj, jak se máš?", "name", "Ahoj", False) is not None
    assert gate("Jsem Petra a bydlím v Brně.", "Jsem Petra a bydlím v Brně.", "name", "Petra", False) is None
    assert gate("אשתי מורה ואני מהנדס", "אשתי מורה ואני מהנדס", "job", "מהנדס", False) is None  # "and I"
    assert gate("bydlim v Brne", "bydlim v Brne", "home_location", "Brno", False) is None  # no diacritics
    assert gate("Díky moc, hezký večer!", "Díky moc, hezký večer!", "opinion:večer", "likes",
                False) == "quote_is_pleasantry"


def test_a_decision_on_its_object_stands_when_the_quote_says_it_is_decided():
    quote = "Dzień dobry, zdecydowałem się na pakiet Premium za 59 zł miesięcznie"
    assert gate(quote, quote, "decision:premium", "purchase", False) is None
    complaint = "Nie przyszedł mi pakiet Premium."  # the object, but nothing decided: still no decision
    assert gate(complaint, complaint, "decision:premium", "purchase", False) == "value_not_in_quote"


def test_a_full_name_opening_an_answer_is_no_greeting_even_when_the_request_asks_without_a_question_mark():
    # Estonian: "Please tell your name and ID code." asks with a full stop; the name opens the answer
    answered = ["Palun öelge oma nimi ja isikukood."]
    message = "Kadri Tamm, isikukoodi ütlen parem telefoni teel."
    assert gate("Kadri Tamm", message, "name", "Kadri Tamm", False, answered=answered) is None
    # ... while a one-word opening said unasked stays a greeting, capitalised or not
    for opening in ("labdien", "Labdien"):
        message = f"{opening}, atkal es par plauktiem"
        assert gate(message, message, "employer", opening, False) == "value_is_greeting"


@pytest.mark.parametrize("message,value", [
    ("केही छैन, त्यसै हेलो भन्न आएको 😄 हिजो धेरै मद्दत गर्यौ, धन्यवाद है", "त्यसै"),  # Nepali: "just" came to say hello
    ("नमस्कार, मला माझ्या क्लासच्या जाहिरातीसाठी मदत हवी आहे", "मला माझ्या"),        # Marathi: "to me, my"
])
def test_a_word_of_a_script_without_capitals_is_no_name_where_the_language_knows_its_naming_words(message, value):
    assert gate(message, message, "name", value, False, answered=["के मद्दत गरूँ?"]) == "name_not_stated"


@pytest.mark.parametrize("message,value,answered", [
    ("माझं नाव प्रिया आहे", "प्रिया", []),
    ("मेरो नाम सीता हो", "सीता", []),
    ("सीता", "सीता", ["तपाईंको नाम के हो?"]),   # a bare name answering a question for it
])
def test_a_nepali_or_marathi_name_said_with_its_naming_words_passes(message, value, answered):
    assert gate(message, message, "name", value, False, answered=answered) is None


def test_a_sentence_ends_at_its_scripts_full_stop_and_not_inside_an_amount_or_an_address():
    from memory_pipeline.domain.speech import sentences
    assert sentences("My card was charged £84.60 twice. Write to jane.doe@mail.co.uk please!") == [
        "My card was charged £84.60 twice.", "Write to jane.doe@mail.co.uk please!"]
    assert sentences("Բարև։ Ես ապրում եմ Երևանում։") == ["Բարև։", "Ես ապրում եմ Երևանում։"]          # Armenian
    assert sentences("ሰላም። ስሜ አበበ ነው።") == ["ሰላም።", "ስሜ አበበ ነው።"]                                  # Amharic
    assert sentences("ខ្ញុំរស់នៅភ្នំពេញ។ អរគុណ។") == ["ខ្ញុំរស់នៅភ្នំពេញ។", "អរគុណ។"]                      # Khmer


@pytest.mark.parametrize("answer,value,question", [
    ("In Leeds.", "Leeds", "Nice! Where do you live?"),
    ("À Lyon.", "Lyon", "Vous habitez où ?"),
    ("En Sevilla.", "Sevilla", "¿Dónde vives?"),
    ("In Köln.", "Köln", "Wo wohnst du?"),
])
def test_a_bare_place_answering_where_the_user_lives_is_a_home(answer, value, question):
    assert gate(answer, answer, "home_location", value, False, answered=[question]) is None


@pytest.mark.parametrize("answer,value,question", [
    ("In Leeds.", "Leeds", "Where are you travelling?"),
    ("À Lyon.", "Lyon", "Vous travaillez où ?"),        # where the user works is no home
    ("In Leeds.", "Leeds", "I live in York myself."),   # said, not asked
])
def test_a_bare_place_answering_anything_else_is_no_home(answer, value, question):
    assert gate(answer, answer, "home_location", value, False, answered=[question]) == "home_not_stated"


@pytest.mark.parametrize("quote,attribute,value", [
    ("fantastisk, pakken er forsinket for tredje gang, akkurat det jeg drømte om 🙄", "opinion:pakken", "dislikes"),
    ("super, encore une panne 😒", "opinion:panne", "likes"),
])
def test_an_eye_roll_makes_a_sentence_sarcasm_in_any_language(quote, attribute, value):
    assert gate(quote, quote, attribute, value, False) == "quote_is_sarcasm"


def test_a_sincere_emoji_is_no_sarcasm():
    quote = "Eu adoro pizza 🍕"
    assert gate(quote, quote, "opinion:pizza", "likes", False) is None


def test_a_korean_value_is_found_as_its_syllables_in_a_row_not_as_letters_apart():
    # Folded, Hangul is jamo: the letters of 대전 (Daejeon) are in any Korean sentence ("그대로 유지되나요?").
    assert supported("대전", "고양이 두 마리 키우고 있어요. 대전 살고요")
    assert supported("대전", "대전에 살아요")  # a particle after it
    assert supported("카톡", "연락은 카톡으로 주세요")
    assert not supported("대전", "혹시 나중에 제주도로 이사 가게 되면 보험은 그대로 유지되나요?")
    assert not supported("카톡", "전화는 잘 못 받아요, 톡으로 주세요")


def test_a_georgian_name_in_its_usual_letters_looks_like_a_name():
    # Mkhedruli has capitals in Unicode (Mtavruli) that ordinary Georgian never writes (holdout5, right answers)
    assert looks_like_name("ნინო ბერიძე", "ნინო ბერიძე", "ნინო ბერიძე")
    asked = ["გთხოვთ, მითხრათ თქვენი სახელი და გვარი."]  # please tell me your name and surname
    assert gate("ნინო ბერიძე", "ნინო ბერიძე", "full_name", "ნინო ბერიძე", False, answered=asked) is None
    assert gate("ნინო ბერიძე", "ნინო ბერიძე", "full_name", "ნინო ბერიძე", False) == "name_not_stated"  # unasked
    assert not looks_like_name("ნინო ბერიძე", "ნინო", "ნინო")  # still said in the quote


def test_a_space_parts_phrases_in_a_script_written_without_spaces():
    # Khmer: "I live in Phnom Penh" then "can you deliver home in the evening?" (holdout3, right answers)
    message = "ខ្ញុំរស់នៅភ្នំពេញ ផ្ញើមកផ្ទះពេលល្ងាចបានទេ?"
    assert gate("ខ្ញុំរស់នៅភ្នំពេញ", message, "city", "ភ្នំពេញ", False) is None
    assert gate("ផ្ញើមកផ្ទះពេលល្ងាចបានទេ?", message, "delivery_instruction", "ផ្ញើមកផ្ទះ", False) == "quote_is_question"


def test_a_thai_request_for_from_now_on_is_a_standing_instruction_not_a_question():
    standing = "ต่อไปแจ้งโปรผ่านไลน์แทนได้ไหมคะ"  # from now on tell me the promotions on LINE instead, can you?
    assert gate(standing, standing, "contact_channel", "ไลน์", False) is None
    once = "ส่งทางอีเมลได้ไหมคะ"  # can you send it by email? (this once: a question)
    assert gate(once, once, "contact_channel", "อีเมล", False) == "quote_is_question"


def test_a_stem_whose_vowel_changes_as_it_inflects_is_the_same_word_in_an_alphabet_with_case():
    assert supported("Львів", "Я живу у Львові.")  # Ukrainian: і -> о before the ending (multilingual, right answers)
    assert supported("Харків", "Ми жили в Харкові")
    assert not supported("Paris", "I live in Parma") and not supported("Berlin", "Bergen is lovely")
    assert not supported("అమ్మగారికి", "అమ్మకి తోటపని అంటే చాలా ఇష్టం")  # Telugu: one syllable shared is no word


@pytest.mark.parametrize("message, value, fact", [
    ("naitwa wanjiru kamau, naishi kasarani hapa nairobi", "wanjiru kamau", "Mtumiaji anaitwa Wanjiru Kamau."),
    ("ég heiti sigrún björk, er nýflutt í hafnarfjörð", "sigrún björk", "Notandinn heitir Sigrún Björk."),
    ("igama lami ngu thandiwe mkhize", "thandiwe mkhize", "Igama lomsebenzisi ngu-Thandiwe Mkhize."),
])
def test_a_name_typed_in_lower_case_is_a_name_when_the_models_fact_writes_it_as_one(message, value, fact):
    # holdout6, right answers: users type names in lower case in every language
    assert gate(message.split(",")[0], message, "name", value, False, fact=fact) is None
    assert gate(message.split(",")[0], message, "name", value, False, fact=f"The user is {value}.") == (
        "name_not_stated")  # the model did not write it as a name


def test_a_bare_name_is_a_name_when_the_assistant_asked_for_it_or_calls_the_user_so():
    message = "kadri tamm, 5123 4567"
    asked = ["Tere! Palun öelge oma nimi ja telefoninumber."]  # Estonian, no data: the request has no "?"
    assert gate("kadri tamm", message, "name", "kadri tamm", False, answered=asked,
                replied=["Aitäh, Kadri. Kust kuller paki peale võtab?"]) is None
    assert gate("kadri tamm", message, "name", "kadri tamm", False, answered=asked) == "name_not_stated"
    # Nepali knows the name noun: a request for it ("... give your name and order number") asks for a name
    nepali = ["नमस्ते! माफ गर्नुहोस्। तपाईंको नाम र order नम्बर दिनुहोस्।"]
    assert gate("सुजिता गुरुङ", "सुजिता गुरुङ, order नं. NP-88213", "name", "सुजिता गुरुङ", False,
                answered=nepali) is None
    # An echoed greeting opens the reply: it names nobody
    assert gate("labdien", "labdien, atkal es", "name", "labdien", False, replied=["Labdien! Kā varu palīdzēt?"]) == (
        "name_not_stated")


def test_letters_without_a_decomposition_fold_to_the_plain_letter_users_type():
    from memory_pipeline.domain.folding import fold
    assert fold("Məmmədova acı") == "memmedova aci" and fold("Łódź") == "lodz" and fold("København") == "kobenhavn"
    assert supported("acı", "daha aci yemirem")


def test_a_name_in_latin_letters_is_found_by_its_consonants_in_another_script():
    assert supported("Rohit Sharma", "मेरा नाम रोहित शर्मा है")  # transliterated "rohit srma": r-h-t, s-r-m
    assert not supported("Amman", "أنا ساكنة في عمّان")  # two consonants are in too many words
    assert not supported("reading", "আর একটা কথা, আমার চিংড়িতে এলার্জি আছে")


def test_a_persian_condition_is_read_now_that_persian_is_data():
    # "if one day I go to live in Shiraz, does my subscription keep working?" (holdout5, the 1.5B model)
    quote = "اگه یه روزی برم شیراز زندگی کنم، اشتراکم همینطوری کار می‌کنه یا باید عوضش کنم؟"
    assert gate(quote, quote, "home_location", "Shiraz", False) == "quote_is_hypothetical"


def test_a_name_is_capitalised_as_the_user_wrote_it_and_vouched_for_by_a_fact_in_the_chats_language():
    # "hi, how many bonuses do I have?": the 1.5B model's name "Бонустарым", its fact in English (holdout6)
    asked = "салем, бонустарым канша болды?"
    assert gate(asked, asked, "name", "Бонустарым", False, fact="The user is named Bonustarым.") == "name_not_stated"
    said = "naitwa wanjiru kamau, naishi kasarani hapa nairobi"
    assert gate("naitwa wanjiru kamau", said, "name", "Wanjiru Kamau", False,
                fact="Mtumiaji anaitwa Wanjiru Kamau.") is None
    assert gate("naitwa wanjiru kamau", said, "name", "Wanjiru Kamau", False,
                fact="The user's name is Wanjiru Kamau.") == "name_not_stated"


def test_a_thai_condition_conditions_its_own_phrase_not_the_statement_before_it():
    # "oh, I'm allergic to peanuts, if you suggest food after a workout leave them out" (holdout set 8)
    said = "โอเคค่ะ อ้อ ดิฉันแพ้ถั่วลิสงนะคะ ถ้าจะแนะนำอาหารหลังออกกำลังกายอย่าใส่ถั่วลิสง"
    assert gate("ดิฉันแพ้ถั่วลิสงนะคะ", said, "allergy", "ถั่วลิสง", False) is None
    assert gate("ถ้าจะแนะนำอาหารหลังออกกำลังกายอย่าใส่ถั่วลิสง", said, "allergy", "ถั่วลิสง",
                False) == "quote_is_hypothetical"
    # "good, let's go with that, but if it rains ... if I moved to a condo with a gym it'd be better"
    agreed = "ดีค่ะ เอาตามนั้นเลย แต่ถ้าวันไหนฝนตกก็คงวิ่งไม่ได้ ถ้าย้ายไปอยู่คอนโดที่มีฟิตเนสก็คงดีกว่านี้"
    offer = "ได้ค่ะ แนะนำวิ่งเช้าวันเสาร์ และโยคะเช้าวันอาทิตย์ดีไหมคะ"
    assert gate("ดีค่ะ เอาตามนั้นเลย", agreed, "workout_plan", "วิ่งวันเสาร์ โยคะวันอาทิตย์", False,
                answered=[offer]) is None
    assert gate("ถ้าย้ายไปอยู่คอนโดที่มีฟิตเนสก็คงดีกว่านี้", agreed, "home_location", "คอนโด",
                False) == "quote_is_hypothetical"
    # an if-phrase keeps its consequence: "if I get this job, I'll move to Chiang Mai" (a review of session 21)
    move = "ถ้าได้งานนี้ ผมจะย้ายไปเชียงใหม่"
    assert gate(move, move, "home_location", "เชียงใหม่", False) == "quote_is_hypothetical"
    assert gate("ผมจะย้ายไปเชียงใหม่", move, "home_location", "เชียงใหม่", False) == "quote_is_hypothetical"


def test_a_phrase_in_a_script_without_spaces_is_found_in_close_runs_in_another_order_a_name_as_written():
    # "Saturday and Sunday mornings" for "usually free only Saturday with Sunday, mornings" (holdout set 8)
    assert supported("เช้าวันเสาร์และวันอาทิตย์", "ปกติว่างแค่วันเสาร์กับวันอาทิตย์ตอนเช้า")
    assert not supported("เชียงใหม่", "สวัสดีค่ะ ดิฉันชื่อพิมพ์ชนก เรียกพิมพ์ก็ได้ค่ะ ช่วยจัดตารางออกกำลังกายให้หน่อยค่ะ")
    assert not supported("มังคุด", "ฉันชอบทุเรียนมาก")
    # a review of session 21: Chiang Mai is not "Chiang Rai ... New Year"; two bedrooms are not three; Vientiane
    # is not Viangxay ... Chanthabouly; "can eat spicy" is not said by "can't"
    assert not supported("เชียงใหม่", "ฉันเคยไปเชียงรายเมื่อปีที่แล้ว ช่วงเทศกาลปีใหม่สนุกมากเลยค่ะ")
    assert not supported("ห้องนอน 2 ห้อง", "อยากได้ห้องนอน 3 ห้องค่ะ")
    assert not supported("ວຽງຈັນ", "ຂ້ອຍຢູ່ວຽງໄຊ ແລະ ຈັນທະບູລີ")
    assert not supported("กินเผ็ดได้ทุกอย่าง", "กินเผ็ดไม่ได้เลยทุกอย่างค่ะ")


def test_an_arabic_value_with_its_article_is_found_after_a_joined_preposition_only():
    # "the Saudi riyal" in "we decided to move the billing to the Saudi riyal instead of the dollar"
    said = "قررنا نحول الفوترة للريال السعودي بدل الدولار"
    assert supported("الريال السعودي", said)
    assert not supported("الدينار", said)
    assert not supported("المدينة", "أعيش في مدينة صغيرة")  # Medina, not "a small city"
    assert not supported("הרצליה", "אני גר ברצליה")  # Hebrew "ה" starts names: no article taken off


def test_a_korean_fact_names_what_its_quote_says_by_a_shared_stem():
    from memory_pipeline.domain.value_support import names_what_quote_says
    # "the user dislikes cucumber" for "I really dislike cucumber, leave it out of my salad" (holdout set 8)
    assert names_what_quote_says("사용자는 오이를 싫어한다.", "저 오이 진짜 싫어해서 샐러드에 오이 빼주세요")
    # "likes cucumber" for "cucumber tastes so good lately": the object alone is shared, not what is said of it
    assert not names_what_quote_says("사용자는 오이를 좋아한다.", "요즘 입맛이 바뀌었는지 오이가 너무 맛있어요")


@pytest.mark.parametrize("value, quote", [
    ("email", "أرجو أن يكون التواصل عبر البريد الإلكتروني فقط"),   # the 1.5B model's answers on holdout set 7
    ("WeChat", "以后都发微信吧,邮箱我基本不看"),
    ("line", "ต่อไปแจ้งโปรผ่านไลน์แทนได้ไหมคะ"),
    ("e-mail", "Bitte kontaktieren Sie mich künftig nur noch per Mail"),
    ("phone", "Позвоните мне, пожалуйста, после шести"),
    ("WhatsApp", "me chama só no zap"),
])
def test_a_contact_channel_named_in_english_is_found_by_its_name_in_the_quotes_language(value, quote):
    assert supported(value, quote)
    assert gate(quote, quote, "contact_channel", value, False) is None


@pytest.mark.parametrize("value, quote", [
    ("email", "ja klantnummer is 55-20817"),          # a 1.5B model's channel of a customer number
    ("phone", "panggil aja Dimas kak"),               # "just call me Dimas": a name, no phone
    ("WeChat", "以后都发邮件吧"),                      # another channel named
    # a review of session 21: a name given, and words a channel's name hides in
    ("phone", "You can call me Jack"), ("phone", "Me llamo Carlos"), ("phone", "Je m'appelle Marie"),
    ("line", "ฉันซื้อของออนไลน์บ่อย"), ("line", "온라인으로 주문했어요"), ("line", "オンラインで買いました"),
    ("email", "Я почти дома"), ("phone", "ดูโทรทัศน์ทุกคืน"), ("WhatsApp", "hii ni kwa ajili ya watoto wa shule"),
])
def test_a_contact_channel_the_quote_does_not_name_is_not_supported(value, quote):
    assert not supported(value, quote)


def test_a_stem_vowel_changes_as_it_inflects_but_a_letter_put_in_makes_another_name():
    assert supported("Львів", "Я живу у Львові") and supported("Харків", "ми з Харкова, живемо у Харкові")
    assert not supported("Мариана", "Для доставки контактное лицо — Марина.")  # a break-it review (session 20)


def test_an_email_address_is_found_whole():
    said = "my email is Anna.Kowalska@gmail.com"
    assert supported("anna.kowalska@gmail.com", said)
    assert not supported("anna.nowak@gmail.com", said)  # a break-it review: three words of four were enough
    # ... as people type or say it, never inside a longer one (a review of session 21)
    assert supported("anna.nowak@gmail.com", "anna dot nowak at gmail dot com")
    assert supported("anna.nowak@gmail.com", "write to anna.nowak [at] gmail.com please")
    assert not supported("anna.nowak@gmail.com", "xanna.nowak@gmail.com.pl")
    assert supported("invoices to billing@example.org", "Please send invoices to billing@example.org from now on.")


def test_a_channel_named_in_a_negated_clause_is_not_the_one_chosen():
    # a review of session 21: "I have no WeChat, email me"; "don't send it to my email"; "no more mails"
    assert not supported("WeChat", "我没有微信，请发邮件给我") and supported("email", "我没有微信，请发邮件给我")
    assert not supported("email", "لا ترسلوا لي على البريد الإلكتروني")
    assert not supported("email", "Bitte keine Mails mehr")
    assert gate("以后都发微信吧,邮箱我基本不看", "以后都发微信吧,邮箱我基本不看", "contact_channel", "WeChat", False) is None


def test_a_long_word_of_a_suffixing_language_is_found_inflected():
    # holdout set 8: "graphic design" for "I mostly do graphic design" (partitive case), in Finnish
    said = "joo kiitos, mieluiten Mac, teen enimmäkseen graafista suunnittelua"
    assert supported("graafinen suunnittelu", said)
    assert not supported("Australia", "Asun nykyään Itävallassa, Austriassa")  # not another country
    assert not supported("Tampereen yliopisto", "opiskelen Tampellan kirjastossa")  # another place: stems differ
