"""Reconciliation rules: repeats, supersede with history, attributes, TTL, and order independence."""

import itertools
from datetime import datetime, timedelta, timezone

from memory_pipeline.domain.reconcile import AcceptedFact, is_single_valued, reconcile_user

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=timezone.utc)
TTL = {"preference": 730, "decision": 365, "client_info": 1095}


def fact(cid, text, days, attribute=None, value=None, category="preference"):
    return AcceptedFact(candidate_id=cid, user_key="u", category=category, attribute=attribute, value=value,
                        fact=text, quote=text, quote_message_id=1, quote_speaker="human", conversation_id="c" + cid,
                        said_at=T0 + timedelta(days=days))


def active(versions):
    return sorted(v.fact for v in versions if v.is_active)


def test_contradiction_later_wins_and_history_is_kept():
    versions = reconcile_user([fact("1", "User loves Chinese food.", 0, "opinion:chinese food", "chinese food"),
                               fact("2", "User hates Chinese food.", 7, "opinion:chinese food", "chinese food x")],
                              TTL)
    assert active(versions) == ["User hates Chinese food."]
    old = next(v for v in versions if not v.is_active)
    assert old.superseded_at == T0 + timedelta(days=7)
    assert old.superseded_by_key == next(v for v in versions if v.is_active).version_key


def test_identical_repeat_is_a_noop_that_refreshes_last_seen():
    versions = reconcile_user([fact("1", "User prefers invoices as PDF.", 0),
                               fact("2", "user prefers invoices as PDF", 3)], TTL)
    assert len(versions) == 1
    assert versions[0].valid_from == T0 and versions[0].last_seen_at == T0 + timedelta(days=3)
    assert versions[0].expires_at == T0 + timedelta(days=3 + 730)


def test_same_slot_same_value_other_wording_is_a_repeat():
    versions = reconcile_user([fact("1", "User wants email.", 0, "contact_channel", "email"),
                               fact("2", "User prefers to be emailed.", 1, "contact_channel", "Email")], TTL)
    assert len(versions) == 1


def test_different_attributes_never_supersede():
    versions = reconcile_user([fact("1", "User lives in Lyon.", 0, "home_location", "Lyon", "client_info"),
                               fact("2", "User works at Acme.", 1, "employer", "Acme", "client_info"),
                               fact("3", "User likes jazz.", 2, "hobby", "jazz"),
                               fact("4", "User likes rock.", 3, "hobby", "rock")], TTL)
    assert len(active(versions)) == 4


def test_switch_back_creates_a_new_version():
    versions = reconcile_user([fact("1", "User wants email.", 0, "contact_channel", "email"),
                               fact("2", "User wants phone.", 1, "contact_channel", "phone"),
                               fact("3", "User wants email.", 2, "contact_channel", "email")], TTL)
    assert len(versions) == 3 and active(versions) == ["User wants email."]


def test_result_does_not_depend_on_input_order():
    facts = [fact("1", "User wants email.", 0, "contact_channel", "email"),
             fact("2", "User wants phone.", 5, "contact_channel", "phone"),
             fact("3", "User prefers PDF.", 1),
             fact("4", "User prefers PDF.", 9),
             fact("5", "User lives in Oslo.", 2, "home_location", "Oslo", "client_info")]
    expected = reconcile_user(facts, TTL)
    for order in itertools.permutations(facts):
        assert reconcile_user(list(order), TTL) == expected


def test_multi_valued_and_missing_attributes_are_not_single_valued():
    assert is_single_valued("contact_channel")
    assert not is_single_valued("hobby") and not is_single_valued(None)
