"""Which facts "forget this fact" covers (domain/forgetting.py): a value under whatever name a model filed it."""

from memory_pipeline.domain.forgetting import slot_keys


def test_forgetting_a_job_covers_the_occupation_a_later_night_filed_it_under():
    job = slot_keys("client_info", "job", "accountant", "The user is an accountant.")
    occupation = slot_keys("client_info", "occupation", "barista", "The user works as a barista.")
    assert job & occupation


def test_forgetting_a_liking_covers_the_stance_on_the_same_thing_not_another_slot():
    tea = slot_keys("preference", "favourite:tea", "likes", "The user loves tea.")
    assert tea & slot_keys("preference", "opinion:tea", "dislikes", "The user dislikes tea.")
    assert not tea & slot_keys("client_info", "email", "a@example.org", "The user's email is a@example.org.")


def test_the_slot_keys_of_earlier_versions_are_kept_so_a_fact_forgotten_before_stays_forgotten():
    assert "slot\x1fphone_number" in slot_keys("client_info", "phone_number", "0612", "The user's phone is 0612.")
