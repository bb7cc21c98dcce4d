"""Facts of the offline extractor that a person reads as right without the conversation (issue 17's last target):
no comparison without its other side, no thing of the conversation named without what it belongs to, no word
read as a weapon, no co-subject dropped, no mangled word order; a past purchase is an event, not a trait. The
inputs are the demo's MemoryBank sentences (MIT) and sentences of the shapes LoCoMo's gave (snap-research/locomo,
CC BY-NC: its text is not copied)."""

import pytest

from memory_pipeline_tests.extractors.test_offline_languages import facts


@pytest.mark.parametrize("text, fact", [
    # "prefer" without its other side says what still holds: a liking (the demo: "User prefers artistic works.")
    ('I prefer artistic works, like "The Great Gatsby" which is full of charm.', "User likes artistic works."),
    ("I prefer Sichuan and Cantonese cuisine.", "User likes Sichuan and Cantonese cuisine."),
    # with its other side it stays a preference
    ("I prefer invoices as PDF.", "User prefers invoices as PDF."),
    ("I prefer tea to coffee.", "User prefers tea to coffee."),
    ("I prefer email over phone calls.", "User prefers email over phone calls."),
    # the thing it is about is named in the value: kept
    ("I also really like the art style of the Renaissance.", "User likes the art style of the Renaissance."),
    ("I like shooting landscapes the most because every place is inspiring.", "User likes shooting landscapes."),
    ("In my free time, I love going to the beach.", "User loves going to the beach."),  # a scene, no thing of it
    ("I love the sound of rain.", "User loves the sound of rain."),
    ("It's my routine, I love the feeling of being fit and rested.", "User loves the feeling of being fit and rested."),
    # word order and run-ons (LoCoMo: "User likes also cheese pizza ...", "... what they do so they push on.")
    ("I like also green tea and mochi.", "User likes green tea and mochi."),
    ("Still, I enjoy my job so I keep going.", "User enjoys their job."),
])
def test_facts_a_person_reads_as_right(text, fact):
    assert [f.fact for f in facts(text)] == [fact]


@pytest.mark.parametrize("text", [
    # a thing of the conversation, "of what?" answered elsewhere
    'And in "The Gift of Time", I love the inspirational and profound literary style.',
    "Although it's just a hobby, I really enjoy the feeling of flying on the track.",
    "Although it's just a hobby, I really enjoy the feeling of gliding on the rink.",  # "it" is what holds the rink
    'In "Dune", I love the world-building.',  # the world-building of the book the lead names
    "I love losing myself in the feelings and plots.",
    "I love retreating into that world.",
    "I love the thought Maria!",
    "My favorite one to sing along to is a song from a film I adore.",
    "I've always enjoyed board games, so I decided to design one of my own.",
    # a photographer's or a shooter's hobby? the reader cannot tell
    "I like shooting near beaches, mountains, and lakes, as these places all have beautiful scenery.",
    # someone shares the decision: "User decided to move in together." drops them
    "Big news, Priya and I have decided to get a dog together!",
    "My wife and I decided to sell the car.",
])
def test_no_fact_that_hangs_on_the_conversation(text):
    assert facts(text) == []


def test_a_past_purchase_is_an_event_in_its_own_slot():
    (bought,) = facts("I bought a new white dress.")
    assert (bought.category, bought.attribute, bought.fact) == ("client_info", "purchase", "User bought a new white dress.")


def test_a_destination_set_against_another_counts_in_lower_case():
    assert [(f.fact, f.value) for f in facts("Change of plan: we're going to ulanqab, not hohhot.")] == [
        ("User is going to ulanqab.", "ulanqab")]
    assert facts("We're going to wait, not rush.") == []  # "going to <verb>" is no destination
