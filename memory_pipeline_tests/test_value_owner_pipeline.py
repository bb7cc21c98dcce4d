"""Issue 26 end to end: a model that names one slot differently in two conversations of one user (`job`, then
`occupation`), over real HTTP against the scripted OpenAI-compatible server, through the real stages on the
embedded PostgreSQL. One value is active, the old one superseded with what related them recorded, counted in
active_facts' metadata and in the contradiction check; a re-run sends no request; the older day backfilled
after the newer one gives the same facts."""

import re
from datetime import date

from psycopg import sql

from memory_pipeline.db import ensure_schema, get_pool
from memory_pipeline.extractors import make_extractor
from memory_pipeline.stages.active_facts import active_facts
from memory_pipeline.stages.archived_sessions import archived_sessions
from memory_pipeline.stages.checks import check_no_duplicate_active_facts
from memory_pipeline.stages.closed_sessions import closed_sessions
from memory_pipeline.stages.extracted_facts import extracted_facts
from memory_pipeline.stages.folds import FOLD_VERSION
from memory_pipeline.stages.session_summaries import session_summaries
from memory_pipeline.testing.openai_server import Reply, ScriptedOpenAIServer, _answer, fact
from memory_pipeline_tests.test_forget import DAY1, DAY2, Install, chat

DAY3 = date(2026, 5, 3)

_USER_LINE = re.compile(r"^\[(\d+)\|[^\]]*\|user\] (.*)$", re.MULTILINE)
# What the model answers for each user sentence: the slot under the name it chose in that conversation.
ANSWERS = {
    "I work as a nurse.": ("job", "nurse", "User works as a nurse."),
    "I'm a teacher now.": ("occupation", "teacher", "User is a teacher."),
    "My sister is a lawyer.": None,  # about someone else: a right model proposes nothing
    "By profession I am a Teacher.": ("profession", "Teacher", "User is a teacher by profession."),
}


def renaming_model(body):
    chat_text = next(m["content"] for m in body["messages"] if m["role"] == "user")
    facts = []
    for message_id, line in _USER_LINE.findall(chat_text):
        for sentence, answer in ANSWERS.items():
            if sentence in line and answer:
                attribute, value, text = answer
                facts.append(fact(sentence, int(message_id), attribute, value, "client_info", text))
    return Reply(content=_answer(body, facts))


def run_day(p, day, extractor):
    with get_pool(p.settings.database_url).connection() as conn:
        closed_sessions(p.store, conn, day)
        session_summaries(p.store, conn, day, extractor)
        extracted_facts(p.store, conn, day, extractor)
        result = active_facts(p.store, conn, day)
        archived_sessions(p.store, conn, day)
        check = check_no_duplicate_active_facts(p.store, conn)
    return result.metadata, check


def versions(p):
    return sorted((f["fact"], f["superseded_at"] is None, f["relation"]) for f in p.facts("ana"))


def install(make_settings, server, monkeypatch):
    monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-scripted")
    p = Install(make_settings(extractor="openai", llm_max_retries=0))
    p.load(chat("ana", DAY1, "I work as a nurse."))
    p.load(chat("ana", DAY2, "I'm a teacher now.", "My sister is a lawyer."))
    return p, make_extractor(p.settings)


def test_a_slot_renamed_by_the_model_between_conversations_is_one_value(make_settings, monkeypatch):
    with ScriptedOpenAIServer(renaming_model) as server:
        p, extractor = install(make_settings, server, monkeypatch)
        run_day(p, DAY1, extractor)
        metadata, check = run_day(p, DAY2, extractor)
        assert versions(p) == [("User is a teacher.", True, None), ("User works as a nurse.", False, "slot_family")]
        old, new = sorted(p.facts("ana"), key=lambda f: f["valid_from"])
        assert old["superseded_by"] == new["id"]
        assert metadata["supersessions_by_relation"] == {"slot_family": 1}
        assert metadata["repeats_by_relation"] == {}
        assert check.passed and check.metadata["related_active_pairs"] == 0

        requests = len(server.chat_requests())
        before = p.facts("ana")
        run_day(p, DAY1, extractor)
        run_day(p, DAY2, extractor)
        assert len(server.chat_requests()) == requests  # a re-run of reconciled nights sends no request
        assert p.facts("ana") == before


def test_a_restatement_under_a_third_name_is_a_repeat_counted_by_relation(make_settings, monkeypatch):
    with ScriptedOpenAIServer(renaming_model) as server:
        p, extractor = install(make_settings, server, monkeypatch)
        p.load(chat("ana", DAY3, "By profession I am a Teacher."))
        for day in (DAY1, DAY2):
            run_day(p, day, extractor)
        metadata, _ = run_day(p, DAY3, extractor)
        assert metadata["repeats_by_relation"] == {"slot_family": 1} and metadata["supersessions_by_relation"] == {}
        assert versions(p) == [("User is a teacher.", True, None), ("User works as a nurse.", False, "slot_family")]
        (now,) = [f for f in p.facts("ana") if f["superseded_at"] is None]
        assert now["repeats"] == {"slot_family": 1} and now["last_seen_at"].date() == DAY3


def test_the_older_day_backfilled_after_the_newer_one_gives_the_same_facts(make_settings, monkeypatch):
    with ScriptedOpenAIServer(renaming_model) as server:
        p, extractor = install(make_settings, server, monkeypatch)
        run_day(p, DAY2, extractor)
        run_day(p, DAY1, extractor)
        assert versions(p) == [("User is a teacher.", True, None), ("User works as a nurse.", False, "slot_family")]


def test_the_contradiction_check_counts_active_pairs_one_owner_holds(make_settings, monkeypatch):
    with ScriptedOpenAIServer(renaming_model) as server:
        p, extractor = install(make_settings, server, monkeypatch)
        run_day(p, DAY1, extractor)
        run_day(p, DAY2, extractor)
        # A row written by an older version of the pipeline: both values active under two names.
        p.rows("UPDATE {schema}.agent_facts SET superseded_at = NULL, superseded_by = NULL, relation = NULL "
               "RETURNING id")
        with get_pool(p.settings.database_url).connection() as conn:
            check = check_no_duplicate_active_facts(p.store, conn)
        assert not check.passed and check.metadata["related_active_pairs"] == 1
        assert check.metadata["contradicting_groups"] == 0  # the attribute rule alone sees no contradiction


def test_a_database_from_before_the_relations_upgrades_and_refolds(make_settings, monkeypatch):
    with ScriptedOpenAIServer(renaming_model) as server:
        p, extractor = install(make_settings, server, monkeypatch)
        run_day(p, DAY1, extractor)
        # As an older version left it: no relation columns, folds recorded under the previous fold rule.
        with get_pool(p.settings.database_url).connection() as conn:
            conn.execute(sql.SQL("ALTER TABLE {}.agent_facts DROP COLUMN relation, DROP COLUMN repeats, "
                                 "DROP COLUMN owners").format(sql.Identifier(p.settings.schema_name)))
            conn.commit()
            ensure_schema(conn, p.settings)
        p.rows(f"UPDATE {{schema}}.fact_folds SET fold_rule = replace(fold_rule, 'v{FOLD_VERSION};', 'v3;') "
               "RETURNING user_key")
        metadata, _ = run_day(p, DAY2, extractor)
        assert metadata["users_folded_from_scratch"] == 1
        assert versions(p) == [("User is a teacher.", True, None), ("User works as a nurse.", False, "slot_family")]
        assert [f["owners"] for f in p.facts("ana")] == [["slot:job"], ["slot:job"]]
