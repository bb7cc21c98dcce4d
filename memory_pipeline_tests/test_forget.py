"""Erasure rules on the real database, stage by stage: idempotence, key mapping, the shared summary cache, an
erasure while a stage is mid-way, forgetting one fact, and erase-on-retraction."""

import threading
from datetime import date, datetime, timedelta, timezone

import pytest
from psycopg import sql

from memory_pipeline import erasure, sample
from memory_pipeline.db import get_pool
from memory_pipeline.extractors.offline import OfflineExtractor
from memory_pipeline.store import Store
from memory_pipeline_tests.conftest import run_stages
import memory_pipeline.stages.closed_sessions as closed_sessions_stage
from memory_pipeline.stages.active_facts import active_facts
from memory_pipeline.stages.archived_sessions import archived_sessions
from memory_pipeline.stages.closed_sessions import closed_sessions
from memory_pipeline.stages.extracted_facts import extracted_facts
from memory_pipeline.stages.session_summaries import session_summaries

DAY1, DAY2 = date(2026, 5, 1), date(2026, 5, 2)


def at(day: date, hour: int, minute: int = 0) -> datetime:
    return datetime(day.year, day.month, day.day, hour, minute, tzinfo=timezone.utc)


def chat(session, day, *lines, hour=10):
    """n8n rows: each user line followed by an assistant answer, a minute apart."""
    rows = []
    for i, text in enumerate(lines):
        rows.append(sample.SampleRow(session, {"type": "human", "content": text}, at(day, hour, 2 * i)))
        rows.append(sample.SampleRow(session, {"type": "ai", "content": "Noted."}, at(day, hour, 2 * i + 1)))
    return rows


class Install:
    def __init__(self, settings):
        self.settings, self.store = settings, Store(settings)
        self.pool = get_pool(settings.database_url)
        with self.pool.connection() as conn:
            sample.create_n8n_table(conn, settings)

    def load(self, rows):
        with self.pool.connection() as conn:
            sample.insert_rows(conn, self.settings, rows)

    def run(self, *days, extractor=None, now=None):
        extractor = extractor or OfflineExtractor()
        with self.pool.connection() as conn:
            for day in days:
                run_stages(self.store, conn, day, extractor, now)

    def rows(self, query, params=None):
        with self.pool.connection() as conn:
            return conn.execute(sql.SQL(query).format(
                schema=sql.Identifier(self.settings.schema_name),
                source=sql.Identifier(self.settings.source_schema, self.settings.source_table)), params).fetchall()

    def count(self, table, where="true", params=None):
        return self.rows(f"SELECT count(*) AS n FROM {{schema}}.{table} WHERE {where}", params)[0]["n"]

    def erase(self, user_key):
        with self.pool.connection() as conn:
            return erasure.erase_user(self.store, conn, user_key)

    def forget(self, user_key, fact_id):
        with self.pool.connection() as conn:
            return erasure.forget_fact(self.store, conn, user_key, fact_id)

    def facts(self, user_key):
        return self.rows("SELECT * FROM {schema}.agent_facts WHERE user_key = %s ORDER BY valid_from, id", (user_key,))


USER_TABLES = ["conversations", "message_rejections", "session_summaries", "fact_candidates", "agent_facts"]


def traces(p: Install, user_key: str, session_keys: list[str]) -> dict[str, int]:
    counts = {t: p.count(t, "user_key = %s", (user_key,)) for t in USER_TABLES}
    counts["chat_archive"] = p.count("chat_archive", "session_id = ANY(%s)", (session_keys,))
    counts["source"] = p.rows("SELECT count(*) AS n FROM {source} WHERE session_id = ANY(%s)", (session_keys,))[0]["n"]
    return counts


def test_erasure_follows_the_key_regex_and_is_idempotent(make_settings):
    p = Install(make_settings(user_key_regex=r"^tenant_\d+:(?P<user>.+)$"))
    p.load(chat("tenant_1:alice", DAY1, "I live in Oslo.", "Please contact me by email."))
    p.load(chat("tenant_2:alice", DAY1, "I like jazz.", hour=14))
    p.load(chat("tenant_1:bob", DAY1, "I live in Rome."))
    p.run(DAY1)
    p.load(chat("tenant_2:alice", DAY2, "I work as a nurse."))  # not consolidated yet: only in n8n's table
    alice_keys = ["tenant_1:alice", "tenant_2:alice"]
    assert traces(p, "alice", alice_keys)["agent_facts"] == 3
    bob_before = traces(p, "bob", ["tenant_1:bob"])

    first = p.erase("alice")
    assert set(traces(p, "alice", alice_keys).values()) == {0}
    assert first.counts["source"] == 2 and first.counts["chat_archive"] == 6 and first.counts["agent_facts"] == 3
    assert first.counts["conversations"] == 2 and first.counts["summary_cache"] == 2
    assert traces(p, "bob", ["tenant_1:bob"]) == bob_before
    second = p.erase("alice")
    assert set(second.counts.values()) == {0}
    assert p.count("erasure_log") == 2
    with pytest.raises(ValueError):
        p.erase(" ")


def test_summary_cache_entry_used_by_another_conversation_stays(make_settings):
    p = Install(make_settings())
    p.load(chat("u:a", DAY1, "I live in Oslo."))
    p.load(chat("u:b", DAY1, "I live in Rome."))
    p.run(DAY1)
    hash_a = p.rows("SELECT transcript_hash FROM {schema}.conversations WHERE user_key = 'u:a'")[0]["transcript_hash"]
    # Another user's conversation with the same transcript hash (transcripts that hash alike, e.g. after a
    # backend change of what the hash covers) still needs the cached summary.
    p.rows("UPDATE {schema}.conversations SET transcript_hash = %s WHERE user_key = 'u:b' RETURNING 1", (hash_a,))
    report = p.erase("u:a")
    assert report.counts["summary_cache"] == 1  # u:b's own old entry (now unused) went, the shared one stays
    assert p.count("summary_cache", "transcript_hash = %s", (hash_a,)) == 1


class Paused(OfflineExtractor):
    """Offline extractor that stops inside summarize()/extract() until released (an LLM call in flight)."""

    def __init__(self, where):
        self.where, self.entered, self.release = where, threading.Event(), threading.Event()

    def _pause(self):
        self.entered.set()
        assert self.release.wait(60)

    def summarize(self, conversation):
        if self.where == "summarize":
            self._pause()
        return super().summarize(conversation)

    def extract(self, conversation, summary=""):
        if self.where == "extract":
            self._pause()
        return super().extract(conversation, summary)


@pytest.mark.parametrize("where", ["summarize", "extract"])
def test_a_stage_mid_way_cannot_bring_erased_data_back(make_settings, where):
    p = Install(make_settings())
    p.load(chat("u:a", DAY1, "I live in Oslo.", "Please contact me by email."))
    with p.pool.connection() as conn:
        closed_sessions(p.store, conn, DAY1)
        if where == "extract":
            session_summaries(p.store, conn, DAY1, OfflineExtractor())
    paused = Paused(where)
    stage = session_summaries if where == "summarize" else extracted_facts
    outcome = {}

    def nightly():
        with p.pool.connection() as conn:
            outcome["metadata"] = stage(p.store, conn, DAY1, paused).metadata

    worker = threading.Thread(target=nightly)
    worker.start()
    assert paused.entered.wait(60)  # the stage has read the conversation and is waiting for its "LLM"
    p.erase("u:a")
    paused.release.set()
    worker.join(60)
    assert outcome["metadata"][f"conversations_changed_during_{'summary' if where == 'summarize' else 'extraction'}"] == 1
    assert set(traces(p, "u:a", ["u:a"]).values()) == {0}
    assert p.count("summary_cache") == 0
    with p.pool.connection() as conn:  # the rest of the night finds nothing of the user
        active_facts(p.store, conn, DAY1)
        archived_sessions(p.store, conn, DAY1)
    assert set(traces(p, "u:a", ["u:a"]).values()) == {0}


def test_forget_one_fact_removes_its_chain_and_it_is_not_rebuilt(make_settings):
    p = Install(make_settings())
    p.load(chat("u:a", DAY1, "Please contact me by email.", "I live in Oslo."))
    p.load(chat("u:a", DAY2, "Please contact me by phone."))
    p.run(DAY1, DAY2)
    channel = [f for f in p.facts("u:a") if f["attribute"] == "contact_channel"]
    assert [f["value"] for f in channel] == ["email", "phone"] and channel[0]["superseded_by"] == channel[1]["id"]
    oslo = [f for f in p.facts("u:a") if f["attribute"] == "home_location"]

    report = p.forget("u:a", channel[0]["id"])  # the old, superseded version: the whole slot goes
    # Both conversations said it: their summaries may repeat it, so they are withheld for good.
    assert report.scope == "fact" and report.counts == {"fact_candidates": 2, "agent_facts": 2,
                                                        "session_summaries": 2}
    summaries = p.rows("SELECT summary, withheld_at FROM {schema}.session_summaries WHERE user_key = 'u:a'")
    assert len(summaries) == 2 and all(r["summary"] is None and r["withheld_at"] for r in summaries)
    assert p.rows("SELECT * FROM {schema}.search_conversations_text('u:a', 'email phone contact')") == []
    assert [f["id"] for f in p.facts("u:a")] == [oslo[0]["id"]]
    assert p.count("fact_candidates", "user_key = 'u:a' AND attribute = 'contact_channel'") == 0
    assert not p.rows("SELECT 1 FROM {schema}.forgotten_facts WHERE slot_hash LIKE '%%phone%%'")

    # Re-running the days, even re-extracting their conversations, does not rebuild it.
    p.rows("UPDATE {schema}.conversations SET facts_extracted_at = NULL, extracted_with = NULL RETURNING 1")
    p.run(DAY1, DAY2)
    assert [f["id"] for f in p.facts("u:a")] == [oslo[0]["id"]]
    assert p.count("session_summaries", "user_key = 'u:a' AND (summary IS NOT NULL OR withheld_at IS NULL)") == 0
    # Said again after the request, it is remembered again.
    later = report.erased_at + timedelta(minutes=5)
    p.load([sample.SampleRow("u:a", {"type": "human", "content": "Please contact me by sms."}, later)])
    p.run(later.astimezone(timezone.utc).date(), now=later + timedelta(days=1))
    assert [f["value"] for f in p.facts("u:a") if f["attribute"] == "contact_channel"] == ["sms"]
    with pytest.raises(erasure.FactNotFound):
        p.forget("u:b", oslo[0]["id"])  # another user's id


@pytest.mark.parametrize("erase_on_retraction", [True, False])
def test_retraction_erases_the_slot_when_the_setting_says_so(make_settings, erase_on_retraction):
    p = Install(make_settings(erase_on_retraction=erase_on_retraction))
    p.load(chat("u:a", DAY1, "I live in Oslo.", "Please contact me by email."))
    p.load(chat("u:a", DAY2, "I do not live in Oslo anymore."))  # the offline extractor reads a retraction
    p.run(DAY1, DAY2)
    home = p.rows("SELECT value, superseded_at, superseded_by FROM {schema}.agent_facts "
                  "WHERE user_key = 'u:a' AND attribute = 'home_location'")
    logged = p.rows("SELECT scope, counts FROM {schema}.erasure_log")
    if erase_on_retraction:  # the slot's facts and candidates said up to the retraction are gone
        assert home == [] and p.count("fact_candidates", "attribute = 'home_location'") == 0
        # Both days' summaries may repeat where the user lived: withheld for good.
        assert logged == [{"scope": "retraction", "counts": {"fact_candidates": 2, "session_summaries": 2}}]
        p.run(DAY1, DAY2)  # and stay gone
        assert p.count("agent_facts", "attribute = 'home_location'") == 0
    else:  # the reconciler only ends the fact, history kept
        assert home == [{"value": "Oslo", "superseded_at": at(DAY2, 10), "superseded_by": None}] and logged == []
    assert p.count("agent_facts", "attribute = 'contact_channel' AND superseded_at IS NULL") == 1


def test_forget_a_fact_from_the_cli_and_the_job(make_settings, monkeypatch, capsys):
    import dagster as dg

    from memory_pipeline import cli
    from memory_pipeline.defs.nightly import build_definitions
    from memory_pipeline.defs.erasure_job import ERASE_JOB_NAME

    settings = make_settings()
    p = Install(settings)
    p.load(chat("u:a", DAY1, "Please contact me by email.", "I live in Oslo.", "I like jazz."))
    p.run(DAY1)
    facts = {f["attribute"]: f["id"] for f in p.facts("u:a")}
    for var, value in {"DATABASE_URL": settings.database_url, "SCHEMA_NAME": settings.schema_name,
                       "SOURCE_TABLE": settings.source_table, "HOME": str(settings.home)}.items():
        monkeypatch.setenv("MEMORY_PIPELINE_" + var, value)
    monkeypatch.setenv("DAGSTER_HOME", "")
    monkeypatch.setenv("MEMORY_PIPELINE_DAGSTER_STORAGE_URL", "")

    assert cli.main(["forget", "--user", "u:a", "--fact", str(facts["home_location"])]) == 0
    out = capsys.readouterr().out
    assert "(fact)" in out and "agent_facts 1" in out and "u:a" not in out
    assert cli.main(["forget", "--user", "u:a", "--fact", str(facts["home_location"])]) == 2
    assert "no fact" in capsys.readouterr().err

    job = build_definitions(settings).resolve_job_def(ERASE_JOB_NAME)
    assert job.partitions_def is None
    result = job.execute_in_process(instance=dg.DagsterInstance.ephemeral(), run_config={
        "ops": {"erase": {"config": {"user_key": "u:a", "fact_id": facts["opinion:jazz"]}}}})
    assert result.success
    assert {f["attribute"] for f in p.facts("u:a")} == {"contact_channel"}
    output = [e for e in result.all_events if e.event_type == dg.DagsterEventType.STEP_OUTPUT][0]
    metadata = {k: v.value for k, v in output.event_specific_data.metadata.items()}
    assert metadata["scope"] == "fact" and metadata["agent_facts_removed"] == 1
    assert all(isinstance(v, int) or v == "fact" for v in metadata.values())  # counts, never text


def test_erasure_job_and_cleanup_sensors_are_defined():
    import dagster as dg

    from memory_pipeline.defs.nightly import build_definitions
    from memory_pipeline.settings import Settings

    defs = build_definitions(Settings())
    job = defs.resolve_job_def("erase_user")
    fields = job.get_config_schema_snapshot()  # the launchpad shows these
    assert "user_key" in str(fields) and "fact_id" in str(fields)
    for name in ("erasure_run_cleanup", "erasure_failed_run_cleanup"):
        assert defs.resolve_sensor_def(name).default_status == dg.DefaultSensorStatus.RUNNING


def test_an_erasure_waits_for_a_split_in_flight_then_deletes_what_it_saved(make_settings, monkeypatch):
    """closed_sessions has read the user's rows and is splitting them when the erasure comes: the erasure waits
    for its transaction (the erasure lock is held shared), then deletes the conversation it saved."""
    p = Install(make_settings())
    p.load(chat("u:a", DAY1, "I live in Oslo."))
    splitting, release = threading.Event(), threading.Event()
    original = closed_sessions_stage.build_conversations

    def slow_split(*args, **kwargs):
        splitting.set()
        assert release.wait(60)
        return original(*args, **kwargs)

    monkeypatch.setattr(closed_sessions_stage, "build_conversations", slow_split)
    reports, nightly = {}, threading.Thread(target=lambda: p.run(DAY1))
    nightly.start()
    assert splitting.wait(60)
    eraser = threading.Thread(target=lambda: reports.setdefault("erasure", p.erase("u:a")))
    eraser.start()
    for _ in range(600):  # until the erasure is seen waiting for the lock (a condition, not a duration)
        waiting = p.rows("SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted")[0]["n"]
        if waiting:
            break
        threading.Event().wait(0.05)
    assert waiting == 1 and "erasure" not in reports
    release.set()
    nightly.join(60)
    eraser.join(60)
    assert reports["erasure"].counts["conversations"] == 1 and reports["erasure"].counts["source"] == 2
    assert set(traces(p, "u:a", ["u:a"]).values()) == {0}
