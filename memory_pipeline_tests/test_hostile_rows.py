"""Hostile rows of each kind the adversarial review of issue 21 used (items 5 and 8), each through the whole job on
the embedded PostgreSQL: a row nested ~1,000 levels deep, a NULL message in a table whose `message` column was
made nullable, a value with SQL punctuation glued to it, a lone surrogate, and a 2 MB summary."""

import json
from datetime import timedelta

import pytest
from psycopg import sql

from memory_pipeline.domain.messages import TRUNCATION_MARK
from memory_pipeline.stages.session_summaries import MAX_SUMMARY_CHARS
from memory_pipeline.testing.openai_server import Reply, ScriptedOpenAIServer

from memory_pipeline_tests.test_hostile_input import DAY, NOON, active_facts, said
from memory_pipeline_tests.test_pipeline_end_to_end import Pipeline, metadata


def insert_raw(p, session_id, message, minutes, cast="%s::jsonb"):
    with p.pool.connection() as conn:
        conn.execute(sql.SQL("INSERT INTO {} (session_id, message, created_at) VALUES (%s, " + cast + ", %s)").format(
            sql.Identifier(p.settings.source_schema, p.settings.source_table)),
            (session_id, message, NOON + timedelta(minutes=minutes)))


def rejections(p):
    return {r["message_id"]: r["reason"] for r in p.rows("SELECT message_id, reason FROM {schema}.message_rejections")}


def test_a_row_nested_a_thousand_levels_deep_is_rejected_as_too_deep(make_settings):
    p = Pipeline(make_settings())
    p.load([said("alice", "I live in Oslo.")])
    deep = '{"type": "human", "content": ' + "[" * 1000 + '"I live in Rome."' + "]" * 1000 + "}"
    insert_raw(p, "alice", deep, 1)
    result = p.run(DAY)
    assert result.success
    assert metadata(result, "closed_sessions")["rows_rejected_by_reason"] == {"message_too_deep": 1}
    assert active_facts(p, "alice") == ["User lives in Oslo."]


def test_a_null_message_is_rejected_and_the_archive_does_not_fail_night_after_night(make_settings):
    p = Pipeline(make_settings())
    with p.pool.connection() as conn:
        conn.execute(sql.SQL("ALTER TABLE {} ALTER COLUMN message DROP NOT NULL").format(
            sql.Identifier(p.settings.source_schema, p.settings.source_table)))
    p.load([said("alice", "I live in Oslo.")])
    insert_raw(p, "alice", None, 1, cast="%s")
    insert_raw(p, "bob", None, 2, cast="%s")  # a conversation of a NULL row only
    for _ in range(2):  # the next night must not fail on the same rows either
        result = p.run(DAY)
        assert result.success
    assert sorted(rejections(p).values()) == ["null_message", "null_message"]
    assert active_facts(p, "alice") == ["User lives in Oslo."]
    # Archived and purged like any other row of a consolidated conversation: in exactly one of the two tables.
    assert p.source_ids() == set() and len(p.archive_ids()) == 3
    nulls = p.rows("SELECT count(*) AS n FROM {schema}.chat_archive WHERE message IS NULL")
    assert nulls[0]["n"] == 2


def test_sql_punctuation_glued_to_a_value_is_not_part_of_it(make_settings):
    p = Pipeline(make_settings())
    p.load([said("mallory", "I live in Rome'); DROP TABLE agent_facts; --")])
    assert p.run(DAY).success
    assert active_facts(p, "mallory") == ["User lives in Rome."]


def test_a_lone_surrogate_leaves_no_replacement_character_in_a_fact(make_settings):
    p = Pipeline(make_settings())
    with p.pool.connection() as conn:  # jsonb refuses a lone surrogate's escape; the json type keeps it as written
        conn.execute(sql.SQL("ALTER TABLE {} ALTER COLUMN message TYPE json").format(
            sql.Identifier(p.settings.source_schema, p.settings.source_table)))
    insert_raw(p, "olena", '{"type": "human", "content": "I live in Kyiv \\udc00."}', 0, cast="%s::json")
    assert p.run(DAY).success
    assert active_facts(p, "olena") == ["User lives in Kyiv."]


@pytest.mark.parametrize("huge, looping", [
    ("The user asked about tea" + " and then tea" * 160_000 + ".", False),  # one ~2 MB sentence: stored cut
    ("The user asked about tea. " * 80_000, True),  # a model looping to its token cap: the sentence once
])
def test_a_two_megabyte_summary_is_stored_cut_or_once(make_settings, monkeypatch, huge, looping):
    answer = json.dumps({"summary": huge, "facts": []})
    # A server that ignores max_tokens (the scripted one honours it): the whole answer, sent as it is.
    completion = json.dumps({
        "id": "chatcmpl-huge", "object": "chat.completion", "created": 0, "model": "test",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": answer}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 50, "completion_tokens": 500_000, "total_tokens": 500_050}})
    with ScriptedOpenAIServer(lambda body: Reply(body=completion)) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
        p = Pipeline(make_settings(extractor="openai", llm_max_retries=0))
        p.load([said("alice", "I like tea.")])
        assert p.run(DAY).success
    for table in ("session_summaries", "summary_cache"):
        (stored,) = p.rows(f"SELECT summary FROM {{schema}}.{table}")
        assert len(stored["summary"]) <= MAX_SUMMARY_CHARS
        assert stored["summary"].startswith("The user asked about tea")
        if looping:  # repeats count once (`domain.summaries.combine`), then the line said completes it
            assert stored["summary"] == "The user asked about tea. I like tea."
        else:
            assert stored["summary"].endswith(TRUNCATION_MARK)
