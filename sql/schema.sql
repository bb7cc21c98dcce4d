-- memory_pipeline schema. Applied idempotently by `memory-pipeline init-db` and before every run.
-- Placeholders: {schema} (the pipeline's schema, an identifier), {dagster_schema} (where Dagster's own storage
-- tables go), {dims} (embedding size, an integer).
-- Nothing here touches the n8n table: see add_time_column.sql for the one opt-in change to it.

CREATE EXTENSION IF NOT EXISTS vector;
CREATE SCHEMA IF NOT EXISTS {schema};
CREATE SCHEMA IF NOT EXISTS {dagster_schema};

-- One row: a random salt for conversation ids, so that an id in Dagster's event log cannot be traced back to a
-- session key (often a phone number) by hashing candidates.
CREATE TABLE IF NOT EXISTS {schema}.installation (
    singleton         boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    id_salt           text NOT NULL DEFAULT gen_random_uuid()::text
);
INSERT INTO {schema}.installation DEFAULT VALUES ON CONFLICT DO NOTHING;

-- Closed conversations, one row each; the partition is the local day of the last message.
CREATE TABLE IF NOT EXISTS {schema}.conversations (
    conversation_id   text PRIMARY KEY,
    partition_date    date NOT NULL,
    session_key       text NOT NULL,
    user_key          text NOT NULL,
    started_at        timestamptz,
    ended_at          timestamptz,
    is_legacy         boolean NOT NULL,
    message_ids       bigint[] NOT NULL,
    turn_count        integer NOT NULL,
    transcript        jsonb NOT NULL,          -- list of turns: message_id, role, text, at, tool_evidence
    transcript_hash   text NOT NULL,
    closed_as_of      timestamptz NOT NULL,    -- the run's clock when the conversation was found closed
    idle_gap_minutes  integer NOT NULL,
    facts_extracted_at timestamptz,            -- set once its facts are extracted; only then is it archived
    extracted_with    text,                    -- extractor/model/prompt version that extracted them
    recorded_at       timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE {schema}.conversations ADD COLUMN IF NOT EXISTS extracted_with text;
CREATE INDEX IF NOT EXISTS conversations_partition_idx ON {schema}.conversations (partition_date);
CREATE INDEX IF NOT EXISTS conversations_user_idx ON {schema}.conversations (user_key);
CREATE INDEX IF NOT EXISTS conversations_message_ids_idx ON {schema}.conversations USING gin (message_ids);

-- Source rows that could not be parsed (or carry no text), with the reason; the rows themselves are archived.
CREATE TABLE IF NOT EXISTS {schema}.message_rejections (
    message_id        bigint PRIMARY KEY,
    conversation_id   text NOT NULL,
    partition_date    date NOT NULL,
    user_key          text NOT NULL,
    status            text NOT NULL CHECK (status IN ('rejected', 'skipped')),
    reason            text NOT NULL,
    recorded_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS message_rejections_partition_idx ON {schema}.message_rejections (partition_date);

CREATE TABLE IF NOT EXISTS {schema}.session_summaries (
    conversation_id   text PRIMARY KEY REFERENCES {schema}.conversations ON DELETE CASCADE,
    partition_date    date NOT NULL,
    user_key          text NOT NULL,
    summary           text NOT NULL,
    transcript_hash   text NOT NULL,
    extractor         text NOT NULL,
    model             text NOT NULL,
    prompt_version    text NOT NULL,
    input_tokens      integer NOT NULL DEFAULT 0,
    output_tokens     integer NOT NULL DEFAULT 0,
    recorded_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS session_summaries_partition_idx ON {schema}.session_summaries (partition_date);

-- A re-run pays no tokens twice: summaries cached by (transcript hash, prompt version, model).
CREATE TABLE IF NOT EXISTS {schema}.summary_cache (
    transcript_hash   text NOT NULL,
    prompt_version    text NOT NULL,
    model             text NOT NULL,
    summary           text NOT NULL,
    input_tokens      integer NOT NULL DEFAULT 0,
    output_tokens     integer NOT NULL DEFAULT 0,
    created_at        timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (transcript_hash, prompt_version, model)
);

-- Every candidate an extractor proposed, accepted or rejected (with its reason).
CREATE TABLE IF NOT EXISTS {schema}.fact_candidates (
    candidate_id      text PRIMARY KEY,
    partition_date    date NOT NULL,
    conversation_id   text NOT NULL REFERENCES {schema}.conversations ON DELETE CASCADE,
    user_key          text NOT NULL,
    position          integer NOT NULL,
    category          text NOT NULL,
    attribute         text,
    value             text,
    fact              text NOT NULL,
    quote             text NOT NULL,
    status            text NOT NULL CHECK (status IN ('accepted', 'rejected')),
    reject_reason     text,
    quote_message_id  bigint,
    quote_speaker     text,
    said_at           timestamptz,
    extractor         text NOT NULL,
    model             text NOT NULL,
    prompt_version    text NOT NULL,
    recorded_at       timestamptz NOT NULL DEFAULT now()
);
-- retraction: the user withdrew what `attribute` held ("I no longer like Vim."); it ends that fact, never becomes one.
ALTER TABLE {schema}.fact_candidates ADD COLUMN IF NOT EXISTS retraction boolean NOT NULL DEFAULT false;
CREATE INDEX IF NOT EXISTS fact_candidates_partition_idx ON {schema}.fact_candidates (partition_date);
CREATE INDEX IF NOT EXISTS fact_candidates_conversation_idx ON {schema}.fact_candidates (conversation_id);
CREATE INDEX IF NOT EXISTS fact_candidates_user_idx ON {schema}.fact_candidates (user_key) WHERE status = 'accepted';

-- The facts the agent recalls. The first seven columns and the partial unique index are the original design;
-- the rest serve quotes, versioning (supersede), time-to-live and recall.
CREATE TABLE IF NOT EXISTS {schema}.agent_facts (
    id                bigserial PRIMARY KEY,
    user_key          text NOT NULL,
    category          text NOT NULL,
    fact              text NOT NULL,
    source_session    text NOT NULL,           -- conversation_id the fact was first said in
    valid_from        timestamptz NOT NULL,    -- when it was said (the quote's message time)
    superseded_at     timestamptz,
    attribute         text,
    value             text,
    quote             text NOT NULL,
    quote_message_id  bigint,
    quote_speaker     text,
    embedding         vector({dims}),
    recorded_at       timestamptz NOT NULL DEFAULT now(),
    last_seen_at      timestamptz NOT NULL,
    expires_at        timestamptz,
    superseded_by     bigint REFERENCES {schema}.agent_facts (id) ON DELETE SET NULL,
    candidate_id      text NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS agent_facts_active_unique
    ON {schema}.agent_facts (user_key, category, md5(fact)) WHERE superseded_at IS NULL;
CREATE INDEX IF NOT EXISTS agent_facts_user_recent_idx
    ON {schema}.agent_facts (user_key, valid_from DESC) WHERE superseded_at IS NULL;

-- Raw n8n rows of consolidated conversations, kept `archive_retention_days` after archiving.
CREATE TABLE IF NOT EXISTS {schema}.chat_archive (
    id                bigint PRIMARY KEY,      -- the n8n row id
    session_id        text NOT NULL,
    message           text NOT NULL,           -- the row's message as text, exactly as the source held it
    created_at        timestamptz,
    conversation_id   text NOT NULL,
    partition_date    date NOT NULL,
    archived_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS chat_archive_session_idx ON {schema}.chat_archive (session_id, created_at);
CREATE INDEX IF NOT EXISTS chat_archive_partition_idx ON {schema}.chat_archive (partition_date);
CREATE INDEX IF NOT EXISTS chat_archive_created_idx ON {schema}.chat_archive (created_at);

-- LLM extraction answers (the model's facts before quote verification), cached like summaries by (transcript
-- hash, prompt version, model): re-materializing a day, even after a re-split that changed conversation ids,
-- sends no request. Filled by the extraction stage, or by the summary stage when one request answered both.
CREATE TABLE IF NOT EXISTS {schema}.extraction_cache (
    transcript_hash   text NOT NULL,
    prompt_version    text NOT NULL,
    model             text NOT NULL,
    facts             jsonb NOT NULL,          -- list of ExtractedFact objects
    input_tokens      integer NOT NULL DEFAULT 0,
    output_tokens     integer NOT NULL DEFAULT 0,
    created_at        timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (transcript_hash, prompt_version, model)
);

-- The last failed LLM call of a conversation per stage, with its reason code (invalid_output, refusal, timeout,
-- rate_limited, server_error, ...); removed when the stage succeeds for it. A failed conversation keeps its raw
-- rows (it is not archived) and is tried again at the next materialization.
CREATE TABLE IF NOT EXISTS {schema}.extraction_failures (
    conversation_id   text NOT NULL REFERENCES {schema}.conversations ON DELETE CASCADE,
    stage             text NOT NULL,           -- session_summaries | extracted_facts
    partition_date    date NOT NULL,
    reason            text NOT NULL,
    model             text NOT NULL,
    prompt_version    text NOT NULL,
    attempts          integer NOT NULL DEFAULT 1,
    recorded_at       timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (conversation_id, stage)
);
CREATE INDEX IF NOT EXISTS extraction_failures_partition_idx ON {schema}.extraction_failures (partition_date);
