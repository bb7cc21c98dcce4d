"""Bulgarian and Tagalog (Taglish as typed in chat) as data (session 22): in each, the user's own name, home, job
and likings pass; a relative's or friend's fact, a condition, a choice put off, a question and a bare thanks are
rejected; a short yes accepts the offer it answers, and a yes taken back accepts nothing."""

import pytest

from memory_pipeline.domain.gates import gate
from memory_pipeline.domain.language import identify

BG_OFFER = ["Искате ли да ви прехвърля на годишния план за 99 лв.?"]  # shall I move you to the annual plan?
TL_OFFER = ["Gusto niyo po bang i-upgrade sa Premium plan? ₱999 lang po kada buwan."]  # upgrade to Premium?

# (message, quote, attribute, value, kwargs, reason): reason None for a right answer; quote None for all of it.
BULGARIAN = [
    ("Казвам се Петър Иванов и съм от Пловдив.", "Казвам се Петър Иванов", "name", "Петър Иванов", {}, None),
    ("Аз съм Мария, пиша ви за поръчката си.", "Аз съм Мария", "name", "Мария", {}, None),   # I'm Maria
    ("Живея в Пловдив от три години.", None, "home_location", "Пловдив", {}, None),
    ("Преместих се в София през май.", None, "home_location", "София", {}, None),  # May, the month: no hedge
    ("Живея при родителите ми в Русе.", None, "home_location", "Русе", {}, None),  # with my parents
    ("Работя като счетоводител в една фирма в Стара Загора.", None, "job", "счетоводител", {}, None),
    ("Обожавам черен чай без захар.", None, "opinion:черен_чай", "likes", {}, None),
    ("Сестра ми живее във Варна.", None, "home_location", "Варна", {}, "quote_about_other_person"),
    ("Мъжът ми работи като шофьор в Русе.", None, "job", "шофьор", {}, "quote_about_other_person"),
    ("Тя работи като учителка в Бургас.", None, "job", "учителка", {}, "quote_about_other_person"),
    ("Ако някога се преместя в София, ще ви пиша.", "Ако някога се преместя в София", "home_location", "София",
     {}, "quote_is_hypothetical"),
    ("Добре, ще помисля и ще ви пиша.", None, "decision:plan", "годишния план", {"answered": BG_OFFER},
     "quote_is_undecided"),
    ("Не знам дали да взема годишния или месечния план.", None, "decision:plan", "годишния план", {},
     "quote_is_undecided"),
    ("Къде е най-близкият ви магазин в Пловдив?", None, "home_location", "Пловдив", {}, "quote_is_question"),
    ("Вие доставяте ли до Варна?", None, "home_location", "Варна", {}, "quote_is_question"),
    ("Да, моля, прехвърлете ме.", None, "decision:plan", "годишния план", {"answered": BG_OFFER}, None),
    ("Давайте, съгласен съм.", None, "decision:plan", "годишния план", {"answered": BG_OFFER}, None),
    ("Благодаря ви, довиждане!", None, "opinion:service", "likes", {}, "quote_is_pleasantry"),
]

TAGALOG = [
    ("Hello po, ako si Maria Santos, may tanong lang po ako sa bill ko.", "ako si Maria Santos", "name",
     "Maria Santos", {}, None),
    ("ang pangalan ko ay jose reyes", None, "name", "jose reyes", {}, None),       # lower case, as typed
    ("Tawagin niyo na lang akong Jun.", None, "preferred_name", "Jun", {}, None),
    ("Taga-Davao po ako.", None, "home_location", "Davao", {}, None),
    ("Taga-Cebu ako pero nakatira na ako sa Makati ngayon.", None, "home_location", "Makati", {}, None),
    ("lumipat kami sa Cavite last year", None, "home_location", "Cavite", {}, None),
    ("San Juan ako nakatira, may branch ba kayo dito?", "San Juan ako nakatira", "home_location", "San Juan",
     {}, None),                                                                   # "San" here is no "saan"
    ("Nurse ako sa isang ospital sa Makati.", None, "job", "nurse", {}, None),
    ("hate ko yung traffic sa EDSA", None, "opinion:traffic", "dislikes", {}, None),
    ("Gustong-gusto ko ang sinigang na baboy.", None, "opinion:sinigang", "likes", {}, None),
    ("Yung kapatid ko nakatira sa Davao.", None, "home_location", "Davao", {}, "quote_about_other_person"),
    ("Nurse ang asawa ko sa Riyadh.", None, "job", "nurse", {}, "quote_about_other_person"),
    ("Taga-Iloilo daw yung boss ko.", None, "home_location", "Iloilo", {}, "quote_about_other_person"),  # hearsay
    ("Kung lilipat ako sa Manila balang araw, sasabihan ko kayo.", "Kung lilipat ako sa Manila balang araw",
     "home_location", "Manila", {}, "quote_is_hypothetical"),
    ("Pag-iisipan ko muna po.", None, "decision:plan", "Premium plan", {"answered": TL_OFFER}, "quote_is_undecided"),
    ("hindi ko alam kung Fiber 1500 o Fiber 2500 ang kukunin ko", None, "decision:plan", "Fiber 1500", {},
     "quote_is_undecided"),
    ("Saan po ang pinakamalapit na branch niyo sa Cebu?", None, "home_location", "Cebu", {}, "quote_is_question"),
    ("may branch ba kayo sa davao", None, "home_location", "davao", {}, "quote_is_question"),  # no question mark
    ("sige po", None, "decision:plan", "Premium plan", {"answered": TL_OFFER}, None),
    ("Opo, i-upgrade niyo na po.", None, "decision:plan", "Premium plan", {"answered": TL_OFFER}, None),
    ("Maraming salamat po!", None, "opinion:service", "likes", {}, "quote_is_pleasantry"),
    ("Salamat po sa tulong!", None, "opinion:service", "likes", {}, "quote_is_pleasantry"),
]


@pytest.mark.parametrize("message, quote, attribute, value, kwargs, reason", BULGARIAN + TAGALOG)
def test_a_bulgarian_or_tagalog_line_backs_only_the_users_own_stated_fact(message, quote, attribute, value, kwargs,
                                                                           reason):
    assert gate(quote or message, message, attribute, value, False, **kwargs) == reason


@pytest.mark.parametrize("code, message", [
    ("bg", "Живея в Пловдив от три години."),
    ("bg", "Ще си помисля и ще ви пиша."),
    ("bg", "Мъжът ми работи като шофьор в Русе."),
    ("tl", "Nakatira ako sa Pasig kasama ang asawa ko."),
    ("tl", "pag-iisipan ko po muna"),
    ("tl", "hate ko yung traffic sa EDSA"),
])
def test_a_typical_line_of_each_language_is_identified(code, message):
    assert identify(message) == code


@pytest.mark.parametrize("reply, offer, value", [
    ("Да, но не сега.", BG_OFFER, "годишния план"),                  # yes, but not now
    ("Добре, но първо искам да видя договора.", BG_OFFER, "годишния план"),  # OK, but first the contract
    ("Става, но чак от следващия месец.", BG_OFFER, "годишния план"),       # fine, but from next month
    ("sige po, pero next month na lang", TL_OFFER, "Premium plan"),
    ("sige, check ko muna", TL_OFFER, "Premium plan"),
    ("oo pero mamaya na", TL_OFFER, "Premium plan"),
])
def test_a_yes_taken_back_accepts_no_offer(reply, offer, value):
    assert gate(reply, reply, "decision:plan", value, False, answered=offer) in (
        "value_not_in_quote", "quote_is_undecided")


@pytest.mark.parametrize("message, attribute, value, reason", [
    ("Аз съм програмист в една фирма.", "name", "програмист", "name_not_stated"),    # I'm a programmer
    ("Кучето ми се казва Рекс.", "name", "Рекс", "name_not_stated"),                # my dog is called Rex
    ("Приятелката ми се казва Ани.", "name", "Ани", "quote_about_other_person"),    # my friend is called Ani
    ("Почивах си във Варна миналото лято.", "home_location", "Варна", "home_not_stated"),  # a holiday, no home
    ("Nagbakasyon kami sa Boracay noong summer.", "home_location", "Boracay", "home_not_stated"),
    ("vegan daw siya", "diet", "vegan", "quote_about_other_person"),
])
def test_a_trade_someone_elses_name_or_a_trip_is_no_name_or_home_of_the_users(message, attribute, value, reason):
    assert gate(message, message, attribute, value, False) == reason


@pytest.mark.parametrize("message, value", [
    ("Pag-IBIG member ako at nakatira ako sa Pasig.", "Pasig"),   # the housing fund, no "pag" (if)
    ("allergic ako sa gatas ng baka, nakatira ako sa Quezon City", "Quezon City"),  # a cow, no "baka" (maybe)
])
def test_a_tagalog_word_that_only_looks_like_a_condition_or_a_hedge_leaves_the_home_standing(message, value):
    assert gate(message, message, "home_location", value, False) is None
