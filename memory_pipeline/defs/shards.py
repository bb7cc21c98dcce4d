"""The Dagster side of `every_shard_consolidated`: a night in N shards is N runs, and the UI shows, per partition,
each check's latest evaluation only, so a check that failed in one shard's run would look green once another
shard's run passed it. The check therefore also fails while a run of the shards that cover the day (other than
the run evaluating it, whose own checks show on its page) recorded a failed ERROR evaluation for the day: a day is
green only when all its shards are."""

from __future__ import annotations

from dataclasses import replace

import dagster as dg

from memory_pipeline.stages.common import CheckOutcome


def failed_checks_of_runs(instance: dg.DagsterInstance, run_ids: dict[str, str], partition: str,
                          this_run: str) -> dict[str, list[str]]:
    """{shard index: names of its run's failed ERROR check evaluations of `partition`} for the runs `run_ids`
    ({shard index: run id}) but `this_run`; shards whose run failed none are left out. WARN evaluations (this
    check itself, yellow in every shard but the last) and evaluations without a partition (the freshness checks,
    about yesterday's partition, not this one) do not count."""
    failed: dict[str, list[str]] = {}
    for index, run_id in run_ids.items():
        if run_id == this_run:
            continue
        names = sorted({
            data.check_name for entry in instance.all_logs(run_id, of_type=dg.DagsterEventType.ASSET_CHECK_EVALUATION)
            if (data := entry.dagster_event.event_specific_data) is not None and not data.passed
            and data.severity == dg.AssetCheckSeverity.ERROR and data.partition == partition})
        if names:
            failed[index] = names
    return failed


def with_failed_shard_checks(context: dg.AssetCheckExecutionContext, outcome: CheckOutcome,
                             partition: str) -> CheckOutcome:
    """`outcome` of `stages.checks.check_every_shard_consolidated` for `partition`, failed as well when a covering
    shard's run failed a check of the day (`shards_failed_checks`: {index: check names}); `shard_runs` is left
    out of the metadata."""
    metadata = dict(outcome.metadata)
    runs = metadata.pop("shard_runs", {})
    failed = failed_checks_of_runs(context.instance, runs, partition, context.run.run_id)
    metadata["shards_failed_checks"] = failed
    return replace(outcome, passed=outcome.passed and not failed, metadata=metadata)
