"""`memory-pipeline eval` on a user's own cases (`--gold-file`): scored, with per case the wrong and missed facts
and why; a malformed file refused in one line; and the pipeline's ceiling (`--ceiling`): the same cases answered
right by a scripted model, over real HTTP, beside the backend's score."""

from __future__ import annotations

import json
import re

import pytest

from memory_pipeline.cli import main
from memory_pipeline.domain.facts import ExtractedFact
from memory_pipeline.evaluation import evaluate
from memory_pipeline.evaluation.ceiling import answers_of, right_answer_backend, serve_answers_of
from memory_pipeline.evaluation.gold import GoldSetError, gold_file_cases
from memory_pipeline.evaluation.runs import extract
from memory_pipeline.evaluation.scoring import score_case
from memory_pipeline.extractors import prompts
from memory_pipeline.extractors.base import ExtractionResult, SummaryResult
from memory_pipeline.extractors.offline import OfflineExtractor
from memory_pipeline.settings import Settings
from memory_pipeline.testing.openai_server import ScriptedOpenAIServer, fact, fact_answer


def case(name: str, said: list[str], gold: list[dict], language: str | None = None, **expect) -> dict:
    """A case line of the documented format: the user's turns `said`, each answered by the assistant."""
    messages = []
    for n, text in enumerate(said):
        messages += [{"role": "human", "content": text, "at": f"2025-03-04T10:{2 * n:02d}:00Z"},
                     {"role": "ai", "content": "Noted.", "at": f"2025-03-04T10:{2 * n + 1:02d}:00Z"}]
    line = {"case": name, "sessions": [{"session_id": f"own:{name}", "messages": messages}],
            "expect": {"gold": gold, **expect}}
    return {**line, "language": language} if language else line


def write_cases(path, *cases: dict):
    path.write_text("".join(json.dumps(c, ensure_ascii=False) + "\n" for c in cases), encoding="utf-8")
    return path


LYON = {"category": "client_info", "keywords": ["Lyon"], "quote": "I moved to Lyon last year.",
        "answer": {"fact": "The user lives in Lyon.", "attribute": "home_location", "value": "Lyon"}}
TEA = {"category": "preference", "keywords": ["tea"], "quote": "I drink green tea every morning.",
       "answer": {"fact": "The user drinks green tea every morning."}}
SUPPORT = case("support-desk", ["I moved to Lyon last year.", "I love jazz.", "I drink green tea every morning."],
               [LYON, TEA])


def test_a_users_gold_file_is_scored_and_its_wrong_and_missed_facts_are_printed_with_reasons(
        tmp_path, monkeypatch, capsys):
    path = write_cases(tmp_path / "support_desk.jsonl", SUPPORT)
    # The model: Lyon with a quote the user never wrote (rejected), jazz (accepted: no gold holds it), no tea.
    # (A value the user said would be requoted from the line holding it: "Lyon, France" is said nowhere.)
    answer = fact_answer(fact("I live in Lyon", 1, "home_location", "Lyon, France", "client_info",
                              "The user lives in Lyon."),
                         fact("I love jazz.", 3, "opinion:jazz", "loves", "preference", "The user loves jazz."))
    with ScriptedOpenAIServer(answer) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.delenv("OPENAI_API_KEY", raising=False)
        monkeypatch.setenv("MEMORY_PIPELINE_EXTRACTOR", "openai")
        monkeypatch.setenv("MEMORY_PIPELINE_LLM_MAX_RETRIES", "0")
        assert main(["eval", "--gold-file", str(path), "--quiet"]) == 0
        out = capsys.readouterr().out
        assert main(["eval", "--gold-file", str(path), "--quiet", "--json"]) == 0
        report = json.loads(capsys.readouterr().out)
        assert len(server.chat_requests()) == 2  # one conversation, one request per run
    # Only the user's cases, named by the file's stem (no shipped set without --gold-set).
    summary = next(v for k, v in report["tables"].items() if k.startswith("Summary"))
    assert [(r["gold_set"], r["cases"], r["recall"], r["precision"]) for r in summary] == [
        ("support_desk", 1, 0.0, 0.0)]
    [details] = report["details"]["backend"]
    assert details["wrong"] == [{"category": "preference", "attribute": "opinion:jazz", "value": "loves",
                                 "fact": "The user loves jazz.", "quote": "I love jazz."}]
    rejected = {m["gold"]: m["why"] for m in details["missed"]}
    assert rejected == {"client_info:Lyon": ["quote_not_found"], "preference:tea": ["not proposed"]}
    # The text report says the same, with the text.
    block = out.split("== Per case details: backend", 1)[1]
    assert '-- support_desk / support-desk: not passed' in block
    assert re.search(r'wrong +preference \[opinion:jazz = loves\] "The user loves jazz\." quote "I love jazz\."', block)
    assert re.search(r'missed +client_info:Lyon quote "I moved to Lyon last year\.": quote_not_found\n +rejected '
                     r'client_info \[home_location = Lyon, France\] "The user lives in Lyon\." quote "I live in Lyon": '
                     r'quote_not_found', block)
    assert re.search(r'missed +preference:tea quote "I drink green tea every morning\.": not proposed', block)


class FilesEveryTurn:
    """A backend filing each user turn as a fact; "I live in X." under `home_location` (`hometown` for Lyon)."""

    name, model, prompt_version = "scripted", "none", "test"

    def summarize(self, conversation):
        return SummaryResult(text="")

    def extract(self, conversation, summary):
        facts = []
        for turn in conversation.turns:
            if turn.role != "human":
                continue
            place = turn.text.removeprefix("I live in ").rstrip(".") if turn.text.startswith("I live in ") else None
            slot = ("hometown" if place == "Lyon" else "home_location") if place else None
            facts.append(ExtractedFact(category="client_info", fact=f"User: {turn.text}", quote=turn.text,
                                       attribute=slot, value=place))
        return ExtractionResult(facts=facts)


def test_a_sprung_trap_and_a_failed_update_show_the_fact_and_the_case_versions_with_what_related_them(tmp_path):
    plan = case("plan", ["I use the annual plan."], [], traps=[{"kind": "plan_frozen", "forbidden": ["annual"]}])
    moved = case("moved", ["I live in Paris.", "I live in Rome.", "I live in Lyon."],
                 [{"category": "client_info", "keywords": [city], "quote": f"I live in {city}."}
                  for city in ("Paris", "Rome", "Lyon")], active_facts=[["Lyon"]], superseded_facts=[["Rome"]])
    path = write_cases(tmp_path / "mine.jsonl", plan, moved)
    records = {r["case"]: r for r in evaluate(FilesEveryTurn(), [], gold_files=[path]).details["backend"]}
    assert records["plan"]["traps"] == [{"kind": "plan_frozen", "category": "client_info", "attribute": None,
                                         "value": None, "fact": "User: I use the annual plan.",
                                         "quote": "I use the annual plan."}]
    # Lyon went to another slot: Rome stays active beside it; Paris was superseded by Rome.
    assert records["moved"]["reconciliation"] == {
        "failed": ["Rome still active"],
        "active": [{"fact": "User: I live in Rome.", "attribute": "home_location", "repeats": {}},
                   {"fact": "User: I live in Lyon.", "attribute": "hometown", "repeats": {}}],
        "superseded": [{"fact": "User: I live in Paris.", "attribute": "home_location", "repeats": {},
                        "superseded_by": "User: I live in Rome.", "relation": "same_slot"}]}
    assert records["moved"]["missed"] == [] and records["moved"]["wrong"] == []


def test_details_name_the_cases_asked_for_and_an_accepted_fact_of_another_category(tmp_path):
    plan = {"category": "client_info", "keywords": ["annual"], "quote": "I use the annual plan."}
    path = write_cases(tmp_path / "mine.jsonl", case("tea", ["I drink green tea every morning."], [TEA]),
                       case("plan", ["I use the annual plan."], [plan]))

    def detailed(which):  # FilesEveryTurn files everything as client_info: tea is missed, the plan passes
        return evaluate(FilesEveryTurn(), [], gold_files=[path], details=which).details.get("backend", [])

    assert [r["case"] for r in detailed("problems")] == ["tea"]
    assert [(r["case"], r["passed"]) for r in detailed("all")] == [("tea", False), ("plan", True)]
    assert detailed("none") == []
    [tea] = detailed("problems")
    assert tea["missed"] == [{"gold": "preference:tea", "quote": TEA["quote"],
                              "why": ["accepted as client_info, not preference"], "rejected": []}]


def test_a_malformed_gold_file_exits_2_with_one_line_naming_the_file_and_line(tmp_path, capsys):
    bad = tmp_path / "mine.jsonl"
    bad.write_text(json.dumps(SUPPORT) + "\n" + json.dumps({"case": "x", "sessions": []}) + "\n")
    assert main(["eval", "--gold-file", str(bad), "--quiet"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.splitlines() == [f"memory-pipeline: {bad} line 2: expect: Field required"]
    for text, where in (("{not json\n", "line 1: not JSON"), ("", "no case in it"),
                        (json.dumps({**SUPPORT, "language": "Italian!"}) + "\n", "line 1: language: String should"),
                        (json.dumps(case("x", ["Hi."], [{"category": "preference", "keywords": ["hi"],
                                                         "answer": {"fact": "The user says hi."}}])) + "\n",
                         "line 1: expect.gold.0: Value error, an answer needs a quote")):
        bad.write_text(text)
        assert main(["eval", "--gold-file", str(bad), "--gold-set", "cases", "--quiet"]) == 2
        out, err = capsys.readouterr()
        assert out == "" and len(err.splitlines()) == 1 and err.startswith(f"memory-pipeline: {bad}"), err
        assert where in err, err
    assert main(["eval", "--gold-file", str(tmp_path / "absent.jsonl")]) == 2
    assert capsys.readouterr().err == f"memory-pipeline: {tmp_path / 'absent.jsonl'}: no such file\n"


def test_a_case_language_is_kept_and_scored_per_language(tmp_path):
    path = write_cases(tmp_path / "langs.jsonl", {**SUPPORT, "language": "en-GB"},
                       case("fr", ["J'habite à Lyon."], [], language="fr"))
    assert [c.language for c in gold_file_cases(path)] == ["en-GB", "fr"]
    table = evaluate(OfflineExtractor(), [], gold_files=[path]).tables["Summary per case language"]
    assert list(table.language) == ["en-GB", "fr"] and list(table.cases) == [1, 1]


def test_two_gold_sets_of_one_name_are_refused(tmp_path):
    path = write_cases(tmp_path / "cases.jsonl", SUPPORT)
    with pytest.raises(GoldSetError, match="already chosen"):
        evaluate(OfflineExtractor(), ["cases"], gold_files=[path])


NORMALISED = {"category": "client_info", "keywords": ["Oslo"], "quote": "I'm based in Oslo these days.",
              # A value written the way a model may normalise it: the pipeline keeps only a value in the quote.
              "answer": {"fact": "The user lives in Oslo, Norway.", "attribute": "home_location",
                         "value": "Oslo, Norway"}}
RETRACTED = {"keywords": ["email"], "answer": {"fact": "The user withdrew their email.", "attribute": "email",
                                               "quote": "Please forget my email."}}


def test_the_ceiling_keeps_right_answers_and_shows_why_the_pipeline_rejects_one(tmp_path, monkeypatch, capsys):
    for variable in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "MEMORY_PIPELINE_EXTRACTOR"):
        monkeypatch.delenv(variable, raising=False)
    path = write_cases(
        tmp_path / "ceiling_cases.jsonl", SUPPORT,
        case("normalised-value", ["I'm based in Oslo these days."], [NORMALISED], language="en"),
        case("forget-email", ["My email is ana@example.org.", "Please forget my email."],
             [{"category": "client_info", "keywords": ["ana@example.org"], "quote": "My email is ana@example.org.",
               "answer": {"fact": "The user's email is ana@example.org.", "attribute": "email",
                          "value": "ana@example.org"}}], retractions=[RETRACTED]),
        case("a-question", ["Do you ship to Norway?"], [], trap="question"),
        case("no-answers", ["I play chess."], [{"category": "preference", "keywords": ["chess"]}]))
    # The default backend (offline) needs no key: --ceiling starts its own scripted server.
    assert main(["eval", "--gold-file", str(path), "--ceiling", "--json"]) == 0
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    [row] = next(v for k, v in report["tables"].items() if k.startswith("Ceiling:") and "per gold set" in k)
    # Five cases; the one without answers is left out and counted; the trap case's right answer is no fact.
    assert (row["cases"], row["ceiling_cases"], row["no_answers"]) == (5, 4, 1)
    # Answered: Lyon, tea, Oslo, the email and its retraction; all kept but Oslo.
    assert row["kept"] == "4/5" and row["ceiling_traps_sprung"] == "0/1" and row["ceiling_precision"] == 1.0
    assert row["backend_recall"] is not None  # the offline rules' score, beside it, on the same cases
    per_case = {r["case"]: r for r in report["tables"]["Ceiling per case"]}
    assert per_case["support-desk"]["kept"] == "2/2" and per_case["normalised-value"]["kept"] == "0/1"
    assert per_case["forget-email"]["kept"] == "2/2" and "no-answers" not in per_case
    [why] = [r for r in report["details"]["ceiling (right answers)"] if r["case"] == "normalised-value"]
    # The answer the pipeline refused shows beside its reason.
    assert why["missed"] == [{"gold": "client_info:Oslo", "quote": "I'm based in Oslo these days.",
                              "why": ["value_not_in_quote"],
                              "rejected": [{"category": "client_info", "attribute": "home_location",
                                            "value": "Oslo, Norway", "fact": "The user lives in Oslo, Norway.",
                                            "quote": "I'm based in Oslo these days.",
                                            "reason": "value_not_in_quote"}]}]
    [language] = report["tables"]["Ceiling per case language"]
    assert (language["language"], language["kept"]) == ("en", "0/1")
    # Progress names the ceiling's conversations apart from the backend's.
    assert re.search(r"^eval ceiling ceiling_cases 1/4 support-desk: conversation 1/1 .*2 proposed, 2 accepted$",
                     captured.err, re.MULTILINE), captured.err


def test_the_right_answer_model_answers_every_request_shape_of_the_llm_backend(tmp_path):
    [support] = gold_file_cases(write_cases(tmp_path / "c.jsonl", SUPPORT))
    assert [a.quote for a in answers_of(support)] == [LYON["quote"], TEA["quote"]]
    verify_shape = prompts.VERIFY_SYSTEM.splitlines()[-1]
    for models, shapes in (({}, [prompts.COMBINED_SHAPE]),
                           ({"summary_model": "small", "extraction_model": "big"},
                            [prompts.SUMMARY_SHAPE, prompts.FACTS_SHAPE]),
                           ({"llm_verify": True}, [prompts.COMBINED_SHAPE, verify_shape])):
        with right_answer_backend(Settings(**models)) as (extractor, server):
            serve_answers_of(server, support)
            score = score_case(support, extract(extractor, support.rows))
            bodies = server.chat_requests()
        assert [b["messages"][0]["content"].splitlines()[-1] for b in bodies] == shapes
        assert (score.kept, score.answered, score.wrong) == (2, 2, 0)
        # Each fact cites the user line holding its quote.
        assert sorted(c.quote_message_id for c in score.candidates) == [1, 5]
