"""`multilingual_cases.jsonl` and the holdout sets: every case parses, and every `answer` is one the scripted
right-answer model can give (its quote is the user's exact words, its fact states the gold), with separate
conversations > 3 h apart."""

from __future__ import annotations

import json
import re
from datetime import datetime, timedelta

import pytest

from memory_pipeline.evaluation.gold import eval_data, keyword_found, parse_behaviour_cases

SETS = ["multilingual_cases.jsonl", *(f"holdout{n}_cases.jsonl" for n in ("", 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12))]
# Thai, kana and CJK ideographs: scripts written without spaces between words.
NO_SPACES = re.compile(r"[\u0e00-\u0e7f\u3040-\u30ff\u4e00-\u9fff]")


def states(keywords: list[str], text: str) -> bool:
    """Every keyword is in `text`: at a word start, or anywhere in a text written without spaces (a word start
    there is not marked, so the scorer's keyword rule can miss it; the gold's quote still matches)."""
    return bool(keywords) and all(
        keyword_found(k, text) or (NO_SPACES.search(text) and any(a in text for a in k.split("|") if a))
        for k in keywords)


def records(name: str) -> list[dict]:
    return [json.loads(line) for line in eval_data(name).splitlines() if line.strip()]


@pytest.mark.parametrize("name", SETS)
def test_every_case_parses_under_a_unique_name(name):
    names = [case.name for case in parse_behaviour_cases(eval_data(name), name)]
    assert len(names) == len(records(name)) and len(set(names)) == len(names)


@pytest.mark.parametrize("name", SETS)
def test_every_answer_quotes_one_human_message_verbatim_and_states_its_gold(name):
    for case in parse_behaviour_cases(eval_data(name), name):
        human = [row.message["content"] for row in case.rows if row.message["type"] == "human"]
        for gold in case.expect.gold + case.expect.retractions:
            answer = gold.answer
            assert answer is not None, case.name
            quote = answer.quote or gold.quote
            assert any(quote in content for content in human), (case.name, quote)
            if hasattr(gold, "quote"):
                assert gold.quote in quote or quote in gold.quote, case.name  # the quote overlap rule
                assert states(gold.keywords, answer.fact), (case.name, answer.fact)
            else:
                said = " ".join(filter(None, [answer.fact, answer.attribute, answer.value]))
                assert states(gold.keywords, said), (case.name, said)


@pytest.mark.parametrize("name", SETS)
def test_sessions_of_a_case_are_separate_conversations(name):
    for record in records(name):
        sessions = record["sessions"]
        for before, after in zip(sessions, sessions[1:]):
            gap = (datetime.fromisoformat(after["messages"][0]["at"])
                   - datetime.fromisoformat(before["messages"][-1]["at"]))
            assert gap > timedelta(hours=3), record["case"]
