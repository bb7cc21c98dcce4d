"""Runs whose worker is gone, the `llm` pool's record, and who holds a pool slot: Dagster instance upkeep that
the CLI and the daemon (a sensor) run before new work waits on a slot.

A run worker killed inside a pooled step (SIGKILL, OOM, reboot) never reports: its run stays STARTED and keeps
its slot of the `llm` pool, so every later run waits on it. Dagster's run monitoring fails such a run only after
`max_runtime_seconds` and only where a daemon runs. Every Dagster event records the pid of the process that wrote
it, so the RUN_START event names the run worker; with the host recorded as a run tag (`HOST_TAG`), a run whose
worker process no longer exists on this host (or whose pid now belongs to a younger process) is dead: it is
reported failed and its slots are freed (`fail_dead_runs`).

Under the daemon a run's worker is a child of the gRPC code server, which fails the run itself within a second of
its worker dying (the run then retries: `run_retries` in dagster.yaml), but leaves the run's pool slots claimed:
Dagster frees the slots of an ended run only `free_slots_after_run_end_seconds` after its end, at run
monitoring's next poll (up to 3 minutes with the defaults), and every `llm` step of every shard waits meanwhile,
the retry's included. So the slots of an ended run whose worker is gone are freed too (`free_slots_of_ended_runs`).

A run the CLI created but never started (the database went away between creating the run and starting it, or the
process was killed there) stays NOT_STARTED for good: nothing launches it again. The CLI tags the runs it creates
with its pid (`CREATOR_PID_TAG`), so such a run is failed once its creator is gone, or by the creator itself
before its next run (it starts each run right after creating it: an older one of its own never started).
"""

from __future__ import annotations

import os
import socket
from collections.abc import Iterable
from dataclasses import dataclass

import dagster as dg
import psutil


HOST_TAG = "memory_pipeline/host"
CREATOR_PID_TAG = "memory_pipeline/creator_pid"  # the process that created the run (the CLI's runs only)
# Seconds of slack between a run's RUN_START time and its worker's process start time: a process younger than
# that is another process that reused the pid.
PID_REUSE_SLACK_SECONDS = 5.0
_IN_PROGRESS = [dg.DagsterRunStatus.STARTING, dg.DagsterRunStatus.STARTED, dg.DagsterRunStatus.CANCELING]
_ENDED = [dg.DagsterRunStatus.SUCCESS, dg.DagsterRunStatus.FAILURE, dg.DagsterRunStatus.CANCELED]


def this_host() -> str:
    """The host name recorded in `HOST_TAG` for runs started here."""
    return socket.gethostname()


@dataclass(frozen=True)
class DeadRun:
    """A run failed by `fail_dead_runs`: its id, the worker pid that was gone (the creator's for a run that never
    started), the pools it held; `already_ended`: it had ended (failed by the code server that started it) and only
    its slots were freed."""

    run_id: str
    pid: int
    pools: tuple[str, ...]
    never_started: bool = False
    already_ended: bool = False


def worker_pid(instance: dg.DagsterInstance, run_id: str) -> tuple[int, float] | None:
    """(pid, start timestamp in epoch seconds) of the process that started the run (its RUN_START event),
    or None when the run has not started or the event carries no pid."""
    records = instance.get_records_for_run(run_id, of_type=dg.DagsterEventType.RUN_START, limit=1).records
    if not records:
        return None
    entry = records[0].event_log_entry
    pid = entry.dagster_event.pid if entry.dagster_event else None
    return (pid, entry.timestamp) if pid else None


def process_is_gone(pid: int, started_at: float) -> bool:
    """True when no live process `pid` that could be the one started before `started_at` exists on this host."""
    try:
        process = psutil.Process(pid)
        if process.status() == psutil.STATUS_ZOMBIE:
            return True
        return process.create_time() > started_at + PID_REUSE_SLACK_SECONDS
    except psutil.NoSuchProcess:
        return True
    except psutil.Error:  # access denied and the like: it exists, so it may be alive
        return False


def pools_held(instance: dg.DagsterInstance, run_id: str, pools: Iterable[str]) -> tuple[str, ...]:
    """Pools among `pools` in which `run_id` holds a slot."""
    storage = instance.event_log_storage
    return tuple(p for p in pools if run_id in storage.get_concurrency_info(p).active_run_ids)


def fail_dead_runs(instance: dg.DagsterInstance, job_name: str, pools: Iterable[str] = ()) -> list[DeadRun]:
    """Fail the in-progress runs started on this host whose worker process is gone, and free their pool slots,
    and those of ended runs whose worker is gone (`free_slots_of_ended_runs`); then the runs of `job_name` that
    never started (`fail_never_started_runs`). A run started on this host is one tagged `HOST_TAG` with it, which
    the CLI and the assets' first steps set, whatever its job: `job_name`, or Dagster's asset job of a backfill
    or of *Materialize selected*. Runs of other hosts, or without a recorded worker, are left to Dagster's run
    monitoring. Returns what was failed or freed (run ids and pids only: nothing of the runs' data)."""
    pools = tuple(pools)
    dead = []
    host = this_host()
    for run in instance.get_runs(filters=dg.RunsFilter(statuses=_IN_PROGRESS, tags={HOST_TAG: host})):
        worker = worker_pid(instance, run.run_id)
        if worker is None or not process_is_gone(*worker):
            continue
        run = instance.get_run_by_id(run.run_id)  # read again: under the daemon the code server fails it at once,
        if run is None or run.is_finished:        # and one failure is enough (its slots are freed just below)
            continue
        held = pools_held(instance, run.run_id, pools)
        instance.report_run_failed(
            run, message=f"Run worker (pid {worker[0]} on {host}) is gone: marked failed by memory_pipeline and "
            "its pool slots freed so later runs do not wait on it."
        )
        instance.event_log_storage.free_concurrency_slots_for_run(run.run_id)
        dead.append(DeadRun(run.run_id, worker[0], held))
    return dead + free_slots_of_ended_runs(instance, pools) + fail_never_started_runs(instance, job_name)


def free_slots_of_ended_runs(instance: dg.DagsterInstance, pools: Iterable[str] = ()) -> list[DeadRun]:
    """Free the pool slots still claimed by ended runs started on this host (`HOST_TAG`) whose worker process is
    gone (module docstring: a worker killed under the daemon). An ended run whose worker still lives (it may be
    finishing a step) is left to Dagster's `free_slots_after_run_end_seconds`. Returns the runs freed, with the
    pools among `pools` they held (ids and pids only)."""
    storage = instance.event_log_storage
    holding = storage.get_concurrency_run_ids()
    if not holding:
        return []
    freed = []
    host = this_host()
    for run in instance.get_runs(filters=dg.RunsFilter(run_ids=sorted(holding), statuses=_ENDED,
                                                       tags={HOST_TAG: host})):
        worker = worker_pid(instance, run.run_id)
        if worker is None or not process_is_gone(*worker):
            continue
        held = pools_held(instance, run.run_id, pools)
        storage.free_concurrency_slots_for_run(run.run_id)
        instance.report_engine_event(
            f"Run worker (pid {worker[0]} on {host}) is gone: the pool slots this {run.status.value} run still held "
            "were freed by memory_pipeline so later runs do not wait on them.", run)
        freed.append(DeadRun(run.run_id, worker[0], held, already_ended=True))
    return freed


def fail_never_started_runs(instance: dg.DagsterInstance, job_name: str) -> list[DeadRun]:
    """Fail the NOT_STARTED runs of `job_name` created on this host by a CLI process (`CREATOR_PID_TAG`) that is
    gone or is this one (module docstring). Runs without the tag (queued by the UI or the schedule, which the
    daemon launches) are left alone. Returns them (ids and pids only)."""
    never_started = []
    host, me = this_host(), os.getpid()
    records = instance.get_run_records(filters=dg.RunsFilter(
        job_name=job_name, statuses=[dg.DagsterRunStatus.NOT_STARTED], tags={HOST_TAG: host}))
    for record in records:
        run, creator = record.dagster_run, record.dagster_run.tags.get(CREATOR_PID_TAG, "")
        if not creator.isdigit():
            continue
        pid = int(creator)
        if pid != me and not process_is_gone(pid, record.create_timestamp.timestamp()):
            continue
        instance.report_run_failed(run, message=f"Run created by pid {pid} on {host} but never started (the "
                                   "database was lost, or the process stopped, before it began): marked failed by "
                                   "memory_pipeline; materialize the day again.")
        never_started.append(DeadRun(run.run_id, pid, (), never_started=True))
    return never_started


def pool_holders(instance: dg.DagsterInstance, pool: str) -> list[tuple[str, str]]:
    """(run id, step key) of every slot of `pool` claimed now."""
    info = instance.event_log_storage.get_concurrency_info(pool)
    return [(slot.run_id, slot.step_key) for slot in info.claimed_slots]


def pool_is_full(instance: dg.DagsterInstance, pool: str) -> bool:
    """True when every slot of `pool` is claimed (a new step of the pool would wait)."""
    info = instance.event_log_storage.get_concurrency_info(pool)
    return info.limit is not None and len(info.claimed_slots) >= info.limit


def ensure_pool_limits(instance: dg.DagsterInstance, pools: Iterable[str]) -> None:
    """Create each pool's limit record from dagster.yaml's `concurrency: pools: default_limit` if it is missing
    or still holds an older default. Dagster creates it on the first step that claims the pool, and two first runs
    race on that insert (UniqueViolation on concurrency_limits_concurrency_key_key); call this once before any
    run, serialised across processes by the caller (`runner.prepare` holds an advisory lock)."""
    default = instance.global_op_concurrency_default_limit
    if default is None:
        return
    storage = instance.event_log_storage
    limits = {limit.name: limit for limit in storage.get_pool_limits()}
    for pool in pools:
        current = limits.get(pool)
        if current is not None and (current.limit == default or not current.from_default):
            continue  # set already (or set on purpose in the UI: an operator's choice is kept)
        if current is not None:
            if storage.get_concurrency_info(pool).claimed_slots:
                continue  # a run holds a slot now: Dagster re-applies the new default on a later claim
            storage.delete_concurrency_limit(pool)  # an older default: initialising again would hit the row
        storage.initialize_concurrency_limit_to_default(pool)
