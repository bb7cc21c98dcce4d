"""A fact keeps as evidence the sentences of its quote that hold its value (domain.evidence)."""

from memory_pipeline.domain.evidence import narrowed


def test_a_fact_keeps_the_sentence_holding_its_value_not_the_hypothetical_beside_it():
    # the 1.5B model quoted the whole message for the decision (holdout set 11)
    quote = "Quero transferir o contrato. Se um dia voltarmos para Lisboa, logo se vê."
    assert narrowed(quote, "transfer", "decision:contract") == "Quero transferir o contrato."
    quote = "I'll check and tell. Please keep cash on delivery for me, I don't like saving card details online."
    assert narrowed(quote, "cash on delivery", "payment_method") == (
        "Please keep cash on delivery for me, I don't like saving card details online.")


def test_a_quote_stays_whole_when_no_sentence_or_every_sentence_holds_the_value_or_it_is_an_assent():
    assert narrowed("I live in Leeds. Leeds is great.", "Leeds", "home_location") == "I live in Leeds. Leeds is great."
    assert narrowed("Yes. Please do it.", "yes", "decision:upgrade") == "Yes. Please do it."
    assert narrowed("I love it. It is so good.", "likes", "opinion:jazz") == "I love it. It is so good."
    assert narrowed("I live in Leeds.", "Leeds", "home_location") == "I live in Leeds."
