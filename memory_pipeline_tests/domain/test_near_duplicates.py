"""Near-duplicate merge: pg_trgm's similarity in Python, each decision of the rule on fixed inputs, the fold, and
the blue case through the pipeline with the offline extractor."""

from datetime import date, datetime, timedelta, timezone

import pytest

from memory_pipeline.domain.near_duplicates import NearDuplicateRule, stance, trigram_similarity, trigrams
from memory_pipeline.domain.reconcile import MULTI_VALUED_ATTRIBUTES, AcceptedFact, reconcile_user
from memory_pipeline.settings import DEFAULT_TTL_DAYS
from memory_pipeline_tests.test_forget import Install, chat

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=timezone.utc)
RULE = NearDuplicateRule(0.9, MULTI_VALUED_ATTRIBUTES)


def f(fact, attribute=None, value=None, category="preference", day=0, cid=None):
    return AcceptedFact(candidate_id=cid or fact, user_key="u", category=category, attribute=attribute, value=value,
                        fact=fact, quote=fact, quote_message_id=day + 1, quote_speaker="human",
                        conversation_id=f"c{day}", said_at=T0 + timedelta(days=day))


def test_trigrams_are_pg_trgm_s():
    # PostgreSQL documentation, pg_trgm: show_trgm('cat') = {"  c"," ca","at ","cat"};
    # similarity('word', 'two words') = 0.363636.
    assert trigrams("cat") == {"  c", " ca", "cat", "at "}
    assert round(trigram_similarity("word", "two words"), 6) == 0.363636
    assert trigrams("Foo_bar, BAZ!") == trigrams("foo bar baz")  # case and non-alphanumerics ignored
    assert trigram_similarity("", "") == 0.0 and trigram_similarity("abc", "abc") == 1.0


BLUE = [f("User's favourite colour is blue.", "favourite:colour", "blue"),
        f("User likes blue.", "opinion:blue", "likes"), f("User prefers blue.", None, "blue")]


@pytest.mark.parametrize("new, existing, same", [
    (BLUE[1], BLUE[0], True), (BLUE[2], BLUE[0], True), (BLUE[2], BLUE[1], True),  # one stance, three wordings
    (f("User hates blue.", "opinion:blue", "hates"), BLUE[0], False),  # opposite polarity
    (f("User likes the colour blue.", "opinion:the colour blue", "likes"), BLUE[1], False),  # other object
    (f("User grew up in Lyon.", "hometown", "Lyon", "client_info"),
     f("User lives in Lyon.", "home_location", "Lyon", "client_info"), False),  # two slots never merge
    (f("User plays golf.", "hobby", "golf"), f("User plays chess.", "hobby", "chess"), False),  # two values
    (f("User enjoys chess.", "hobby", "Chess"), f("User plays chess.", "hobby", "chess"), True),  # one value
    (f("User decided to cancel their gym membership.", category="decision"),
     f("User decided to cancel the gym membership.", category="decision"), True),  # similarity 0.909
    (f("User decided to buy a red cap.", category="decision"),
     f("User decided to buy a red car.", category="decision"), False),  # similarity 0.871
    (f("User prefers invoices as PDF.", category="decision"), f("User prefers invoices as PDF."), False),
    (f("User wants to be contacted by phone.", "contact_channel", "phone"),
     f("User wants to be contacted by email.", "contact_channel", "email"), False),  # a supersession instead
])
def test_each_decision_of_the_rule(new, existing, same):
    assert RULE.same(new, existing) is same


def test_threshold_decides_at_its_value():
    # a rewording (a word added), not another value: "red car" / "red cap" differ in substance at any threshold
    a = f("User decided to buy a red car.", category="decision")
    b = f("User decided to buy a shiny red car.", category="decision")
    score = trigram_similarity(a.fact, b.fact)
    assert NearDuplicateRule(score, MULTI_VALUED_ATTRIBUTES).same(a, b)
    assert not NearDuplicateRule(score + 1e-9, MULTI_VALUED_ATTRIBUTES).same(a, b)
    cosine = NearDuplicateRule(0.8, MULTI_VALUED_ATTRIBUTES, similarity=lambda x, y: 0.85)
    assert cosine.same(a, b)  # an embedding similarity replaces the trigram one when given


def test_stances_read_from_the_attribute_conventions():
    assert stance(BLUE[0]) == ("blue", True) and stance(BLUE[1]) == ("blue", True) and stance(BLUE[2]) == ("blue", True)
    assert stance(f("User hates jazz.", "opinion:jazz", "hates")) == ("jazz", False)
    assert stance(f("User lives in Oslo.", "home_location", "Oslo", "client_info")) is None


def test_fold_keeps_one_active_fact_and_refreshes_it():
    facts = [BLUE[0], AcceptedFact(**{**BLUE[1].__dict__, "said_at": T0 + timedelta(days=1), "quote_message_id": 2}),
             AcceptedFact(**{**BLUE[2].__dict__, "said_at": T0 + timedelta(days=2), "quote_message_id": 3})]
    versions = reconcile_user(facts, DEFAULT_TTL_DAYS, RULE.same)
    assert len(versions) == 1 and versions[0].fact == "User's favourite colour is blue."
    assert versions[0].last_seen_at == T0 + timedelta(days=2)
    assert versions[0].expires_at == T0 + timedelta(days=2 + DEFAULT_TTL_DAYS["preference"])
    # Without the rule too: the three are stances on one object, blue (domain.owners), liking it each time.
    assert reconcile_user(facts, DEFAULT_TTL_DAYS) == versions and versions[0].repeats == (("same_object", 2),)


def test_blue_case_through_the_pipeline_ends_with_one_active_fact(make_settings):
    p = Install(make_settings())
    days = [date(2026, 5, 1), date(2026, 5, 2), date(2026, 5, 3)]
    for day, text in zip(days, ["My favourite colour is blue.", "I like blue.", "I prefer blue."]):
        p.load(chat("blue:a", day, text))
    p.load(chat("blue:b", days[1], "I like blue."))
    p.run(*reversed(days))
    active = [r for r in p.facts("blue:a") if r["superseded_at"] is None]
    assert [r["fact"] for r in active] == ["User's favourite colour is blue."]
    assert active[0]["last_seen_at"] == datetime(2026, 5, 3, 10, 0, tzinfo=timezone.utc)
    assert [r["fact"] for r in p.facts("blue:b")] == ["User likes blue."]  # never merged across users
    assert p.count("fact_candidates", "user_key = 'blue:a' AND status = 'accepted'") == 3


def test_forgetting_a_merged_fact_forgets_its_other_wordings(make_settings):
    p = Install(make_settings())
    days = [date(2026, 5, 1), date(2026, 5, 2), date(2026, 5, 3)]
    for day, text in zip(days, ["My favourite colour is blue.", "I like blue.", "I prefer blue."]):
        p.load(chat("blue:a", day, text + " I live in Oslo."))
    p.run(*days)
    blue = [r for r in p.facts("blue:a") if "blue" in r["fact"]]
    assert len(blue) == 1
    report = p.forget("blue:a", blue[0]["id"])
    # The three conversations said it: their summaries are withheld for good.
    assert report.counts == {"fact_candidates": 3, "agent_facts": 1, "session_summaries": 3}
    assert [r["fact"] for r in p.facts("blue:a")] == ["User lives in Oslo."]
