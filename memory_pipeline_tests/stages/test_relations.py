"""Issue 26 through the real stages on the embedded PostgreSQL, over real HTTP: a slot renamed by the model to a
name no rule knows (`reply_language`, then `preferred_language`) is related by the model's verdict on the pair.
The old value is superseded with relation `judged`, counted in active_facts' metadata; a re-run sends no request;
the older day backfilled after the newer one gives the same facts; a failed relation request makes the night red
and its re-run applies the verdict; an erasure removes the verdicts; one user's facts are never in another's
request."""

import re

import pytest

from memory_pipeline.db import get_pool
from memory_pipeline.erasure import erase_user
from memory_pipeline.extractors import make_extractor
from memory_pipeline.stages.active_facts import active_facts
from memory_pipeline.stages.checks import check_no_duplicate_active_facts
from memory_pipeline.stages.closed_sessions import closed_sessions
from memory_pipeline.stages.extracted_facts import extracted_facts
from memory_pipeline.stages.relations import RelationsFailed
from memory_pipeline.stages.session_summaries import session_summaries
from memory_pipeline.testing.openai_server import Reply, ScriptedOpenAIServer, _answer, fact, relations_answer
from memory_pipeline_tests.test_forget import DAY1, DAY2, Install, chat

_USER_LINE = re.compile(r"^\[(\d+)\|[^\]]*\|user\] (.*)$", re.MULTILINE)
ANSWERS = {
    "Please always reply in English.": ("reply_language", "English", "User wants replies in English."),
    "From now on answer me in German.": ("preferred_language", "German", "User wants replies in German."),
    "Replies in French for me, please.": ("reply_language", "French", "User wants replies in French."),
}


class Model:
    """The scripted model: each sentence's fact under the name of its conversation, and `verdict` for every
    pair (None: the relation request fails with HTTP 500)."""

    def __init__(self, verdict="update"):
        self.verdict = verdict
        self.relation_requests: list[str] = []

    def __call__(self, body):
        system, chat_text = (m["content"] for m in body["messages"][:2])
        if '"relations"' in system:
            self.relation_requests.append(chat_text)
            if self.verdict is None:
                return Reply(status=500, content="server error")
            return Reply(content=relations_answer([self.verdict] * chat_text.count(" | NEW: ")))
        facts = []
        for message_id, line in _USER_LINE.findall(chat_text):
            if line in ANSWERS:
                attribute, value, text = ANSWERS[line]
                facts.append(fact(line, int(message_id), attribute, value, "preference", text))
        return Reply(content=_answer(body, facts))


def run_day(p, day, extractor):
    with get_pool(p.settings.database_url).connection() as conn:
        closed_sessions(p.store, conn, day)
        session_summaries(p.store, conn, day, extractor)
        extracted_facts(p.store, conn, day, extractor)
        return active_facts(p.store, conn, day, extractor=extractor).metadata


def states(p, user="ana"):
    return sorted((f["fact"], f["superseded_at"] is None, f["relation"]) for f in p.facts(user))


def install(make_settings, server, monkeypatch):
    monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-scripted")
    p = Install(make_settings(extractor="openai", llm_max_retries=0))
    p.load(chat("ana", DAY1, "Please always reply in English."))
    p.load(chat("ana", DAY2, "From now on answer me in German."))
    return p, make_extractor(p.settings)


UPDATED = [("User wants replies in English.", False, "judged"), ("User wants replies in German.", True, None)]


def test_a_pair_judged_an_update_supersedes_the_old_value_and_a_rerun_asks_nothing(make_settings, monkeypatch):
    model = Model("update")
    with ScriptedOpenAIServer(model) as server:
        p, extractor = install(make_settings, server, monkeypatch)
        run_day(p, DAY1, extractor)
        metadata = run_day(p, DAY2, extractor)
        assert states(p) == UPDATED
        assert metadata["supersessions_by_relation"] == {"judged": 1} and metadata["pairs_judged"] == 1
        assert len(model.relation_requests) == 1
        assert "[reply_language: English]" in model.relation_requests[0]
        requests = len(server.chat_requests())
        run_day(p, DAY1, extractor)
        run_day(p, DAY2, extractor)
        assert len(server.chat_requests()) == requests and states(p) == UPDATED


def test_a_pair_judged_different_keeps_both_values(make_settings, monkeypatch):
    with ScriptedOpenAIServer(Model("different")) as server:
        p, extractor = install(make_settings, server, monkeypatch)
        run_day(p, DAY1, extractor)
        run_day(p, DAY2, extractor)
        assert states(p) == [("User wants replies in English.", True, None),
                             ("User wants replies in German.", True, None)]


def test_the_older_day_backfilled_after_the_newer_one_gives_the_same_facts(make_settings, monkeypatch):
    with ScriptedOpenAIServer(Model("update")) as server:
        p, extractor = install(make_settings, server, monkeypatch)
        run_day(p, DAY2, extractor)
        run_day(p, DAY1, extractor)
        assert states(p) == UPDATED


def test_a_failed_relation_request_makes_the_night_red_and_its_rerun_applies_the_verdict(make_settings,
                                                                                         monkeypatch):
    model = Model(None)
    with ScriptedOpenAIServer(model) as server:
        p, extractor = install(make_settings, server, monkeypatch)
        run_day(p, DAY1, extractor)
        with pytest.raises(RelationsFailed, match="materialize the partition again"):
            run_day(p, DAY2, extractor)
        assert states(p) == [("User wants replies in English.", True, None),
                             ("User wants replies in German.", True, None)]
        model.verdict = "update"
        run_day(p, DAY2, extractor)
        assert states(p) == UPDATED


def test_one_users_facts_never_reach_another_users_request_and_erasure_removes_the_verdicts(make_settings,
                                                                                           monkeypatch):
    model = Model("update")
    with ScriptedOpenAIServer(model) as server:
        p, extractor = install(make_settings, server, monkeypatch)
        p.load(chat("bob", DAY2, "Replies in French for me, please."))
        run_day(p, DAY1, extractor)
        run_day(p, DAY2, extractor)
        assert len(model.relation_requests) == 1 and "French" not in model.relation_requests[0]
        assert states(p, "bob") == [("User wants replies in French.", True, None)]
        assert p.rows("SELECT relation_key FROM {schema}.fact_relations WHERE user_key = 'ana'")
        with get_pool(p.settings.database_url).connection() as conn:
            erase_user(p.store, conn, "ana")
        assert p.rows("SELECT relation_key FROM {schema}.fact_relations") == []


def test_the_contradiction_check_counts_an_active_pair_a_verdict_relates(make_settings, monkeypatch):
    with ScriptedOpenAIServer(Model("update")) as server:
        p, extractor = install(make_settings, server, monkeypatch)
        run_day(p, DAY1, extractor)
        run_day(p, DAY2, extractor)
        with get_pool(p.settings.database_url).connection() as conn:
            assert check_no_duplicate_active_facts(p.store, conn).metadata["judged_active_pairs"] == 0
        # As a fold that missed the verdict would leave them: both values active.
        p.rows("UPDATE {schema}.agent_facts SET superseded_at = NULL, superseded_by = NULL, relation = NULL "
               "RETURNING id")
        with get_pool(p.settings.database_url).connection() as conn:
            check = check_no_duplicate_active_facts(p.store, conn)
        assert not check.passed and check.metadata["judged_active_pairs"] == 1
        assert check.metadata["related_active_pairs"] == 0  # the owner rules alone see no pair


LANGUAGES = ["English", "German", "French", "Greek", "Dutch", "Polish"]


def many_pairs_model(failing_word, seen):
    """Facts: 'Reply in <language>.' as `<language>_reply_language`-like names (one slot, six names: 15 pairs,
    two requests of 12 and 3); a relation request naming `failing_word` gets HTTP 500, the others "update"."""

    def respond(body):
        system, chat_text = (m["content"] for m in body["messages"][:2])
        if '"relations"' in system:
            seen.append(chat_text)
            if failing_word and failing_word in chat_text:
                return Reply(status=500, content="server error")
            return Reply(content=relations_answer(["different"] * chat_text.count(" | NEW: ")))
        facts = [fact(line, int(message_id), f"reply_language_{n}", line.split()[-1].rstrip("."), "preference",
                      f"User wants replies in {line.split()[-1].rstrip('.')}.")
                 for n, (message_id, line) in enumerate(_USER_LINE.findall(chat_text)) if line.startswith("Reply in")]
        return Reply(content=_answer(body, facts))

    return respond


def test_a_failed_relation_request_loses_only_its_own_pairs(make_settings,
                                                                                              monkeypatch):
    seen: list[str] = []
    # "English" is the oldest fact: its five pairs are all in the first request of 12.
    with ScriptedOpenAIServer(many_pairs_model("English", seen)) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-scripted")
        p = Install(make_settings(extractor="openai", llm_max_retries=0))
        p.load(chat("ana", DAY1, *[f"Reply in {language}." for language in LANGUAGES]))
        extractor = make_extractor(p.settings)
        with pytest.raises(RelationsFailed):
            run_day(p, DAY1, extractor)
        assert len(seen) == 2  # 15 pairs: 12 + 3
        stored = p.rows("SELECT relation_key FROM {schema}.fact_relations WHERE user_key = 'ana'")
        # the request without "English" (requests may run at once, in either order) has its verdicts kept
        assert sorted("English" in text for text in seen) == [False, True] and len(stored) == 3


def test_pairs_an_answer_leaves_out_are_counted_and_asked_again(make_settings, monkeypatch):
    model = Model("update")
    with ScriptedOpenAIServer(model) as server:
        p, extractor = install(make_settings, server, monkeypatch)
        run_day(p, DAY1, extractor)
        server.responder = lambda body: (Reply(content='{"relations": []}') if '"relations"' in
                                         body["messages"][0]["content"] else model(body))
        metadata = run_day(p, DAY2, extractor)
        assert metadata["pairs_unanswered"] == 1 and metadata["pairs_judged"] == 0
        server.responder = model
        metadata = run_day(p, DAY2, extractor)
        assert metadata["pairs_judged"] == 1 and states(p) == UPDATED
