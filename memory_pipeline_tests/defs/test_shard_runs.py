"""A night in shards through Dagster (issue 28): runs tagged with their shard, the WARN check
`every_shard_consolidated` yellow until the day's last shard finished (and while a check failed in one shard's run,
which the UI's latest evaluation of that check no longer shows), a shard count changed between runs that loses and
duplicates nothing, and the instance file's queue that runs the shards side by side."""

import json

import dagster as dg
import yaml

from memory_pipeline import sample
from memory_pipeline.defs.metadata import MAX_KEY_CHARS
from memory_pipeline.defs.nightly import JOB_NAME, PARTITION_SHARD_TAG, build_definitions
from memory_pipeline.domain.shards import SHARD_TAG
from memory_pipeline.runner import QUIET_RUN_CONFIG, materialization_metadata
from memory_pipeline.testing.fault_report import LLM_FAULTS, VICTIM_MARK
from memory_pipeline.testing.openai_server import ScriptedOpenAIServer, transcript_responder
from memory_pipeline_tests.defs.test_definitions import ROOT
from memory_pipeline_tests.test_hostile_input import DAY, active_facts, said
from memory_pipeline_tests.test_pipeline_end_to_end import Pipeline

DAYS = ["2023-04-27", "2023-04-28"]
USERS = ["Emily", "Frank", "Lucy", "Tom", "Alex", "Sam"]


def run(p: Pipeline, job: dg.JobDefinition, day: str, shard: str) -> dg.ExecuteInProcessResult:
    return job.execute_in_process(partition_key=day, instance=p.instance, raise_on_error=False,
                                  run_config=QUIET_RUN_CONFIG, tags={SHARD_TAG: shard})


def shard_check(result: dg.ExecuteInProcessResult) -> dg.AssetCheckEvaluation:
    [evaluation] = [e for e in result.get_asset_check_evaluations() if e.check_name == "every_shard_consolidated"]
    return evaluation


def facts_and_archive(p: Pipeline) -> tuple:
    return (p.rows("SELECT user_key, category, fact, quote, valid_from, superseded_at, expires_at, candidate_id"
                   " FROM {schema}.agent_facts ORDER BY user_key, candidate_id, valid_from"),
            p.rows("SELECT id, conversation_id, partition_date FROM {schema}.chat_archive ORDER BY id"),
            p.rows("SELECT id FROM {source} ORDER BY id"))


def test_the_days_shards_turn_the_check_green_and_a_new_count_loses_and_duplicates_nothing(make_settings):
    p = Pipeline(make_settings(shards=2))
    data = sample.load_memory_bank()
    p.load([r for r in sample.memory_bank_rows(data, USERS) if r.created_at.date().isoformat() in DAYS])
    assert p.job.tags.get(SHARD_TAG) is None  # a run without the tag is the whole night

    first = run(p, p.job, DAYS[0], "1/2")
    assert first.success  # WARN, not blocking: the shard's own checks passed
    waiting = shard_check(first)
    assert not waiting.passed and waiting.severity == dg.AssetCheckSeverity.WARN
    assert waiting.metadata["shards_missing"].value == [0] and waiting.metadata["shard_count"].value == 2
    assert not [k for k in waiting.metadata if len(k) > MAX_KEY_CHARS]
    assert p.source_ids()  # shard 0's users still wait in n8n's table
    second = run(p, p.job, DAYS[0], "0/2")
    assert shard_check(second).passed
    # Each materialization's partition_* figures are the whole day's (the plots add up per day); run_* the shard's.
    figures = materialization_metadata(second, "closed_sessions")
    day_total = p.rows("SELECT count(*) AS n FROM {schema}.conversations WHERE partition_date = %s", (DAYS[0],))
    assert figures["shard"] == "0/2" and figures["partition_conversations"] == day_total[0]["n"]
    assert 0 < figures["run_conversations_stored"] < day_total[0]["n"]
    assert run(p, p.job, DAYS[1], "0/2").success and shard_check(run(p, p.job, DAYS[1], "1/2")).passed
    two_shards = facts_and_archive(p)
    assert two_shards[0] and two_shards[1] and not two_shards[2]

    # MEMORY_PIPELINE_SHARDS becomes 3 and the night runs again (a backfill of both days, newest first).
    job = build_definitions(p.settings.model_copy(update={"shards": 3})).resolve_job_def(JOB_NAME)
    partly = run(p, job, DAYS[1], "2/3")
    assert partly.success and shard_check(partly).passed  # every user of the day was consolidated under 2 shards
    assert shard_check(partly).metadata["complete_under_counts"].value == [2]
    for day in DAYS[::-1]:
        for shard in ("1/3", "0/3", "2/3"):
            assert run(p, job, day, shard).success
    assert facts_and_archive(p) == two_shards
    counts = p.rows("SELECT shard_count, count(*) AS n FROM {schema}.night_shards GROUP BY 1 ORDER BY 1")
    assert [(r["shard_count"], r["n"]) for r in counts] == [(2, 4), (3, 6)]


def test_the_instance_queues_runs_side_by_side_one_per_shard_of_a_day():
    instance = yaml.safe_load((ROOT / "deploy" / "dagster.yaml").read_text())
    assert instance["run_coordinator"]["class"] == "QueuedRunCoordinator"
    runs = instance["concurrency"]["runs"]
    assert runs["max_concurrent_runs"] > 1
    assert runs["tag_concurrency_limits"] == [
        {"key": PARTITION_SHARD_TAG, "value": {"applyLimitPerUniqueValue": True}, "limit": 1}]
    assert instance["concurrency"]["pools"]["default_limit"] == 1  # the llm pool still bounds requests across runs


def test_a_check_failed_in_one_shards_run_keeps_the_day_red_after_the_other_shard_passed(make_settings, llm_env):
    def responder(body):
        return LLM_FAULTS["http_500"][0] if VICTIM_MARK in json.dumps(body["messages"]) else transcript_responder(body)

    users = ["ann", "bob", "vic", "eve"]  # shard 0 of 2: ann, bob; shard 1: vic, eve
    with ScriptedOpenAIServer(responder) as server:
        llm_env(server)
        p = Pipeline(make_settings(shards=2, extractor="openai", llm_max_retries=0, llm_timeout_seconds=1))
        p.load([said(user, f"I live in City{i}.", minutes=i) for i, user in enumerate(users) if user != "vic"])
        p.load([said("vic", f"I live in {VICTIM_MARK}.", minutes=5)])
        assert not run(p, p.job, DAY, "1/2").success  # vic's call failed: red, blocking check on the last asset
        other = run(p, p.job, DAY, "0/2")
    assert other.success
    verdict = shard_check(other)  # the UI's latest every_conversation_consolidated is shard 0's green one
    assert not verdict.passed and verdict.metadata["shards_missing"].value == []
    assert "every_conversation_consolidated" in verdict.metadata["shards_failed_checks"].value["1"]
    with ScriptedOpenAIServer(transcript_responder) as server:
        llm_env(server)
        again = run(p, p.job, DAY, "1/2")
    assert again.success and shard_check(again).passed  # shard 0's run failed no check
    assert active_facts(p, "vic") == [f"User lives in {VICTIM_MARK}."] and p.source_ids() == set()
