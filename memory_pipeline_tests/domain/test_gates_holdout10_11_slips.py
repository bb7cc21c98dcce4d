"""The 1.5B model's slips and the right answers lost on the tenth and eleventh unseen sets (holdout10, holdout11),
held by rules of every language or by a language's data (issues 25, 26), and a break-it review's findings on those
rules: questions after a greeting or ending in a clause without the user, irony, Greek relatives, month names, where
the user says they are, transliterated names, a short line read in its chat's language, Catalan and Urdu as data,
an assent accepting the offer asked. Each right answer beside its slip still stands."""

import pytest

from memory_pipeline.domain.gates import gate

# (quote, attribute, value, reason): reason None for a right answer.
CASES = [
    # A greeting or thanks before a question does not make the question a statement.
    ("oi! quanto custa a entrega em Curitiba?", "home_location", "Curitiba", "quote_is_question"),
    ("hi! do you deliver to Leeds?", "home_location", "Leeds", "quote_is_question"),
    ("oi! moro em Curitiba.", "home_location", "Curitiba", None),
    # The clause ending a sentence with its own question mark, without a word of the user, asks.
    ("eu moro em BH, sabe se tem algum evento de kdrama por aqui?", "hobby", "kdrama", "quote_is_question"),
    ("eu moro em BH, sabe se tem algum evento de kdrama por aqui?", "home_location", "BH", None),
    ("I live in Leeds, any good vegan places near the station?", "diet", "vegan", "quote_is_question"),
    ("I live in Leeds, any good vegan places near the station?", "home_location", "Leeds", None),
    ("I'm vegan so what can I cook tonight?", "diet", "vegan", None),
    ("Sou vegetariana, tem opção sem carne?", "diet", "vegetariana", None),
    # ... but not a clause whose "I" is in its verb, after one that asks (a break-it review).
    ("Tem alguma opção sem carne, porque sou vegetariana?", "diet", "vegetariana", None),
    # A Greek noun stressed three syllables from its end takes a second accent before "μου" (my).
    ("ο συνάδελφός μου ο Νίκος λατρεύει το τσίπουρο", "name", "Νίκος", "quote_about_other_person"),
    ("η σύζυγός μου μένει στην Αθήνα", "home_location", "Αθήνα", "quote_about_other_person"),
    ("μένω στην Αθήνα", "home_location", "Αθήνα", None),
    # An upside-down face is irony at a stance in its sentence, not at a plain statement.
    ("love it when it logs me out every 5 min 🙃🙃", "opinion:app", "likes", "quote_is_sarcasm"),
    ("I love this app 🙃", "opinion:app", "likes", "quote_is_sarcasm"),
    ("I live in Leeds now 🙃", "home_location", "Leeds", None),
]


@pytest.mark.parametrize(("quote", "attribute", "value", "reason"), CASES)
def test_questions_and_irony_in_every_language(quote, attribute, value, reason):
    assert gate(quote, quote, attribute, value, False) == reason


def test_a_month_name_is_no_home_unless_the_chat_writes_it_as_a_place():
    # "the cabin trip moved to July ...": the 1.5B model's "The user lives in Heinäkuus." (holdout set 10)
    said = "hei, mökkireissu siirty heinäkuulle kun yks kaveri ei pääse kesäkuussa, nyt se on heinäkuun 4. päivä"
    assert gate(said, said, "home_location", "Heinäkuus", False) == "home_not_stated"
    assert gate("vivo en Junín desde hace años", "vivo en Junín desde hace años", "home_location", "Junín",
                False) is None  # a town, though Spanish "junio" is June


@pytest.mark.parametrize(("quote", "value", "reason"), [
    ("i stay in Port Harcourt yes, GRA side.", "Port Harcourt", None),  # Nigerian English "I live" (holdout 10)
    ("I'll stay in a hotel in Rome", "Rome", "home_not_stated"),  # a stay, not a home
    ("집이 마포라서 합정점 다니려고요", "마포", None),  # "my home is in Mapo, so ..." (holdout 9)
    ("Karşıyaka'dayım, İzmir.", "Karşıyaka", None),  # "I'm in Karşıyaka" (holdout 6)
])
def test_living_said_as_the_language_says_it_is_a_home(quote, value, reason):
    assert gate(quote, quote, "home_location", value, False) == reason


@pytest.mark.parametrize(("quote", "value", "reason"), [
    ("मेरा नाम रोहित शर्मा है", "Rohit Sharma", None),  # "my name is Rohit Sharma", written in Latin (holdout 5)
    ("ਮੇਰਾ ਨਾਮ ਹਰਪ੍ਰੀਤ ਕੌਰ ਹੈ, ਲੁਧਿਆਣੇ ਤੋਂ", "Harpreet", None),  # Punjabi, a language without data
    ("নাম তানিয়া রহমান", "Tania", None),
    ("салем, бонустарым канша болды", "Bonustarym", "name_not_stated"),  # Cyrillic has case: none here
])
def test_a_name_of_a_script_without_case_written_in_latin_letters_is_a_name(quote, value, reason):
    assert gate(quote, quote, "name", value, False, fact=f"The user's name is {value}.") == reason


def test_a_short_line_is_read_in_the_language_of_the_users_chat():
    # "moro no Porto" alone is not told, so every language's living words read it and find none; the user's lines
    # together are Portuguese, a language without living words: the home is let through to the checks of every
    # language. A Sinhala chat full of English words cannot be told: its short line is read as itself.
    line = "moro no Porto"
    chat = ("Olá, queria mudar a morada de entrega da minha encomenda, porque agora trabalho noutra cidade e não "
            "está ninguém em casa durante o dia. " + line)
    assert gate(line, line, "home_location", "Porto", False) == "home_not_stated"
    assert gate(line, line, "home_location", "Porto", False, chat=chat) is None
    sinhala = "මම ඉන්නේ මහනුවර"
    mixed = "ආයුබෝවන්, මට vehicle insurance එකක් ගන්න ඕනේ " + sinhala + " full එක ගන්නම්, third party එපා"
    assert gate(sinhala, sinhala, "home_location", "මහනුවර", False, chat=mixed) is None


def test_catalan_is_read_with_its_own_words_and_spanish_ones():
    # "Visc a Girona" (I live in Girona, holdout set 11) was told as Romanian, whose living words found none
    chat = ("Bon dia! Voldria canviar l'adreça d'enviament de la meva comanda, perquè ara treballo fora i no hi ha "
            "ningú a casa durant el dia. ")
    line = "Visc a Girona, al barri de Montilivi."
    assert gate(line, line, "home_location", "Girona", False, chat=chat + line) is None
    assert gate("Em dic Jordi Puigvert", "Em dic Jordi Puigvert", "name", "Jordi Puigvert", False) is None
    for quote, attribute, value in [("la meva germana viu a Vic", "home_location", "Vic"),
                                    ("mi hermana es vegana", "diet", "vegana")]:  # a Spanish line of the chat
        assert gate(quote, quote, attribute, value, False, chat=chat + quote) == "quote_about_other_person"


@pytest.mark.parametrize(("quote", "value", "reason"), [
    ("I'm in Fremantle, just off South Terrace.", "Fremantle", None),  # holdout set 11
    ("im in auckland so anything before 9am my time i wont see", "auckland", None),  # holdout set 6
    ("Ahora estoy en Monterrey y doy clases de biología en una prepa.", "Monterrey", None),  # holdout set 11
    ("je suis sur Lyon", "Lyon", None),
    ("I'm in Paris for a conference", "Paris", "home_not_stated"),  # a stay, not a home
    ("I'm in Rome on holiday", "Rome", "home_not_stated"),  # a trip
])
def test_where_the_user_is_said_to_be_is_a_home_unless_a_stay(quote, value, reason):
    assert gate(quote, quote, "home_location", value, False) == reason


# What a break-it review of these rules found (session 23, 315 probes in 33 languages), each mended and kept.
REVIEW = [
    ("Hey! Can you stop sending me SMS?", "contact_channel", "sms", True, None),  # a request, not a question
    ("Tem alguma opção sem carne, porque sou vegetariana?", "diet", "vegetariana", False, None),
    ("Μένω στην Πάτρα με τον συνάδελφό μου", "home_location", "Πάτρα", False, None),  # "with" and an article
    ("Εγώ και ο συνάδελφός μου είμαστε χορτοφάγοι", "diet", "χορτοφάγος", False, None),  # "we are"
    ("I hate Mondays 🙃", "opinion:mondays", "dislikes", False, None),  # irony flips a liking, not a dislike
    ("I love sushi, but work has been insane this week 🙃", "opinion:sushi", "likes", False, None),
    ("Love the new dark mode! Shame about the crashes 🙃", "opinion:dark_mode", "likes", False, None),
    ("vivo en sabadell", "home_location", "sabadell", False, None),  # "sábado" is no whole name in it
    ("abito ad aprilia, in provincia di latina", "home_location", "Aprilia", False, None),  # English whole only
    ("I'm in love with Lisbon", "home_location", "Lisbon", False, "home_not_stated"),  # the place not right after
    ("I usually stay at the Marriott when I'm in Dubai", "home_location", "Dubai", False, "home_not_stated"),
    ("Bu hafta Ankara'dayım, toplantı var", "home_location", "Ankara", False, "home_not_stated"),  # this week
    ("친구 집이 강남이라 자주 가요", "home_location", "강남", False, "home_not_stated"),  # a friend's home
    ("আমি ঢাকায় থাকি", "name", "Dhaka", False, "name_not_stated"),  # no "name" in the clause
    ("ਮੇਰਾ ਨਾਮ ਹਰਪ੍ਰੀਤ ਕੌਰ ਹੈ, ਲੁਧਿਆਣੇ ਤੋਂ", "name", "Ludhiana", False, "name_not_stated"),
    ("আমার বোনের নাম তানিয়া", "name", "Tania", False, "quote_about_other_person"),  # my sister's name
]


@pytest.mark.parametrize(("quote", "attribute", "value", "retraction", "reason"), REVIEW)
def test_a_break_it_reviews_findings_stay_mended(quote, attribute, value, retraction, reason):
    assert gate(quote, quote, attribute, value, retraction, fact=f"The user's {attribute} is {value}.") == reason


def test_a_stay_is_told_by_its_time_not_by_any_for():
    said = "I stay in Lekki, so very early flights are hard for me because of traffic."  # holdout set 11
    assert gate(said, said, "home_location", "Lekki", False) is None
    said = "I'm in Bali for two weeks"
    assert gate(said, said, "home_location", "Bali", False) == "home_not_stated"


@pytest.mark.parametrize(("quote", "attribute", "value", "reason"), [
    # Urdu as data: a greeting's word is no name, the name after "نام" is, someone else's home is theirs
    ("سلام علیکم، میرا نام عمران قریشی ہے۔", "name", "علیکم", "value_not_in_quote"),
    ("سلام علیکم، میرا نام عمران قریشی ہے۔", "name", "عمران قریشی", None),
    ("میں لاہور میں رہتا ہوں۔", "home_location", "لاہور", None),
    ("میرا بھائی کراچی میں رہتا ہے", "home_location", "کراچی", "quote_about_other_person"),
    # "ọ̀rẹ́ mi" (my friend) in Yoruba, "my oga" (my boss) in Nigerian English are someone else (holdout set 11)
    ("Mo fẹ́ béèrè nípa ẹ̀bùn ọjọ́ ìbí fún ọ̀rẹ́ mi, Adébáyọ̀.", "name", "Adébáyọ̀", "quote_about_other_person"),
    ("My oga at work is the one who eats only vegetarian, not me.", "diet", "vegetarian", "quote_about_other_person"),
])
def test_urdu_yoruba_and_nigerian_english_as_data(quote, attribute, value, reason):
    assert gate(quote, quote, attribute, value, False, fact=f"The user's {attribute} is {value}.") == reason


def test_thanks_in_roman_urdu_is_a_pleasantry_in_an_urdu_chat():
    # "shukriya 🌸" read in its Urdu chat's language (holdout set 10): thanks, no liking of "shukriya"
    chat = "میں ایک سکول میں ریاضی پڑھاتی ہوں۔ English mein, lekin instructions Urdu mein hon to behtar hai. shukriya 🌸"
    assert gate("shukriya 🌸", "shukriya 🌸", "opinion:shukriya", "likes", False, chat=chat) == "quote_is_pleasantry"


def test_an_assent_accepts_the_offer_the_assistants_question_names_whatever_verb_the_model_gave_it():
    offer = ["Ich kann Ihren Tarif auf Premium umstellen. Soll ich den Premium-Tarif aktivieren?"]
    assert gate("Passt, nehm ich", "Passt, nehm ich", "decision:premium", "switch", False, answered=offer) is None
    told = ["Ich habe Ihnen den Premium-Tarif per E-Mail erklärt."]  # no question: nothing offered
    assert gate("Passt, nehm ich", "Passt, nehm ich", "decision:premium", "switch", False,
                answered=told) == "value_not_in_quote"
