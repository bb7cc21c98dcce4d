"""The category a slot fixes, whatever category the model wrote (extractors.slots)."""

from memory_pipeline.extractors.slots import category_of


def test_a_listed_slot_fixes_its_category_under_any_of_its_names():
    assert category_of("home_location") == category_of("current_city") == "client_info"
    assert category_of("decision:gym_membership") == "decision"
    assert category_of("favourite:tea") == category_of("opinion:tea") == "preference"


def test_a_listed_slot_with_an_object_of_the_models_own_keeps_its_category():
    # a 1.5B model filed "Please call my mobile" as client_info under `contact_channel:mobile`: it never met the
    # user's `contact_channel` (preference) of the next conversation
    assert category_of("contact_channel:mobile") == category_of("contact_channel") == "preference"
    assert category_of("occupation:nursing") == "client_info"


def test_an_unknown_slot_leaves_the_models_category():
    assert category_of("ticket") is None and category_of("foo:bar") is None and category_of(None) is None


def test_a_name_the_user_goes_by_is_client_info_as_the_name_is():
    # "everyone calls me Bobby", "You can call me Tom": every gold set's writer filed it as client info
    assert category_of("preferred_name") == category_of("nickname") == category_of("name") == "client_info"
