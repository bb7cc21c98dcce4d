"""The pool's connections read every timestamptz, text or binary, as a UTC datetime of the same instant whatever
the session's TimeZone, so instants compare and subtract by time, not by a zone's wall clock (across a DST change
too); a value Python's datetime cannot hold (infinity) is an error, not a wrong date."""

import psycopg
import pytest
from datetime import datetime, timedelta, timezone

from memory_pipeline.db import get_pool

ZONES = ["Etc/UTC", "UTC", "Europe/Berlin", "America/Chicago", "Asia/Kathmandu", "Pacific/Kiritimati",
         "Pacific/Pago_Pago"]


@pytest.mark.parametrize("binary", [False, True])
@pytest.mark.parametrize("zone", ZONES)
def test_timestamptz_is_read_as_utc_whatever_the_session_zone(pg_url, zone, binary):
    with get_pool(pg_url).connection() as conn:
        conn.execute("SELECT set_config('TimeZone', %s, false)", (zone,))
        try:
            # 02:10 CET is later than 02:50 CEST (the night Berlin moves to summer time): read in UTC, it sorts so
            before, after = conn.execute(
                "SELECT '2026-03-29 02:50:00+02'::timestamptz AS a, '2026-03-29 02:10:00+01'::timestamptz AS b",
                binary=binary).fetchone().values()
            for at in (before, after):
                assert at.tzinfo is timezone.utc
            assert before == datetime(2026, 3, 29, 0, 50, tzinfo=timezone.utc)
            assert after - before == timedelta(minutes=20)
            with pytest.raises(psycopg.DataError):
                conn.execute("SELECT 'infinity'::timestamptz AS t", binary=binary).fetchone()
        finally:
            conn.execute("RESET TimeZone")
