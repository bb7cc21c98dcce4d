"""The five daily-partitioned assets and their checks: each one opens a connection, calls its stage in
`stages.py`, and returns the stage's counts as metadata. No logic lives here."""


from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date

import dagster as dg
import psycopg

from memory_pipeline import stages
from memory_pipeline.resources import MemoryPipelineResource
from memory_pipeline.run_health import HOST_TAG, this_host

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


def _day(context: dg.AssetExecutionContext | dg.AssetCheckExecutionContext) -> date:
    return date.fromisoformat(context.partition_key)


def _result(outcome: stages.StageResult) -> dg.MaterializeResult:
    return dg.MaterializeResult(metadata=outcome.metadata)


def _check(outcome: stages.CheckOutcome) -> dg.AssetCheckResult:
    return dg.AssetCheckResult(passed=outcome.passed, metadata=outcome.metadata)


def build_assets(
    partitions_def: dg.PartitionsDefinition,
) -> tuple[list[dg.AssetsDefinition], list[dg.AssetChecksDefinition]]:
    """(assets, checks) on one shared daily partitions definition."""

    common = dict(partitions_def=partitions_def, group_name=GROUP, kinds={"postgres"})

    @dg.asset(**common, description="Closed conversations of the day, split from n8n's chat memory by idle gap.")
    def closed_sessions(context: dg.AssetExecutionContext, memory: MemoryPipelineResource) -> dg.MaterializeResult:
        _tag_worker_host(context)
        with _connection(memory) as conn:
            return _result(stages.closed_sessions(memory.get_store(), conn, _day(context)))

    @dg.asset(**common, deps=[closed_sessions], pool=LLM_POOL,
              description="One short decision-oriented summary per conversation, cached by transcript hash.")
    def session_summaries(context: dg.AssetExecutionContext, memory: MemoryPipelineResource) -> dg.MaterializeResult:
        _tag_worker_host(context)
        with _connection(memory) as conn:
            return _result(stages.session_summaries(memory.get_store(), conn, _day(context), memory.get_extractor()))

    @dg.asset(**common, deps=[session_summaries], pool=LLM_POOL,
              description="Typed fact candidates with their quote; rejected ones keep their reason.")
    def extracted_facts(context: dg.AssetExecutionContext, memory: MemoryPipelineResource) -> dg.MaterializeResult:
        with _connection(memory) as conn:
            return _result(stages.extracted_facts(memory.get_store(), conn, _day(context), memory.get_extractor()))

    @dg.asset(**common, deps=[extracted_facts],
              description="agent_facts reconciled: duplicates merged, contradictions superseded, TTL set.")
    def active_facts(context: dg.AssetExecutionContext, memory: MemoryPipelineResource) -> dg.MaterializeResult:
        with _connection(memory) as conn:
            return _result(stages.active_facts(memory.get_store(), conn, _day(context), memory.get_embedder()))

    @dg.asset(**common, deps=[active_facts],
              description="Raw rows of consolidated conversations archived, then purged from n8n's table.")
    def archived_sessions(context: dg.AssetExecutionContext, memory: MemoryPipelineResource) -> dg.MaterializeResult:
        with _connection(memory) as conn:
            return _result(stages.archived_sessions(memory.get_store(), conn, _day(context)))

    check_args = dict(blocking=True, partitions_def=partitions_def)

    @dg.asset_check(asset=closed_sessions, **check_args,
                    description="No conversation was stored while its last message was within the idle gap.")
    def no_open_conversation_consolidated(context: dg.AssetCheckExecutionContext, memory: MemoryPipelineResource):
        with _connection(memory) as conn:
            return _check(stages.check_no_open_conversation(memory.get_store(), conn, _day(context)))

    @dg.asset_check(asset=extracted_facts, **check_args,
                    description="Every accepted fact quotes, verbatim, a sentence the user said in its conversation.")
    def quotes_found_verbatim(context: dg.AssetCheckExecutionContext, memory: MemoryPipelineResource):
        with _connection(memory) as conn:
            return _check(stages.check_quotes_verbatim(memory.get_store(), conn, _day(context)))

    @dg.asset_check(asset=active_facts, **check_args,
                    description="No duplicate active fact (user, category, md5(fact)) and no contradicting pair.")
    def no_duplicate_active_facts(context: dg.AssetCheckExecutionContext, memory: MemoryPipelineResource):
        with _connection(memory) as conn:
            return _check(stages.check_no_duplicate_active_facts(memory.get_store(), conn))

    @dg.asset_check(asset=archived_sessions, **check_args,
                    description="Every message of a consolidated conversation is in n8n's table or the archive.")
    def no_message_lost(context: dg.AssetCheckExecutionContext, memory: MemoryPipelineResource):
        with _connection(memory) as conn:
            return _check(stages.check_no_message_lost(memory.get_store(), conn, _day(context)))

    return (
        [closed_sessions, session_summaries, extracted_facts, active_facts, archived_sessions],
        [no_open_conversation_consolidated, quotes_found_verbatim, no_duplicate_active_facts, no_message_lost],
    )
