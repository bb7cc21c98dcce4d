"""The same-day trial (`materialize --today`): today's closed conversations are consolidated before the day is
over, open ones deferred; tonight's run of that day then ends exactly where a night without the trial would:
nothing duplicated, nothing lost."""

from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from psycopg import sql

from memory_pipeline import cli, sample
from memory_pipeline.db import get_pool
from memory_pipeline.store import Store
from memory_pipeline_tests.conftest import run_stages

DAY = datetime(2026, 5, 4, tzinfo=timezone.utc)


def at(hour, minute=0, day=DAY):
    return day + timedelta(hours=hour, minutes=minute)


def human(key, text, when):
    return sample.SampleRow(key, {"type": "human", "content": text, "additional_kwargs": {}, "response_metadata": {}},
                            when)


def ai(key, text, when):
    return sample.SampleRow(key, {"type": "ai", "content": text, "tool_calls": [], "additional_kwargs": {},
                                  "response_metadata": {}, "invalid_tool_calls": []}, when + timedelta(seconds=5))


# Said before the trial at 13:00: tg:1's chat is over (idle 3 h), tg:2's is going on.
BEFORE = [human("tg:1", "I live in Berlin.", at(9)), ai("tg:1", "Noted.", at(9)),
          human("tg:1", "I prefer tea over coffee.", at(9, 10)), ai("tg:1", "Tea it is.", at(9, 10)),
          human("tg:2", "I work at Acme.", at(12, 30)), ai("tg:2", "Nice.", at(12, 30))]
# Said after it: tg:2 goes on in its open chat, tg:1 comes back later, tg:3 arrives late in the evening.
AFTER = [human("tg:2", "My email is bob@example.com.", at(13, 20)), ai("tg:2", "Saved.", at(13, 20)),
         human("tg:1", "I moved to Hamburg.", at(17)), ai("tg:1", "Congratulations.", at(17)),
         human("tg:3", "I am vegan.", at(23, 30)), ai("tg:3", "Good to know.", at(23, 30))]


def pipeline(make_settings):
    settings = make_settings(idle_gap_minutes=180)
    store = Store(settings)
    pool = get_pool(settings.database_url)
    with pool.connection() as conn:
        sample.create_n8n_table(conn, settings)
    return settings, store, pool


def state(settings, pool):
    """What a night leaves, keyed so two schemas compare: facts, conversations, archive and source ids."""
    def rows(query):
        with pool.connection() as conn:
            return conn.execute(sql.SQL(query).format(
                schema=sql.Identifier(settings.schema_name),
                source=sql.Identifier(settings.source_schema, settings.source_table))).fetchall()
    return {
        "facts": sorted((r["user_key"], r["category"], r["fact"], r["quote"], r["valid_from"], r["active"])
                        for r in rows("SELECT *, superseded_at IS NULL AS active FROM {schema}.agent_facts")),
        "conversations": sorted((r["user_key"], r["started_at"], r["ended_at"], r["partition_date"])
                                for r in rows("SELECT * FROM {schema}.conversations")),
        "candidates": sorted((r["user_key"], r["fact"], r["status"])
                             for r in rows("SELECT * FROM {schema}.fact_candidates")),
        "archive": sorted(r["id"] for r in rows("SELECT id FROM {schema}.chat_archive")),
        "source": sorted(r["id"] for r in rows("SELECT id FROM {source}")),
    }


def test_same_day_run_then_more_messages_then_the_night_ends_as_a_night_alone(make_settings):
    trial, trial_store, trial_pool = pipeline(make_settings)
    with trial_pool.connection() as conn:
        sample.insert_rows(conn, trial, BEFORE)
        run_stages(trial_store, conn, DAY.date(), now=at(13))  # the trial, at 13:00 on the day
    after_trial = state(trial, trial_pool)
    assert {f[0] for f in after_trial["facts"]} == {"tg:1"}  # tg:1's closed chat consolidated ...
    assert len(after_trial["source"]) == 2 and len(after_trial["archive"]) == 4  # ... tg:2's open one deferred
    assert {f[2] for f in after_trial["facts"]} >= {"User lives in Berlin.", "User prefers tea over coffee."}

    with trial_pool.connection() as conn:
        sample.insert_rows(conn, trial, AFTER)
        run_stages(trial_store, conn, DAY.date(), now=at(3, day=DAY + timedelta(days=1)))  # tonight, 03:00

    control, control_store, control_pool = pipeline(make_settings)  # the same day, no trial
    with control_pool.connection() as conn:
        sample.insert_rows(conn, control, BEFORE + AFTER)
        run_stages(control_store, conn, DAY.date(), now=at(3, day=DAY + timedelta(days=1)))

    night, alone = state(trial, trial_pool), state(control, control_pool)
    assert night == alone
    assert night["source"] == [] and night["archive"] == list(range(1, len(BEFORE + AFTER) + 1))
    active = [(f[0], f[2]) for f in night["facts"] if f[5]]
    assert len(active) == len(set(active))
    assert ("tg:1", "User moved to Hamburg.") in active and ("tg:1", "User lives in Berlin.") not in active
    assert {("tg:2", "User works at Acme."), ("tg:3", "User is vegan.")} <= set(active)


def midday_zone() -> str:
    """A fixed-offset zone where it is now between 09:00 and 15:00, so 'a few minutes ago' is today there."""
    now = datetime.now(timezone.utc)
    for offset in range(-12, 15):
        name = f"Etc/GMT{'+' if offset <= 0 else '-'}{abs(offset)}"  # Etc/GMT-2 is UTC+2
        if 9 <= now.astimezone(ZoneInfo(name)).hour < 15:
            return name
    raise AssertionError("no zone at midday")


def test_materialize_today_consolidates_closed_chats_and_defers_open_ones(make_settings, monkeypatch, capsys):
    settings = make_settings(idle_gap_minutes=1, timezone=midday_zone())
    for name, value in settings.model_dump(mode="json").items():
        if value is not None:
            monkeypatch.setenv("MEMORY_PIPELINE_" + name.upper(), str(value))
    now = datetime.now(timezone.utc)
    pool = get_pool(settings.database_url)
    with pool.connection() as conn:
        sample.create_n8n_table(conn, settings)
        sample.insert_rows(conn, settings, [human("web:a", "I prefer tea over coffee.", now - timedelta(minutes=5)),
                                            human("web:b", "I live in Lisbon.", now - timedelta(seconds=5))])
    assert cli.main(["materialize", "--today"]) == 0
    out = capsys.readouterr().out
    assert "1 conversation(s) closed and consolidated, 1 still open and deferred" in out
    assert "Not recorded in Dagster: tonight's run of" in out
    with pool.connection() as conn:
        facts = conn.execute(sql.SQL("SELECT user_key, fact FROM {}.agent_facts").format(
            sql.Identifier(settings.schema_name))).fetchall()
        left = conn.execute(sql.SQL("SELECT session_id FROM {}").format(
            sql.Identifier(settings.source_schema, settings.source_table))).fetchall()
    assert [(f["user_key"], f["fact"]) for f in facts] == [("web:a", "User prefers tea over coffee.")]
    assert [r["session_id"] for r in left] == ["web:b"]


def test_a_home_whose_partitions_ended_is_told_no_night_covers_today(make_settings, monkeypatch, capsys):
    # The demo's home saves partitions ending in 2023: no schedule tick will ever run today's partition there.
    settings = make_settings(idle_gap_minutes=1, partitions_start="2023-04-27", partitions_end="2023-05-06")
    for name, value in settings.model_dump(mode="json").items():
        if value is not None:
            monkeypatch.setenv("MEMORY_PIPELINE_" + name.upper(), str(value))
    with get_pool(settings.database_url).connection() as conn:
        sample.create_n8n_table(conn, settings)
    assert cli.main(["materialize", "--today"]) == 0
    out = capsys.readouterr().out
    assert "no nightly run covers" in out and "the partitions end on 2023-05-06" in out
    assert "tonight's run of" not in out and "remove that line" in out


def test_today_cannot_be_given_with_a_range(capsys):
    assert cli.main(["materialize", "--today", "--to", "2026-05-04"]) == 2
    assert "--to goes with --date" in capsys.readouterr().err

