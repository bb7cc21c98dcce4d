"""`MEMORY_PIPELINE_EXTRACTOR=openai OPENAI_BASE_URL=<test server> memory-pipeline demo`, as docs/llm.md shows it:
the bundled test server started with `python -m memory_pipeline.testing.openai_server`, the demo run against it."""

import signal
import subprocess
import sys
from pathlib import Path

from memory_pipeline_tests.commands.test_demo import embedded_env, run_cli  # noqa: F401 - the fixture
from memory_pipeline.services import free_port

REPO = Path(__file__).resolve().parents[2]



def test_demo_through_the_llm_backend(embedded_env):  # noqa: F811 - pytest fixture imported above
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "memory_pipeline.testing.openai_server", "--port", str(port)],
                              cwd=REPO, stdout=subprocess.PIPE, text=True)
    try:
        assert "test server on" in server.stdout.readline()
        env = {**embedded_env, "MEMORY_PIPELINE_EXTRACTOR": "openai",
               "OPENAI_BASE_URL": f"http://127.0.0.1:{port}/v1"}
        env.pop("OPENAI_API_KEY", None)
        done = run_cli(env, "demo")
    finally:
        server.terminate()
        server.wait(timeout=30)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "10/10 partitions materialized; 149 conversations consolidated; 15/15 users with facts; " \
           "0 quotes not found verbatim; " \
           "0 sample rows left in n8n's table, 1132 in the archive." in done.stdout
    assert "NOT FOUND" not in done.stdout


def test_the_test_server_stops_on_sigterm_even_when_started_with_it_ignored():
    # As a pytest worker that ran Dagster in-process with SIGINT ignored (a backgrounded shell job) starts it.
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "memory_pipeline.testing.openai_server", "--port", str(port)],
                              cwd=REPO, stdout=subprocess.PIPE, text=True,
                              preexec_fn=lambda: signal.signal(signal.SIGTERM, signal.SIG_IGN))
    try:
        assert "test server on" in server.stdout.readline()
        server.terminate()
        assert server.wait(timeout=30) == -signal.SIGTERM
    finally:
        if server.poll() is None:
            server.kill()
