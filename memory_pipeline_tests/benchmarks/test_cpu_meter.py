"""`CpuMeter` counts the CPU seconds of the processes this one starts and of the PostgreSQL server's backends,
besides its own (what the scale benchmark prints per stage)."""

import subprocess
import sys

import psycopg

from memory_pipeline.benchmarks.cpu import CpuMeter

BURN = "import time\nt = time.process_time()\nwhile time.process_time() - t < 0.3: pass\n"


def test_meter_counts_a_child_process_and_the_server_backend(pg_url):
    with psycopg.connect(pg_url, autocommit=True) as conn:
        meter = CpuMeter(conn)
        client_before, server_before = meter.read()
        subprocess.run([sys.executable, "-c", BURN], check=True)  # exits and is reaped: counted all the same
        conn.execute("SELECT count(*) FROM generate_series(1, 3000000)").fetchone()
        client_after, server_after = meter.read()
    assert client_after - client_before >= 0.3
    assert server_before is not None and server_after - server_before > 0
