"""Every setting, malformed, is refused by the CLI as `invalid setting NAME: ...` with exit status 2 and no
traceback; identifier settings never reach a URL, a search_path or SQL unchecked."""

import types
import typing
from datetime import date
from pathlib import Path

import pytest

from memory_pipeline import cli
from memory_pipeline.db import dagster_storage_url
from memory_pipeline.settings import ENV_PREFIX, Settings, SettingError

# A malformed value for each setting whose type alone does not give one (free text with rules).
MALFORMED_TEXT = {
    "database_url": "host=h port",                       # libpq cannot parse it
    "home": "~no_such_user_memory_pipeline/state",       # Path.expanduser raises RuntimeError
    "source_table": "chat\x01histories",                 # control character
    "source_schema": "public,dagster",                   # a search_path list, not one schema
    "schema_name": "Memory Pipeline",                    # upper case and a space
    "dagster_schema": "dagster -cdefault_transaction_read_only=on",  # a libpq option smuggled in
    "timezone": "Mars/Olympus",
    "user_key_regex": "([",                              # re.error escaped the validator before
    "sender_user_key": "{user_key}#{sender_name}",         # unknown template field
    "extractor": "no_such_backend",
    "summary_model": "gpt 4o mini",                      # a model name never holds whitespace
    "extraction_model": "\tgpt-4o-mini\nx",
    "structured_output": "xml",
    "embeddings": "word2vec",
    "embedding_model": "text embedding 3 small",
    "asset_owners": "the data team",                     # neither an e-mail address nor team:NAME
}
MALFORMED_BY_TYPE = {int: "twelve", float: "fast", bool: "maybe", date: "2023-13-45", Path: MALFORMED_TEXT["home"]}


def malformed_value(name: str) -> str:
    if name in MALFORMED_TEXT:
        return MALFORMED_TEXT[name]
    annotation = Settings.model_fields[name].annotation
    candidates = typing.get_args(annotation) if isinstance(annotation, types.UnionType) else (annotation,)
    for kind in candidates:
        if kind in MALFORMED_BY_TYPE:
            return MALFORMED_BY_TYPE[kind]
    raise AssertionError(f"setting {name!r} has no malformed example: add one to MALFORMED_TEXT")


@pytest.mark.parametrize("name", sorted(Settings.model_fields))
def test_every_malformed_setting_is_named_with_exit_2_and_no_traceback(name, monkeypatch, capsys, tmp_path):
    for other in Settings.model_fields:
        monkeypatch.delenv(ENV_PREFIX + other.upper(), raising=False)
    monkeypatch.setenv("MEMORY_PIPELINE_HOME", str(tmp_path))  # never the user's own state
    variable = ENV_PREFIX + name.upper()
    monkeypatch.setenv(variable, malformed_value(name))
    status = cli.main(["init-db"])
    err = capsys.readouterr().err
    assert status == 2
    assert f"invalid setting {variable}:" in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "pgdata").exists()  # refused before anything started


def test_database_url_error_never_echoes_the_password():
    with pytest.raises(SettingError) as raised:
        Settings.from_env({"MEMORY_PIPELINE_DATABASE_URL": "postgresql://u:s3cret@h:notaport/db?sslmode=x y"})
    assert "s3cret" not in str(raised.value)


@pytest.mark.parametrize("value", ["dg,public", "Dagster", "dagster -cx=y", "dagster\\", "1dagster", "dag'ster",
                                   "a" * 64, "dagstér"])
def test_schema_settings_refuse_anything_but_a_plain_lower_case_identifier(value):
    for name in ("DAGSTER_SCHEMA", "SCHEMA_NAME", "SOURCE_SCHEMA"):
        with pytest.raises(SettingError, match=f"invalid setting MEMORY_PIPELINE_{name}:"):
            Settings.from_env({f"MEMORY_PIPELINE_{name}": value})


def test_accepted_schema_names_reach_the_storage_url_as_one_option():
    settings = Settings.from_env({"MEMORY_PIPELINE_DAGSTER_SCHEMA": "dagster_2", "MEMORY_PIPELINE_SCHEMA_NAME": "_mp"})
    url = dagster_storage_url("postgresql://u@h/db", settings.dagster_schema)
    assert url.endswith("?options=-csearch_path%3Ddagster_2")


@pytest.mark.parametrize("value", ["n8n_chat_histories", "Chat Memory", "chat-memory", 'we"ird;name', "a" * 63])
def test_source_table_takes_any_name_postgresql_can_hold(value):
    # Always quoted with psycopg.sql.Identifier: a name with spaces or quotes is inert (test_hostile_input).
    assert Settings.from_env({"MEMORY_PIPELINE_SOURCE_TABLE": value}).source_table == value


@pytest.mark.parametrize("value", ["a" * 64, "chat\nhistories", "é" * 32])
def test_source_table_refuses_names_postgresql_would_truncate_or_that_hide_characters(value):
    with pytest.raises(SettingError, match="MEMORY_PIPELINE_SOURCE_TABLE"):
        Settings.from_env({"MEMORY_PIPELINE_SOURCE_TABLE": value})


# -- settings that pass validation but would mix users or break figures --------------------------------------
@pytest.mark.parametrize("name,value", [
    ("MEMORY_PIPELINE_SENDER_USER_KEY", "group-member"),  # a constant: every sender of every group one user
    ("MEMORY_PIPELINE_LLM_INPUT_PRICE_PER_MILLION", "inf"),
    ("MEMORY_PIPELINE_LLM_OUTPUT_PRICE_PER_MILLION", "infinity"),
])
def test_settings_that_would_mix_users_or_break_figures_are_refused(name, value):
    from memory_pipeline.settings import SettingError, Settings
    with pytest.raises(SettingError, match=name):
        Settings.from_env({name: value})
