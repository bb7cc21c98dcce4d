"""Erasure leaves no trace under keys derived from the user's sessions (issue 21, item 4): a group chat's senders
(`K#Admin`) lose their facts, candidates, fold watermark and requests with the user K whose session it is; a sender
keyed across groups (`person:{sender}`) keeps what they said elsewhere."""

from memory_pipeline import erasure
from memory_pipeline.recall import prompt_block
from memory_pipeline.store import Store
from memory_pipeline_tests.test_faults import DAY, facts, fault_rows
from memory_pipeline_tests.test_hostile_input import said
from memory_pipeline_tests.test_pipeline_end_to_end import Pipeline

# Tables holding a user key: none may hold a key derived from K's sessions after K's erasure.
KEYED_TABLES = ["agent_facts", "fact_candidates", "fact_folds", "fold_requests", "fact_recalls", "forgotten_facts",
                "message_rejections", "session_summaries", "conversations"]


def keys_left(p, prefix):
    found = {}
    for table in KEYED_TABLES:
        rows = p.rows(f"SELECT count(*) AS n FROM {{schema}}.{table} WHERE starts_with(user_key, %s)", (prefix,))
        if rows[0]["n"]:
            found[table] = rows[0]["n"]
    return found


def erase(p, user_key):
    with p.pool.connection() as conn:
        return erasure.erase_user(Store(p.settings), conn, user_key)


def test_erasing_a_user_erases_the_sender_keys_of_their_sessions(make_settings):
    p = Pipeline(make_settings(group_chat_session_keys="K"))
    p.load([said("K", "## Message from Admin (@admin): I live in Oslo."), said("K", "I like tea.", minutes=1),
            said("L", "I live in Rome.", minutes=2)])
    assert p.run(DAY).success
    assert {f["user_key"] for f in facts(p)} == {"K", "K#Admin", "L"}
    with p.pool.connection() as conn:  # a recall leaves a row under the derived key too
        assert "Oslo" in prompt_block(conn, "K#Admin", settings=p.settings)
    assert keys_left(p, "K#")["fact_recalls"] == 1
    report = erase(p, "K")
    assert keys_left(p, "K") == {}
    assert {f["user_key"] for f in facts(p, active=False)} == {"L"}
    assert report.counts["agent_facts"] == 2 and report.counts["fact_folds"] == 2


def test_a_sender_keyed_across_groups_keeps_what_they_said_in_another_group(make_settings):
    p = Pipeline(make_settings(group_chat_session_keys=r"tg:-\d+", sender_user_key="person:{sender}"))
    p.load(fault_rows("group_chat_two_senders"))  # group tg:-100777: Marta lives in Porto, Tomasz in Gdansk
    p.load([said("tg:-200", "## Message from Marta Silva (@marta_s): I like green tea.", minutes=30)])
    assert p.run(DAY).success
    assert {f["fact"] for f in facts(p, "person:Marta Silva")} == {"User lives in Porto.", "User likes green tea."}
    erase(p, "tg:-100777")
    assert [f["fact"] for f in facts(p, "person:Marta Silva", active=False)] == ["User likes green tea."]
    assert keys_left(p, "person:Tomasz") == {}
    candidates = p.rows("SELECT user_key, fact FROM {schema}.fact_candidates ORDER BY 1")
    assert [(c["user_key"], c["fact"]) for c in candidates] == [("person:Marta Silva", "User likes green tea.")]


def test_a_cancelled_erasure_run_is_deleted_like_the_others():
    import dagster as dg

    from memory_pipeline.defs.nightly import build_definitions
    from memory_pipeline.defs.erasure_job import ERASE_JOB_NAME, erasure_canceled_run_cleanup
    from memory_pipeline.settings import Settings

    defs = build_definitions(Settings())
    assert defs.resolve_sensor_def("erasure_canceled_run_cleanup").default_status == dg.DefaultSensorStatus.RUNNING
    with dg.DagsterInstance.ephemeral() as instance:
        job = defs.resolve_job_def(ERASE_JOB_NAME)
        run = instance.create_run_for_job(job, run_config={"ops": {"erase": {"config": {"user_key": "K"}}}})
        instance.report_run_canceled(run)
        (record,) = instance.get_records_for_run(run.run_id, of_type=dg.DagsterEventType.RUN_CANCELED).records
        erasure_canceled_run_cleanup(dg.build_run_status_sensor_context(
            sensor_name="erasure_canceled_run_cleanup", dagster_instance=instance,
            dagster_event=record.event_log_entry.dagster_event, dagster_run=instance.get_run_by_id(run.run_id)))
        assert instance.get_run_by_id(run.run_id) is None
