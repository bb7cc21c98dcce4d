"""Alerts of a failed night, posted to a Slack-compatible incoming webhook: a failed run (a failed blocking check
fails its run, and the message names the check) and a failed check that does not stop a run (the freshness
checks: a night that did not run; `every_conversation_summarised`).

The URL is read from MEMORY_PIPELINE_ALERT_WEBHOOK_URL when a sensor ticks (never a setting shown in the UI: a
Slack webhook URL is a secret); unset, the sensors skip. `MEMORY_PIPELINE_UI_URL` (e.g. http://dagster:3000), when
set, adds a link to the run. The body is Slack's incoming-webhook JSON, `{"text": ...}` in mrkdwn, which
Mattermost, Rocket.Chat and Discord's `/slack` endpoint take as well. dagster-slack's failure sensor posts with a
bot token to a channel (chat.postMessage), not to a webhook URL: the webhook is posted with slack_sdk's
WebhookClient, the library dagster-slack is built on.

Privacy: names of jobs, steps, checks and assets, partition keys, run ids and error class names only; never an
error message, which may quote chat text or a model's answer.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

import dagster as dg
from slack_sdk.webhook import WebhookClient

WEBHOOK_ENV = "MEMORY_PIPELINE_ALERT_WEBHOOK_URL"
UI_URL_ENV = "MEMORY_PIPELINE_UI_URL"
RUN_ALERT_SENSOR = "alert_on_failed_run"
CHECK_ALERT_SENSOR = "alert_on_failed_check"
HISTORY_PER_CHECK = 50  # evaluations read per check and tick: more than a tick (30 s) ever adds
WEBHOOK_TIMEOUT_SECONDS = 10


class AlertNotDelivered(RuntimeError):
    """The webhook answered with an error status; the sensor tick fails (red in the UI) and is retried."""


def post(text: str) -> bool:
    """Post `text` to the webhook of WEBHOOK_ENV. False when no URL is set; raises AlertNotDelivered on an
    error status, urllib's URLError when the server cannot be reached."""
    url = (os.environ.get(WEBHOOK_ENV) or "").strip()
    if not url:
        return False
    response = WebhookClient(url, timeout=WEBHOOK_TIMEOUT_SECONDS).send(text=text)
    if response.status_code >= 300:
        raise AlertNotDelivered(f"webhook answered HTTP {response.status_code}")
    return True


def _run_link(run_id: str) -> str:
    base = (os.environ.get(UI_URL_ENV) or "").strip().rstrip("/")
    return f" <{base}/runs/{run_id}|open the run>" if base else ""


def failed_run_text(context: dg.RunFailureSensorContext) -> str:
    """One message for a failed run: job, partition (or range), run id, failed steps with their error class,
    checks that failed in it."""
    run = context.dagster_run
    tags = run.tags
    partition = tags.get("dagster/partition") or (
        f"{tags['dagster/asset_partition_range_start']}..{tags['dagster/asset_partition_range_end']}"
        if "dagster/asset_partition_range_start" in tags else "no partition")
    steps = [f"{event.step_key} ({event.step_failure_data.error.cls_name if event.step_failure_data.error else 'failed'})"
             for event in context.get_step_failure_events()]
    checks = []
    for record in context.instance.get_records_for_run(
            run.run_id, of_type=dg.DagsterEventType.ASSET_CHECK_EVALUATION).records:
        evaluation = record.event_log_entry.dagster_event.event_specific_data
        if not evaluation.passed:
            where = f" [{evaluation.partition}]" if evaluation.partition else ""
            checks.append(f"{evaluation.asset_key.to_user_string()}:{evaluation.check_name}{where}")
    lines = [f":red_circle: *{run.job_name}* failed for {partition} (run `{run.run_id[:8]}`).{_run_link(run.run_id)}"]
    if steps:
        lines.append("Failed steps: " + ", ".join(steps))
    if checks:
        lines.append("Failed checks: " + ", ".join(checks))
    return "\n".join(lines)


def run_failure_alert(name: str = RUN_ALERT_SENSOR) -> dg.SensorDefinition:
    """Posts every failed run of the code location (the nightly job, a backfill of the UI's asset job, an
    erasure). Running by default; needs the daemon."""

    @dg.run_failure_sensor(name=name, default_status=dg.DefaultSensorStatus.RUNNING,
                           description=f"Posts a failed run to the webhook in {WEBHOOK_ENV} (Slack-compatible).")
    def _alert(context: dg.RunFailureSensorContext):
        if not post(failed_run_text(context)):
            return dg.SkipReason(f"{WEBHOOK_ENV} is not set: no alert posted")
        return None

    return _alert


def failed_check_text(records: Sequence) -> str:
    """One message for failed check evaluations (AssetCheckExecutionRecord), grouped by check."""
    lines = [":red_circle: *Failed checks* of the nightly consolidation:"]
    for record in records:
        evaluation = record.event.dagster_event.event_specific_data
        where = f" for {record.partition}" if record.partition else ""
        overdue = ""
        deadline = evaluation.metadata.get("dagster/latest_cron_tick_timestamp")
        if deadline is not None:
            overdue = " (its last partition was not materialized by the deadline)"
        lines.append(f"- {record.key.asset_key.to_user_string()}:{record.key.name}{where}{overdue}"
                     f"{_run_link(record.run_id)}")
    return "\n".join(lines)


def check_failure_alert(checks: Sequence[dg.AssetChecksDefinition],
                        name: str = CHECK_ALERT_SENSOR) -> dg.SensorDefinition:
    """Posts failed ERROR evaluations of the non-blocking checks among `checks` (a failed blocking check fails
    its run, which `run_failure_alert` posts). The cursor is the last evaluation id seen; the first tick only
    sets it, so starting the UI does not post old failures. Running by default; needs the daemon."""
    keys = [key for checks_def in checks for key in checks_def.check_keys
            if not checks_def.get_spec_for_check_key(key).blocking]

    @dg.sensor(name=name, minimum_interval_seconds=30, default_status=dg.DefaultSensorStatus.RUNNING,
               description=f"Posts failed freshness and other non-blocking checks to the webhook in {WEBHOOK_ENV}.")
    def _alert(context: dg.SensorEvaluationContext):
        storage = context.instance.event_log_storage
        records = [r for key in keys for r in storage.get_asset_check_execution_history(key, limit=HISTORY_PER_CHECK)]
        done = [r for r in records if r.event is not None and r.event.dagster_event.event_specific_data is not None
                and r.status.value in ("SUCCEEDED", "FAILED")]
        newest = max((r.id for r in done), default=0)
        if context.cursor is None:
            context.update_cursor(str(newest))
            return dg.SkipReason(f"watching evaluations after id {newest}")
        seen = int(context.cursor)
        failed = sorted((r for r in done if r.id > seen and r.status.value == "FAILED"
                         and r.event.dagster_event.event_specific_data.severity == dg.AssetCheckSeverity.ERROR),
                        key=lambda r: r.id)
        posted = bool(failed) and post(failed_check_text(failed))  # raises when the webhook refuses: retried
        context.update_cursor(str(max(seen, newest)))
        if failed and not posted:
            return dg.SkipReason(f"{WEBHOOK_ENV} is not set: {len(failed)} failed check(s) not posted")
        return dg.SkipReason(f"{len(failed)} failed check(s) posted" if failed else "no new failed check")

    return _alert
