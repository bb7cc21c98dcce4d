"""`memory-pipeline eval` as a tool people run against their own model: --limit, --case, progress lines,
--json, extraction scored apart from updating, and Ctrl-C ending a request in flight with a partial report."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time

import pytest

from memory_pipeline.cli import main
from memory_pipeline.domain.facts import ExtractedFact
from memory_pipeline.evaluation import evaluate
from memory_pipeline.evaluation.gold import behaviour_cases
from memory_pipeline.evaluation.runs import conversations_of
from memory_pipeline.extractors.base import ExtractionResult, SummaryResult
from memory_pipeline.testing.openai_server import Reply, ScriptedOpenAIServer, transcript_responder

CASES = behaviour_cases()


def test_limit_and_case_choose_the_cases_and_progress_names_each_conversation(capsys):
    assert main(["eval", "--gold-set", "cases", "--limit", "3"]) == 0
    out, err = capsys.readouterr()
    per_case = re.findall(r"^\s*cases\s+(\S+)\s+\d+\s+\d+\s+\d+/\d+", out, re.MULTILINE)
    assert per_case == [c.name for c in CASES[:3]]
    conversations = sum(len(conversations_of(c.rows)) for c in CASES[:3])
    lines = err.strip().splitlines()
    assert len(lines) == conversations and all(line.startswith("eval cases ") for line in lines)
    assert lines[0].startswith(f"eval cases 1/3 {CASES[0].name}: conversation 1/")
    assert main(["eval", "--gold-set", "cases", "--case", CASES[5].name, "--quiet"]) == 0
    out, err = capsys.readouterr()
    assert re.findall(r"^\s*cases\s+(\S+)\s+\d+\s+\d+\s+\d+/\d+", out, re.MULTILINE) == [CASES[5].name] and not err


def test_json_report_separates_extraction_from_updating(capsys):
    assert main(["eval", "--gold-set", "cases", "--gold-set", "n8n", "--json", "--quiet"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["interrupted"] is None
    summary = {row["gold_set"]: row for row in next(v for k, v in report["tables"].items() if k.startswith("Summary"))}
    facts = report["tables"]["Facts per category: precision and recall against gold facts"]
    for gold_set in ("cases", "n8n"):
        everything = next(r for r in facts if r["gold_set"] == gold_set and r["category"] == "all")
        assert summary[gold_set]["recall"] == everything["recall"]
        assert summary[gold_set]["precision"] == everything["precision"]
    # Updates are judged on the cases that say what stays active: the offline extractor misses some of them
    # because it never extracted the fact (an extraction miss), not because reconciliation failed.
    checks = [r for r in report["tables"]["Per case"] if r["gold_set"] == "cases" and r["updates_right"]]
    expected = sum(int(r["updates_right"].split("/")[1]) for r in checks)
    row = summary["cases"]
    right, total = map(int, row["updates_right"].split("/"))
    assert total == expected and right < total
    assert right + row["updates_wrong"] + row["updates_missed_update"] + row["updates_missed_extraction"] == total
    assert row["updates_missed_extraction"] > 0


class _Stops:
    """A backend that is interrupted (as by Ctrl-C) at its `at`-th conversation."""

    name, model, prompt_version = "scripted", "none", "test"

    def __init__(self, at: int):
        self.at, self.seen = at, 0

    def summarize(self, conversation):
        self.seen += 1
        if self.seen == self.at:
            raise KeyboardInterrupt
        return SummaryResult(text="")

    def extract(self, conversation, summary):
        said = [t.text for t in conversation.turns if t.role == "human"]
        return ExtractionResult(facts=[ExtractedFact(category="preference", fact=s, quote=s) for s in said])


def test_an_interrupted_run_reports_the_cases_finished_before_it():
    first_two = sum(len(conversations_of(c.rows)) for c in CASES[:2])
    report = evaluate(_Stops(at=first_two + 1), ["cases", "n8n"])
    assert report.interrupted and "2 cases" in report.interrupted
    assert list(report.tables["Per case"].case) == [c.name for c in CASES[:2]]
    assert "INTERRUPTED" in report.render()


def test_ctrl_c_ends_a_request_in_flight_and_prints_the_partial_report(tmp_path):
    answered = []

    def slow_after_the_first_case(body):
        answered.append(1)
        if len(answered) > len(conversations_of(CASES[0].rows)):
            return Reply(content="{}", delay=120)  # a slow local model: Ctrl-C must not wait for it
        return transcript_responder(body)

    with ScriptedOpenAIServer(slow_after_the_first_case) as server:
        env = {**os.environ, "OPENAI_BASE_URL": server.base_url, "MEMORY_PIPELINE_EXTRACTOR": "openai",
               "MEMORY_PIPELINE_LLM_MAX_RETRIES": "0", "MEMORY_PIPELINE_LLM_MAX_IN_FLIGHT": "1",
               "MEMORY_PIPELINE_HOME": str(tmp_path)}
        env.pop("OPENAI_API_KEY", None)
        process = subprocess.Popen([sys.executable, "-m", "memory_pipeline.cli", "eval", "--gold-set", "cases"],
                                   env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        while len(answered) <= len(conversations_of(CASES[0].rows)):  # until the slow request is in flight
            assert process.poll() is None
            time.sleep(0.05)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)  # a hang guard only: the answer would take 120 s
    assert process.returncode == 130, err
    assert "INTERRUPTED" in out and re.search(rf"^\s*cases\s+{CASES[0].name}\s", out, re.MULTILINE)
    assert "Traceback" not in err


def test_only_the_first_ctrl_c_interrupts_eval():
    # `timeout -s INT` signals the process and its group, and users press Ctrl-C again: a newcomer saw the second
    # signal cut the partial report with a traceback. The first stops the run; later ones are ignored.
    from memory_pipeline.commands.eval import _first_interrupt_only

    handler = _first_interrupt_only()
    with pytest.raises(KeyboardInterrupt):
        handler(signal.SIGINT, None)
    handler(signal.SIGINT, None)
    handler(signal.SIGINT, None)
