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
