"""Every setting of memory_pipeline, read from environment variables into one pydantic model.

The README's configuration table lists the same variables; `Settings.from_env()` is the only reader.
"""

from __future__ import annotations

import os
import re
import string
from datetime import date
from pathlib import Path
from typing import Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import BaseModel, Field, ValidationError, ValidationInfo, field_validator, model_validator

from memory_pipeline.domain.shards import MAX_SHARDS
from memory_pipeline.settings_env import (
    DEFAULT_HOME, ENV_PREFIX, SettingError, first_error, saved_settings, unknown_variable)

SENDER_TEMPLATE_FIELDS = frozenset({"session_key", "user_key", "sender"})

# A schema name that may go into a libpq `options` value (`-csearch_path=...`) and into SQL: an unquoted
# PostgreSQL identifier as PostgreSQL stores it (lower case; unquoted names are folded to lower case) and at most
# 63 bytes (NAMEDATALEN - 1: a longer name is silently truncated, so it would name another schema). No space,
# comma, quote or backslash can reach libpq's option parser or a search_path list.
SCHEMA_NAME_PATTERN = re.compile(r"[a-z_][a-z0-9_]*")
MAX_IDENTIFIER_BYTES = 63


# Upper (and some lower) bounds of the numeric settings, so a value that parses but cannot work is refused at start
# (exit 2, one line) instead of failing a night's run: `timedelta(minutes=10**20)` raises OverflowError, a retention
# of 10**11 days makes `now() - interval` leave PostgreSQL's date range after the rows were archived, an infinite
# timeout never gives a hung request up. Each bound is far above any sensible value and well inside what the
# arithmetic it feeds can hold.
MAX_IDLE_GAP_MINUTES = 7 * 24 * 60   # a week: a conversation that pauses longer is two conversations
MAX_CONVERSATION_HOURS = 31 * 24     # a month
MAX_RETENTION_DAYS = 3650            # ten years (retention, text retention, recall extensions, quote grace)
# A message cut below a few sentences keeps nothing to extract (MAX_MESSAGE_CHARS=1 archived every row with 0
# facts); above a million characters one row would be a transcript of its own.
MIN_MESSAGE_CHARS, MAX_MESSAGE_CHARS = 500, 1_000_000
MAX_LLM_TIMEOUT_SECONDS = 3600.0     # an hour per request; the openai SDK's own default is 600 s
MAX_LLM_RETRIES = 10                 # the SDK backs off exponentially (up to 8 s): ten retries are minutes per call
MAX_LLM_IN_FLIGHT = 64
MAX_CHUNK_TOKENS = 1_000_000         # the largest context windows offered (2025) are about a million tokens
MAX_PRICE_PER_MILLION = 1000.0       # USD; list prices are below 200
MAX_BLOCK_FACTS = 1000
# MAX_SHARDS (64, domain.shards): the shards of one night; more runs per night than any pool of workers runs at once.
# Dates: Dagster's partitions are built from POSIX timestamps (1970 on), and a date near 9999-12-31 has no next day
# for a partition window to end on.
MIN_DATE, MAX_DATE = date(1970, 1, 1), date(2999, 12, 31)
# Variables with the prefix that are not settings but are still the project's: the Dagster storage URL that
# `memory-pipeline` derives from the database URL for dagster.yaml, and the alert sensors' webhook URL (a secret,
# never a setting shown in the UI) and UI link, read when a sensor ticks (defs/alerts.py).
OTHER_VARIABLES = frozenset({"DAGSTER_STORAGE_URL", "ALERT_WEBHOOK_URL", "UI_URL"})

# Default time-to-live in days: per category, and per slot (`attribute:<slot>`, which wins over its category's).
# The design rule: "years for a contact preference, weeks for a purchase intent". None = no
# expiry: a name ("my name is", "call me") and where one grew up do not go stale with time the way a liking does;
# they change only when the user says so (a new value supersedes, a retraction or forget request ends them). A
# past purchase ("I bought a suitcase") is an event: it matters for the weeks a delivery, a return or a complaint
# about it can follow (90 days), not for years as a trait would.
DEFAULT_TTL_DAYS: dict[str, int | None] = {
    "preference": 730, "decision": 365, "client_info": 1095,
    "attribute:name": None, "attribute:preferred_name": None, "attribute:hometown": None,
    "attribute:purchase": 90,
}


class Settings(BaseModel):
    """memory_pipeline configuration. Field `x` is read from `MEMORY_PIPELINE_X` (upper case).

    Raises pydantic.ValidationError on a malformed value (bad timezone, bad regex, bad date, a schema name that is
    not a plain lower-case identifier); `from_env` turns any failure into a SettingError naming the variable.
    """

    database_url: str | None = Field(
        None, description="libpq URL of your PostgreSQL; unset = embedded server in `home`/pgdata"
    )
    home: Path = Field(
        DEFAULT_HOME,
        description="state directory: embedded database (pgdata) and DAGSTER_HOME (dagster)",
    )
    embedded_port: int | None = Field(
        None, ge=1, le=65535, description="the embedded server also listens on this TCP port (for n8n), password "
        "required (scram-sha-256); unset = unix socket only"
    )
    embedded_listen: str = Field(
        "127.0.0.1", description="addresses the embedded server listens on with `embedded_port` (PostgreSQL's "
        "listen_addresses: comma-separated; a Docker bridge address for n8n in Docker)"
    )
    source_table: str = Field("n8n_chat_histories", description="n8n Postgres Chat Memory table name")
    source_schema: str = Field("public", description="schema of the n8n table")
    schema_name: str = Field("memory_pipeline", description="schema holding the pipeline's own tables")
    dagster_schema: str = Field("dagster", description="schema of Dagster's own storage tables (runs, event log)")
    timezone: str = Field("UTC", description="timezone of the daily partitions and the 03:00 schedule")
    partitions_start: date = Field(date(2023, 1, 1), description="first daily partition (YYYY-MM-DD)")
    partitions_end: date | None = Field(
        None, description="last daily partition (YYYY-MM-DD); unset = every day up to yesterday. The demo sets "
        "both ends to the sample's days in `home`/settings.env"
    )
    idle_gap_minutes: int = Field(
        180, gt=0, le=MAX_IDLE_GAP_MINUTES,
        description="a gap longer than this splits a session key's messages into conversations"
    )
    max_conversation_hours: int = Field(
        24, gt=0, le=MAX_CONVERSATION_HOURS,
        description="a conversation that never pauses is cut after this many hours, so it can close"
    )
    backlog_date: date | None = Field(
        None, description="partition that takes legacy rows without created_at; default partitions_start"
    )
    user_key_regex: str | None = Field(
        None, description="regex with a named group `user` mapping session key -> user key; unset = identity"
    )
    sender_user_key: str = Field(
        "{user_key}#{sender}",
        description="user key of a group chat's sender (a `## Message from NAME` header): a template of "
        "{session_key}, {user_key} (the session key's user key) and {sender}; `{user_key}` alone merges senders",
    )
    group_chat_session_keys: str | None = Field(
        None, description="regex matching the whole session key of every group chat (n8n's group-chat templates "
        "start each human row with `## Message from NAME`); only there is the header read as the speaker, never in "
        "a 1:1 chat, where anyone can type it; unset = no group chats"
    )
    archive_retention_days: int = Field(30, ge=1, le=MAX_RETENTION_DAYS,
        description="days archived raw rows are kept before dropping")
    max_message_chars: int = Field(
        20_000, ge=MIN_MESSAGE_CHARS, le=MAX_MESSAGE_CHARS,
        description="longer message text is cut to this many characters in the transcript"
    )
    extractor: str = Field("offline", description="summary and fact backend: `offline` (rules) or `openai` (LLM)")
    # -- LLM backend (extractor=openai). The key and the server come from the openai SDK's own variables
    # OPENAI_API_KEY and OPENAI_BASE_URL: never a field here, so they never reach the UI or metadata.
    summary_model: str = Field("gpt-4o-mini", description="model of the session_summaries stage")
    extraction_model: str = Field("gpt-4o-mini", description="model of the extracted_facts stage")
    llm_timeout_seconds: float = Field(60.0, gt=0, le=MAX_LLM_TIMEOUT_SECONDS, allow_inf_nan=False,
                                       description="per-request timeout given to the openai SDK")
    llm_max_retries: int = Field(3, ge=0, le=MAX_LLM_RETRIES,
        description="openai SDK retries of 408/409/429/5xx (honouring Retry-After)")
    # Small models loop (one sentence repeated inside a string) until the server's cap, which llama.cpp leaves
    # unlimited: ~12 facts and a summary fit in 1024 tokens; a longer answer is cut and its complete facts kept.
    llm_max_tokens: int = Field(1024, ge=64, le=65536, description="completion tokens asked per LLM request "
                                "(max_tokens); an answer cut there keeps its complete facts")
    llm_verify: bool = Field(False, description="one more short LLM request per conversation asks whether each "
                             "fact's quote states it about the user; a fact it denies is rejected (not_confirmed)")
    structured_output: Literal["auto", "json_schema", "json_object", "prompt"] = Field(
        "auto", description="how JSON is asked for; auto falls back json_schema -> json_object -> prompt"
    )
    llm_max_in_flight: int = Field(4, ge=1, le=MAX_LLM_IN_FLIGHT,
        description="LLM requests in flight at once inside one step")
    llm_breaker_failures: int = Field(
        4, ge=1, le=1000, description="LLM calls in a row failing as a server that is down fails (no connection, "
        "timeout, 5xx, 429 after retries) that stop the step's requests: its remaining conversations are recorded "
        "as failed (llm_unavailable) and retried by the next run")
    llm_chunk_tokens: int = Field(
        6000, ge=200, le=MAX_CHUNK_TOKENS,
        description="transcript tokens per request; a longer conversation is sent in chunks"
    )
    # gpt-4o-mini's list prices (openai.com/api/pricing, USD per million tokens), for the metadata's estimate.
    llm_input_price_per_million: float = Field(0.15, ge=0, le=MAX_PRICE_PER_MILLION, allow_inf_nan=False,
                                               description="USD per million prompt tokens")
    llm_output_price_per_million: float = Field(0.60, ge=0, le=MAX_PRICE_PER_MILLION, allow_inf_nan=False,
                                                description="USD per million completion tokens")
    embedding_dimensions: int = Field(
        1536, gt=0, le=2000, description="size of agent_facts.embedding (vector(N)); HNSW indexes up to 2000"
    )
    # Recall (reading facts back into the agent).
    embeddings: Literal["none", "openai"] = Field(
        "none", description="`openai`: embed new facts through the openai SDK (OPENAI_API_KEY/OPENAI_BASE_URL); "
        "`none`: no embeddings, recall uses full-text search"
    )
    embedding_model: str = Field("text-embedding-3-small", description="embedding model name sent to the endpoint")
    embedding_batch_size: int = Field(64, gt=0, le=2048, description="texts per embeddings request")
    recall_block_facts: int = Field(20, gt=0, le=MAX_BLOCK_FACTS,
        description="facts in the prompt block by default (N most recent)")
    recall_extension_days: int = Field(
        30, ge=0, le=MAX_RETENTION_DAYS,
        description="days of life a recalled fact gains per day it was recalled (0: recalls extend nothing)"
    )
    recall_max_extension_days: int = Field(
        365, ge=0, le=MAX_RETENTION_DAYS,
        description="at most this many days after its last recall a fact stays alive through recalls"
    )
    recall_ef_search: int = Field(100, gt=0, le=1000, description="hnsw.ef_search of a vector search")
    erase_on_retraction: bool = Field(
        False, description="a retraction ('forget my phone number') erases the slot's facts and candidates"
    )
    text_retention_days: int | None = Field(
        None, ge=1, le=MAX_RETENTION_DAYS,
        description="days conversation text (transcript, summary, rejected candidates) is kept after "
        "consolidation; unset = archive_retention_days"
    )
    quote_grace_days: int = Field(
        30, ge=0, le=MAX_RETENTION_DAYS,
        description="days agent_facts keeps a quote after the fact's time-to-live ended"
    )
    near_duplicate_threshold: float = Field(
        0.9, gt=0, le=1, allow_inf_nan=False,
        description="text similarity (pg_trgm trigram, or embedding cosine) from which two facts "
        "of one user and category are one fact"
    )

    @field_validator("schema_name", "dagster_schema", "source_schema")
    @classmethod
    def _safe_schema_name(cls, value: str) -> str:
        if len(value.encode()) > MAX_IDENTIFIER_BYTES or not SCHEMA_NAME_PATTERN.fullmatch(value):
            raise ValueError(
                f"{value!r} is not a plain schema name: use lower-case letters, digits and _ (not starting with a "
                f"digit), at most {MAX_IDENTIFIER_BYTES} bytes"
            )
        return value

    @field_validator("embedded_listen")
    @classmethod
    def _listen_addresses(cls, value: str) -> str:
        # Passed to the server on pg_ctl's command line (a shell line): addresses and host names only.
        if not re.fullmatch(r"[0-9A-Za-z.:*_-]+(\s*,\s*[0-9A-Za-z.:*_-]+)*", value):
            raise ValueError("use comma-separated addresses or host names, e.g. 127.0.0.1 or 127.0.0.1,172.17.0.1")
        return re.sub(r"\s+", "", value)

    @field_validator("source_table")
    @classmethod
    def _usable_table_name(cls, value: str) -> str:
        # Always quoted with psycopg.sql.Identifier (never in a URL or an option), so any name PostgreSQL can hold
        # is accepted, case-sensitive as `\dt` shows it; refused: control characters (they cannot be typed in n8n's
        # node and only hide what the name is) and names PostgreSQL would truncate.
        if any(ord(c) < 0x20 or ord(c) == 0x7F for c in value):
            raise ValueError("the table name holds control characters")
        if len(value.encode()) > MAX_IDENTIFIER_BYTES:
            raise ValueError(f"the table name is longer than {MAX_IDENTIFIER_BYTES} bytes (PostgreSQL's limit)")
        return value

    @field_validator("database_url")
    @classmethod
    def _parsable_url(cls, value: str | None) -> str | None:
        if value is None:
            return None
        from psycopg.conninfo import conninfo_to_dict  # libpq's own parser: what psycopg will do with it

        try:
            conninfo_to_dict(value)
        except Exception:  # noqa: BLE001 - the driver's message may quote the password: say only that it failed
            raise ValueError("not a libpq URL or connection string (postgresql://user:pass@host:5432/db)") from None
        return value

    @field_validator("home")
    @classmethod
    def _usable_home(cls, value: Path) -> Path:
        try:
            path = value.expanduser().resolve()
        except (RuntimeError, OSError) as exc:  # "~nosuchuser/...": no home directory to expand
            raise ValueError(f"cannot resolve the path ({exc})") from None
        # The home (or the first of its parents that exists) must be a directory: pgdata and dagster/ are made
        # in it, and a regular file there fails the first mkdir (FileExistsError, NotADirectoryError).
        existing = next(p for p in (path, *path.parents) if p.exists())
        if not existing.is_dir():
            what = "is" if existing == path else f"is under {existing}, which is"
            raise ValueError(f"{path} {what} a file, not a directory: point it at a directory (it is created if "
                             "missing)")
        return value

    @field_validator("summary_model", "extraction_model", "embedding_model")
    @classmethod
    def _model_name(cls, value: str) -> str:
        # Model and deployment names (OpenAI, Azure, Ollama's `llama3.1:8b`, vLLM's paths) never hold whitespace;
        # one that does is a pasted line or a typo that would fail every request of the night.
        if not value or any(c.isspace() or ord(c) < 0x20 for c in value):
            raise ValueError("a model name has no spaces or control characters")
        return value

    asset_owners: str = Field(
        "team:data", description="owners of the five assets in Dagster's catalog: comma-separated e-mail "
        "addresses or `team:NAME`"
    )
    shards: int = Field(
        1, ge=1, le=MAX_SHARDS, description="runs the nightly schedule launches per day, each consolidating the "
        "users of one shard (user key hash, `domain.shards`); 1 = one run for the whole night"
    )
    freshness_deadline_hour: int = Field(
        6, ge=4, le=23, description="hour (partitions' timezone) by which yesterday's partition must be "
        "materialized, else the freshness checks fail; after the 03:00 schedule"
    )

    @field_validator("partitions_start", "partitions_end", "backlog_date")
    @classmethod
    def _date_in_range(cls, value: date | None) -> date | None:
        if value is not None and not MIN_DATE <= value <= MAX_DATE:
            raise ValueError(f"must be between {MIN_DATE} and {MAX_DATE}")
        return value

    @field_validator("timezone")
    @classmethod
    def _known_timezone(cls, value: str) -> str:
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError) as exc:
            raise ValueError(f"unknown timezone {value!r}") from exc
        return value

    @field_validator("user_key_regex")
    @classmethod
    def _regex_has_user_group(cls, value: str | None) -> str | None:
        if value is None:
            return None
        try:
            compiled = re.compile(value)
        except re.error as exc:
            raise ValueError(f"not a regular expression ({exc})") from None
        if "user" not in compiled.groupindex:
            raise ValueError("user_key_regex needs a named group (?P<user>...)")
        return value

    @field_validator("group_chat_session_keys")
    @classmethod
    def _group_chat_regex(cls, value: str | None) -> str | None:
        if value is None:
            return None
        try:
            re.compile(value)
        except re.error as exc:
            raise ValueError(f"not a regular expression ({exc})") from None
        return value

    @field_validator("sender_user_key")
    @classmethod
    def _sender_template(cls, value: str) -> str:
        try:
            fields = {name for _, name, _, _ in string.Formatter().parse(value) if name is not None}
            unknown = fields - SENDER_TEMPLATE_FIELDS
            if unknown:
                raise ValueError(f"unknown field(s) {sorted(unknown)}: use {{session_key}}, {{user_key}}, {{sender}}")
            if not fields:
                # A constant would give every sender of every group one user key: their facts mixed together.
                raise ValueError("names no field: use {session_key}, {user_key} or {sender}")
            rendered = value.format(session_key="k", user_key="u", sender="s")
        except (ValueError, IndexError, KeyError, AttributeError) as exc:
            raise ValueError(f"not a user key template ({exc})") from None
        if not rendered.strip():
            raise ValueError("the template gives a blank user key")
        return value

    @field_validator("extractor")
    @classmethod
    def _known_extractor(cls, value: str, info: ValidationInfo) -> str:
        if value not in ("offline", "openai"):
            raise ValueError(f"unknown extractor {value!r}: use 'offline' or 'openai'")
        if value == "openai":
            # The SDK reads OPENAI_API_KEY / OPENAI_BASE_URL itself; a local server (Ollama, vLLM, llama.cpp)
            # needs only the base URL. Only their presence is checked here, their values are never kept.
            env = (info.context or {}).get("environ", os.environ)
            if not (env.get("OPENAI_API_KEY") or env.get("OPENAI_BASE_URL")):
                raise ValueError("extractor 'openai' needs OPENAI_API_KEY (OpenAI) or OPENAI_BASE_URL (a compatible "
                                 "server) in the environment")
        return value

    @field_validator("asset_owners")
    @classmethod
    def _owners_are_emails_or_teams(cls, value: str) -> str:
        # Dagster accepts an owner as an e-mail address or `team:NAME` (AssetSpec.owners).
        owners = [o.strip() for o in value.split(",") if o.strip()]
        bad = [o for o in owners if not (re.fullmatch(r"[^@\s]+@[^@\s]+\.[^@\s]+", o) or
                                         re.fullmatch(r"team:[^\s,]+", o))]
        if not owners or bad:
            raise ValueError(f"owners must be e-mail addresses or team:NAME, comma-separated, not {value!r}")
        return ",".join(owners)

    @model_validator(mode="after")
    def _partitions_end_after_start(self) -> "Settings":
        if self.partitions_end is not None and self.partitions_end < self.partitions_start:
            raise ValueError(f"partitions_end {self.partitions_end} is before partitions_start {self.partitions_start}")
        return self

    @property
    def owners(self) -> list[str]:
        """`asset_owners` as a list."""
        return self.asset_owners.split(",")

    @property
    def effective_backlog_date(self) -> date:
        """Partition date given to rows without a timestamp (the legacy backlog)."""
        return self.backlog_date or self.partitions_start

    @property
    def effective_text_retention_days(self) -> int:
        """Days conversation text is kept after consolidation (default: the archive's retention)."""
        return self.text_retention_days or self.archive_retention_days

    @property
    def home_path(self) -> Path:
        """`home` with `~` expanded, made absolute."""
        return self.home.expanduser().resolve()

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> "Settings":
        """Build settings from `MEMORY_PIPELINE_*` variables; unset or empty variables take the default.

        Raises SettingError naming the variable for ANY failure to parse it, whatever the exception (a
        validator's ValueError, a library error that escaped one): each variable is first validated alone, the
        others at their defaults, so the culprit is known; then all together. An unknown `MEMORY_PIPELINE_*`
        variable is refused first (`unknown_variable`)."""
        env = os.environ if environ is None else environ
        env = {**saved_settings(env), **env}
        unknown_variable(env, {name.upper() for name in cls.model_fields} | OTHER_VARIABLES)
        values = {}
        for name in cls.model_fields:
            raw = env.get(ENV_PREFIX + name.upper())
            if raw is not None and raw.strip() != "":
                values[name] = raw.strip()
        for name, raw in values.items():
            try:
                cls.model_validate({name: raw}, context={"environ": env})
            except Exception as exc:  # noqa: BLE001 - any error while parsing one variable is that variable's
                raise SettingError(ENV_PREFIX + name.upper(), first_error(exc)) from None
        try:
            return cls.model_validate(values, context={"environ": env})
        except Exception as exc:  # noqa: BLE001 - a rule across several variables
            variable = "MEMORY_PIPELINE_*"
            if isinstance(exc, ValidationError) and exc.errors()[0]["loc"]:
                variable = ENV_PREFIX + str(exc.errors()[0]["loc"][0]).upper()
            raise SettingError(variable, first_error(exc)) from None
