"""Issue 6's inputs, each through the whole job on the embedded PostgreSQL (fixtures/fault_inputs.jsonl): each
fault's kind is tested, not only the one input."""

import json

import pytest

from memory_pipeline import sample
from memory_pipeline_tests.conftest import FIXTURES
from memory_pipeline_tests.test_pipeline_end_to_end import Pipeline, metadata

DAY = "2026-05-03"


def fault_rows(*cases):
    """Rows of fault_inputs.jsonl for these cases; a content {"_repeat": text, "times": n} is text * n."""
    rows = []
    for line in (FIXTURES / "fault_inputs.jsonl").read_text().splitlines():
        record = json.loads(line)
        if record["_case"] not in cases:
            continue
        content = record["message"]["content"]
        if isinstance(content, dict) and "_repeat" in content:
            record["message"] = {**record["message"], "content": content["_repeat"] * content["times"]}
        rows.append(json.dumps(record))
    assert rows, f"no fixture rows for {cases}"
    return sample.fixture_rows(rows)


def facts(p, user=None, active=True):
    where = "superseded_at IS NULL" if active else "TRUE"
    rows = p.rows(f"SELECT * FROM {{schema}}.agent_facts WHERE {where} ORDER BY user_key, valid_from, id")
    return [r for r in rows if user is None or r["user_key"] == user]


def test_unicode_line_separator_splits_sentences(make_settings):
    p = Pipeline(make_settings())
    p.load(fault_rows("line_separator"))
    assert p.run(DAY).success
    assert sorted(f["fact"] for f in facts(p, "u:sep")) == ["User likes skiing.", "User lives in Oslo."]
    assert {f["quote"] for f in facts(p, "u:sep")} == {"I live in Oslo", "I like skiing"}


def test_blank_session_keys_are_rejected_with_a_reason_and_kept(make_settings):
    p = Pipeline(make_settings())
    p.load(fault_rows("blank_session_keys"))
    ids = p.source_ids()
    result = p.run(DAY)
    assert result.success
    assert facts(p) == [] and p.rows("SELECT * FROM {schema}.fact_candidates") == []
    assert p.rows("SELECT * FROM {schema}.conversations") == []
    reasons = {r["message_id"]: r["reason"] for r in p.rows("SELECT * FROM {schema}.message_rejections")}
    assert reasons == {i: "blank_session_key" for i in ids}
    meta = metadata(result, "closed_sessions")
    assert meta["rows_rejected_by_reason"] == {"blank_session_key": 2} and meta["conversations_unattributed"] == 2
    assert p.source_ids() == ids and p.archive_ids() == set()  # kept in n8n's table, never purged
    assert p.run(DAY).success and p.source_ids() == ids  # a re-run changes nothing


def test_a_user_key_regex_that_maps_to_blank_is_rejected_too(make_settings):
    p = Pipeline(make_settings(user_key_regex=r"^t:(?P<user>\s*)$"))
    p.load([sample.SampleRow("t: ", {"type": "human", "content": "I live in Oslo."}, fault_rows("line_separator")[0].created_at)])
    assert p.run(DAY).success
    assert facts(p) == []
    assert {r["reason"] for r in p.rows("SELECT * FROM {schema}.message_rejections")} == {"blank_user_key"}
