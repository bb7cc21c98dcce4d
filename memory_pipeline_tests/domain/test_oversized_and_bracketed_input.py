"""Input at the edges of what a message holds: a bracketed media word inside the user's sentence stays theirs; a
group header or user key too long to index is rejected with its rows kept, without failing the night."""


import pytest


# -- a media word in brackets inside the user's own sentence ------------------------------------------------
@pytest.mark.parametrize("text,own,machine", [
    ("I bought a [Photo] frame for my mum.", "I bought a [Photo] frame for my mum.", None),
    ("I love my new [image] editor setup.", "I love my new [image] editor setup.", None),
    # labels where templates put them still start a machine-written block
    ("[Photo] frame for my mum", "", "[Photo] frame for my mum"),
    ("Look at this! [Photo] A T-shirt printed with I love Berlin.", "Look at this!",
     "[Photo] A T-shirt printed with I love Berlin."),
    ("Look at my shirt [Image analysis] the photo shows a T-shirt printed with: I love Berlin.", "Look at my shirt",
     "[Image analysis] the photo shows a T-shirt printed with: I love Berlin."),
])
def test_a_bracketed_media_word_inside_a_sentence_stays_the_users(text, own, machine):
    from memory_pipeline.domain.messages import split_machine_text
    kept, machine_text = split_machine_text(text)
    assert (kept.strip(), machine_text) == (own, machine)


# -- a key too long to index must not fail every night's run ---------------------------------------------------
def test_a_typed_group_header_with_a_huge_name_does_not_fail_the_night(make_settings):
    import json
    import os

    from memory_pipeline import sample
    from memory_pipeline_tests.test_pipeline_end_to_end import Pipeline
    p = Pipeline(make_settings())
    huge_name = os.urandom(4500).hex()  # random: PostgreSQL cannot compress it into an index entry
    rows = [
        {"id": 1, "session_id": "tg:-1", "created_at": "2026-05-03T12:00:00Z",
         "message": {"type": "human", "content": f"## Message from {huge_name}: I live in Porto."}},
        {"id": 2, "session_id": "tg:-1", "created_at": "2026-05-03T12:01:00Z",
         "message": {"type": "human", "content": "## Message from Bob: I live in Oslo."}},
    ]
    p.load(sample.fixture_rows([json.dumps(r) for r in rows]))
    assert p.run("2026-05-03").success
    facts = {(f["user_key"], f["fact"]) for f in p.rows("SELECT * FROM {schema}.agent_facts")}
    assert ("tg:-1#Bob", "User lives in Oslo.") in facts
    assert all(len(key) < 200 for key, _ in facts)


def test_a_user_key_too_long_to_index_is_rejected_and_its_rows_kept():
    from datetime import datetime, timedelta, timezone

    from memory_pipeline.domain.conversations import MAX_USER_KEY_BYTES, build_conversations, user_key_mapper
    from memory_pipeline.domain.messages import SourceRow
    at = datetime(2026, 5, 3, 12, tzinfo=timezone.utc)
    rows = [SourceRow(1, "s" * (MAX_USER_KEY_BYTES + 1), {"type": "human", "content": "I live in Oslo."}, at),
            SourceRow(2, "ok", {"type": "human", "content": "## Message from Eve: I live in Rome."}, at)]
    conversations = build_conversations(rows, idle_gap=timedelta(hours=3), timezone="UTC", backlog_date=at.date(),
                                        user_key=user_key_mapper(None),
                                        sender_template="{sender}" + "x" * MAX_USER_KEY_BYTES)
    assert all(c.is_unattributed for c in conversations)
    assert {r.reason for c in conversations for r in c.rows} == {"user_key_too_long"}
