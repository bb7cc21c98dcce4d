"""Facts related by a model's judgement, checked by a rule (issue 26): which pairs are asked about, what the rule
makes of a verdict, and how the fold applies it, order-independently."""

import itertools
from datetime import datetime, timedelta, timezone

from memory_pipeline.domain.near_duplicates import NearDuplicateRule
from memory_pipeline.domain.reconcile import MULTI_VALUED_ATTRIBUTES, AcceptedFact, reconcile_user
from memory_pipeline.domain.relations import checked, judge_from, may_relate, pairs_to_judge, relation_key
from memory_pipeline.settings import DEFAULT_TTL_DAYS

T0 = datetime(2026, 5, 4, 9, 0, tzinfo=timezone.utc)
NEAR = NearDuplicateRule(0.5, MULTI_VALUED_ATTRIBUTES).same


def said(cid, days, attribute, value, text, category="preference", user="u"):
    return AcceptedFact(candidate_id=cid, user_key=user, category=category, attribute=attribute, value=value,
                        fact=text, quote=text, quote_message_id=int(cid), quote_speaker="human",
                        conversation_id=f"{user}:{days}", said_at=T0 + timedelta(days=days))


REPLY_EN = said("1", 0, "reply_language", "English", "User wants replies in English.")
REPLY_DE = said("2", 7, "preferred_language", "German", "User now prefers German.")


def fold(facts, verdicts=None):
    return reconcile_user(facts, DEFAULT_TTL_DAYS, NEAR, judged=judge_from(verdicts) if verdicts else None)


def active(versions):
    return sorted(v.fact for v in versions if v.is_active)


def test_two_slots_whose_names_share_a_word_are_asked_about():
    assert may_relate(REPLY_EN, REPLY_DE)
    assert may_relate(said("1", 0, "invoice_format", "PDF", "User wants PDF invoices."),
                      said("2", 5, "billing_document_format", "XML", "User needs XML invoices now."))
    assert may_relate(said("1", 0, "favourite:tea", "likes", "User likes tea."),
                      said("2", 5, "opinion:green_tea", "dislikes", "User dislikes green tea."))


def test_one_value_asked_for_and_then_decided_is_asked_about_across_categories():
    # holdout set 8: invoices in dollars asked for (preference), then riyals decided (decision)
    assert may_relate(said("1", 0, "billing_currency", "الدولار الأمريكي", "يريد المستخدم الفواتير بالدولار."),
                      said("2", 9, "invoice_currency", "الريال السعودي", "يريد المستخدم الفوترة بالريال.", "decision"))
    assert may_relate(REPLY_EN, said("2", 7, "preferred_language", "German", "User prefers German.",
                                     category="client_info"))
    # ... not two slots that share a word but end in different ones (a review of session 21)
    assert not may_relate(REPLY_EN, said("2", 7, "language_course", "German", "User takes a German course.",
                                         category="decision"))
    assert not may_relate(said("1", 0, "favourite_food", "sushi", "User loves sushi."),
                          said("2", 3, "food_order", "ramen", "User orders ramen.", "decision"))


def test_two_values_under_names_that_share_no_word_are_asked_about():
    # Unseen cases (session 17): a courier, a team event's date, a diet, each renamed by the model in between.
    assert may_relate(said("1", 0, "courier", "Omniva", "Lietotājs vēlas Omniva pakomātu."),
                      said("2", 9, "shipping_carrier", "DPD", "Lietotājs vēlas DPD kurjeru."))
    assert may_relate(said("1", 0, "offsite_date", "12. Juni", "Das Offsite ist am 12. Juni.", "decision"),
                      said("2", 9, "team_event_date", "3. Juli", "Das Offsite ist am 3. Juli.", "decision"))
    assert may_relate(said("1", 0, "diet", "ベジタリアン", "ユーザーはベジタリアンである。"),
                      said("2", 9, "food_preference", "菜食主義者", "ユーザーは菜食主義者である。"))


def test_a_favourite_given_a_value_and_another_thing_liked_as_the_favourite_are_asked_about():
    # "My favourite series is The Expanse." ... "My current favourite is Severance" (the cases set, 1.5B model)
    series = said("1", 0, "favourite:series", "The Expanse", "User's favourite series is The Expanse.")
    assert may_relate(series, said("2", 3, "favourite:severance", "likes", "User likes Severance."))
    assert not may_relate(series, said("2", 3, "opinion:severance", "likes", "User likes Severance."))  # no favourite


def test_pairs_the_rules_settle_or_that_cannot_clash_are_not_asked_about():
    # two slots the rules know apart: the 1.5B model judged a job an update of a home
    assert not may_relate(said("1", 0, "home_location", "Alicante", "User lives in Alicante.", "client_info"),
                          said("2", 3, "job", "Bankinter", "User works at Bankinter.", "client_info"))
    job = said("1", 0, "job", "nurse", "User is a nurse.", "client_info")
    assert not may_relate(job, said("2", 3, "occupation", "teacher", "User is a teacher.", "client_info"))  # family
    assert not may_relate(said("1", 0, "favourite:pizza", "likes", "User likes pizza."),
                          said("2", 3, "favourite:sushi", "likes", "User likes sushi."))  # no shared word
    assert not may_relate(REPLY_EN, said("2", 7, "preferred_language", "German", "User prefers German.", user="v"))
    assert not may_relate(said("1", 0, "favourite:pizza", "likes", "User likes pizza."),
                          said("2", 3, "diet", "vegan", "User is vegan.", "client_info"))  # no shared word
    # a listed slot with an object of the model's own is that slot (a 1.5B model: `contact_channel:mobile`, then
    # `contact_channel`): the owner rules settle it
    assert not may_relate(said("1", 0, "contact_channel:mobile", "mobile", "User prefers calls on mobile."),
                          said("2", 5, "contact_channel", "email", "User prefers email."))
    assert not may_relate(said("1", 0, "spoken_language", "English", "User speaks English."),
                          said("2", 3, "reply_language", "German", "User wants German replies."))  # multi-valued


def test_every_pair_is_listed_once_older_first():
    third = said("3", 9, "language_of_replies", "French", "User wants French replies.")
    pairs = pairs_to_judge((), [REPLY_EN, REPLY_DE, third])
    assert [(o.candidate_id, n.candidate_id) for o, n in pairs] == [("1", "2"), ("1", "3"), ("2", "3")]
    assert pairs_to_judge([REPLY_EN], [REPLY_DE]) == [(REPLY_EN, REPLY_DE)]


def test_the_rule_checks_the_verdict_by_numbers_and_values():
    old = said("1", 0, "decision:launch", "2026-06-12", "User launches on 2026-06-12.", "decision")
    moved = said("2", 3, "decision:product_launch", "2026-06-19", "User launches on 2026-06-19.", "decision")
    assert checked("same", old, moved) == "update"  # another date is a new value, whatever the model said
    again = said("2", 3, "decision:product_launch", "2026-06-12", "The launch is on 2026-06-12.", "decision")
    assert checked("update", old, again) == "same"
    assert checked("different", old, moved) is None and checked(None, old, moved) is None
    # "same" for another value in words relates nothing (a 1.5B model: "dream job: astronaut" as "job: teacher";
    # a review's probes: two allergies, a personal and a work email): superseding would end a true fact
    job = said("1", 0, "job", "teacher", "User is a teacher.", "client_info")
    dream = said("2", 3, "dream_job", "astronaut", "User dreams of being an astronaut.", "client_info")
    assert checked("same", job, dream) is None


def test_a_judged_update_supersedes_the_old_fact_and_says_so():
    versions = fold([REPLY_EN, REPLY_DE], {relation_key(REPLY_EN, REPLY_DE): "update"})
    assert active(versions) == [REPLY_DE.fact]
    old = next(v for v in versions if v.fact == REPLY_EN.fact)
    assert old.relation == "judged" and old.superseded_at == REPLY_DE.said_at


def test_a_judged_repeat_is_no_second_fact():
    again = said("2", 7, "answer_language", "English", "User wants answers in English.")
    versions = fold([REPLY_EN, again], {relation_key(REPLY_EN, again): "same"})
    assert active(versions) == [REPLY_EN.fact]
    assert dict(versions[0].repeats) == {"judged": 1}


def test_without_a_verdict_or_with_different_both_facts_stay():
    assert active(fold([REPLY_EN, REPLY_DE])) == sorted([REPLY_EN.fact, REPLY_DE.fact])
    assert active(fold([REPLY_EN, REPLY_DE], {relation_key(REPLY_EN, REPLY_DE): "different"})) == sorted(
        [REPLY_EN.fact, REPLY_DE.fact])


def test_judged_facts_fold_the_same_in_any_order():
    third = said("3", 9, "language_of_replies", "French", "User wants French replies.")
    facts = [REPLY_EN, REPLY_DE, third]
    verdicts = {relation_key(o, n): "update" for o, n in pairs_to_judge((), facts)}
    results = {tuple((v.fact, v.is_active, v.relation) for v in fold(list(order), verdicts))
               for order in itertools.permutations(facts)}
    assert len(results) == 1
    assert active(fold(facts, verdicts)) == [third.fact]
