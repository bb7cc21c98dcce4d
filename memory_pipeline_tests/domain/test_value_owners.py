"""A value has one owner (issue 26): an update supersedes the fact it changes whatever attribute name the model
chose in each conversation, a restatement under another name is a repeat, and the result stays a function of the
set of candidates. Cases written for this check (other words, other attribute names, other languages' values),
folded by `reconcile_user` as the pipeline folds them (with its near-duplicate rule)."""

import itertools
from datetime import datetime, timedelta, timezone

from memory_pipeline.domain.owners import owners, same_value
from memory_pipeline.domain.near_duplicates import NearDuplicateRule
from memory_pipeline.domain.reconcile import MULTI_VALUED_ATTRIBUTES, AcceptedFact, continue_fold, reconcile_user
from memory_pipeline.settings import DEFAULT_TTL_DAYS

T0 = datetime(2026, 4, 6, 9, 0, tzinfo=timezone.utc)
NEAR = NearDuplicateRule(0.5, MULTI_VALUED_ATTRIBUTES).same


def said(cid, days, attribute, value, text, category="client_info", user="u", message=1, position=0,
         retraction=False):
    return AcceptedFact(candidate_id=cid, user_key=user, category=category, attribute=attribute, value=value,
                        fact=text, quote=text, quote_message_id=message, quote_speaker="human",
                        conversation_id=f"{user}:{days}", said_at=T0 + timedelta(days=days), position=position,
                        retraction=retraction)


def fold(facts):
    return reconcile_user(facts, DEFAULT_TTL_DAYS, NEAR)


def active(versions):
    return sorted(v.fact for v in versions if v.is_active)


def relation_of(versions, text):
    (version,) = [v for v in versions if v.fact == text]
    return version.relation


# Pairs of (old, new) facts, each under the name one conversation's model chose for the slot.
RENAMED_UPDATES = [
    (("job", "nurse", "User works as a nurse."), ("occupation", "teacher", "User is now a teacher.")),
    (("profession", "Krankenpfleger", "Der Nutzer arbeitet als Krankenpfleger."),
     ("job_title", "Lehrer", "Der Nutzer ist jetzt Lehrer.")),
    (("home_location", "Lyon", "User lives in Lyon."), ("current_city", "Madrid", "User now lives in Madrid.")),
    (("residence", "Sevilla", "El usuario vive en Sevilla."), ("lives_in", "Valencia", "El usuario vive en Valencia.")),
    (("contact_channel", "email", "User wants to be contacted by email."),
     ("preferred_contact_method", "phone", "User prefers phone calls.")),
    (("employer", "Acme", "User works at Acme."), ("company", "Globex", "User joined Globex.")),
    (("email", "ana@example.org", "User's email is ana@example.org."),
     ("email_address", "ana@example.com", "User's email address is ana@example.com.")),
    (("phone", "+33 6 12 34 56 78", "User's phone is +33 6 12 34 56 78."),
     ("phone_number", "+33 7 98 76 54 32", "User's phone number is +33 7 98 76 54 32.")),
]


def test_an_update_under_another_attribute_name_supersedes_the_old_value():
    for (a_attr, a_value, a_text), (b_attr, b_value, b_text) in RENAMED_UPDATES:
        versions = fold([said("1", 0, a_attr, a_value, a_text), said("2", 9, b_attr, b_value, b_text)])
        assert active(versions) == [b_text], (a_attr, b_attr)
        old = next(v for v in versions if v.fact == a_text)
        assert old.superseded_at == T0 + timedelta(days=9)
        assert old.superseded_by_key == next(v for v in versions if v.fact == b_text).version_key
        assert old.relation == "slot_family"


def test_an_update_under_the_same_name_records_same_slot():
    versions = fold([said("1", 0, "job", "nurse", "User works as a nurse."),
                     said("2", 3, "job", "pilot", "User works as a pilot.")])
    assert active(versions) == ["User works as a pilot."]
    assert relation_of(versions, "User works as a nurse.") == "same_slot"
    assert relation_of(versions, "User works as a pilot.") is None  # active: nothing ended it


def test_a_decision_object_said_longer_or_shorter_is_the_same_decision():
    versions = fold([said("1", 0, "decision:beta_launch", "May 4", "User decided to launch the beta on May 4.",
                          "decision"),
                     said("2", 2, "decision:beta_launch_date", "June 1",
                          "User moved the beta launch to June 1.", "decision")])
    assert active(versions) == ["User moved the beta launch to June 1."]
    versions = fold([said("1", 0, "decision:take_train", "9am", "User will take the 9am train.", "decision"),
                     said("2", 1, "decision:train", "11am", "User will take the 11am train.", "decision")])
    assert active(versions) == ["User will take the 11am train."]
    assert relation_of(versions, "User will take the 9am train.") == "slot_family"


def test_an_opposite_stance_on_the_same_object_supersedes_whatever_the_slot():
    versions = fold([said("1", 0, "favourite:chinese_food", "likes", "User loves Chinese food.", "preference"),
                     said("2", 5, "opinion:chinese_food", "dislikes", "User dislikes Chinese food now.",
                          "preference")])
    assert active(versions) == ["User dislikes Chinese food now."]
    assert relation_of(versions, "User loves Chinese food.") == "same_object"
    versions = fold([said("1", 0, "hobby", "pizza", "User enjoys making pizza.", "preference"),
                     said("2", 5, "hobby", "chess", "User plays chess.", "preference"),
                     said("3", 6, "opinion:pizza", "hates", "User hates pizza.", "preference")])
    assert active(versions) == ["User hates pizza.", "User plays chess."]  # the other hobby stays
    assert relation_of(versions, "User enjoys making pizza.") == "same_object"


def test_a_favourite_is_owned_by_its_kind_and_its_object():
    versions = fold([said("1", 0, "favourite:colour", "blue", "User's favourite colour is blue.", "preference"),
                     said("2", 4, "favorite_color", "green", "User's favorite color is green.", "preference")])
    assert active(versions) == ["User's favorite color is green."]
    versions = fold([said("1", 0, "favourite:colour", "blue", "User's favourite colour is blue.", "preference"),
                     said("2", 4, "opinion:blue", "hates", "User hates blue.", "preference")])
    assert active(versions) == ["User hates blue."]


def test_multi_valued_owners_never_supersede_one_another():
    versions = fold([said("1", 0, "hobby", "chess", "User plays chess.", "preference"),
                     said("2", 1, "interest", "astronomy", "User is into astronomy.", "preference"),
                     said("3", 2, "hobby", "golf", "User plays golf.", "preference"),
                     said("4", 3, "opinion:jazz", "likes", "User likes jazz.", "preference"),
                     said("5", 4, "opinion:rock", "likes", "User likes rock.", "preference")])
    assert len(active(versions)) == 5


def test_distinct_slots_that_share_a_word_stay_apart():
    versions = fold([said("1", 0, "home_location", "Lyon", "User lives in Lyon."),
                     said("2", 1, "hometown", "Munich", "User grew up in Munich."),
                     said("3", 2, "shipping_address", "1 Rue de la Paix", "User ships to 1 Rue de la Paix."),
                     said("4", 3, "name", "Jonathan", "User's name is Jonathan."),
                     said("5", 4, "preferred_name", "Jo", "User wants to be called Jo.", "preference"),
                     said("6", 5, "spoken_language", "French", "User speaks French."),
                     said("7", 6, "spoken_language", "German", "User speaks German.")])
    assert len(active(versions)) == 7


def test_a_restatement_in_other_words_under_another_name_is_one_active_fact():
    versions = fold([said("1", 0, "job", "software engineer", "User works as a software engineer."),
                     said("2", 6, "occupation", "Software Engineer", "User is a software engineer by trade."),
                     said("3", 8, "profession", "engineer", "User's profession is engineer.")])
    (version,) = versions
    assert version.fact == "User works as a software engineer." and version.is_active
    assert version.last_seen_at == T0 + timedelta(days=8)
    assert dict(version.repeats) == {"slot_family": 2}


def test_a_value_corrected_twice_leaves_the_last_active_and_a_chain_of_history():
    versions = fold([said("1", 0, "current_city", "Oslo", "User lives in Oslo."),
                     said("2", 3, "home_location", "Bergen", "User moved to Bergen."),
                     said("3", 7, "residence", "Tromsø", "User now lives in Tromsø.")])
    assert active(versions) == ["User now lives in Tromsø."]
    by_text = {v.fact: v for v in versions}
    assert by_text["User lives in Oslo."].superseded_by_key == by_text["User moved to Bergen."].version_key
    assert by_text["User moved to Bergen."].superseded_by_key == by_text["User now lives in Tromsø."].version_key


def test_two_values_changed_in_one_message_supersede_both():
    versions = fold([said("1", 0, "job", "barista", "User works as a barista."),
                     said("2", 0, "city", "Porto", "User lives in Porto.", position=1),
                     said("3", 10, "occupation", "chef", "User is now a chef.", message=7),
                     said("4", 10, "current_city", "Lisbon", "User moved to Lisbon.", message=7, position=1)])
    assert active(versions) == ["User is now a chef.", "User moved to Lisbon."]


def test_another_users_change_never_touches_this_users_fact():
    versions = fold([said("1", 0, "job", "nurse", "User works as a nurse.", user="u"),
                     said("2", 3, "occupation", "lawyer", "User is a lawyer.", user="sister")])
    assert active(versions) == ["User is a lawyer.", "User works as a nurse."]


def test_a_retraction_under_another_name_ends_the_owner():
    versions = fold([said("1", 0, "job", "nurse", "User works as a nurse."),
                     said("2", 4, "occupation", None, "User no longer works as a nurse.", retraction=True)])
    assert active(versions) == []
    assert relation_of(versions, "User works as a nurse.") == "retraction"


def test_a_retraction_of_a_liking_ends_it_whatever_word_it_gives_as_value():
    # "unusta see mis ma õudusfilmide kohta ütlesin" (forget what I said about horror films): the model gave the
    # object as the retraction's value, the liking holds "likes" (holdout set 10).
    versions = fold([said("1", 0, "favourite:horror_movies", "likes", "Talle meeldivad õudusfilmid.", "preference"),
                     said("2", 4, "favourite:horror_movies", "õudusfilmid", "Õudusfilmid ei huvita teda enam.",
                          "preference", retraction=True)])
    assert active(versions) == [] and relation_of(versions, "Talle meeldivad õudusfilmid.") == "retraction"
    # ... only where the retraction's own slot holds nothing: "forget football" ends football, not "loves sports"
    versions = fold([said("1", 0, "opinion:sports", "likes", "User loves sports.", "preference"),
                     said("2", 2, "favourite:sport", "football", "User's favourite sport is football.", "preference"),
                     said("3", 4, "favourite:sport", "football", "User no longer cares about football.", "preference",
                          retraction=True)])
    assert active(versions) == ["User loves sports."]
    # a named value still ends only the value it names where the slot holds a thing
    versions = fold([said("1", 0, "home_location", "Lyon", "User lives in Lyon."),
                     said("2", 4, "home_location", "Paris", "User no longer lives in Paris.", retraction=True)])
    assert active(versions) == ["User lives in Lyon."]


UNSEEN = [said("1", 0, "job", "nurse", "User works as a nurse."),
          said("2", 2, "contact_channel", "email", "User wants email.", "preference"),
          said("3", 4, "occupation", "teacher", "User is now a teacher."),
          said("4", 5, "preferred_contact_method", "phone", "User prefers phone calls.", "preference"),
          said("5", 7, "profession", "Teacher", "User teaches for a living."),
          said("6", 8, "favourite:chinese_food", "likes", "User loves Chinese food.", "preference"),
          said("7", 9, "opinion:chinese_food", "dislikes", "User dislikes Chinese food.", "preference"),
          said("8", 9, "hobby", "chess", "User plays chess.", "preference", message=2)]


def test_backfill_in_any_order_gives_the_same_facts():
    expected = fold(UNSEEN)
    assert active(expected) == ["User dislikes Chinese food.", "User is now a teacher.", "User plays chess.",
                                "User prefers phone calls."]
    for order in itertools.islice(itertools.permutations(UNSEEN), 0, None, 997):
        assert fold(list(order)) == expected
    assert fold(list(reversed(UNSEEN))) == expected


def test_the_incremental_fold_equals_the_full_fold():
    full = fold(UNSEEN)
    for cut in range(1, len(UNSEEN)):
        first = fold(UNSEEN[:cut])
        ended = [v for v in first if not v.is_active]  # nothing changes them again
        continued = continue_fold([v for v in first if v.is_active], UNSEEN[cut:], DEFAULT_TTL_DAYS, NEAR)
        assert sorted(ended + continued, key=repr) == sorted(full, key=repr), cut


def test_a_name_and_the_same_call_me_name_under_other_slot_names_are_one_fact():
    versions = fold([said("1", 0, "nickname", "Jack", "User wants to be called Jack.", "preference"),
                     said("2", 1, "full_name", "Jack", "User's name is Jack.")])
    assert active(versions) == ["User's name is Jack."]
    assert relation_of(versions, "User wants to be called Jack.") == "name_twin"


def test_the_same_sentence_said_again_under_another_name_is_a_repeat():
    # A 1.5B model's answers to "I prefer invoices as PDF." said in two conversations (the cases gold set).
    first = said("1", 0, "preference:invoices", "PDF", "The user prefers invoices in PDF format.", "preference")
    again = said("2", 3, "preference:delivery_instruction", "PDF", "The user prefers invoices to be sent as PDF.",
                 "preference")
    first, again = (AcceptedFact(**{**f.__dict__, "quote": "I prefer invoices as PDF."}) for f in (first, again))
    (version,) = fold([first, again])
    assert version.fact == "The user prefers invoices in PDF format." and version.repeats == (("same_quote", 1),)
    other_value = AcceptedFact(**{**again.__dict__, "value": "paper", "fact": "The user wants paper invoices."})
    assert len(active(fold([first, other_value]))) == 2  # one sentence, two values: two facts


def test_a_moved_date_is_a_new_value_not_a_repeat_of_the_old_one():
    assert not same_value("19. června", "12. června 19:00")
    assert same_value("Lyon", "Lyon, France")


def test_a_plan_named_as_a_subscription_has_one_owner():
    assert owners("client_info", "plan", "Starter") == owners("client_info", "subscription_plan", "Pro")
