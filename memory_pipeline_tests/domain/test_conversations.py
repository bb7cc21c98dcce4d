"""Splitting a session key's messages into conversations, partition days, closed vs open, user keys."""

from datetime import date, datetime, timedelta, timezone

import pytest
from hypothesis import given, settings, strategies as st

from memory_pipeline.domain.conversations import (
    build_conversations,
    conversation_id,
    is_closed,
    partition_window,
    split_rows,
    user_key_mapper,
)
from memory_pipeline.domain.messages import SourceRow
from memory_pipeline.sample import fixture_rows
from memory_pipeline_tests.conftest import fixture_lines

UTC = timezone.utc
T0 = datetime(2026, 5, 3, 9, 0, tzinfo=UTC)


def row(id_, key, minutes, text="hi", role="human"):
    at = None if minutes is None else T0 + timedelta(minutes=minutes)
    return SourceRow(id_, key, {"type": role, "content": text}, at)


def build(rows, tz="UTC", gap=180):
    return build_conversations(rows, idle_gap=timedelta(minutes=gap), timezone=tz, backlog_date=date(2026, 1, 1),
                               user_key=lambda k: k)


def test_gap_longer_than_threshold_splits():
    groups = split_rows([row(1, "a", 0), row(2, "a", 100), row(3, "a", 281), row(4, "a", 290)],
                        timedelta(minutes=180))
    assert [[r.id for r in g] for g in groups] == [[1, 2], [3, 4]]


def test_gap_equal_to_threshold_does_not_split():
    groups = split_rows([row(1, "a", 0), row(2, "a", 180)], timedelta(minutes=180))
    assert len(groups) == 1


def test_keys_never_mix_and_order_is_by_time_then_id():
    groups = split_rows([row(3, "b", 5), row(2, "a", 5), row(1, "a", 5), row(4, "b", 1)], timedelta(hours=3))
    assert [[r.id for r in g] for g in groups] == [[1, 2], [4, 3]]


def test_legacy_rows_form_one_conversation_on_the_backlog_date():
    convs = build([row(7, "a", None), row(5, "a", None), row(9, "a", 0)])
    legacy = [c for c in convs if c.is_legacy]
    assert len(legacy) == 1 and legacy[0].message_ids == (5, 7)
    assert legacy[0].partition_date == date(2026, 1, 1)
    assert is_closed(legacy[0], T0, timedelta(hours=3))


def test_partition_is_local_day_of_last_message():
    # 23:30 -> 00:30 UTC spans midnight: it belongs to the day of its last message.
    late = datetime(2026, 5, 3, 23, 30, tzinfo=UTC)
    rows = [SourceRow(1, "a", {"type": "human", "content": "x"}, late),
            SourceRow(2, "a", {"type": "human", "content": "y"}, late + timedelta(hours=1))]
    assert build(rows)[0].partition_date == date(2026, 5, 4)
    # In Tokyo (UTC+9) both messages are on 4 May local time, 08:30 and 09:30.
    assert build(rows, tz="Asia/Tokyo")[0].partition_date == date(2026, 5, 4)
    # In New York (UTC-4) the last message is at 20:30 on 3 May.
    assert build(rows, tz="America/New_York")[0].partition_date == date(2026, 5, 3)


def test_closed_only_after_idle_gap():
    conv = build([row(1, "a", 0)])[0]
    gap = timedelta(hours=3)
    assert not is_closed(conv, T0 + timedelta(hours=2, minutes=59), gap)
    assert is_closed(conv, T0 + gap, gap)


def test_conversation_id_is_stable_and_hides_the_session_key():
    cid = conversation_id("whatsapp:33600000001@s.whatsapp.net", 116)
    assert cid == conversation_id("whatsapp:33600000001@s.whatsapp.net", 116)
    assert "336" not in cid and len(cid) == 16
    assert cid != conversation_id("whatsapp:33600000001@s.whatsapp.net", 117)
    # Salted per installation: the same key and id give another id elsewhere, so guesses cannot be checked.
    assert conversation_id("whatsapp:33600000001@s.whatsapp.net", 116, "salt-a") != cid
    assert conversation_id("k", 1, "salt-a") == conversation_id("k", 1, "salt-a")


def test_user_key_regex_maps_composite_keys():
    mapper = user_key_mapper(r"^tenant_\d+:(?P<user>.+)$")
    assert mapper("tenant_42:user_7") == "user_7"
    assert mapper("no-tenant") == "no-tenant"
    assert user_key_mapper(None)("x") == "x"


def test_fixture_splits_into_expected_conversations():
    convs = build(fixture_rows(fixture_lines("message_shapes.jsonl")))
    by_key = {}
    for c in convs:
        by_key.setdefault(c.session_key, []).append(c)
    # tg:500100: the legacy backlog, the 3 May episode, and the 4 May episode (> idle gap later).
    assert [(c.is_legacy, c.partition_date) for c in by_key["tg:500100"]] == [
        (True, date(2026, 1, 1)), (False, date(2026, 5, 3)), (False, date(2026, 5, 4))]
    # Malformed rows stay in their conversation (so they are archived with it), as non-turns.
    odd = by_key["tg:500400"][0]
    assert odd.message_ids == (131, 132, 133, 134, 135)
    assert [r.status for r in odd.rows].count("rejected") == 3


def test_transcript_hash_changes_with_text():
    a = build([row(1, "a", 0, "hello")])[0]
    b = build([row(1, "a", 0, "hello!")])[0]
    assert a.transcript_hash != b.transcript_hash
    assert a.transcript_hash == build([row(1, "a", 0, "hello")])[0].transcript_hash


@pytest.mark.parametrize("tz,hours", [("UTC", 24), ("Europe/Paris", 23), ("America/Sao_Paulo", 24)])
def test_partition_window_covers_one_local_day(tz, hours):
    start, end = partition_window(date(2026, 3, 29), tz)  # summer time starts in Paris that night
    assert start.date() == date(2026, 3, 29) and end.date() == date(2026, 3, 30)
    assert end.astimezone(UTC) - start.astimezone(UTC) == timedelta(hours=hours)


def test_schedule_note_names_the_deferral_cutoff():
    from memory_pipeline.stages.closed_sessions import schedule_note

    assert "every conversation of the day is closed" in schedule_note(180, "UTC")
    assert "after 22:00 is still open" in schedule_note(300, "Europe/Paris")
    assert "defer every conversation" in schedule_note(3 * 24 * 60, "UTC")


def test_demo_days_follow_the_partitions_timezone():
    from memory_pipeline import sample

    data = sample.load_memory_bank()
    assert sample.memory_bank_days(data)[0] == "2023-04-27" and len(sample.memory_bank_days(data)) == 10
    # UTC+14: the evening conversations of 6 May UTC fall on 7 May local time, so the demo runs 11 partitions.
    assert sample.memory_bank_days(data, "Pacific/Kiritimati")[-1] == "2023-05-07"


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(st.sampled_from(["a", "b", "bb", "c", "é", "ü", ""]), max_size=12), max_size=3))
def test_rows_by_session_key_equals_a_row_by_row_merge(keys_per_stream):
    import heapq
    from itertools import groupby

    from memory_pipeline.domain.conversations import rows_by_session_key

    streams = [[SourceRow(n * 100 + i, key, {}, None) for i, key in enumerate(sorted(keys))]
               for n, keys in enumerate(keys_per_stream)]
    expected = [list(rows) for _, rows in groupby(heapq.merge(*streams, key=lambda r: r.session_id),
                                                  key=lambda r: r.session_id)]
    assert list(rows_by_session_key(*(iter(s) for s in streams))) == expected
