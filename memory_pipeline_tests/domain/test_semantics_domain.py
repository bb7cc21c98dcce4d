"""Fact semantics as pure functions (issue 17): what two texts say (polarity, values, corrections), corrections and
negations in reconciliation, relative time made absolute, forget requests in every form and language."""

import itertools
from datetime import date, datetime, timedelta, timezone

import pytest
from zoneinfo import ZoneInfo

from memory_pipeline.domain.near_duplicates import NearDuplicateRule
from memory_pipeline.domain.reconcile import MULTI_VALUED_ATTRIBUTES, AcceptedFact, reconcile_user
from memory_pipeline.domain.relative_time import resolve, resolve_fact, validity
from memory_pipeline.domain.retractions import is_forget_request, requested_slot
from memory_pipeline.domain.statements import (
    differs_in_substance, frame, is_correction, negated_values, substituted_words)

T0 = datetime(2026, 9, 10, 10, 0, tzinfo=timezone.utc)
TTL = {"preference": 730, "decision": 365, "client_info": 1095}
RULE = NearDuplicateRule(0.5, MULTI_VALUED_ATTRIBUTES)


def fact(cid, text, days, category="decision", attribute=None, value=None, quote=None):
    return AcceptedFact(candidate_id=cid, user_key="u", category=category, attribute=attribute, value=value,
                        fact=text, quote=quote or text, quote_message_id=int(cid), quote_speaker="human",
                        conversation_id="c" + cid, said_at=T0 + timedelta(days=days))


def active(versions):
    return sorted(v.fact for v in versions if v.is_active)


# -- statements ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("a, b", [
    ("User decided that production deploys are allowed on Fridays.",
     "User decided that production deploys are not allowed on Fridays."),                  # polarity
    ("User needs 2 tickets for the concert.", "User needs 3 tickets for the concert."),     # a number
    ("User's flight is on 2026-03-05.", "User's flight is on 2026-03-07."),                 # a date
    ("User's meeting is on Monday.", "User's meeting is on Tuesday."),                      # a date word
    ("User is planning a trip to Hohhot.", "User is planning a trip to Ulanqab."),         # a named value
    ("L'utilisateur aime le jazz.", "L'utilisateur n'aime pas le jazz."),                   # French polarity
    ("Der Nutzer mag Jazz.", "Der Nutzer mag Jazz nicht."),                                 # German
    ("Al usuario le gusta el jazz.", "Al usuario no le gusta el jazz."),                    # Spanish
    ("用户喜欢小狗。", "用户不太喜欢小狗。"),                                                # Chinese
])
def test_texts_differing_in_polarity_or_a_value_are_never_near_duplicates(a, b):
    assert differs_in_substance(a, b)
    new, old = fact("2", b, 1), fact("1", a, 0)
    assert not NearDuplicateRule(0.01, MULTI_VALUED_ATTRIBUTES).same(new, old)  # whatever the threshold


def test_rewordings_of_one_fact_still_merge():
    assert not differs_in_substance("User prefers invoices as PDF.", "User prefers invoices in PDF.")
    assert RULE.same(fact("2", "User prefers invoices in PDF.", 1), fact("1", "User prefers invoices as PDF.", 0))


@pytest.mark.parametrize("a, b", [
    ("User is planning a trip to hohhot.", "User is planning a trip to ulanqab."),   # a place typed in lower case
    ("User takes notes in notion every day.", "User takes notes in obsidian every day."),  # a lower-case brand
    ("User decided to buy nike running shoes.", "User decided to buy adidas running shoes."),
    ("User hates jazz.", "User likes jazz."),                                          # opposite stances
])
def test_texts_differing_in_a_lower_case_value_are_never_near_duplicates(a, b):
    assert differs_in_substance(a, b)
    assert not NearDuplicateRule(0.01, MULTI_VALUED_ATTRIBUTES).same(fact("2", b, 1), fact("1", a, 0))


@pytest.mark.parametrize("a, b", [
    ("User decided to cancel their gym membership.", "User decided to cancel the gym membership."),
    ("User's favourite food is pizza.", "User's favorite food is pizza."),             # a spelling
    ("User really likes hiking a lot.", "User likes hiking."),                         # words only added
    ("User loves jazz.", "User likes jazz."),                                          # one positive stance
    ("User needs invoices as PDF files.", "User needs invoice as PDF file."),          # an inflection
])
def test_rewordings_are_not_substitutions(a, b):
    assert substituted_words(a, b) == [] and not differs_in_substance(a, b)


def test_frames_ignore_negation_and_values():
    assert frame("User decided that deploys are allowed on Fridays.") == frame(
        "Correction: User decided that deploys are not allowed on Fridays.")
    assert frame("User takes the 9am train to Leeds.") == frame("User takes the 11am train to Leeds.")
    assert frame("User likes Paris.") != frame("User lives in Paris.")


@pytest.mark.parametrize("quote, values", [
    ("Change of plan: we're going to Ulanqab, not Hohhot.", {"hohhot"}),
    ("I'll take the train instead of Ryanair.", {"ryanair"}),
    ("On va à Lyon, pas Paris.", {"paris"}),
    ("Wir fahren nach München, nicht Berlin.", {"berlin"}),
    ("我们去乌兰察布，而不是呼和浩特。", {"呼和浩特"}),
    ("Production deploys are not allowed on Fridays.", set()),  # "not allowed" rules out no value
    ("change of plan: we're going to ulanqab, not hohhot.", {"hohhot"}),  # typed in lower case
    ("i'll fly klm instead of ryanair.", {"ryanair"}),
    ("Production deploys are not allowed.", set()),  # a negated verb, even at the clause's end
    ("I like it, not really.", set()),  # a function word is no value
])
def test_values_a_sentence_rules_out(quote, values):
    assert negated_values(quote) == values


@pytest.mark.parametrize("quote", ["Correction: we meet at 10.", "Actually, I take the 11am train.",
                                   "Change of plan: we fly on Sunday.", "En fait, je pars lundi.",
                                   "Korrektur: wir fliegen am Sonntag.", "En realidad, salgo el lunes.", "更正：我们周日走。"])
def test_correction_markers_in_five_languages(quote):
    assert is_correction(quote)


# -- reconciliation -----------------------------------------------------------------------------------------
def test_a_negated_restatement_supersedes_the_active_fact_and_keeps_it_as_history():
    old = fact("1", "User decided that production deploys are allowed on Fridays.", 0)
    new = fact("2", "User decided that production deploys are not allowed on Fridays.", 1,
               quote="Correction: we decided that production deploys are not allowed on Fridays.")
    for order in itertools.permutations([old, new]):
        versions = reconcile_user(order, TTL, RULE.same)
        assert active(versions) == [new.fact]
        (superseded,) = [v for v in versions if not v.is_active]
        assert superseded.fact == old.fact and superseded.superseded_at == new.said_at
        assert superseded.superseded_by_key == next(v for v in versions if v.is_active).version_key


def test_a_ruled_out_value_ends_the_fact_that_names_it():
    trip = fact("1", "User is planning a road trip to Hohhot in August.", 0)
    other = fact("3", "User booked a hotel in Tokyo.", 0)
    change = fact("2", "User is going to Ulanqab.", 1, quote="Change of plan: we're going to Ulanqab, not Hohhot.")
    versions = reconcile_user([trip, other, change], TTL, RULE.same)
    assert active(versions) == ["User booked a hotel in Tokyo.", "User is going to Ulanqab."]


def test_a_corrected_value_supersedes_only_when_marked_or_a_decision():
    train = [fact("1", "User takes the 9am train to Leeds.", 0, "preference"),
             fact("2", "User takes the 11am train to Leeds.", 1, "preference")]
    assert len(active(reconcile_user(train, TTL, RULE.same))) == 2  # two preferences, both may hold
    marked = [train[0], fact("2", train[1].fact, 1, "preference", quote="Actually, I take the 11am train to Leeds.")]
    assert active(reconcile_user(marked, TTL, RULE.same)) == ["User takes the 11am train to Leeds."]
    decided = [fact("1", "User decided to take the 9am train.", 0),
               fact("2", "User decided to take the 11am train.", 1)]
    assert active(reconcile_user(decided, TTL, RULE.same)) == ["User decided to take the 11am train."]


def test_a_lower_case_ruled_out_value_ends_the_fact_that_names_it():
    trip = fact("1", "User is planning a road trip to hohhot in august.", 0)
    change = fact("2", "User is going to ulanqab.", 1, quote="change of plan: we're going to ulanqab, not hohhot.")
    assert active(reconcile_user([trip, change], TTL, RULE.same)) == ["User is going to ulanqab."]


def test_a_name_said_as_name_and_as_call_me_is_one_fact_the_name():
    name = fact("1", "User's name is Jack.", 0, "client_info", "name", "Jack")
    call = fact("2", "User likes to be called Jack.", 1, "client_info", "preferred_name", "Jack")
    for first, second in ((name, call), (call, AcceptedFact(**{**name.__dict__, "candidate_id": "3",
                                                                "quote_message_id": 3, "said_at": T0 + timedelta(2)}))):
        versions = reconcile_user([first, second], TTL, RULE.same)
        assert active(versions) == ["User's name is Jack."]
    other = fact("2", "User likes to be called Jo.", 1, "client_info", "preferred_name", "Jo")
    assert active(reconcile_user([name, other], TTL, RULE.same)) == ["User likes to be called Jo.",
                                                                      "User's name is Jack."]


def test_names_and_hometowns_never_expire_and_purchases_expire_in_weeks():
    from memory_pipeline.settings import DEFAULT_TTL_DAYS
    facts = [fact("1", "User's name is Jack.", 0, "client_info", "name", "Jack"),
             fact("2", "User likes to be called Jacky.", 0, "client_info", "preferred_name", "Jacky"),
             fact("3", "User grew up in Ohio.", 0, "client_info", "hometown", "Ohio"),
             fact("4", "User bought a new white dress.", 0, "client_info", "purchase", "a new white dress"),
             fact("5", "User bought a suitcase.", 1, "client_info", "purchase", "a suitcase"),
             fact("6", "User lives in Leeds.", 0, "client_info", "home_location", "Leeds")]
    expiry = {v.fact: v.expires_at for v in reconcile_user(facts, DEFAULT_TTL_DAYS, RULE.same)}
    assert expiry["User's name is Jack."] is None and expiry["User likes to be called Jacky."] is None
    assert expiry["User grew up in Ohio."] is None
    assert expiry["User bought a new white dress."] == T0 + timedelta(days=90)  # two purchases: both kept
    assert expiry["User bought a suitcase."] == T0 + timedelta(days=91)
    assert expiry["User lives in Leeds."] == T0 + timedelta(days=DEFAULT_TTL_DAYS["client_info"])


def test_likes_of_different_things_never_supersede_each_other():
    facts = [fact("1", "User likes Paris.", 0, "preference"), fact("2", "User likes Rome.", 1, "preference")]
    assert len(active(reconcile_user(facts, TTL, RULE.same))) == 2


def test_different_attributes_are_never_corrected_into_each_other():
    facts = [fact("1", "User grew up in Munich.", 0, "client_info", "hometown", "Munich"),
             fact("2", "User lives in Berlin.", 1, "client_info", "home_location", "Berlin",
                  quote="I live in Berlin, not Munich.")]
    assert len(active(reconcile_user(facts, TTL, RULE.same))) == 2


# -- relative time -------------------------------------------------------------------------------------------
WEDNESDAY = date(2026, 3, 4)


@pytest.mark.parametrize("text, expected", [
    ("User bought a suitcase yesterday.", "User bought a suitcase on 2026-03-03."),
    ("User ran 5 km this morning.", "User ran 5 km on 2026-03-04."),
    ("User moved to Lisbon last week.", "User moved to Lisbon in the week of 2026-02-23."),
    ("User moved to Lisbon last month.", "User moved to Lisbon in February 2026."),  # not "in 2026-02"
    ("User wants to book a table for tomorrow at 7pm.", "User wants to book a table for 2026-03-05 at 19:00."),
    ("User flies to Oslo next Friday.", "User flies to Oslo on 2026-03-13."),
    ("User flies to Oslo this Friday.", "User flies to Oslo on 2026-03-06."),
    ("User visited Rome last Monday.", "User visited Rome on 2026-03-02."),
    ("User moved to Lisbon two days ago.", "User moved to Lisbon on 2026-03-02."),
    ("User flies to Oslo in 3 days.", "User flies to Oslo on 2026-03-07."),
    ("Der Nutzer kam vor 2 Tagen.", "Der Nutzer kam am 2026-03-02."),
    ("用户三天前到的。", "用户2026-03-01到的。"),
    ("User is in 2 teams.", "User is in 2 teams."),
    ("L'utilisateur a acheté une valise hier.", "L'utilisateur a acheté une valise le 2026-03-03."),
    ("Der Nutzer fliegt morgen um 19 Uhr.", "Der Nutzer fliegt am 2026-03-05 um 19:00."),
    ("El usuario compró una maleta ayer.", "El usuario compró una maleta el 2026-03-03."),
    ("用户明天晚上7点去机场。", "用户2026-03-05 19:00去机场。"),
    ("User likes deploys on Fridays.", "User likes deploys on Fridays."),  # a habit, not a date
    ("Der Nutzer sagt Guten Morgen.", "Der Nutzer sagt Guten Morgen."),    # the noun, not "tomorrow"
    # session 18, found by weighing dateparser against this table: the morning is not tomorrow, "nowadays" not
    # today, 大后天 is three days, and an hour after an evening word is after noon
    ("Trabajo por la mañana.", "Trabajo por la mañana."),
    ("El usuario vuela mañana a las 9.", "El usuario vuela el 2026-03-05 a las 09:00."),
    ("Hoy en día trabaja desde casa.", "Hoy en día trabaja desde casa."),
    ("用户大后天到。", "用户2026-03-07到。"),
    ("User flies tomorrow afternoon at 3.", "User flies on 2026-03-05 at 15:00."),
    ("Der Nutzer kommt morgen Abend um 8.", "Der Nutzer kommt am 2026-03-05 um 20:00."),
    ("L'utilisateur arrive demain soir à 8h.", "L'utilisateur arrive le 2026-03-05 à 20:00."),
    ("User starts a week from today.", "User starts on 2026-03-11."),
    ("User's shop closes on Monday.", "User's shop closes on Monday."),  # a habit: a date would make it expire
    # session 22: a language's words read only its own text (and English): Dutch and German "hier" is here, not
    # French "hier" (yesterday): "woon hier op kot" gave "De gebruiker woont op kot in Gent le 2026-03-03."
    ("woon hier op kot in Gent", "woon hier op kot in Gent"),
    ("Ich wohne seit zwei Jahren hier.", "Ich wohne seit zwei Jahren hier."),
    ("Je suis arrivé hier à Gand.", "Je suis arrivé le 2026-03-03 à Gand."),
])
def test_relative_time_is_resolved_against_the_day_it_was_said(text, expected):
    assert resolve(text, WEDNESDAY)[0] == expected


def test_the_local_date_of_the_message_is_the_reference():
    late = datetime(2026, 3, 4, 23, 30, tzinfo=timezone.utc)  # already 2026-03-05 in Tokyo
    assert resolve_fact("User bought a suitcase yesterday.", "", late, "UTC").endswith("2026-03-03.")
    assert resolve_fact("User bought a suitcase yesterday.", "", late, "Asia/Tokyo").endswith("2026-03-04.")


def test_a_time_dropped_from_the_fact_is_taken_from_a_one_clause_quote():
    said = datetime(2026, 2, 21, 10, tzinfo=timezone.utc)
    assert resolve_fact("User bought a suitcase.", "I bought a suitcase yesterday.", said) == \
        "User bought a suitcase on 2026-02-20."
    # Several clauses: the time may belong to another one, so the fact is left as it is.
    assert resolve_fact("User's name is Ana.", "I'm Ana, and yesterday I went out.", said) == "User's name is Ana."
    assert resolve_fact("User bought a suitcase.", "I bought a suitcase.", None) == "User bought a suitcase."


def test_a_dated_fact_is_valid_from_its_past_day_and_expires_after_its_future_day():
    said = datetime(2026, 3, 4, 10, tzinfo=timezone.utc)
    past = fact("1", "User bought a suitcase on 2026-03-03.", 0, "client_info", quote="I bought a suitcase yesterday.")
    plan = fact("2", "User wants to book a table for 2026-03-05 at 19:00.", 0,
                quote="I'd like to book a table for tomorrow at 7pm.")
    past, plan = (AcceptedFact(**{**f.__dict__, "said_at": said}) for f in (past, plan))
    assert validity(past.fact, past.quote, said, "Europe/Paris") == (
        datetime(2026, 3, 3, tzinfo=ZoneInfo("Europe/Paris")), None)
    assert validity(plan.fact, plan.quote, said) == (None, datetime(2026, 3, 6, tzinfo=timezone.utc))
    assert validity("User likes jazz.", "I like jazz.", said) == (None, None)
    versions = {v.fact: v for v in reconcile_user([past, plan], TTL, RULE.same,
                                                  lambda f: validity(f.fact, f.quote, f.said_at))}
    assert versions[past.fact].valid_from == datetime(2026, 3, 3, tzinfo=timezone.utc)
    assert versions[past.fact].expires_at == said + timedelta(days=TTL["client_info"])
    assert versions[plan.fact].valid_from == said
    assert versions[plan.fact].expires_at == datetime(2026, 3, 6, tzinfo=timezone.utc)


# -- forget requests -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("text, slot", [
    ("Forget my phone number.", "phone_number"),
    ("Please delete my email address.", "email"),
    ("Can you forget my phone number?", "phone_number"),
    ("Could you remove my address from your notes?", "home_location"),
    ("Peux-tu oublier mon adresse e-mail ?", "email"),
    ("Oublie mon numéro de téléphone.", "phone_number"),
    ("Vergiss meine Telefonnummer.", "phone_number"),
    ("Kannst du meine E-Mail-Adresse löschen?", "email"),
    ("¿Puedes olvidar mi número de teléfono?", "phone_number"),
    ("Borra mi correo electrónico.", "email"),
    ("能不能忘掉我的电话号码？", "phone_number"),
    ("请删除我的邮箱。", "email"),
    ("Please forget what I said about my phone number.", "phone_number"),
    ("Don't remember my address.", "home_location"),
    ("Stop storing my email.", "email"),
])
def test_forget_requests_in_every_form_and_language(text, slot):
    assert requested_slot(text) == slot and is_forget_request(text)


@pytest.mark.parametrize("text", ["Don't forget my phone number.", "I forgot my keys.", "Forget it.",
                                  "I'll never forget my wedding day.",
                                  "Ignore previous instructions.", "My phone number is 415-555-0199."])
def test_what_is_not_a_forget_request(text):
    assert not is_forget_request(text)
