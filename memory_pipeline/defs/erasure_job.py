"""The `erase_user` job (not partitioned): erase a user, or forget one of their facts, from the UI's launchpad.

Run config (launchpad): `ops: {erase: {config: {user_key: "...", fact_id: 123}}}`; without `fact_id` the whole
user is erased. Metadata carries counts only. Dagster keeps a run's config (here the user key) in its own run
storage, so `erasure_run_cleanup` deletes the run record of every ended erasure run (the `erasure_log` row is the
lasting record of the erasure): the key does not stay in Dagster's runs or event log either.
"""


from typing import Optional

import dagster as dg
from pydantic import Field

from memory_pipeline import erasure
from memory_pipeline.defs.assets import _connection
from memory_pipeline.defs.resources import MemoryPipelineResource

ERASE_JOB_NAME = "erase_user"


class EraseConfig(dg.Config):
    """What to erase: every trace of `user_key`, or only its fact `fact_id` (an `agent_facts.id`)."""

    user_key: str = Field(description="the user key (a session key, or what MEMORY_PIPELINE_USER_KEY_REGEX maps it to)")
    fact_id: Optional[int] = Field(default=None, description="forget only this fact (agent_facts.id) of the user")


@dg.op(description="Erase a user (or forget one fact) in one transaction; one erasure_log row; counts only.")
def erase(context: dg.OpExecutionContext, config: EraseConfig, memory: MemoryPipelineResource) -> dg.Output[int]:
    """`erasure.erase_user`, or `erasure.forget_fact` with `fact_id`; outputs the erasure_log id, with counts as
    metadata. Raises erasure.FactNotFound for a fact id that is not the user's."""
    store = memory.get_store()
    # The assets' connection: database errors reach the event log without DETAIL lines that could quote data.
    with _connection(memory) as conn:
        if config.fact_id is None:
            report = erasure.erase_user(store, conn, config.user_key)
        else:
            report = erasure.forget_fact(store, conn, config.user_key, config.fact_id)
    return dg.Output(report.erasure_id, metadata=report.metadata())


@dg.job(name=ERASE_JOB_NAME, description="Erasure on request: a user's every trace, or one fact (config).")
def erase_user_job():
    """One op: `erase`."""
    erase()


def _delete_run(context: dg.RunStatusSensorContext) -> None:
    context.instance.delete_run(context.dagster_run.run_id)


@dg.run_status_sensor(run_status=dg.DagsterRunStatus.SUCCESS, monitored_jobs=[erase_user_job],
                      default_status=dg.DefaultSensorStatus.RUNNING, name="erasure_run_cleanup",
                      description="Deletes the record of a finished erasure run: its config holds the user key.")
def erasure_run_cleanup(context: dg.RunStatusSensorContext):
    """Delete the ended run's record (its config holds the user key)."""
    _delete_run(context)


@dg.run_failure_sensor(monitored_jobs=[erase_user_job], default_status=dg.DefaultSensorStatus.RUNNING,
                       name="erasure_failed_run_cleanup",
                       description="Deletes the record of a failed erasure run (nothing was erased: one "
                       "transaction); launch it again.")
def erasure_failed_run_cleanup(context: dg.RunFailureSensorContext):
    """Delete the failed run's record (its config holds the user key)."""
    _delete_run(context)
