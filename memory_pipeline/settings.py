"""Every setting of memory_pipeline, read from environment variables into one pydantic model.

The README's configuration table lists the same variables; `Settings.from_env()` is the only reader.
"""

from __future__ import annotations

import os
import re
from datetime import date
from pathlib import Path
from typing import Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import BaseModel, Field, ValidationInfo, field_validator

ENV_PREFIX = "MEMORY_PIPELINE_"

# Default time-to-live per category, in days. DESIGN section 4: "years for a contact preference, weeks for a
# purchase intent"; a category-level default until attribute-level TTLs land.
DEFAULT_TTL_DAYS = {"preference": 730, "decision": 365, "client_info": 1095}


class Settings(BaseModel):
    """memory_pipeline configuration. Field `x` is read from `MEMORY_PIPELINE_X` (upper case).

    Raises pydantic.ValidationError on a malformed value (bad timezone, bad regex, bad date).
    """

    database_url: str | None = Field(
        None, description="libpq URL of your PostgreSQL; unset = embedded server in `home`/pgdata"
    )
    home: Path = Field(
        Path("~/.memory_pipeline"),
        description="state directory: embedded database (pgdata) and DAGSTER_HOME (dagster)",
    )
    source_table: str = Field("n8n_chat_histories", description="n8n Postgres Chat Memory table name")
    source_schema: str = Field("public", description="schema of the n8n table")
    schema_name: str = Field("memory_pipeline", description="schema holding the pipeline's own tables")
    dagster_schema: str = Field("dagster", description="schema of Dagster's own storage tables (runs, event log)")
    timezone: str = Field("UTC", description="timezone of the daily partitions and the 03:00 schedule")
    partitions_start: date = Field(date(2023, 1, 1), description="first daily partition (YYYY-MM-DD)")
    idle_gap_minutes: int = Field(
        180, gt=0, description="a gap longer than this splits a session key's messages into conversations"
    )
    max_conversation_hours: int = Field(
        24, gt=0, description="a conversation that never pauses is cut after this many hours, so it can close"
    )
    backlog_date: date | None = Field(
        None, description="partition that takes legacy rows without created_at; default partitions_start"
    )
    user_key_regex: str | None = Field(
        None, description="regex with a named group `user` mapping session key -> user key; unset = identity"
    )
    archive_retention_days: int = Field(30, ge=1, description="days archived raw rows are kept before dropping")
    max_message_chars: int = Field(
        20_000, gt=0, description="longer message text is cut to this many characters in the transcript"
    )
    extractor: str = Field("offline", description="summary and fact backend: `offline` (rules) or `openai` (LLM)")
    # -- LLM backend (extractor=openai). The key and the server come from the openai SDK's own variables
    # OPENAI_API_KEY and OPENAI_BASE_URL: never a field here, so they never reach the UI or metadata.
    summary_model: str = Field("gpt-4o-mini", description="model of the session_summaries stage")
    extraction_model: str = Field("gpt-4o-mini", description="model of the extracted_facts stage")
    llm_timeout_seconds: float = Field(60.0, gt=0, description="per-request timeout given to the openai SDK")
    llm_max_retries: int = Field(3, ge=0, description="openai SDK retries of 408/409/429/5xx (honouring Retry-After)")
    structured_output: Literal["auto", "json_schema", "json_object", "prompt"] = Field(
        "auto", description="how JSON is asked for; auto falls back json_schema -> json_object -> prompt"
    )
    llm_max_in_flight: int = Field(4, ge=1, description="LLM requests in flight at once inside one step")
    llm_chunk_tokens: int = Field(
        6000, ge=200, description="transcript tokens per request; a longer conversation is sent in chunks"
    )
    # gpt-4o-mini's list prices (openai.com/api/pricing, USD per million tokens), for the metadata's estimate.
    llm_input_price_per_million: float = Field(0.15, ge=0, description="USD per million prompt tokens")
    llm_output_price_per_million: float = Field(0.60, ge=0, description="USD per million completion tokens")
    embedding_dimensions: int = Field(1536, gt=0, description="size of agent_facts.embedding (vector(N))")

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
        if "user" not in re.compile(value).groupindex:
            raise ValueError("user_key_regex needs a named group (?P<user>...)")
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

    @property
    def effective_backlog_date(self) -> date:
        """Partition date given to rows without a timestamp (the legacy backlog)."""
        return self.backlog_date or self.partitions_start

    @property
    def home_path(self) -> Path:
        """`home` with `~` expanded, made absolute."""
        return self.home.expanduser().resolve()

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> "Settings":
        """Build settings from `MEMORY_PIPELINE_*` variables; unset or empty variables take the default."""
        env = os.environ if environ is None else environ
        values = {}
        for name in cls.model_fields:
            raw = env.get(ENV_PREFIX + name.upper())
            if raw is not None and raw.strip() != "":
                values[name] = raw.strip()
        return cls.model_validate(values, context={"environ": env})
