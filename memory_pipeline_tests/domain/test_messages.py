"""Parsing every n8n row shape met in the field (fixtures/message_shapes.jsonl)."""

import json

import pytest

from memory_pipeline.domain.messages import TRUNCATION_MARK, SourceRow, content_text, parse_row, strip_used_tools_prefix
from memory_pipeline.sample import fixture_rows
from memory_pipeline_tests.conftest import fixture_lines

ROWS = {row.id: row for row in fixture_rows(fixture_lines("message_shapes.jsonl"))}

# id -> (status, role or reason)
EXPECTED = {
    1: ("turn", "human"), 2: ("turn", "ai"),
    101: ("turn", "human"), 102: ("turn", "ai"), 103: ("turn", "human"), 104: ("turn", "ai"),
    105: ("turn", "human"), 106: ("turn", "human"), 107: ("turn", "ai"),
    108: ("turn", "human"), 109: ("skipped", "tool_call_only"), 110: ("turn", "tool"), 111: ("turn", "ai"),
    112: ("turn", "human"), 113: ("skipped", "tool_call_only"), 114: ("turn", "tool"), 115: ("turn", "ai"),
    116: ("turn", "human"), 117: ("turn", "ai"), 118: ("turn", "human"),
    119: ("turn", "human"), 120: ("turn", "ai"),
    121: ("skipped", "system_row"), 122: ("turn", "human"), 123: ("rejected", "no_content"), 124: ("turn", "ai"),
    125: ("turn", "human"), 126: ("turn", "ai"), 127: ("turn", "human"), 128: ("turn", "human"),
    131: ("rejected", "message_not_object"), 132: ("rejected", "no_content"), 133: ("rejected", "missing_type"),
    134: ("turn", "human"), 135: ("turn", "human"),
}


def test_fixture_covers_every_row():
    assert set(EXPECTED) == set(ROWS)


@pytest.mark.parametrize("row_id", sorted(EXPECTED))
def test_every_shape_parses_or_is_rejected_with_a_reason(row_id):
    parsed = parse_row(ROWS[row_id])
    status, detail = EXPECTED[row_id]
    assert parsed.status == status
    if status == "turn":
        assert parsed.role == detail
        assert parsed.text.strip()
    else:
        assert parsed.reason == detail


def test_nested_python_shape_reads_inner_content():
    assert parse_row(ROWS[119]).text == "My company is Acme Robotics and I'm the procurement lead."


def test_content_blocks_are_joined():
    assert parse_row(ROWS[111]).text.startswith("Your order 48213 has shipped")
    assert content_text([{"type": "text", "text": "a"}, "b", {"type": "image_url"}]) == "a\nb"
    assert content_text([{"type": "image_url"}]) is None


def test_used_tools_prefix_is_stripped_and_kept_as_evidence():
    parsed = parse_row(ROWS[117])
    assert parsed.text == "The annual team plan is 480 EUR per year."
    assert "pricing_lookup" in parsed.tool_evidence


def test_used_tools_prefix_with_brackets_inside_json_strings():
    text = '[Used tools: Tool: t, Input: {"q":"a]b"}, Result: [1, [2]]] Answer.'
    assert strip_used_tools_prefix(text) == ("Answer.", 'Used tools: Tool: t, Input: {"q":"a]b"}, Result: [1, [2]]')
    assert strip_used_tools_prefix("[Used tools: unbalanced") == ("[Used tools: unbalanced", None)


def test_template_header_is_removed_from_human_text():
    assert parse_row(ROWS[125]).text == "Je préfère qu'on me tutoie, et je suis végétarienne."


def test_huge_message_is_truncated_not_rejected():
    parsed = parse_row(ROWS[134], max_chars=1000)
    assert parsed.status == "turn" and parsed.truncated and len(parsed.text) <= 1000
    assert parsed.text.endswith(TRUNCATION_MARK) and parsed.quotable_chars is not None


def test_bidi_controls_are_dropped_emoji_kept():
    parsed = parse_row(ROWS[135])
    assert "\u202e" not in parsed.text and "🙂" in parsed.text and "مرحبا" in parsed.text


def test_double_encoded_object_is_read():
    row = SourceRow(1, "s", json.dumps({"type": "human", "content": "hello"}), None)
    assert parse_row(row).text == "hello"


@pytest.mark.parametrize("message", [None, 42, [1, 2], {"type": 7}, {"type": "robot", "content": "x"},
                                     {"type": "human", "content": {"nested": True}}, "", b"\xff"])
def test_odd_values_never_raise(message):
    assert parse_row(SourceRow(1, "s", message, None)).status == "rejected"
