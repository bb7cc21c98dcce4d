"""A failed night is posted to the webhook in MEMORY_PIPELINE_ALERT_WEBHOOK_URL, in Slack's incoming-webhook JSON:
a failed run (a failed blocking check named in it) and failed freshness checks; a receiver on 127.0.0.1 started
by the test takes the posts. The sensors are evaluated as the daemon does, in the code location of the runs."""

import json
import threading
from datetime import date, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import dagster as dg
import pytest

import memory_pipeline.stages.extracted_facts as extracted_facts_stage
from memory_pipeline.defs.alerts import CHECK_ALERT_SENSOR, RUN_ALERT_SENSOR, WEBHOOK_ENV
from memory_pipeline.defs.nightly import JOB_NAME, build_definitions
from memory_pipeline.runner import QUIET_RUN_CONFIG, code_location_origin, execute_in_code_location
from memory_pipeline_tests.defs.test_data_team_view import freshness_evaluations
from memory_pipeline_tests.test_pipeline_end_to_end import pipeline  # noqa: F401 - fixture


class Receiver(ThreadingHTTPServer):
    """An incoming-webhook stand-in: records each POSTed JSON body, answers `ok` as Slack does."""

    def __init__(self):
        self.posts: list[dict] = []

        class Handler(BaseHTTPRequestHandler):
            def do_POST(handler):  # noqa: N805 - the handler's own self
                body = handler.rfile.read(int(handler.headers["Content-Length"]))
                self.posts.append({"content_type": handler.headers["Content-Type"], **json.loads(body)})
                handler.send_response(200)
                handler.end_headers()
                handler.wfile.write(b"ok")

            def log_message(handler, *args):  # noqa: N805
                pass

        super().__init__(("127.0.0.1", 0), Handler)


@pytest.fixture
def receiver(monkeypatch):
    server = Receiver()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    monkeypatch.setenv(WEBHOOK_ENV, f"http://127.0.0.1:{server.server_port}/services/T0/B0/x")
    yield server
    server.shutdown()
    server.server_close()


def tick(defs, name, instance, cursor):
    """One evaluation of sensor `name` as the daemon runs it for the code location; returns the new cursor."""
    origin = code_location_origin(JOB_NAME).repository_origin
    context = dg.SensorEvaluationContext(
        instance_ref=None, instance=instance, cursor=cursor, repository_def=defs.get_repository_def(),
        repository_name=origin.repository_name, code_location_origin=origin.code_location_origin, sensor_name=name)
    return defs.resolve_sensor_def(name).evaluate_tick(context).cursor


def test_a_failed_night_run_from_the_cli_is_posted_with_its_failed_check(pipeline, receiver, monkeypatch):
    defs = build_definitions(pipeline.settings)
    cursor = tick(defs, RUN_ALERT_SENSOR, pipeline.instance, None)  # the first tick only starts watching
    good = execute_in_code_location(pipeline.job, pipeline.instance, "2026-05-03", QUIET_RUN_CONFIG, {})
    assert good.success
    cursor = tick(defs, RUN_ALERT_SENSOR, pipeline.instance, cursor)
    assert receiver.posts == []

    original = extracted_facts_stage.validate_candidate

    def made_up_quote(extracted, conversation, position, fallback=None, sources=None, timezone="UTC"):
        candidate = original(extracted, conversation, position, fallback, sources, timezone)
        return candidate.__class__(**{**candidate.__dict__, "quote": "never said", "status": "accepted",
                                      "reason": None})

    monkeypatch.setattr(extracted_facts_stage, "validate_candidate", made_up_quote)
    bad = execute_in_code_location(pipeline.job, pipeline.instance, "2026-05-04", QUIET_RUN_CONFIG, {})
    assert not bad.success
    tick(defs, RUN_ALERT_SENSOR, pipeline.instance, cursor)
    assert len(receiver.posts) == 1
    post = receiver.posts[0]
    assert post["content_type"].startswith("application/json") and set(post) == {"content_type", "text"}
    assert f"*{JOB_NAME}* failed for 2026-05-04 (run `{bad.run_id[:8]}`)" in post["text"]
    assert "extracted_facts:quotes_found_verbatim" in post["text"]
    assert "never said" not in post["text"]


def test_a_missed_night_posts_its_failed_freshness_checks_once(make_settings, receiver):
    settings = make_settings(partitions_start=(date.today() - timedelta(days=5)).isoformat())
    defs = build_definitions(settings)
    instance = dg.DagsterInstance.ephemeral()
    cursor = tick(defs, CHECK_ALERT_SENSOR, instance, None)
    assert all(not e.passed for e in freshness_evaluations(settings, instance))  # nothing ran: all overdue
    cursor = tick(defs, CHECK_ALERT_SENSOR, instance, cursor)
    assert len(receiver.posts) == 1
    text = receiver.posts[0]["text"]
    for asset in ["closed_sessions", "session_summaries", "extracted_facts", "active_facts", "archived_sessions"]:
        assert f"- {asset}:freshness_check (its last partition was not materialized by the deadline)" in text
    tick(defs, CHECK_ALERT_SENSOR, instance, cursor)
    assert len(receiver.posts) == 1  # posted once


def test_without_a_webhook_url_the_sensors_post_nothing(make_settings, monkeypatch):
    monkeypatch.delenv(WEBHOOK_ENV, raising=False)
    settings = make_settings(partitions_start=(date.today() - timedelta(days=5)).isoformat())
    defs = build_definitions(settings)
    instance = dg.DagsterInstance.ephemeral()
    cursor = tick(defs, CHECK_ALERT_SENSOR, instance, None)
    freshness_evaluations(settings, instance)
    origin = code_location_origin(JOB_NAME).repository_origin
    context = dg.SensorEvaluationContext(
        instance_ref=None, instance=instance, cursor=cursor, repository_def=defs.get_repository_def(),
        repository_name=origin.repository_name, code_location_origin=origin.code_location_origin)
    result = defs.resolve_sensor_def(CHECK_ALERT_SENSOR).evaluate_tick(context)
    assert WEBHOOK_ENV in result.skip_message and "5 failed check(s) not posted" in result.skip_message


def test_the_alert_variables_are_the_projects_own_not_refused_as_typos():
    # `memory-pipeline ui` reads every MEMORY_PIPELINE_* variable at start: the alerts' two must pass that check.
    from memory_pipeline.defs.alerts import UI_URL_ENV, WEBHOOK_ENV
    from memory_pipeline.settings import Settings

    settings = Settings.from_env({WEBHOOK_ENV: "http://127.0.0.1:9/hook", UI_URL_ENV: "http://127.0.0.1:3000"})
    assert settings == Settings.from_env({})  # accepted, and no setting of the model changed by them
