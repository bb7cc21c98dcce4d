"""The pool's binary timestamptz loader gives what psycopg's own loader converted to UTC gives (the same UTC
datetime, or the same error), whatever the session's TimeZone, across the whole datetime range."""

import psycopg
import pytest
from datetime import timezone
from psycopg.types.datetime import TimestamptzBinaryLoader

from memory_pipeline.db import UtcTimestamptzBinaryLoader, get_pool

VALUES = [
    "2026-03-29 00:59:59.999999+00", "2026-03-29 01:00:00+00", "2026-10-25 00:30:00.5+00", "2000-01-01 00:00:00+00",
    "1999-12-31 23:59:59.999999+00", "1970-01-01 00:00:00+00", "0001-01-01 00:00:00+00", "0001-01-01 12:00:00+00",
    "0001-01-02 23:59:59+00", "0001-01-03 00:00:00.000001+00", "9999-12-28 23:59:59.999999+00",
    "9999-12-29 00:00:00+00", "9999-12-31 12:00:00+00", "9999-12-31 23:59:59.999999+00", "infinity", "-infinity",
]


class PsycopgThenUtc(TimestamptzBinaryLoader):
    # the loader as it was: psycopg's load in the session's zone, then converted to UTC
    def load(self, data):
        return super().load(data).astimezone(timezone.utc)


def read(conn, loader, value):
    with conn.cursor() as cur:
        cur.adapters.register_loader("timestamptz", loader)
        try:
            return "ok", cur.execute("SELECT %s::timestamptz AS t", (value,), binary=True).fetchone()["t"]
        except psycopg.DataError as exc:
            return "error", str(exc)


@pytest.mark.parametrize("zone", ["Etc/UTC", "UTC", "America/Chicago", "Asia/Kathmandu", "Pacific/Kiritimati",
                                  "Pacific/Pago_Pago"])
def test_binary_timestamptz_loader_equals_psycopg_then_utc(pg_url, zone):
    with get_pool(pg_url).connection() as conn:
        conn.execute("SELECT set_config('TimeZone', %s, false)", (zone,))
        try:
            for value in VALUES:
                ours, reference = read(conn, UtcTimestamptzBinaryLoader, value), read(conn, PsycopgThenUtc, value)
                assert ours == reference, value
                if ours[0] == "ok":
                    assert ours[1].tzinfo is timezone.utc and ours[1].fold == reference[1].fold
            # the pool's connections use it for every binary read
            (at,) = conn.execute("SELECT '2026-03-29 01:30:00+02'::timestamptz AS t", binary=True).fetchone().values()
            assert at.tzinfo is timezone.utc and at.hour == 23
        finally:
            conn.execute("RESET TimeZone")
