"""An update said under a slot name no rule knows is related by the model's verdict on the pair (issue 26), over
real HTTP: `eval` asks it once per case, the ceiling answers it right, and a model that says "different" leaves
both facts active."""

from __future__ import annotations

import json

import openai

from memory_pipeline.cli import main
from memory_pipeline.extractors.openai_backend import OpenAIExtractor
from memory_pipeline.settings import Settings
from memory_pipeline.testing.openai_server import TRANSCRIPT_LINE, Reply, ScriptedOpenAIServer, relations_answer

ENGLISH = "Please always reply to me in English."
GERMAN = "From now on I want all replies in German."
CASE = {
    "case": "reply-language-renamed", "language": "en",
    "sessions": [
        {"session_id": "own:lang", "messages": [
            {"role": "human", "content": ENGLISH, "at": "2025-03-04T10:00:00Z"},
            {"role": "ai", "content": "Sure.", "at": "2025-03-04T10:01:00Z"}]},
        {"session_id": "own:lang", "messages": [
            {"role": "human", "content": GERMAN, "at": "2025-03-12T10:00:00Z"},
            {"role": "ai", "content": "Natürlich.", "at": "2025-03-12T10:01:00Z"}]},
    ],
    "expect": {
        "gold": [
            {"category": "preference", "keywords": ["English"], "quote": ENGLISH,
             "answer": {"fact": "The user wants replies in English.", "attribute": "reply_language",
                        "value": "English"}},
            {"category": "preference", "keywords": ["German"], "quote": GERMAN,
             "answer": {"fact": "The user wants replies in German.", "attribute": "preferred_language",
                        "value": "German"}},
        ],
        "active_facts": [["German"]], "superseded_facts": [["English"]],
    },
}


def model(relation: str, seen: list[str]):
    """A scripted model: the case's facts, each under its own slot name, and `relation` for every pair."""

    def respond(body):
        system = body["messages"][0]["content"]
        chat = body["messages"][1]["content"]
        if '"relations"' in system:
            seen.append(chat)
            if relation == "server error":
                return Reply(status=500)
            return Reply(content=relations_answer([relation] * chat.count(" | NEW: ")))
        facts = []
        for line in chat.splitlines():
            match = TRANSCRIPT_LINE.match(line)
            if match and match.group(2) == "user":
                gold = next(g for g in CASE["expect"]["gold"] if g["quote"] == match.group(3))
                facts.append({"message_id": int(match.group(1)), "quote": gold["quote"], "category": "preference",
                              **gold["answer"]})
        return Reply(content=json.dumps({"facts": facts, "summary": "A chat."}))

    return respond


def run_eval(tmp_path, monkeypatch, capsys, relation, *extra):
    path = tmp_path / "renamed.jsonl"
    path.write_text(json.dumps(CASE) + "\n", encoding="utf-8")
    seen: list[str] = []
    with ScriptedOpenAIServer(model(relation, seen)) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.delenv("OPENAI_API_KEY", raising=False)
        monkeypatch.setenv("MEMORY_PIPELINE_EXTRACTOR", "openai")
        monkeypatch.setenv("MEMORY_PIPELINE_LLM_MAX_RETRIES", "0")
        assert main(["eval", "--gold-file", str(path), "--json", *extra]) == 0
    return json.loads(capsys.readouterr().out), seen


def test_a_model_judging_the_pair_an_update_supersedes_the_old_value(tmp_path, monkeypatch, capsys):
    report, seen = run_eval(tmp_path, monkeypatch, capsys, "update")
    [row] = report["tables"]["Summary: extraction (recall, precision, traps) apart from updating, per gold set"]
    assert row["updates_right"] == "2/2" and row["updates_missed_update"] == 0
    # One request for the pair, naming both facts with their slots.
    assert len(seen) == 1 and "[reply_language: English]" in seen[0] and "[preferred_language: German]" in seen[0]


def test_a_model_judging_the_pair_different_leaves_both_values_active(tmp_path, monkeypatch, capsys):
    report, _ = run_eval(tmp_path, monkeypatch, capsys, "different")
    [row] = report["tables"]["Summary: extraction (recall, precision, traps) apart from updating, per gold set"]
    assert row["updates_right"] == "1/2" and row["updates_missed_update"] == 1


def test_a_relation_request_that_fails_is_counted_in_the_summary_and_relates_nothing(tmp_path, monkeypatch, capsys):
    report, seen = run_eval(tmp_path, monkeypatch, capsys, "server error")
    [row] = report["tables"]["Summary: extraction (recall, precision, traps) apart from updating, per gold set"]
    assert len(seen) == 1 and row["relations_failed"] == 1
    assert row["failed"] == 0 and row["updates_right"] == "1/2" and row["updates_missed_update"] == 1


def test_the_ceiling_answers_the_pair_right(tmp_path, monkeypatch, capsys):
    report, _ = run_eval(tmp_path, monkeypatch, capsys, "different", "--ceiling")
    [row] = report["tables"][next(t for t in report["tables"] if t.startswith("Ceiling: the backend"))]
    assert row["backend_updates_right"] == "1/2" and row["ceiling_updates_right"] == "2/2"


def test_relate_takes_each_verdict_by_its_line_number_and_none_for_a_line_left_out():
    answers = iter([[{"line": 2, "relation": "same"}, {"line": 1, "relation": "update"}],
                    [{"line": 1, "relation": "update"}, {"line": 1, "relation": "same"}]])
    with ScriptedOpenAIServer(lambda body: Reply(content=json.dumps({"relations": next(answers)}))) as server:
        client = openai.OpenAI(api_key="x", base_url=server.base_url, max_retries=0)
        extractor = OpenAIExtractor(Settings(), client)
        assert extractor.relate([("a [x: 1]", "b [y: 2]"), ("c [x: 1]", "d [y: 2]")])[0] == ["update", "same"]
        assert extractor.relate([("a [x: 1]", "b [y: 2]"), ("c [x: 1]", "d [y: 2]")])[0] == ["update", None]
