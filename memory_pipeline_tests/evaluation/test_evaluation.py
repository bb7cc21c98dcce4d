"""`memory-pipeline eval`: its figures come from the gold sets and the backend's output, not from constants."""

from __future__ import annotations

import dataclasses
import json
import re

import pytest

from memory_pipeline.cli import main
from memory_pipeline.domain.facts import ExtractedFact
from memory_pipeline.domain.gates import GATE_REASONS
from memory_pipeline.domain.retractions import is_forget_request
from memory_pipeline.evaluation import GoldSetError, evaluate
from memory_pipeline.evaluation.gold import (
    GoldFact, Trap, behaviour_cases, eval_data, keyword_found, message_shape_cases, parse_behaviour_cases)
from memory_pipeline.evaluation.locomo import evaluate_locomo
from memory_pipeline.evaluation.memorybank import hobby_gold
from memory_pipeline.evaluation.runs import conversations_of, extract
from memory_pipeline.evaluation.scoring import score_case
from memory_pipeline.extractors import prompts
from memory_pipeline.extractors.base import ExtractionResult, SummaryResult
from memory_pipeline.extractors.offline import OfflineExtractor
from memory_pipeline.sample import load_memory_bank
from memory_pipeline_tests.conftest import FIXTURES

CASES = {c.name: c for c in behaviour_cases()}


class ScriptedExtractor:
    """A backend whose facts are computed by `propose(conversation)`: lets a test steer what is proposed."""

    name, model, prompt_version = "scripted", "none", "test"

    def __init__(self, propose):
        self.propose = propose

    def summarize(self, conversation):
        return SummaryResult(text="")

    def extract(self, conversation, summary):
        return ExtractionResult(facts=self.propose(conversation))


def _first_alternative(keyword: str) -> str:
    return keyword.split("|")[0]


def gold_echo(case):
    """A proposer of the case's gold facts whose quote the user said in the conversation at hand, and of its
    retractions in a conversation where the user withdraws something."""

    def propose(conversation):
        said = [t.text for t in conversation.turns if t.role == "human"]
        facts = [ExtractedFact(category=gold.categories[0], quote=gold.quote,
                               fact=" ".join(_first_alternative(k) for k in gold.keywords))
                 for gold in case.expect.gold if gold.quote and any(gold.quote in text for text in said)]
        withdrawn = [text for text in said if is_forget_request(text) or re.search(r"\bno longer\b|不住", text)]
        facts += [ExtractedFact(category="preference", quote=withdrawn[0], retraction=True,
                                attribute="_".join(r.keywords).lower(), fact=" ".join(r.keywords))
                  for r in case.expect.retractions if withdrawn]
        return facts

    return propose


def quote_every_user_turn(conversation):
    """Propose a preference quoting each whole user turn: every trap must spring."""
    return [ExtractedFact(category="preference", fact=t.text, quote=t.text)
            for t in conversation.turns if t.role == "human"]


def test_cli_eval_prints_figures_computed_from_the_gold(capsys):
    assert main(["eval"]) == 0
    out = capsys.readouterr().out
    # Trap kinds and their counts in the printed table are those of the shipped gold.
    expected = {}
    for case in CASES.values():
        for trap in case.expect.all_traps:
            expected[trap.kind] = expected.get(trap.kind, 0) + 1
    for kind, count in expected.items():
        assert re.search(rf"^\s*cases\s+{kind}\s+{count}\s+\d+\s*$", out, re.MULTILINE), kind
    # Known misses of the offline extractor show up as missed, by their gold terms.
    assert re.search(r"^\s*cases\s+accepted-offer\s+decision:annual plan\b", out, re.MULTILINE)
    # "tomorrow" is dated for every backend (domain.relative_time): the booking case passes.
    not_passed = out.split("== Cases not passed", 1)[1]
    assert not re.search(r"^\s*cases\s+booking-relative-date\b", not_passed, re.MULTILINE)
    assert re.search(r"^\s*cases\s+booking-relative-date\s.*\bTrue\s*$", out, re.MULTILINE)  # in the per-case table
    assert "MemoryBank: hobbies stated in the chats" in out and "LoCoMo" not in out


def test_offline_scores_follow_the_gold():
    report = evaluate(OfflineExtractor(), ["cases"])
    facts = report.tables["Facts per category: precision and recall against gold facts"].set_index("category")
    gold_total = sum(len(c.expect.gold) + len(c.expect.retractions) for c in CASES.values())
    assert facts.loc["all", "gold"] == gold_total
    assert facts.loc["retraction", "gold"] == sum(len(c.expect.retractions) for c in CASES.values())
    for column in ("gold", "recalled", "accepted", "correct"):
        assert facts.loc["all", column] == facts.drop(index="all")[column].sum()
    not_passed = report.tables["Cases not passed"].set_index("case")
    # The tables hold gold terms and counts only; the text of the gold sets is printed in the per-case details.
    assert "I'd like" not in dataclasses.replace(report, details={}).render()
    # The pipeline's own fold merges near-duplicates: "favourite colour is blue" / "like blue" / "prefer blue" end
    # as one active fact, and a forget request (issue 17) ends the phone number.
    assert "same-preference-three-ways" not in not_passed.index
    assert "forget-phone-number" not in not_passed.index and "n07_forget_as_question" not in not_passed.index
    assert "question-is-not-a-fact" not in not_passed.index
    assert "sem-appointment-moved" not in not_passed.index  # the date it moved to supersedes, by its slot


def test_a_backend_that_proposes_the_gold_is_scored_right():
    for case in (*CASES.values(), *message_shape_cases()):
        score = score_case(case, extract(ScriptedExtractor(gold_echo(case)), case.rows))
        # Gold without a quote, or tied to a group-chat sender, cannot be echoed this way: the rest is recalled.
        unreachable = {g.describe() for g in case.expect.gold if not g.quote or g.user}
        assert set(score.missed) <= unreachable, case.name
        assert not score.sprung, case.name
        if not any(g.user for g in case.expect.gold):  # a sender's fact under the chat's key is rightly wrong
            assert score.wrong == 0, case.name


def test_a_backend_that_quotes_everything_springs_every_trap_it_can_quote():
    quote_all = ScriptedExtractor(quote_every_user_turn)
    checked = set()
    for case in (*CASES.values(), *message_shape_cases()):
        if not case.expect.trap:
            continue
        run = extract(quote_all, case.rows)
        score = score_case(case, run)
        user_text = [t for conv in run.conversations for t in conv.turns if t.role == "human"]
        # Machine-written text in a user's row is split off before any backend sees it: nothing left to quote.
        # An injection, another person's fact, a pleasantry, a question or a hedge is quoted, but the gates
        # between fact and quote reject it: the trap springs only if a quote passed them.
        gated = sum(score.rejected[reason] for reason in GATE_REASONS)
        assert (case.expect.trap in score.sprung) == (bool(user_text) and gated < len(run.candidates)), case.name
        if case.expect.trap in GATED_TRAPS:
            assert score.rejected[GATED_TRAPS[case.expect.trap]] > 0, case.name
        checked.add(case.expect.trap)
    assert len(checked) >= 8


GATED_TRAPS = {"injection": "quote_is_instruction", "third_party": "quote_about_other_person",
               "pleasantry": "quote_is_pleasantry", "question": "quote_is_question",
               "hypothetical": "quote_is_hypothetical"}


def test_rejected_quotes_are_counted_by_reason():
    def hallucinate(conversation):
        return [ExtractedFact(category="preference", fact="User likes jazz.", quote="I adore jazz, truly."),
                ExtractedFact(category="mood", fact="User is sad.", quote="x")]

    report = evaluate(ScriptedExtractor(hallucinate), ["cases"])
    reasons = report.tables["Quotes not found: candidates rejected, by reason"].set_index("reason").candidates
    conversations = report.tables["Runs: conversations, failures and tokens per gold set"].conversations[0]
    assert reasons["quote_not_found"] == conversations and reasons["unknown_category"] == conversations


def test_keyword_and_quote_rules():
    assert keyword_found("like", "User likes Vim.") and not keyword_found("like", "User dislikes Vim.")
    assert keyword_found("2025-03-05|March 5", "on March 5, 2025")
    # In a script without spaces a word's start cannot be told: a keyword matches right after one of its letters.
    assert keyword_found("1000元|一千", "预算1000元左右") and not keyword_found("1000", "x1000")
    strict = GoldFact(category="decision", keywords=["2025-03-05"], quote="book a table", strict=True)
    loose = strict.model_copy(update={"strict": False})
    case = parse_behaviour_cases(json.dumps({"case": "c", "sessions": [{"session_id": "u", "messages": [
        {"role": "human", "content": "I'd like to book a table for tomorrow.", "at": "2025-03-04T10:00:00Z"}]}],
        "expect": {"gold": []}}))[0]
    undated = extract(ScriptedExtractor(lambda c: [ExtractedFact(
        category="decision", fact="User books a table soon.", quote="book a table")]), case.rows)
    assert loose.matches(undated.accepted[0]) and not strict.matches(undated.accepted[0])
    # A fact that keeps "tomorrow" is dated against the message's day for every backend, so it holds the date.
    relative = extract(ScriptedExtractor(lambda c: [ExtractedFact(
        category="decision", fact="User books a table for tomorrow.", quote="a table for tomorrow")]), case.rows)
    assert relative.accepted[0].fact == "User books a table for 2025-03-05." and strict.matches(relative.accepted[0])


def test_one_sentence_with_two_gold_facts_needs_two_candidates():
    case = parse_behaviour_cases(json.dumps({"case": "two", "sessions": [{"session_id": "u", "messages": [
        {"role": "human", "content": "I live in Rome and I love opera.", "at": "2025-03-04T10:00:00Z"}]}],
        "expect": {"gold": [
            {"category": "preference|client_info", "keywords": ["Rome"], "quote": "I live in Rome and I love opera."},
            {"category": "preference|client_info", "keywords": ["opera"], "quote": "I live in Rome and I love opera."}]}}))[0]
    one = ScriptedExtractor(lambda c: [ExtractedFact(category="preference", fact="User loves opera.",
                                                     quote="I live in Rome and I love opera.")])
    score = score_case(case, extract(one, case.rows))
    assert sum(score.recalled.values()) == 1 and score.missed == ["preference:Rome"]


def test_a_count_of_active_facts_leaves_out_wrong_facts():
    case = parse_behaviour_cases(json.dumps({"case": "count", "sessions": [{"session_id": "u", "messages": [
        {"role": "human", "content": "I work as a nurse.", "at": "2025-03-04T10:00:00Z"},
        {"role": "human", "content": "I love opera.", "at": "2025-03-04T10:01:00Z"}]}],
        "expect": {"gold": [{"category": "client_info", "keywords": ["nurse"], "quote": "I work as a nurse."}],
                   "active_count": 1}}))[0]
    right = ExtractedFact(category="client_info", fact="User is a nurse.", quote="I work as a nurse.",
                          attribute="job", value="nurse")
    wrong = ExtractedFact(category="client_info", fact="User is an opera singer.", quote="I love opera.",
                          attribute="job", value="opera")
    assert score_case(case, extract(ScriptedExtractor(lambda c: [right]), case.rows)).resolved
    # A wrong job standing in for the right one is no update resolved, though one fact is active.
    alone = score_case(case, extract(ScriptedExtractor(lambda c: [wrong]), case.rows))
    assert not alone.resolved and alone.failed_checks == ["0 active facts, expected 1 (1 wrong not counted)"]


def test_malformed_gold_is_a_clear_error():
    with pytest.raises(GoldSetError, match="line 1"):
        parse_behaviour_cases('{"case": "x", "sessions": [], "expect": {}}')


def test_shipped_message_shapes_are_the_fixture_rows():
    assert eval_data("message_shapes.jsonl") == (FIXTURES / "message_shapes.jsonl").read_text(encoding="utf-8")


def test_memory_bank_gold_quotes_are_the_users_own_words():
    data = {name.strip(): user for name, user in load_memory_bank().items()}
    for name, hobbies in hobby_gold().items():
        queries = [p["query"] for day in data[name]["history"].values() for p in day]
        stated = data[name]["meta_information"]["hobbies"].replace(", and ", ", ").split(",")
        assert {h.hobby.casefold() for h in hobbies} == {h.strip().casefold() for h in stated}, name
        for hobby in hobbies:
            for quote in hobby.quotes:
                assert any(quote in q for q in queries), (name, hobby.hobby)
                assert any(keyword_found(k, quote) for k in hobby.keywords), (name, hobby.hobby)


LOCOMO = [{
    "sample_id": "synthetic-1",
    "conversation": {
        "speaker_a": "Ana", "speaker_b": "Ben",
        "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_1": [
            {"speaker": "Ana", "dia_id": "D1:1", "text": "I love hiking in the Alps."},
            {"speaker": "Ben", "dia_id": "D1:2", "text": "I work as a pilot."},
            {"speaker": "Ana", "dia_id": "D1:3", "text": "Yesterday we went to a pottery class together."},
        ],
        "session_2_date_time": "10:00 am on 20 May, 2023",
        "session_2": [
            {"speaker": "Ben", "dia_id": "D2:1", "text": "How was your week?"},
            {"speaker": "Ana", "dia_id": "D2:2", "text": "Great. I live in Lyon now."},
        ],
    },
    "observation": {
        "session_1_observation": {
            "Ana": [["Ana loves hiking in the Alps.", "D1:1"], ["Ana took a pottery class.", "D1:3"]],
            "Ben": [["Ben is a pilot.", "D1:2"]],
        },
        "session_2_observation": {"Ana": [["Ana lives in Lyon.", ["D2:2"]]]},
    },
}]


def test_locomo_recall_by_quote_and_grounding(tmp_path, capsys):
    path = tmp_path / "locomo_synthetic.json"
    path.write_text(json.dumps(LOCOMO))
    score = evaluate_locomo(OfflineExtractor(), path)
    # Ana's three observations (Ben's is not the user's); the offline extractor quotes D1:1 and D2:2 only.
    assert (score.conversations, score.observations, score.recalled) == (2, 3, 2)
    assert all(c.quote_speaker == "human" for c in score.run.accepted)
    assert main(["eval", "--gold-set", "cases", "--locomo", str(path)]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^\s*2\s+3\s+2\s+0\.667\s+2\s+2\s+1\.0\s*$", out, re.MULTILINE), out


def test_a_malformed_locomo_file_ends_eval_with_a_message(tmp_path, capsys):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps([{"conversation": {"speaker_a": "A", "session_1": [],
                                                  "session_1_date_time": "yesterday"}}]))
    assert main(["eval", "--gold-set", "cases", "--locomo", str(path)]) == 2
    assert "session_1_date_time 'yesterday'" in capsys.readouterr().err


def test_a_failing_conversation_is_counted_and_the_others_go_on():
    from memory_pipeline.extractors.base import ExtractorError

    def flaky(conversation):
        said = " ".join(t.text for t in conversation.turns)
        if "Vim" in said:
            raise ExtractorError("scripted failure")
        if "blue" in said:
            raise ValueError("a backend bug")
        return quote_every_user_turn(conversation)

    report = evaluate(ScriptedExtractor(flaky), ["cases"])
    runs = report.tables["Runs: conversations, failures and tokens per gold set"].iloc[0]
    failing = [conv for case in CASES.values() for conv in conversations_of(case.rows)
               if re.search(r"Vim|blue", " ".join(t.text for t in conv.turns))]
    assert len(failing) == 7  # 2 Vim sessions, the assistant's Vim suggestion, 4 "blue" sessions
    assert runs.failed == 7 and runs.failed_by_reason == "backend_error:7"
    assert runs.accepted > 0
    not_passed = report.tables["Cases not passed"].set_index("case")
    assert not_passed.loc["same-preference-three-ways", "failed"] == 3


def test_eval_scores_the_llm_backend_through_the_scripted_server(monkeypatch, capsys):
    from memory_pipeline.testing.openai_server import ScriptedOpenAIServer, transcript_responder

    with ScriptedOpenAIServer(transcript_responder) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.delenv("OPENAI_API_KEY", raising=False)
        monkeypatch.setenv("MEMORY_PIPELINE_EXTRACTOR", "openai")
        monkeypatch.setenv("MEMORY_PIPELINE_LLM_MAX_RETRIES", "0")
        assert main(["eval", "--gold-set", "cases", "--gold-set", "n8n"]) == 0
        bodies = server.chat_requests()
    out = capsys.readouterr().out
    assert "backend openai (model gpt-4o-mini" in out
    # One request per conversation with a user line: the summary request returns the facts too. Relation requests
    # (a user's two facts the owner rules leave apart) come on top, at most one per user of a contradiction case.
    relating = [b for b in bodies if b["messages"][0]["content"] == prompts.RELATE_SYSTEM]
    with_user_lines = sum(1 for case in (*CASES.values(), *message_shape_cases())
                          for conv in conversations_of(case.rows) if any(t.role == "human" for t in conv.turns))
    assert len(bodies) - len(relating) == with_user_lines
    assert len(relating) <= sum(1 for case in CASES.values() if case.expect.active_facts or case.expect.superseded_facts)
    runs = re.search(r"^\s*cases\s+(\d+)\s+0\s+\d+\s+\d+\s+(\d+)\s+(\d+)\s*$", out, re.MULTILINE)
    assert runs and int(runs.group(2)) > 0  # the server's prompt tokens are reported
    # The model cites message ids: its quotes are checked against the cited message and accepted.
    assert "quote_not_in_cited_message" not in out and "Cases not passed" in out


def test_a_trap_on_the_fact_ignores_the_words_its_quote_must_hold():
    # "My favourite colour is blue, just kidding, it is green.": green may stand, and its quote holds "blue".
    case = parse_behaviour_cases(json.dumps({"case": "c", "sessions": [{"session_id": "u", "messages": [
        {"role": "human", "content": "My favourite colour is blue, just kidding, it is green.",
         "at": "2025-03-04T10:00:00Z"}]}], "expect": {"gold": []}}))[0]
    trap = Trap(kind="taken_back", forbidden_in_fact=["blue"])
    said = "My favourite colour is blue, just kidding, it is green."
    for fact, sprung in (("User's favourite colour is green.", False), ("User's favourite colour is blue.", True)):
        run = extract(ScriptedExtractor(lambda c, fact=fact: [ExtractedFact(
            category="preference", fact=fact, quote=said)]), case.rows)
        assert [trap.sprung_by(c) for c in run.candidates] == [sprung], fact


def test_keyword_in_a_script_without_spaces_matches_inside_a_word():
    assert keyword_found("福冈", "用户现在住在福冈。")
    assert keyword_found("เชียงใหม่", "ผู้ใช้อาศัยอยู่ที่เชียงใหม่")
    assert not keyword_found("like", "The user dislikes tea.")
