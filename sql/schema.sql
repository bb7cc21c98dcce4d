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
-- (partition_date, conversation_id): the LLM stages read a partition in pages of conversation_id order (keyset
-- pagination), each page an index range; it also serves every lookup by partition_date alone, so it replaces
-- the earlier (partition_date) index.
CREATE INDEX IF NOT EXISTS conversations_partition_id_idx
    ON {schema}.conversations (partition_date, conversation_id);
DROP INDEX IF EXISTS {schema}.conversations_partition_idx;
CREATE INDEX IF NOT EXISTS conversations_user_idx ON {schema}.conversations (user_key);
CREATE INDEX IF NOT EXISTS conversations_message_ids_idx ON {schema}.conversations USING gin (message_ids);
-- (session_key, partition_date): closed_sessions' overlap deletion looks up, for each conversation of a write
-- batch, the stored ones of its session key and partition (a few rows) instead of sorting the partition's.
CREATE INDEX IF NOT EXISTS conversations_session_partition_idx ON {schema}.conversations (session_key, partition_date);

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
-- The quote check reads a partition's accepted candidates in pages of conversation_id order.
CREATE INDEX IF NOT EXISTS fact_candidates_accepted_partition_idx
    ON {schema}.fact_candidates (partition_date, conversation_id) WHERE status = 'accepted';

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
-- A partition's facts are found by the conversation they were first said in (partition_* metadata).
CREATE INDEX IF NOT EXISTS agent_facts_source_session_idx ON {schema}.agent_facts (source_session);

-- Recall (reading facts back into the agent). The functions and the n8n view are in recall.sql.
-- Text search configuration of the fact's language ('english', 'french', ... or 'simple'), set after
-- reconciliation; `fts` is the fact's tsvector in that configuration (NULL config reads as 'simple').
ALTER TABLE {schema}.agent_facts ADD COLUMN IF NOT EXISTS fts_config regconfig;
ALTER TABLE {schema}.agent_facts ADD COLUMN IF NOT EXISTS fts tsvector
    GENERATED ALWAYS AS (to_tsvector(coalesce(fts_config, 'simple'::regconfig), fact)) STORED;
-- The document metadata n8n's PGVector Store node returns and filters on (`metadata->>'user_key' = $n`). A
-- stored column, so that filter is served by the expression index below. Timestamps are written in UTC with
-- an explicit format, which makes the function truly immutable (a generated column requires it).
CREATE OR REPLACE FUNCTION {schema}.fact_metadata(
    p_id bigint, p_user_key text, p_category text, p_attribute text, p_valid_from timestamptz
) RETURNS jsonb LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT jsonb_build_object(
        'fact_id', p_id, 'user_key', p_user_key, 'category', p_category, 'attribute', p_attribute,
        'valid_from', to_char(p_valid_from AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'))
$$;
ALTER TABLE {schema}.agent_facts ADD COLUMN IF NOT EXISTS metadata jsonb
    GENERATED ALWAYS AS ({schema}.fact_metadata(id, user_key, category, attribute, valid_from)) STORED;
CREATE INDEX IF NOT EXISTS agent_facts_metadata_user_idx
    ON {schema}.agent_facts ((metadata ->> 'user_key')) WHERE superseded_at IS NULL;
-- What related fact versions (issue 26; added to existing tables here): `relation`, the rule that ended a
-- version (domain.reconcile.RELATIONS: same_slot, slot_family, ..., judged; NULL while active); `repeats`,
-- the candidates that said it again, counted by the rule that made each a repeat; `owners`, the slots or objects
-- its value belongs to (domain.owners, e.g. ["slot:job"]), which the contradiction check groups by.
ALTER TABLE {schema}.agent_facts ADD COLUMN IF NOT EXISTS relation text;
ALTER TABLE {schema}.agent_facts ADD COLUMN IF NOT EXISTS repeats jsonb NOT NULL DEFAULT '{{}}';
ALTER TABLE {schema}.agent_facts ADD COLUMN IF NOT EXISTS owners jsonb NOT NULL DEFAULT '[]';
-- Approximate nearest neighbours by cosine distance (pgvector HNSW); recall filters by user with iterative
-- index scans (pgvector 0.8), or the planner takes the user index above when a user has few facts.
-- Facts still to label and to embed (the stage looks for them every night).
CREATE INDEX IF NOT EXISTS agent_facts_unlabelled_idx ON {schema}.agent_facts (id)
    WHERE fts_config IS NULL AND superseded_at IS NULL;
CREATE INDEX IF NOT EXISTS agent_facts_unembedded_idx ON {schema}.agent_facts (id)
    WHERE embedding IS NULL AND superseded_at IS NULL;
CREATE INDEX IF NOT EXISTS agent_facts_embedding_hnsw
    ON {schema}.agent_facts USING hnsw (embedding vector_cosine_ops);

-- Embeddings already computed, by (sha256 of the text, model, dimensions): a fact said again in other words
-- elsewhere, or a re-run, pays nothing twice. Holds vectors and hashes, never the text.
CREATE TABLE IF NOT EXISTS {schema}.embedding_cache (
    text_sha256       text NOT NULL,
    model             text NOT NULL,
    dimensions        integer NOT NULL,
    embedding         vector NOT NULL,
    created_at        timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (text_sha256, model, dimensions)
);

-- Recall reinforcement (MemoryBank's forgetting curve, Zhong et al., AAAI 2024): when and how often a fact
-- was recalled through the recall functions. Kept apart from agent_facts so that the nightly reconciliation,
-- which rewrites expires_at from last_seen_at + time-to-live, never undoes an extension, and so that a recall
-- (on every agent call) does not rewrite fact rows and their vector index entries.
CREATE TABLE IF NOT EXISTS {schema}.fact_recalls (
    fact_id           bigint PRIMARY KEY REFERENCES {schema}.agent_facts (id) ON DELETE CASCADE,
    user_key          text NOT NULL,
    recall_count      integer NOT NULL,         -- every recall
    recall_days       integer NOT NULL,         -- distinct days with a recall: the memory strength
    first_recalled_at timestamptz NOT NULL,
    last_recalled_at  timestamptz NOT NULL,
    recalled_until    timestamptz NOT NULL      -- the fact stays recallable at least until then
);
CREATE INDEX IF NOT EXISTS fact_recalls_user_idx ON {schema}.fact_recalls (user_key, recalled_until);

-- Raw n8n rows of consolidated conversations, kept `archive_retention_days` after archiving.
CREATE TABLE IF NOT EXISTS {schema}.chat_archive (
    id                bigint PRIMARY KEY,      -- the n8n row id
    session_id        text NOT NULL,
    message           text,                    -- the row's message as text, exactly as the source held it (NULL
                                               -- from a `message` column someone made nullable)
    created_at        timestamptz,
    conversation_id   text NOT NULL,
    partition_date    date NOT NULL,
    archived_at       timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE {schema}.chat_archive ALTER COLUMN message DROP NOT NULL;  -- archives made before it was nullable
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

-- Erasure (memory_pipeline/erasure.py). One audit row per request: the key only as a salted sha256, the number
-- of rows removed per table, the time. Nothing else of the erased user is kept.
CREATE TABLE IF NOT EXISTS {schema}.erasure_log (
    erasure_id        bigserial PRIMARY KEY,
    key_hash          text NOT NULL,           -- sha256 hex of installation.id_salt, 0x1f, user key
    scope             text NOT NULL CHECK (scope IN ('user', 'fact', 'retraction', 'rows')),
    counts            jsonb NOT NULL,          -- table name -> rows deleted or cleared
    erased_at         timestamptz NOT NULL DEFAULT now()
);

-- Installations from before `forget --row` (scope 'rows') have the narrower check: widened once.
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conrelid = '{schema}.erasure_log'::regclass
                   AND conname = 'erasure_log_scope_check' AND pg_get_constraintdef(oid) LIKE '%rows%') THEN
        ALTER TABLE {schema}.erasure_log DROP CONSTRAINT IF EXISTS erasure_log_scope_check;
        ALTER TABLE {schema}.erasure_log ADD CONSTRAINT erasure_log_scope_check
            CHECK (scope IN ('user', 'fact', 'retraction', 'rows'));
    END IF;
END $$;

-- Facts forgotten on request: reconciliation ignores a user's candidates said up to `said_before` whose slot
-- (single-valued attribute, or category + fact text) hashes to `slot_hash` (salted sha256: no fact text here),
-- so a re-extraction cannot rebuild them; anything said later is remembered again.
CREATE TABLE IF NOT EXISTS {schema}.forgotten_facts (
    user_key          text NOT NULL,
    slot_hash         text NOT NULL,
    said_before       timestamptz NOT NULL,
    PRIMARY KEY (user_key, slot_hash)
);

-- Text retention: set when a conversation's transcript (and its summary, cached summary, rejected candidates'
-- text) was dropped after MEMORY_PIPELINE_TEXT_RETENTION_DAYS; ids, hashes, times and counts stay.
ALTER TABLE {schema}.conversations ADD COLUMN IF NOT EXISTS text_pruned_at timestamptz;
CREATE INDEX IF NOT EXISTS conversations_unpruned_idx
    ON {schema}.conversations (facts_extracted_at) WHERE text_pruned_at IS NULL;
ALTER TABLE {schema}.session_summaries ALTER COLUMN summary DROP NOT NULL;

-- Grounding (memory_pipeline/domain/grounding.py): a summary naming a date, number or name its conversation does
-- not hold is rejected with its reason; its text is stored nowhere (summary NULL here, '' in the cache, which
-- keeps the reason so a re-run asks nothing again). `sentences`: the stored summary's sentence count.
ALTER TABLE {schema}.session_summaries ADD COLUMN IF NOT EXISTS rejected_reason text;
ALTER TABLE {schema}.session_summaries ADD COLUMN IF NOT EXISTS sentences integer;
ALTER TABLE {schema}.summary_cache ADD COLUMN IF NOT EXISTS rejected_reason text;

-- Incremental reconciliation (memory_pipeline/stages/folds.py). `folded_at`: when reconciliation folded this accepted
-- candidate into agent_facts (NULL: not yet, so the next reconciliation of its user reads it).
ALTER TABLE {schema}.fact_candidates ADD COLUMN IF NOT EXISTS folded_at timestamptz;
CREATE INDEX IF NOT EXISTS fact_candidates_unfolded_idx
    ON {schema}.fact_candidates (user_key) WHERE status = 'accepted' AND folded_at IS NULL;
-- One row per user reconciled: the said order (said_at, message id, conversation, position, candidate id) of
-- the last candidate folded, the rule the fold used (time-to-live, near-duplicate threshold), and whether a
-- folded candidate was changed or deleted since (then the next reconciliation folds the user from scratch).
-- Holds ids and times only, never text; an erasure deletes the user's row.
CREATE TABLE IF NOT EXISTS {schema}.fact_folds (
    user_key            text PRIMARY KEY,
    said_at             timestamptz,
    quote_message_id    bigint,
    conversation_id     text,
    position            integer,
    candidate_id        text,
    fold_rule           text NOT NULL,
    needs_refold        boolean NOT NULL DEFAULT false,
    folded_at           timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS fact_folds_refold_idx ON {schema}.fact_folds (user_key) WHERE needs_refold;
-- The model's verdicts on pairs of one user's facts the owner rules leave apart (domain.relations, issue 26):
-- `relation_key` hashes both facts' content, `verdict` is update, same or different. Every fold of the user under
-- the same model and relation prompt reads them, so a re-run sends no request. Hashes and verdicts only, never
-- text; an erasure deletes the user's rows.
CREATE TABLE IF NOT EXISTS {schema}.fact_relations (
    user_key            text NOT NULL,
    model               text NOT NULL,
    prompt_version      text NOT NULL,
    relation_key        text NOT NULL,
    verdict             text NOT NULL CHECK (verdict IN ('update', 'same', 'different')),
    judged_at           timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_key, model, prompt_version, relation_key)
);
-- Requests to fold a user from scratch, appended by the trigger below and deleted by the fold that saw them
-- (by id: a request committed after the fold read stays for the next one). Append-only, without a unique key, so
-- a writer never waits on another's row: two transactions deleting candidates of the same users in opposite
-- orders cannot deadlock here (updating one fact_folds row per user could). Ids and times only, never text.
CREATE TABLE IF NOT EXISTS {schema}.fold_requests (
    request_id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_key            text NOT NULL,
    requested_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS fold_requests_user_idx ON {schema}.fold_requests (user_key);
-- A folded candidate deleted (re-extraction, a re-split conversation's cascade, forget, erasure) or changed in
-- what the fold reads: its user (old and new key) is folded from scratch next time. The quote is left out: the
-- prune_* queries blank quotes of folded candidates together with the versions' quotes.
CREATE OR REPLACE FUNCTION {schema}.flag_refold() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO {schema}.fold_requests (user_key) VALUES (OLD.user_key);
    IF TG_OP = 'UPDATE' AND NEW.user_key <> OLD.user_key THEN
        INSERT INTO {schema}.fold_requests (user_key) VALUES (NEW.user_key);
    END IF;
    RETURN NULL;
END
$$;
CREATE OR REPLACE TRIGGER fact_candidates_folded_deleted AFTER DELETE ON {schema}.fact_candidates
    FOR EACH ROW WHEN (OLD.folded_at IS NOT NULL) EXECUTE FUNCTION {schema}.flag_refold();
CREATE OR REPLACE TRIGGER fact_candidates_folded_changed AFTER UPDATE ON {schema}.fact_candidates
    FOR EACH ROW WHEN (OLD.folded_at IS NOT NULL AND
        (OLD.user_key, OLD.status, OLD.said_at, OLD.category, OLD.attribute, OLD.value, OLD.fact,
         OLD.quote_message_id, OLD.quote_speaker, OLD.conversation_id, OLD.position, OLD.retraction)
        IS DISTINCT FROM
        (NEW.user_key, NEW.status, NEW.said_at, NEW.category, NEW.attribute, NEW.value, NEW.fact,
         NEW.quote_message_id, NEW.quote_speaker, NEW.conversation_id, NEW.position, NEW.retraction))
    EXECUTE FUNCTION {schema}.flag_refold();

-- Indexes that keep the nightly statements' cost flat in the history held (each serves a named query of
-- facts.sql, archive.sql): a user's every version (full folds, fact_totals, erasure), conversations pruned just now
-- (prune_summaries, prune_rejected_candidates, prune_repeat_quotes: `text_pruned_at = now()`), transcripts still
-- holding text (prune_*_cache: NOT EXISTS by transcript hash), quotes past time-to-live
-- (prune_expired_fact_quotes), archive rows past retention (drop_expired_archive_rows).
CREATE INDEX IF NOT EXISTS agent_facts_user_idx ON {schema}.agent_facts (user_key);
CREATE INDEX IF NOT EXISTS conversations_text_pruned_idx ON {schema}.conversations (text_pruned_at);
CREATE INDEX IF NOT EXISTS conversations_unpruned_hash_idx
    ON {schema}.conversations (transcript_hash) WHERE text_pruned_at IS NULL;
CREATE INDEX IF NOT EXISTS agent_facts_quoted_expiry_idx ON {schema}.agent_facts (expires_at) WHERE quote <> '';
CREATE INDEX IF NOT EXISTS chat_archive_archived_idx ON {schema}.chat_archive (archived_at);
-- Cached answers older than the text retention (prune_summary_cache, prune_extraction_cache).
CREATE INDEX IF NOT EXISTS summary_cache_created_idx ON {schema}.summary_cache (created_at);
CREATE INDEX IF NOT EXISTS extraction_cache_created_idx ON {schema}.extraction_cache (created_at);

-- Conversation search ("search my memory" finds conversations; functions in recall.sql). Added to
-- session_summaries here, beside what the summary stage writes: `fts_config`, the summary's text search
-- configuration (set with the facts' after reconciliation, embeddings.label_languages; NULL reads as 'simple'),
-- `fts` its tsvector, `embedding` (same model and size as the facts', when embeddings are on), `withheld_at`
-- (set by `forget` when a forgotten fact came from this conversation: the summary may repeat it, so it is
-- never shown or written again, see the trigger below).
ALTER TABLE {schema}.session_summaries ADD COLUMN IF NOT EXISTS fts_config regconfig;
ALTER TABLE {schema}.session_summaries ADD COLUMN IF NOT EXISTS fts tsvector
    GENERATED ALWAYS AS (to_tsvector(coalesce(fts_config, 'simple'::regconfig), coalesce(summary, ''))) STORED;
ALTER TABLE {schema}.session_summaries ADD COLUMN IF NOT EXISTS embedding vector({dims});
ALTER TABLE {schema}.session_summaries ADD COLUMN IF NOT EXISTS withheld_at timestamptz;
-- A search reads one user's searchable summaries through this index (a user has a few hundred at most), then
-- matches their fts: never a scan of other users' rows. GIN on fts serves a match across one large user.
CREATE INDEX IF NOT EXISTS session_summaries_user_idx ON {schema}.session_summaries (user_key, partition_date)
    WHERE summary IS NOT NULL AND withheld_at IS NULL;
CREATE INDEX IF NOT EXISTS session_summaries_fts_idx ON {schema}.session_summaries USING gin (fts);
CREATE INDEX IF NOT EXISTS session_summaries_embedding_hnsw
    ON {schema}.session_summaries USING hnsw (embedding vector_cosine_ops);
-- Summaries still to label and to embed (the active_facts stage looks for them every night).
CREATE INDEX IF NOT EXISTS session_summaries_unlabelled_idx ON {schema}.session_summaries (conversation_id)
    WHERE fts_config IS NULL AND summary IS NOT NULL;
CREATE INDEX IF NOT EXISTS session_summaries_unembedded_idx ON {schema}.session_summaries (conversation_id)
    WHERE embedding IS NULL AND summary IS NOT NULL AND withheld_at IS NULL;
-- A summary rewritten (a re-run, text retention's NULL) loses its language label and embedding, which were of
-- the old text; a withheld summary stays withheld and without text, whatever a later run writes.
CREATE OR REPLACE FUNCTION {schema}.summary_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.withheld_at IS NOT NULL THEN
        NEW.withheld_at := OLD.withheld_at;
    END IF;
    IF NEW.withheld_at IS NOT NULL THEN
        NEW.summary := NULL;
    END IF;
    IF NEW.summary IS DISTINCT FROM OLD.summary THEN
        NEW.fts_config := NULL;
        NEW.embedding := NULL;
    END IF;
    RETURN NEW;
END
$$;
CREATE OR REPLACE TRIGGER session_summaries_changed BEFORE UPDATE ON {schema}.session_summaries
    FOR EACH ROW EXECUTE FUNCTION {schema}.summary_changed();

-- Recalls of conversations through the conversation search (recall.sql), as fact_recalls for facts: how often
-- and on how many distinct days (the strength). Ids, counts and times only. The summary's life is not extended
-- by them (text retention bounds it, docs/erasure-and-retention.md); the conversation's facts are reinforced.
CREATE TABLE IF NOT EXISTS {schema}.conversation_recalls (
    conversation_id   text PRIMARY KEY REFERENCES {schema}.conversations ON DELETE CASCADE,
    user_key          text NOT NULL,
    recall_count      integer NOT NULL,
    recall_days       integer NOT NULL,
    first_recalled_at timestamptz NOT NULL,
    last_recalled_at  timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS conversation_recalls_user_idx ON {schema}.conversation_recalls (user_key);

-- The shards of a night that finished (issue 28): written at the end of a shard's run (its last asset), read by
-- the check every_shard_consolidated, which is red until every shard of the day under the current count
-- (MEMORY_PIPELINE_SHARDS) has a row. A day run under another count keeps its rows; they count for that count only.
CREATE TABLE IF NOT EXISTS {schema}.night_shards (
    partition_date date NOT NULL,
    shard_index    integer NOT NULL,
    shard_count    integer NOT NULL,
    finished_at    timestamptz NOT NULL,
    run_id         text NOT NULL,
    PRIMARY KEY (partition_date, shard_index, shard_count)
);

-- A summary's grounding, sentence by sentence (memory_pipeline/domain/grounding.py): `sentences_dropped` counts
-- the sentences of the model's answer left out because they named what the conversation does not hold or were
-- written in another language than the conversation's (memory_pipeline/domain/summaries.py, in_language); the
-- summary stored is the rest, completed with lines said (cached too, so a re-run reports the same count).
ALTER TABLE {schema}.session_summaries ADD COLUMN IF NOT EXISTS sentences_dropped integer NOT NULL DEFAULT 0;
ALTER TABLE {schema}.summary_cache ADD COLUMN IF NOT EXISTS sentences_dropped integer NOT NULL DEFAULT 0;
