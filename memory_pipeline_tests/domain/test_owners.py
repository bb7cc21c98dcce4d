"""The owner of a fact's value, read from its attribute name (domain.owners): one slot whatever it was called,
the object of a stance, nothing for a multi-valued attribute."""

from memory_pipeline.domain.owners import SLOT_FAMILIES, owners, polarity, same_value, slot_of


def test_names_of_one_slot_read_as_that_slot():
    for name in ("job", "Occupation", "current_job", "job title", "profession", "role"):
        assert slot_of(name) == "job", name
    for name in ("home_location", "current_city", "City of residence", "lives_in", "location"):
        assert slot_of(name) == "home_location", name
    for name in ("contact_channel", "preferred_contact_method", "contact-method", "contact_preference"):
        assert slot_of(name) == "contact_channel", name
    assert slot_of("seat_preference") == slot_of("preferred_seat") == "seat"  # an unlisted slot, by its words


def test_slots_that_share_a_word_keep_their_own_owner():
    assert len({slot_of(n) for n in ("home_location", "hometown", "shipping_address", "work_location")}) == 4
    # A time of delivery is no delivery instruction ("no doorbell" superseded "mornings": holdout set 9).
    assert slot_of("delivery_time") != slot_of("delivery_instructions") == slot_of("delivery_instruction")
    assert slot_of("preferred_name") != slot_of("name")
    assert owners("preference", "preferred_language", "French") == ("slot:preferred_language",)


def test_a_kind_and_object_name_is_owned_by_its_object_under_its_kind():
    assert owners("decision", "decision:beta_launch_date", "June 1") == owners("decision", "decision:beta_launch", "x")
    assert owners("decision", "decision:take_train", "9am") == ("decision:train",)
    assert owners("decision", "decision:car_insurance", "x") != owners("decision", "decision:car", "x")
    assert owners("preference", "favourite:colour", "blue") == ("favourite:color", "stance:blue")
    assert owners("preference", "favorite_color", "green") == ("favourite:color", "stance:green")


def test_a_listed_slot_with_an_object_of_the_models_own_is_that_slot():
    # a 1.5B model: `contact_channel:mobile` = mobile one night, `contact_channel` = email the next
    assert owners("preference", "contact_channel:mobile", "mobile") == owners("preference", "contact_channel", "email")
    assert owners("client_info", "Occupation:nurse", "nurse") == ("slot:job",)
    assert owners("preference", "preference:contact_channel", "email") == ("slot:contact_channel",)
    assert owners("preference", "hobby:reading", "yes") == ("hobby:reading",)  # a multi-valued slot stays apart
    # an object that is not the value keeps its own owner: a work email beside a personal one, a pet's name
    assert owners("client_info", "email:work", "a@b.example") != owners("client_info", "email", "c@d.example")
    assert owners("client_info", "name:dog", "Max") != owners("client_info", "name", "Jana")


def test_a_preference_named_by_its_object_is_owned_as_a_favourite():
    # a 1.5B model: "My favourite colour is blue" as favourite:colour = blue, "I prefer blue" as preference:blue
    assert "stance:blue" in owners("preference", "favourite:colour", "blue")
    assert owners("preference", "preference:blue", "likes") == ("stance:blue",)
    assert owners("preference", "preferred_name", "Jack") == ("slot:preferred_name",)  # a slot, not a kind


def test_a_stance_is_owned_by_its_object_whatever_the_slot():
    expected = ("stance:chinese_food",)
    assert owners("preference", "favourite:chinese_food", "likes") == expected
    assert owners("preference", "opinion:Chinese food", "dislikes") == expected
    assert owners("preference", "hobby", "Chinese food") == expected
    assert owners("preference", None, "Chinese food") == expected


def test_multi_valued_attributes_other_than_likings_own_nothing():
    assert owners("client_info", "skill", "Python") == ()
    assert owners("client_info", "spoken_language", "French") == ()
    assert owners("decision", None, "Hohhot") == ()


def test_one_value_said_with_more_or_fewer_words_is_the_same_value():
    assert same_value("Software Engineer", "software engineer") and same_value("engineer", "a software engineer")
    assert not same_value("allowed", "not allowed") and not same_value("415-555-0199", "415-555-0100")
    assert not same_value(None, None)


def test_every_listed_name_reads_as_its_own_family_and_no_name_is_listed_twice():
    names = [(name, family[0]) for family in SLOT_FAMILIES for name in family]
    assert len({slot_of(name) for name, _ in names}) == len(SLOT_FAMILIES)
    assert all(slot_of(name) == first for name, first in names)
    assert slot_of("Beruf") == slot_of("职业") == "job" and slot_of("Téléphone") == "phone_number"


def test_a_stance_word_reads_with_or_without_its_s():
    assert polarity("likes") is polarity("love") is True
    assert polarity("hate") is polarity("does not like") is polarity("dislikes") is False
    assert polarity("blue") is None
