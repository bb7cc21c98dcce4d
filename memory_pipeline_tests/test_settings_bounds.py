"""Settings at their bounds (issue 21, item 7): every numeric setting has an upper bound and is refused beyond it at
start (exit 2, one line, before anything starts), a night runs with every setting at either end of its range, an
unknown `MEMORY_PIPELINE_*` variable is refused with the closest setting's name, and an unreachable database is
reported with the server's own reason."""

import math
import re
import types
import typing

import annotated_types
import pytest

from memory_pipeline import cli
from memory_pipeline.settings import ENV_PREFIX, Settings, SettingError
from memory_pipeline_tests.test_hostile_input import DAY, active_facts, said
from memory_pipeline_tests.test_pipeline_end_to_end import Pipeline


def numeric_fields() -> dict[str, type]:
    """{field name: int or float} of every numeric setting (optional ones included)."""
    found = {}
    for name, field in Settings.model_fields.items():
        kinds = typing.get_args(field.annotation) if isinstance(field.annotation, types.UnionType) \
            else (field.annotation,)
        for kind in (int, float):
            if kind in kinds:
                found[name] = kind
    return found


def bound(name: str, which: str) -> float | None:
    """The setting's bound: "upper" (le/lt) or "lower" (ge/gt) as declared, else None."""
    for item in Settings.model_fields[name].metadata:
        if which == "upper" and isinstance(item, (annotated_types.Le, annotated_types.Lt)):
            return getattr(item, "le", getattr(item, "lt", None))
        if which == "lower" and isinstance(item, (annotated_types.Ge, annotated_types.Gt)):
            return getattr(item, "ge", getattr(item, "gt", None))
    return None


def at_end(name: str, which: str):
    """The most extreme value the setting accepts at that end."""
    kind = numeric_fields()[name]
    for item in Settings.model_fields[name].metadata:
        if which == "upper" and isinstance(item, annotated_types.Le):
            return kind(item.le)
        if which == "lower" and isinstance(item, annotated_types.Ge):
            return kind(item.ge)
        if which == "lower" and isinstance(item, annotated_types.Gt):
            return item.gt + 1 if kind is int else item.gt + 0.01
    raise AssertionError(f"{name} has no {which} bound")


def run_cli(monkeypatch, capsys, tmp_path, **variables) -> tuple[int, str]:
    for other in Settings.model_fields:
        monkeypatch.delenv(ENV_PREFIX + other.upper(), raising=False)
    monkeypatch.setenv("MEMORY_PIPELINE_HOME", str(tmp_path))
    for variable, value in variables.items():
        monkeypatch.setenv(variable, value)
    status = cli.main(["init-db"])
    return status, capsys.readouterr().err


@pytest.mark.parametrize("name", sorted(numeric_fields()))
def test_every_numeric_setting_has_an_upper_and_a_lower_bound(name):
    assert bound(name, "upper") is not None and bound(name, "lower") is not None
    if numeric_fields()[name] is float:
        with pytest.raises(ValueError):
            Settings(**{name: math.inf})


@pytest.mark.parametrize("name", sorted(numeric_fields()))
def test_a_value_past_the_upper_bound_stops_the_cli_with_exit_2_and_one_line(name, monkeypatch, capsys, tmp_path):
    variable = ENV_PREFIX + name.upper()
    past = bound(name, "upper") * 10 + 1
    status, err = run_cli(monkeypatch, capsys, tmp_path, **{variable: str(int(past))})
    assert status == 2 and f"invalid setting {variable}:" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "pgdata").exists()


@pytest.mark.parametrize("variable, value", [
    ("MEMORY_PIPELINE_IDLE_GAP_MINUTES", "99999999999999999999"),  # OverflowError in timedelta before
    ("MEMORY_PIPELINE_IDLE_GAP_MINUTES", "2147483648"),            # date out of range in the run before
    ("MEMORY_PIPELINE_ARCHIVE_RETENTION_DAYS", "99999999999"),     # archived and purged, then the step failed
    ("MEMORY_PIPELINE_LLM_TIMEOUT_SECONDS", "inf"),
    ("MEMORY_PIPELINE_LLM_TIMEOUT_SECONDS", "nan"),
    ("MEMORY_PIPELINE_MAX_MESSAGE_CHARS", "1"),                    # every row archived with 0 facts before
    ("MEMORY_PIPELINE_PARTITIONS_START", "0001-01-01"),
    ("MEMORY_PIPELINE_BACKLOG_DATE", "9999-12-31"),
])
def test_the_reviewers_values_are_refused_at_start(variable, value, monkeypatch, capsys, tmp_path):
    status, err = run_cli(monkeypatch, capsys, tmp_path, **{variable: value})
    assert status == 2 and f"invalid setting {variable}:" in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("which", ["upper", "lower"])
def test_a_night_runs_with_every_numeric_setting_at_one_end_of_its_range(which, make_settings):
    values = {name: at_end(name, which) for name in numeric_fields()}
    p = Pipeline(make_settings(**values))
    p.load([said("alice", "I live in Oslo."), said("alice", "Thanks!", minutes=1, role="ai")])
    result = p.run(DAY)
    assert result.success
    assert active_facts(p, "alice") == ["User lives in Oslo."]
    assert p.source_ids() == set()  # consolidated, archived and purged: every step ran through


def test_an_unknown_variable_is_refused_naming_the_setting_it_resembles(monkeypatch, capsys, tmp_path):
    status, err = run_cli(monkeypatch, capsys, tmp_path, MEMORY_PIPELINE_IDLE_GAP_MINUTE="60")
    assert status == 2 and len(err.strip().splitlines()) == 1
    assert "MEMORY_PIPELINE_IDLE_GAP_MINUTE:" in err and "did you mean MEMORY_PIPELINE_IDLE_GAP_MINUTES?" in err
    with pytest.raises(SettingError, match="no such setting"):
        Settings.from_env({"MEMORY_PIPELINE_COMPLETELY_ELSE": "1"})
    # The storage URL `memory-pipeline` itself derives for dagster.yaml is the project's own variable.
    Settings.from_env({"MEMORY_PIPELINE_DAGSTER_STORAGE_URL": "postgresql+psycopg2://x@/y"})


def test_a_wrong_port_names_the_refused_connection_and_hides_the_password(monkeypatch, capsys, tmp_path):
    status, err = run_cli(monkeypatch, capsys, tmp_path,
                          MEMORY_PIPELINE_DATABASE_URL="postgresql://u:s3cret@127.0.0.1:1/db")
    assert status == 2 and len(err.strip().splitlines()) == 1
    assert "port 1 failed" in err and "couldn't get a connection" not in err
    assert "s3cret" not in err


def test_a_wrong_database_name_says_the_database_does_not_exist(pg_url, monkeypatch, capsys, tmp_path):
    wrong = re.sub(r"/postgres\?", "/no_such_db?", pg_url)
    assert wrong != pg_url
    status, err = run_cli(monkeypatch, capsys, tmp_path, MEMORY_PIPELINE_DATABASE_URL=wrong)
    assert status == 2 and len(err.strip().splitlines()) == 1
    assert 'database "no_such_db" does not exist' in err


def test_the_cli_refuses_an_unknown_variable_before_any_other_setting_is_read(monkeypatch, capsys, tmp_path):
    status, err = run_cli(monkeypatch, capsys, tmp_path, MEMORY_PIPELINE_EXTRACTOR_MODEL="gpt-4o",
                          MEMORY_PIPELINE_SOURCE_TABLE="chat")
    assert status == 2 and "did you mean MEMORY_PIPELINE_EXTRACTION_MODEL?" in err


@pytest.mark.parametrize("value", ["0", "-2", "two", "65", "1.5"])
def test_a_bad_shard_count_stops_the_cli_with_exit_2_and_one_line(value, monkeypatch, capsys, tmp_path):
    status, err = run_cli(monkeypatch, capsys, tmp_path, MEMORY_PIPELINE_SHARDS=value)
    assert status == 2 and "invalid setting MEMORY_PIPELINE_SHARDS:" in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1 and not (tmp_path / "pgdata").exists()
