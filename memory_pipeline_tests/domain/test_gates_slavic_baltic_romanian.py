"""Slovenian, Croatian, Serbian (both scripts), Latvian, Lithuanian, Romanian and Ukrainian as data (session 18): in
each, a question, a hypothetical, a choice put off, another person's home, a trip's destination and a pleasantry are
rejected, and the right answers (a home said with a living word or answering where the user lives, a job, a diet)
still pass, written with their diacritics or without them."""

import pytest

from memory_pipeline.domain.gates import gate
from memory_pipeline.domain.language import identify
from memory_pipeline.domain.lexicon import codes_for, knowing

# (quote, attribute, value, reason): reason None for a right answer.
CASES = {
    "sl": [
        ("Živim v Ljubljani z mojim možem.", "home_location", "Ljubljana", None),
        ("zivim v Mariboru", "home_location", "Maribor", None),
        ("Delam kot učiteljica v osnovni šoli.", "job", "učiteljica", None),
        ("Sem vegetarijanka že deset let.", "diet", "vegetarijanka", None),
        ("Kje je najboljša pica v Ljubljani?", "home_location", "Ljubljana", "quote_is_question"),
        ("Če bi se preselil v Koper, bi kupil čoln.", "home_location", "Koper", "quote_is_hypothetical"),
        ("Bom še premislil.", "decision:letna_naročnina", "letna naročnina", "quote_is_undecided"),
        ("Omahujem med paketom Team in paketom Business.", "decision:plan", "Team", "quote_is_undecided"),
        ("Moja sestra živi v Kopru.", "home_location", "Koper", "quote_about_other_person"),
        ("Lani sem bil na počitnicah v Piranu.", "home_location", "Piran", "home_not_stated"),
        ("Hvala, adijo!", "opinion:service", "likes", "quote_is_pleasantry"),
    ],
    "hr": [
        ("Živim u Zagrebu sa suprugom.", "home_location", "Zagreb", None),
        ("Preselio sam se u Rijeku prošle godine.", "home_location", "Rijeka", None),
        ("Radim kao programer u jednoj firmi.", "job", "programer", None),
        ("Ja sam vegan.", "diet", "vegan", None),
        ("Gdje mogu kupiti dobru kavu u Zagrebu?", "home_location", "Zagreb", "quote_is_question"),
        ("Imate li popust za studente u Zagrebu?", "home_location", "Zagreb", "quote_is_question"),
        ("Ako se preselim u Split, kupit ću brod.", "home_location", "Split", "quote_is_hypothetical"),
        ("Razmislit ću o tome.", "decision:godišnja_pretplata", "godišnja pretplata", "quote_is_undecided"),
        ("jos nisam odlucio, razmislit cu", "decision:godišnja_pretplata", "godišnja pretplata",
         "quote_is_undecided"),
        ("Dvoumim se između paketa Team i paketa Business.", "decision:plan", "Team", "quote_is_undecided"),
        ("Moja sestra živi u Zadru.", "home_location", "Zadar", "quote_about_other_person"),
        ("Prošlog ljeta bio sam na odmoru u Dubrovniku.", "home_location", "Dubrovnik", "home_not_stated"),
        ("Hvala, doviđenja!", "opinion:service", "likes", "quote_is_pleasantry"),
    ],
    "sr": [
        ("Живим у Београду са женом.", "home_location", "Београд", None),
        ("Ja živim u Novom Sadu.", "home_location", "Novi Sad", None),
        ("Радим као медицинска сестра у болници.", "job", "медицинска сестра", None),
        ("Ја сам вегетаријанац.", "diet", "вегетаријанац", None),
        ("Где је најбоља пица у Београду?", "home_location", "Београд", "quote_is_question"),
        ("Да ли имате попуст за студенте у Нишу?", "home_location", "Ниш", "quote_is_question"),
        ("Ако се преселим у Нови Сад, купићу бицикл.", "home_location", "Нови Сад", "quote_is_hypothetical"),
        ("Размислићу о томе.", "decision:годишња_претплата", "годишња претплата", "quote_is_undecided"),
        ("Моја сестра живи у Нишу.", "home_location", "Ниш", "quote_about_other_person"),
        ("Прошлог лета сам био на одмору у Будви.", "home_location", "Будва", "home_not_stated"),
        ("Хвала, довиђења!", "opinion:service", "likes", "quote_is_pleasantry"),
    ],
    "lv": [
        ("Es dzīvoju Rīgā kopā ar vīru.", "home_location", "Rīga", None),
        ("dzivoju Jelgava jau piecus gadus", "home_location", "Jelgava", None),
        ("Strādāju par grāmatvedi.", "job", "grāmatvedi", None),
        ("Esmu veģetāriete.", "diet", "veģetāriete", None),
        ("Kur Rīgā var labi paēst?", "home_location", "Rīga", "quote_is_question"),
        ("Ja es pārceltos uz Liepāju, man būtu jāmaina darbs.", "home_location", "Liepāja", "quote_is_hypothetical"),
        ("Es vēl padomāšu.", "decision:gada_abonements", "gada abonements", "quote_is_undecided"),
        ("Mana māsa dzīvo Liepājā.", "home_location", "Liepāja", "quote_about_other_person"),
        ("Pagājušajā vasarā biju atvaļinājumā Jūrmalā.", "home_location", "Jūrmala", "home_not_stated"),
        ("Paldies, uz redzēšanos!", "opinion:service", "likes", "quote_is_pleasantry"),
    ],
    "lt": [
        ("Aš gyvenu Vilniuje su vyru.", "home_location", "Vilnius", None),
        ("Persikėlėme į Klaipėdą pernai.", "home_location", "Klaipėda", None),
        ("Dirbu programuotoju.", "job", "programuotojas", None),
        ("Esu vegetarė.", "diet", "vegetarė", None),
        ("Kur Vilniuje galima skaniai pavalgyti?", "home_location", "Vilnius", "quote_is_question"),
        ("Jei persikelčiau į Kauną, pirkčiau dviratį.", "home_location", "Kaunas", "quote_is_hypothetical"),
        ("Dar pagalvosiu.", "decision:metinė_prenumerata", "metinė prenumerata", "quote_is_undecided"),
        ("Mano sesuo gyvena Kaune.", "home_location", "Kaunas", "quote_about_other_person"),
        ("Praėjusią vasarą atostogavau Palangoje.", "home_location", "Palanga", "home_not_stated"),
        ("Ačiū, viso gero!", "opinion:service", "likes", "quote_is_pleasantry"),
    ],
    "ro": [
        ("Locuiesc în Cluj de cinci ani.", "home_location", "Cluj", None),
        ("traiesc in Iasi cu sotul meu", "home_location", "Iasi", None),
        ("Lucrez ca asistentă medicală.", "job", "asistentă medicală", None),
        ("Sunt vegetariană de doi ani.", "diet", "vegetariană", None),
        ("Unde pot mânca bine în Cluj?", "home_location", "Cluj", "quote_is_question"),
        ("Dacă m-aș muta la Brașov, aș cumpăra o bicicletă.", "home_location", "Brașov", "quote_is_hypothetical"),
        ("Daca m-as muta la Brasov, as cumpara o bicicleta.", "home_location", "Brasov", "quote_is_hypothetical"),
        ("Mă mai gândesc.", "decision:abonament_anual", "abonament anual", "quote_is_undecided"),
        ("ma mai gandesc, multumesc", "decision:abonament_anual", "abonament anual", "quote_is_undecided"),
        ("Sora mea locuiește în Timișoara.", "home_location", "Timișoara", "quote_about_other_person"),
        ("Vara trecută am fost în vacanță la Constanța.", "home_location", "Constanța", "home_not_stated"),
        ("Mulțumesc, la revedere!", "opinion:service", "likes", "quote_is_pleasantry"),
        ("Mersi, pa!", "opinion:service", "likes", "quote_is_pleasantry"),
    ],
    "uk": [
        ("Я живу в Полтаві з чоловіком.", "home_location", "Полтава", None),
        ("Ми переїхали до Одеси минулого року.", "home_location", "Одеса", None),
        ("Працюю вчителькою в школі.", "job", "вчителька", None),
        ("Я вегетаріанка.", "diet", "вегетаріанка", None),
        ("Де у Львові найкраща кава?", "home_location", "Львів", "quote_is_question"),
        ("Якщо я переїду до Одеси, куплю велосипед.", "home_location", "Одеса", "quote_is_hypothetical"),
        ("Добре, я ще подумаю.", "decision:річна_підписка", "річна підписка", "quote_is_undecided"),
        ("Вагаюся між тарифом Team і тарифом Business.", "decision:plan", "Team", "quote_is_undecided"),
        ("Моя сестра живе в Харкові.", "home_location", "Харків", "quote_about_other_person"),
        ("Минулого літа я відпочивав в Одесі.", "home_location", "Одеса", "home_not_stated"),
        ("Дякую, до побачення!", "opinion:service", "likes", "quote_is_pleasantry"),
    ],
}


@pytest.mark.parametrize("code,quote,attribute,value,reason",
                         [(code, *case) for code, cases in CASES.items() for case in cases])
def test_the_gates_read_slovenian_croatian_serbian_latvian_lithuanian_romanian_and_ukrainian(
        code, quote, attribute, value, reason):
    assert gate(quote, quote, attribute, value, False) == reason


# (answer, value, the assistant's question "Where do you live?" in the language)
BARE_PLACES = [
    ("V Mariboru.", "Maribor", "Kje živite?"),                         # sl
    ("U Splitu.", "Split", "Gdje živite?"),                            # hr
    ("У Нишу.", "Ниш", "Где живите?"),                                 # sr
    ("U Nišu.", "Niš", "Gde živite?"),
    ("Liepājā.", "Liepāja", "Kur jūs dzīvojat?"),                      # lv
    ("Kaune.", "Kaunas", "Kur gyvenate?"),                             # lt
    ("În Brașov.", "Brașov", "Unde locuiți?"),                         # ro
    ("In Brasov.", "Brasov", "Unde locuiesti?"),
    ("В Одесі.", "Одеса", "Де ви живете?"),                            # uk
]


@pytest.mark.parametrize("answer,value,question", BARE_PLACES)
def test_a_bare_place_answering_where_the_user_lives_is_a_home_in_each_language(answer, value, question):
    assert gate(answer, answer, "home_location", value, False, answered=[question]) is None


@pytest.mark.parametrize("answer,value,question", [
    ("V Mariboru.", "Maribor", "Kje delate?"),          # sl: where do you work
    ("U Splitu.", "Split", "Gdje ste bili na odmoru?"),  # hr: where were you on holiday
    ("În Brașov.", "Brașov", "Unde lucrați?"),          # ro: where do you work
])
def test_a_bare_place_answering_anything_else_is_no_home(answer, value, question):
    assert gate(answer, answer, "home_location", value, False, answered=[question]) == "home_not_stated"


@pytest.mark.parametrize("code,quote", [
    ("sl", "Živim v Ljubljani že pet let in delam kot učiteljica."),
    ("hr", "Radim kao programer u Splitu i imam dvoje djece."),
    ("sr", "Живим у Београду већ десет година."),
    ("lv", "Es dzīvoju Rīgā kopš 2019. gada."),
    ("lt", "Aš gyvenu Vilniuje su vyru ir dviem vaikais."),
    ("ro", "Locuiesc în Cluj de cinci ani și lucrez ca programator."),
    ("uk", "Я живу у Львові з чоловіком і двома дітьми."),
])
def test_a_typical_line_of_each_language_is_identified(code, quote):
    assert identify(quote) == code


def test_each_language_is_strict_for_a_home_and_close_ones_read_each_others_words():
    assert {"sl", "hr", "sr", "lv", "lt", "ro", "uk"} <= knowing("living")
    assert "sr" in codes_for("hr") and "hr" in codes_for("sr") and {"hr", "sr"} <= codes_for("sl")


@pytest.mark.parametrize("quote,attribute,value", [
    ("Ja živim u Beogradu.", "home_location", "Beograd"),    # Serbian in Latin letters: not told, read with every
    ("Ja sam iz Novog Sada, radim kao programer.", "job", "programer"),  # language's words (Latvian "ja" is "if")
    ("Ja, živim v Ljubljani.", "home_location", "Ljubljana"),  # Slovenian "ja" is "yes", no Croatian "I"
    ("Ja, ich wohne in Berlin.", "home_location", "Berlin"),
])
def test_ja_opens_a_latvian_condition_only_before_latvian_words(quote, attribute, value):
    assert gate(quote, quote, attribute, value, False) is None


def test_a_relative_the_user_lives_with_is_no_subject():
    for quote, value in [("Živim u Splitu s mojom suprugom.", "Split"), ("Dzīvoju Rīgā ar manu vīru.", "Rīga"),
                         ("Gyvenu Kaune su mano žmona.", "Kaunas"), ("Locuiesc în Iași cu soția mea.", "Iași"),
                         ("Живу в Полтаві з моєю дружиною.", "Полтава")]:
        assert gate(quote, quote, "home_location", value, False) is None, quote


@pytest.mark.parametrize("quote,value", [
    ("Imate popust za studente u Zagrebu?", "Zagreb"),        # hr: a verb said to "you", no question word
    ("Delate tudi v soboto v Mariboru?", "Maribor"),          # sl
    ("Turite nuolaidų studentams Kaune?", "Kaunas"),          # lt
    ("Strādājat sestdien Rīgā?", "Rīga"),                     # lv
    ("Livrați și în Cluj?", "Cluj"),                          # ro
    ("Працюєте в неділю в Одесі?", "Одеса"),                  # uk
])
def test_a_question_said_to_the_assistant_without_a_question_word_asks(quote, value):
    assert gate(quote, quote, "home_location", value, False) == "quote_is_question"


@pytest.mark.parametrize("quote,value", [
    ("Можливо, переїду до Одеси наступного року.", "Одеса"),
    ("Možda, preselit ću se u Split.", "Split"),
    ("Poate, mă mut la Cluj.", "Cluj"),
])
def test_a_hedge_set_off_by_a_comma_opening_the_sentence_holds_all_of_it(quote, value):
    assert gate(quote, quote, "home_location", value, False) == "quote_is_hypothetical"


def test_macedonian_read_as_serbian_keeps_its_homes_and_its_questions():
    # Macedonian has no data of its own: a line scored beside Serbian is read with Serbian's words (language.py)
    assert gate("Живеам во Скопје со сопругата.", "Живеам во Скопје со сопругата.", "home_location", "Скопје",
                False) is None
    assert gate("Во Скопје.", "Во Скопје.", "home_location", "Скопје", False, answered=["Каде живеете?"]) is None
    assert gate("Каде е најдобрата пица во Скопје?", "Каде е најдобрата пица во Скопје?", "home_location", "Скопје",
                False) == "quote_is_question"


def test_serbian_in_latin_letters_is_told_and_read_with_its_own_words():
    from memory_pipeline.domain.language import identify
    quote = "Sestra mi je doktorica u Nišu."   # my sister is a doctor in Niš: hers, not the user's
    assert identify(quote) == "sr"
    assert gate(quote, quote, "job", "doktorica", False) == "quote_about_other_person"
