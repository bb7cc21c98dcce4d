"""The five daily-partitioned assets and their checks: each one opens a connection, calls its stage in
`memory_pipeline.stages` for every partition of the run, and publishes the stage's counts and the partition's state as
metadata (`metadata.py`). No logic lives here.

Backfills: every asset has `BackfillPolicy.single_run()`, so a backfill of a range of days is one run that
calls each stage once per day (`context.partition_keys`), instead of one run (and one process) per day. Each
day still gets its own materialization with its own metadata (`add_asset_metadata(partition_key=...)`), and
each check its own evaluation per day."""


from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import date

import dagster as dg
import psycopg
# Private, for want of a public way (Dagster 1.13.27): a ranged run's checks yield one AssetCheckEvaluation per
# partition (AssetCheckResult takes no partition), and `dg.AssetCheckEvaluation` takes the link of each to its
# partition's materialization (`_target_materialization`) as this class, which `dagster` does not export
# (memory_pipeline_tests/test_public_dagster_api.py lists it). A Dagster upgrade that moves it fails this import at
# load, loudly; dropping the link (None) would only lose the UI's "Target materialization" for ranges.
from dagster._core.definitions.asset_checks.asset_check_evaluation import AssetCheckEvaluationTargetMaterializationData

from memory_pipeline.defs.catalog import catalog_metadata
from memory_pipeline.defs.metadata import published_metadata
from memory_pipeline.defs.resources import MemoryPipelineResource
from memory_pipeline.defs.run_health import HOST_TAG, this_host
from memory_pipeline.defs.shards import with_failed_shard_checks
from memory_pipeline.domain.shards import SHARD_TAG, Shard
from memory_pipeline.settings import Settings
from memory_pipeline.store import Store
from memory_pipeline.stages import checks as stage_checks
from memory_pipeline.stages.active_facts import active_facts as run_active_facts
from memory_pipeline.stages.archived_sessions import archived_sessions as run_archived_sessions
from memory_pipeline.stages.closed_sessions import closed_sessions as run_closed_sessions
from memory_pipeline.stages.common import CheckOutcome, StageResult
from memory_pipeline.stages.extracted_facts import extracted_facts as run_extracted_facts
from memory_pipeline.stages.partition_state import partition_state
from memory_pipeline.stages.session_summaries import session_summaries as run_session_summaries

GROUP = "memory_consolidation"
LLM_POOL = "llm"
# Transient database errors (a restart, a dropped connection) are retried; every stage is idempotent. Other
# errors (a missing table, a bad setting) fail at once with their message.
DB_RETRIES, DB_RETRY_SECONDS = 2, 5


class StageDatabaseError(RuntimeError):
    """A database error inside a stage, stripped of PostgreSQL's DETAIL/CONTEXT lines, which can quote row data
    (message text) and would otherwise be stored for good in Dagster's event log."""


@contextmanager
def _connection(memory: MemoryPipelineResource) -> Iterator[psycopg.Connection]:
    try:
        with memory.connection() as conn:
            yield conn
    except psycopg.OperationalError as exc:
        raise dg.RetryRequested(max_retries=DB_RETRIES, seconds_to_wait=DB_RETRY_SECONDS) from exc
    except psycopg.Error as exc:
        diag = exc.diag
        raise StageDatabaseError(
            f"{type(exc).__name__} (SQLSTATE {exc.sqlstate}) in {diag.table_name or 'a statement'}: "
            f"{(diag.message_primary or '').split(':')[0]}; details withheld (they may quote chat text)"
        ) from None


def _tag_worker_host(context: dg.AssetExecutionContext) -> None:
    # The host of the run's worker, so a run whose worker is gone can be told apart from one running elsewhere
    # (run_health.fail_dead_runs); runs started by the CLI carry it from the start.
    if HOST_TAG not in context.run.tags:
        context.instance.add_run_tags(context.run_id, {HOST_TAG: this_host()})



def run_shard(context: dg.AssetExecutionContext | dg.AssetCheckExecutionContext) -> Shard:
    """The run's shard of the night, from its `memory_pipeline/shard` tag (INDEX/COUNT; none: the whole night).
    Raises ValueError (the step fails with it) on a malformed tag."""
    return Shard.parse(context.run.tags.get(SHARD_TAG))


Stage = Callable[[Store, psycopg.Connection, date], StageResult]
Check = Callable[[Store, psycopg.Connection, date], CheckOutcome]


def _materialize(context: dg.AssetExecutionContext, memory: MemoryPipelineResource, stage: Stage) -> dg.MaterializeResult:
    """Run `stage` for each partition of the run (one, or a backfill's range), oldest first, and give each
    partition's materialization its own figures."""
    asset = context.asset_key.to_user_string()
    store = memory.get_store(run_shard(context))
    with _connection(memory) as conn:
        for key in sorted(context.partition_keys):
            day = date.fromisoformat(key)
            outcome = stage(store, conn, day)
            state = partition_state(store, conn, day, asset)  # the whole day, whichever shard wrote it
            figures = {**outcome.metadata, "shard": str(store.shard)}
            context.add_asset_metadata(published_metadata(asset, figures, state), partition_key=key)
    return dg.MaterializeResult()  # always one, also for an empty range: a backfill waits for it


def _evaluate(context: dg.AssetCheckExecutionContext, memory: MemoryPipelineResource, check_key: dg.AssetCheckKey,
              evaluate: Check, blocking: bool, severity: dg.AssetCheckSeverity):
    """Evaluate a partitioned check for each partition of the run. One partition: an AssetCheckResult, as
    usual. A range (single-run backfill): Dagster would record one evaluation without a partition, so one
    AssetCheckEvaluation per partition is yielded instead, linked to that partition's materialization; a failed
    blocking one still stops the assets after."""
    store = memory.get_store(run_shard(context))
    keys = sorted(context.partition_keys)
    with _connection(memory) as conn:
        outcomes = {key: evaluate(store, conn, date.fromisoformat(key)) for key in keys}
    if len(keys) == 1:
        outcome = outcomes[keys[0]]
        yield dg.AssetCheckResult(passed=outcome.passed, metadata=outcome.metadata, severity=severity)
        return
    for key, outcome in outcomes.items():
        yield dg.AssetCheckEvaluation(asset_key=check_key.asset_key, check_name=check_key.name,
                                      passed=outcome.passed, metadata=outcome.metadata, partition=key,
                                      blocking=blocking, severity=severity,
                                      target_materialization_data=_target_materialization(context, check_key, key))
    yield dg.Output(None)


def _target_materialization(context: dg.AssetCheckExecutionContext, check_key: dg.AssetCheckKey,
                            partition: str) -> AssetCheckEvaluationTargetMaterializationData | None:
    """The partition's latest materialization, which the UI links as the evaluation's "Target materialization":
    what Dagster looks up itself for an AssetCheckResult of a one-partition run (AssetCheckResult.
    _get_partitioned_target_materialization_data), done here for each partition of a range."""
    records = context.instance.fetch_materializations(
        dg.AssetRecordsFilter(asset_key=check_key.asset_key, asset_partitions=[partition]), limit=1).records
    if not records:
        return None
    record = records[0]
    return AssetCheckEvaluationTargetMaterializationData(
        storage_id=record.storage_id, run_id=record.event_log_entry.run_id, timestamp=record.timestamp)


def build_assets(
    partitions_def: dg.PartitionsDefinition, settings: Settings | None = None,
) -> tuple[list[dg.AssetsDefinition], list[dg.AssetChecksDefinition]]:
    """(assets, checks) on one shared daily partitions definition; owners and table names from `settings`
    (default: from the environment)."""

    settings = settings or Settings.from_env()

    def common(name: str) -> dict:
        return dict(partitions_def=partitions_def, group_name=GROUP, kinds={"postgres"}, owners=settings.owners,
                    backfill_policy=dg.BackfillPolicy.single_run(),
                    metadata=catalog_metadata(name, settings.schema_name))

    @dg.asset(**common("closed_sessions"),
              description="Closed conversations of the day, split from n8n's chat memory by idle gap.")
    def closed_sessions(context: dg.AssetExecutionContext, memory: MemoryPipelineResource) -> dg.MaterializeResult:
        _tag_worker_host(context)
        return _materialize(context, memory, run_closed_sessions)

    @dg.asset(**common("session_summaries"), deps=[closed_sessions], pool=LLM_POOL,
              description="One short decision-oriented summary per conversation, cached by transcript hash.")
    def session_summaries(context: dg.AssetExecutionContext, memory: MemoryPipelineResource) -> dg.MaterializeResult:
        _tag_worker_host(context)
        extractor = memory.get_extractor()
        return _materialize(context, memory, lambda store, conn, day: run_session_summaries(
            store, conn, day, extractor))

    @dg.asset(**common("extracted_facts"), deps=[session_summaries], pool=LLM_POOL,
              description="Typed fact candidates with their quote; rejected ones keep their reason.")
    def extracted_facts(context: dg.AssetExecutionContext, memory: MemoryPipelineResource) -> dg.MaterializeResult:
        extractor = memory.get_extractor()
        return _materialize(context, memory, lambda store, conn, day: run_extracted_facts(
            store, conn, day, extractor))

    @dg.asset(**common("active_facts"), deps=[extracted_facts], pool=LLM_POOL,
              description="agent_facts reconciled: duplicates merged, contradictions superseded, TTL set.")
    def active_facts(context: dg.AssetExecutionContext, memory: MemoryPipelineResource) -> dg.MaterializeResult:
        embedder, extractor = memory.get_embedder(), memory.get_extractor()
        return _materialize(context, memory, lambda store, conn, day: run_active_facts(
            store, conn, day, embedder, extractor))

    @dg.asset(**common("archived_sessions"), deps=[active_facts],
              description="Raw rows of consolidated conversations archived, then purged from n8n's table.")
    def archived_sessions(context: dg.AssetExecutionContext, memory: MemoryPipelineResource) -> dg.MaterializeResult:
        def archive_and_finish(store: Store, conn: psycopg.Connection, day: date) -> StageResult:
            outcome = run_archived_sessions(store, conn, day)
            store.record_shard_finished(conn, day, context.run_id)  # the shard's last asset: its part of the night
            return outcome

        return _materialize(context, memory, archive_and_finish)

    def partitioned_check(asset: dg.AssetsDefinition, name: str, description: str, evaluate: Check,
                          blocking: bool = True, severity: dg.AssetCheckSeverity = dg.AssetCheckSeverity.ERROR,
                          finish: Callable[[dg.AssetCheckExecutionContext, CheckOutcome, str], CheckOutcome]
                          | None = None) -> dg.AssetChecksDefinition:
        key = dg.AssetCheckKey(asset.key, name)

        @dg.asset_check(asset=asset, name=name, blocking=blocking, partitions_def=partitions_def,
                        description=description)
        def _check(context: dg.AssetCheckExecutionContext, memory: MemoryPipelineResource):
            # `finish` completes an outcome with what only the Dagster instance knows (other runs' evaluations).
            run = evaluate if finish is None else (
                lambda store, conn, day: finish(context, evaluate(store, conn, day), day.isoformat()))
            yield from _evaluate(context, memory, key, run, blocking, severity)

        return _check

    checks = [
        partitioned_check(closed_sessions, "no_open_conversation_consolidated",
                          "No conversation was stored while its last message was within the idle gap.",
                          stage_checks.check_no_open_conversation),
        # Not blocking: one failing LLM call must not stop the other conversations' consolidation that night;
        # `every_conversation_consolidated`, blocking on the last asset, fails the run after it.
        partitioned_check(session_summaries, "every_conversation_summarised",
                          "Every closed conversation of the day has a summary (no LLM call failed).",
                          stage_checks.check_every_conversation_summarised, blocking=False),
        # Not blocking (the conversation keeps its facts) but red, ERROR severity: a summary naming what its chat
        # does not hold is a wrong memory the data team must see.
        partitioned_check(session_summaries, "summaries_grounded",
                          "No summary of the day names a date, number or name its conversation does not hold "
                          "(a rejected summary is stored with its reason, without its text).",
                          stage_checks.check_summaries_grounded, blocking=False),
        partitioned_check(extracted_facts, "every_conversation_extracted",
                          "No extraction call of the day's conversations failed.",
                          stage_checks.check_every_conversation_extracted, blocking=False),
        partitioned_check(extracted_facts, "quotes_found_verbatim",
                          "Every accepted fact quotes, verbatim, a sentence the user said in its conversation.",
                          stage_checks.check_quotes_verbatim),
        partitioned_check(active_facts, "no_duplicate_active_facts",
                          "No duplicate active fact (user, category, md5(fact)) and no contradicting pair.",
                          lambda store, conn, day: stage_checks.check_no_duplicate_active_facts(store, conn)),
        partitioned_check(archived_sessions, "every_conversation_consolidated",
                          "No conversation of the day was left unconsolidated by a failed LLM call (the night is "
                          "red; the conversation is tried again by the next run).",
                          stage_checks.check_every_conversation_consolidated),
        # Not blocking: rows of other days say nothing against this day's consolidation; red until re-run.
        partitioned_check(archived_sessions, "no_row_left_behind",
                          "No row of n8n's table is left that no night will consolidate (it arrived after its "
                          "day's run and catch-up): the metadata's days_to_rerun are the days to materialize again.",
                          stage_checks.check_no_row_left_behind, blocking=False),
        partitioned_check(archived_sessions, "no_message_lost",
                          "Every message of a consolidated conversation is in n8n's table or the archive.",
                          stage_checks.check_no_message_lost),
        # WARN, not blocking: a night in N shards is N runs; each shard's run but the last finds the others still
        # to run (yellow), and the last one's evaluation is green.
        partitioned_check(archived_sessions, "every_shard_consolidated",
                          "Every shard of the day's users finished (MEMORY_PIPELINE_SHARDS runs per night), or a "
                          "complete set of shards under another count did, and none of their runs failed a check "
                          "of the day.",
                          stage_checks.check_every_shard_consolidated, blocking=False,
                          severity=dg.AssetCheckSeverity.WARN, finish=with_failed_shard_checks),
    ]
    return [closed_sessions, session_summaries, extracted_facts, active_facts, archived_sessions], checks
