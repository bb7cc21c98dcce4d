"""The category a slot fixes, whatever category the model wrote (extractors.slots)."""

from memory_pipeline.extractors.llm_output import LLMFact
from memory_pipeline.extractors.slots import category_of, contact_detail


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


def test_a_number_or_address_filed_as_a_contact_channel_is_the_users_phone_or_email():
    # a 1.5B model filed "0532 418 77 20 ye gönderin" as `contact_channel:sms` = the number (holdout set 5)
    answer = LLMFact(message_id=1, quote="0532 418 77 20 ye gönderin", attribute="contact_channel:sms",
                     value="0532 418 77 20", category="preference", fact="The user's number is 0532 418 77 20.")
    assert (answer.attribute, answer.category) == ("phone_number", "client_info")
    assert contact_detail("preferred_contact_method", "ana@example.org") == "email"
    # a channel stays a channel; a customer number is no phone number; a short code neither
    assert contact_detail("contact_channel", "WhatsApp") is None
    assert contact_detail("customer_number", "448-1920-77") is None
    assert contact_detail("contact_channel", "SMS 1234") is None


def test_opening_hours_filed_as_a_contact_channel_are_no_phone_number():
    assert contact_detail("contact_channel:phone", "09.00-17.30") is None


def test_how_the_user_pays_or_wants_to_be_written_to_is_a_preference():
    # "Please keep cash on delivery for me, ..." filed as client info under `payment_method` (holdout set 11)
    assert category_of("payment_method") == category_of("preferred_payment") == "preference"
    assert category_of("communication_language") == "preference"
    assert category_of("spoken_language") == "client_info"  # the languages the user speaks stay client info
