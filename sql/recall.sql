-- Recall: reading facts back into the agent. Applied after schema.sql, idempotently (CREATE OR REPLACE), by
-- `memory-pipeline init-db` and before every run. Callable from n8n's Postgres node and any client.
-- Placeholders (filled with psycopg.sql from settings): {schema} (identifier), {timezone} (the partitions'
-- timezone, for the date printed on each prompt line), {block_facts} (default N of the prompt block),
-- {extension_days} and {max_extension_days} (recall reinforcement), {ef_search} (hnsw.ef_search of a search),
-- {vector_schema} (the vector extension's schema, an identifier), {text_retention_days} (how long conversation text
-- and summaries are kept after consolidation).
--
-- A fact is recallable when it is active (superseded_at IS NULL) and within its time-to-live at `p_as_of`
-- (default now()): expires_at is NULL or later, or recalls have kept it alive (fact_recalls.recalled_until).
-- Every function filters on the user key it is given by equality, as a bound value: a key is never SQL text.
-- The entry points (recall_block, search_memory_vector, search_memory_text, search_conversations_text,
-- search_conversations_vector) run with their owner's rights
-- (SECURITY DEFINER, with a fixed search_path: {vector_schema} is where the vector extension lives), so the
-- role n8n connects with needs EXECUTE on them and no right on the tables; nobody else may call them (REVOKE
-- below): grant EXECUTE to that role (README, "Rights for n8n's role").

-- Memory strength after recalls, MemoryBank (Zhong et al., "MemoryBank: Enhancing Large Language Models with
-- Long-Term Memory", AAAI 2024), after Ebbinghaus: retention R = exp(-t / S); a recall adds 1 to the strength S
-- and resets t. With a fixed forgetting threshold, the time a memory survives is proportional to S. Here S is
-- the number of distinct days (UTC) on which a fact was recalled (rehearsing it many times in one day is one
-- rehearsal), and a recalled fact stays recallable until last recall + S x {extension_days} days, at most
-- {max_extension_days} days after the last recall. The category's time-to-live (expires_at, rewritten by the
-- nightly reconciliation from the last time the user said it) is never shortened by this; a fact never
-- recalled fades on that schedule.
CREATE OR REPLACE FUNCTION {schema}.record_recalls(p_user_key text, p_fact_ids bigint[])
RETURNS void LANGUAGE sql VOLATILE AS $$
    INSERT INTO {schema}.fact_recalls AS r
        (fact_id, user_key, recall_count, recall_days, first_recalled_at, last_recalled_at, recalled_until)
    SELECT f.id, f.user_key, 1, 1, now(), now(),
           now() + make_interval(days => least({extension_days}, {max_extension_days}))
    FROM {schema}.agent_facts AS f
    WHERE f.id = ANY (p_fact_ids) AND f.user_key = p_user_key
    -- The lock waits for a nightly run deleting the version now, then skips it: without it, the foreign key
    -- check of a version deleted meanwhile fails the agent's whole recall.
    FOR KEY SHARE OF f
    ON CONFLICT (fact_id) DO UPDATE SET
        recall_count = r.recall_count + 1,
        recall_days = r.recall_days + (timezone('UTC', r.last_recalled_at)::date < timezone('UTC', now())::date)::int,
        last_recalled_at = now(),
        recalled_until = greatest(r.recalled_until, now() + make_interval(days => least(
            (r.recall_days + (timezone('UTC', r.last_recalled_at)::date < timezone('UTC', now())::date)::int)
                * {extension_days},
            {max_extension_days})))
$$;

-- The N most recent recallable facts of a user (inlined by the planner into the caller's query).
CREATE OR REPLACE FUNCTION {schema}.recent_facts(p_user_key text, p_n integer, p_as_of timestamptz DEFAULT now())
RETURNS TABLE (id bigint, category text, fact text, valid_from timestamptz)
LANGUAGE sql STABLE AS $$
    SELECT f.id, f.category, f.fact, f.valid_from
    FROM {schema}.agent_facts AS f
    WHERE f.user_key = p_user_key AND f.superseded_at IS NULL
      AND (f.expires_at IS NULL OR f.expires_at > p_as_of
           OR f.id = ANY (ARRAY(SELECT r.fact_id FROM {schema}.fact_recalls AS r
                                WHERE r.user_key = p_user_key AND r.recalled_until > p_as_of)))
    ORDER BY f.valid_from DESC, f.id DESC
    LIMIT greatest(p_n, 0)
$$;

-- (a) The prompt block: the N most recent recallable facts as one text value, one line each, oldest first:
--     `- [YYYY-MM-DD] fact` (the date the user said it, in the partitions' timezone). '' when there are none.
--     Whitespace runs in a fact (a newline, and NEL, U+2028, U+2029, which some readers break lines on) become
--     one space, so every fact stays on its line.
--     n8n: SELECT {schema}.recall_block($1) AS facts;  with $1 = the user key.
CREATE OR REPLACE FUNCTION {schema}.recall_block(
    p_user_key text, p_n integer DEFAULT {block_facts}, p_record boolean DEFAULT true,
    p_as_of timestamptz DEFAULT now()
) RETURNS text LANGUAGE plpgsql VOLATILE
SECURITY DEFINER SET search_path = pg_catalog, {vector_schema}, pg_temp
AS $$
DECLARE
    picked bigint[];
    block text;
BEGIN
    SELECT array_agg(c.id),
           string_agg('- [' || to_char(timezone({timezone}, c.valid_from), 'YYYY-MM-DD') || '] '
                      || regexp_replace(btrim(c.fact), '[\s\u0085\u2028\u2029]+', ' ', 'g'),
                      E'\n' ORDER BY c.valid_from, c.id)
      INTO picked, block
      FROM {schema}.recent_facts(p_user_key, p_n, p_as_of) AS c;
    IF p_record AND picked IS NOT NULL THEN
        PERFORM {schema}.record_recalls(p_user_key, picked);
    END IF;
    RETURN coalesce(block, '');
END
$$;

-- The k recallable facts of a user nearest to a query embedding by cosine distance (inlined by the planner).
-- ORDER BY the distance operator with LIMIT lets the HNSW index serve it; the user filter is applied during
-- the index scan, which pgvector 0.8's iterative scan continues until k rows pass (the caller sets
-- hnsw.iterative_scan). A user with few facts is served by the user index and an exact sort instead.
CREATE OR REPLACE FUNCTION {schema}.vector_candidates(
    p_user_key text, p_query vector, p_k integer, p_as_of timestamptz DEFAULT now()
) RETURNS TABLE (id bigint, category text, fact text, valid_from timestamptz, distance double precision)
LANGUAGE sql STABLE AS $$
    SELECT f.id, f.category, f.fact, f.valid_from, f.embedding <=> p_query
    FROM {schema}.agent_facts AS f
    WHERE f.user_key = p_user_key AND f.superseded_at IS NULL AND f.embedding IS NOT NULL
      AND (f.expires_at IS NULL OR f.expires_at > p_as_of
           OR f.id = ANY (ARRAY(SELECT r.fact_id FROM {schema}.fact_recalls AS r
                                WHERE r.user_key = p_user_key AND r.recalled_until > p_as_of)))
    ORDER BY f.embedding <=> p_query
    LIMIT greatest(p_k, 0)
$$;

-- (b) "Search my memory" by vector: top-k by cosine distance (0 = same direction, 2 = opposite), nearest first.
--     The SET clauses hold for this call only: iterative index scans (relaxed order, re-sorted here) and a
--     wider candidate list than pgvector's default ef_search of 40.
--     n8n: SELECT * FROM {schema}.search_memory_vector($1, $2::vector, 5);  ($2 = '[0.1, ...]')
CREATE OR REPLACE FUNCTION {schema}.search_memory_vector(
    p_user_key text, p_query vector, p_k integer DEFAULT 5, p_record boolean DEFAULT true,
    p_as_of timestamptz DEFAULT now()
) RETURNS TABLE (id bigint, category text, fact text, valid_from timestamptz, distance double precision)
LANGUAGE plpgsql VOLATILE
SECURITY DEFINER SET search_path = pg_catalog, {vector_schema}, pg_temp
SET hnsw.iterative_scan = 'relaxed_order'
SET hnsw.ef_search = {ef_search}
AS $$
DECLARE
    hit record;
    picked bigint[] := '{{}}';
BEGIN
    FOR hit IN
        SELECT c.id, c.category, c.fact, c.valid_from, c.distance
        FROM {schema}.vector_candidates(p_user_key, p_query, p_k, p_as_of) AS c
        ORDER BY c.distance, c.id
    LOOP
        id := hit.id; category := hit.category; fact := hit.fact; valid_from := hit.valid_from;
        distance := hit.distance;
        picked := picked || hit.id;
        RETURN NEXT;
    END LOOP;
    IF p_record AND cardinality(picked) > 0 THEN
        PERFORM {schema}.record_recalls(p_user_key, picked);
    END IF;
END
$$;

-- Any word of a text as a tsquery in one text search configuration ('a | b | c'), NULL when the text has no
-- searchable word. plainto_tsquery would require every word, which a question ("what do I like to drink?")
-- rarely satisfies; its lexemes are quoted in its text form, so only its operators are replaced.
CREATE OR REPLACE FUNCTION {schema}.any_word_query(p_config regconfig, p_text text)
RETURNS tsquery LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT nullif(regexp_replace(plainto_tsquery(p_config, p_text)::text, ' (&|<->|<\d+>) ', ' | ', 'g'), '')::tsquery
$$;

-- The words a search looks for: the query's own, plus, for each everyday topic the query asks about, the words
-- facts about it are written with. People ask "what do I drink?" of a fact that says "User prefers tea over
-- coffee": no word in common. A topic is recognised by the English stems of the query's words (drinks,
-- drinking -> drink), so a question in any wording of the topic's words adds its list. English only; a query
-- in another language keeps its own words (stemmed in that language below). The lists follow the slots the
-- extractors fill (client_info: name, home_location, job, employer, email, phone_number; preference:
-- contact_channel, diet, opinions and favourites; decision: buy, order, cancel ...).
CREATE OR REPLACE FUNCTION {schema}.search_words(p_text text)
RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT p_text || coalesce(' ' || string_agg(t.words, ' '), '')
    FROM (VALUES
        ('drink | drank | beverag | thirsti',
         'drink drinks beverage tea coffee espresso latte water juice milk beer wine soda'),
        ('eat | ate | food | diet | meal | cook | cuisin | lunch | dinner | breakfast',
         'eat eats food diet vegan vegetarian pescatarian meal cuisine dish allergic'),
        ('live | home | citi | town | locat | base | move | hometown | countri | resid',
         'live lives living based located moved relocated city town home hometown grew country'),
        ('work | job | employ | compani | career | profess | occup | offic | colleagu | boss',
         'work works job employer company career profession occupation role'),
        ('email | mail | inbox', 'email mail address'),
        ('phone | mobil | cell | number', 'phone mobile cell number'),
        ('contact | reach', 'contact contacted reach email phone call text'),
        ('name | call', 'name called'),
        ('like | love | favourit | favorit | prefer | enjoy | hobbi | hate | dislik',
         'like likes love loves enjoy enjoys prefer prefers favourite favorite hate hates dislikes'),
        ('buy | bought | order | purchas | plan | decid | cancel | book | subscript',
         'buy bought order ordered decided cancel cancelled book booked subscribe upgrade switch')
    ) AS t(asked, words)
    WHERE to_tsvector('english', p_text) @@ to_tsquery('english', t.asked)
$$;

-- The k recallable facts of a user best ranked by full-text search (inlined by the planner). The query text
-- (with `search_words`) is parsed once in each configuration (language) the user's facts use, and matched
-- against the facts of that configuration, so stems match stems.
CREATE OR REPLACE FUNCTION {schema}.text_candidates(
    p_user_key text, p_query text, p_k integer, p_as_of timestamptz DEFAULT now()
) RETURNS TABLE (id bigint, category text, fact text, valid_from timestamptz, rank real)
LANGUAGE sql STABLE AS $$
    SELECT f.id, f.category, f.fact, f.valid_from, ts_rank(f.fts, q.query)
    FROM (SELECT c.config, {schema}.any_word_query(c.config, {schema}.search_words(p_query)) AS query
          FROM (SELECT DISTINCT coalesce(u.fts_config, 'simple'::regconfig) AS config
                FROM {schema}.agent_facts AS u
                WHERE u.user_key = p_user_key AND u.superseded_at IS NULL) AS c
          OFFSET 0) AS q  -- a fence: each query is parsed once, not once per fact
    JOIN {schema}.agent_facts AS f ON coalesce(f.fts_config, 'simple'::regconfig) = q.config
    WHERE f.user_key = p_user_key AND f.superseded_at IS NULL AND f.fts @@ q.query
      AND (f.expires_at IS NULL OR f.expires_at > p_as_of
           OR f.id = ANY (ARRAY(SELECT r.fact_id FROM {schema}.fact_recalls AS r
                                WHERE r.user_key = p_user_key AND r.recalled_until > p_as_of)))
    ORDER BY 5 DESC, f.valid_from DESC, f.id DESC
    LIMIT greatest(p_k, 0)
$$;

-- (c) "Search my memory" by full-text rank, the path that works without embeddings: best first.
--     n8n: SELECT * FROM {schema}.search_memory_text($1, $2, 5);  ($2 = the query text)
CREATE OR REPLACE FUNCTION {schema}.search_memory_text(
    p_user_key text, p_query text, p_k integer DEFAULT 5, p_record boolean DEFAULT true,
    p_as_of timestamptz DEFAULT now()
) RETURNS TABLE (id bigint, category text, fact text, valid_from timestamptz, rank real)
LANGUAGE plpgsql VOLATILE
SECURITY DEFINER SET search_path = pg_catalog, {vector_schema}, pg_temp
AS $$
DECLARE
    hit record;
    picked bigint[] := '{{}}';
BEGIN
    FOR hit IN
        SELECT c.id, c.category, c.fact, c.valid_from, c.rank
        FROM {schema}.text_candidates(p_user_key, p_query, p_k, p_as_of) AS c
    LOOP
        id := hit.id; category := hit.category; fact := hit.fact; valid_from := hit.valid_from;
        rank := hit.rank;
        picked := picked || hit.id;
        RETURN NEXT;
    END LOOP;
    IF p_record AND cardinality(picked) > 0 THEN
        PERFORM {schema}.record_recalls(p_user_key, picked);
    END IF;
END
$$;

-- n8n's Postgres PGVector Store node reads a table of (id, text, metadata jsonb, embedding): its node defaults
-- for the column names. This view holds the recallable facts that have an embedding; metadata carries
-- fact_id, user_key, category, attribute and valid_from. On a read the node (LangChain JS PGVectorStore)
-- runs `CREATE EXTENSION IF NOT EXISTS vector`, `CREATE TABLE IF NOT EXISTS <table> (...)` (a no-op on an
-- existing view: PostgreSQL only notes the name is taken), then
-- `SELECT *, "embedding" <=> $1 as "_distance" FROM <table> WHERE metadata->>'user_key' = $3
--  ORDER BY "_distance" ASC LIMIT $2` (newer releases bind the key too: `metadata ->> $3 = $4`).
-- The user filter is served by agent_facts_metadata_user_idx. Reads through the node record no recall.
CREATE OR REPLACE VIEW {schema}.memory_documents AS
SELECT f.id, f.fact AS text, f.metadata, f.embedding
FROM {schema}.agent_facts AS f
WHERE f.superseded_at IS NULL AND f.embedding IS NOT NULL
  AND (f.expires_at IS NULL OR f.expires_at > now()
       OR EXISTS (SELECT 1 FROM {schema}.fact_recalls AS r WHERE r.fact_id = f.id AND r.recalled_until > now()));

-- Conversation search: "search my memory" finds earlier conversations, by their summary, with their facts. A
-- conversation is searchable while its summary holds text (text retention drops it {text_retention_days} days
-- after consolidation, judged here at p_as_of too), was not withheld by `forget`, and belongs to the user by
-- equality on session_summaries.user_key. Its facts are the user's recallable facts first said in it.

-- k of a conversation search: 1 to 50 (more is capped: each hit carries a summary and its facts, and an agent
-- asking for 10,000 gets 50); below 1 or NULL is an error that names the value.
CREATE OR REPLACE FUNCTION {schema}.conversation_search_k(p_k integer)
RETURNS integer LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
    IF p_k IS NULL OR p_k < 1 THEN
        RAISE EXCEPTION 'k must be at least 1 (got %)', coalesce(p_k::text, 'NULL')
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    RETURN least(p_k, 50);
END
$$;

-- A conversation's recallable facts of the user, oldest first, as a JSON list of {{id, category, fact, quote,
-- date}} (date: the day it was said, partitions' timezone), and their ids (for recall reinforcement).
CREATE OR REPLACE FUNCTION {schema}.conversation_facts(
    p_user_key text, p_conversation_id text, p_as_of timestamptz DEFAULT now()
) RETURNS TABLE (fact_ids bigint[], facts jsonb)
LANGUAGE sql STABLE AS $$
    SELECT coalesce(array_agg(f.id ORDER BY f.valid_from, f.id), '{{}}'),
           coalesce(jsonb_agg(jsonb_build_object(
               'id', f.id, 'category', f.category, 'fact', f.fact, 'quote', f.quote,
               'date', to_char(timezone({timezone}, f.valid_from), 'YYYY-MM-DD')) ORDER BY f.valid_from, f.id),
               '[]'::jsonb)
    FROM {schema}.agent_facts AS f
    WHERE f.source_session = p_conversation_id AND f.user_key = p_user_key AND f.superseded_at IS NULL
      AND (f.expires_at IS NULL OR f.expires_at > p_as_of
           OR f.id = ANY (ARRAY(SELECT r.fact_id FROM {schema}.fact_recalls AS r
                                WHERE r.user_key = p_user_key AND r.recalled_until > p_as_of)))
$$;

-- Recall of conversations: one row each in conversation_recalls (count, distinct days), and the facts returned
-- with them reinforced as a fact recall (record_recalls).
CREATE OR REPLACE FUNCTION {schema}.record_conversation_recalls(
    p_user_key text, p_conversation_ids text[], p_fact_ids bigint[]
) RETURNS void LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    INSERT INTO {schema}.conversation_recalls AS r
        (conversation_id, user_key, recall_count, recall_days, first_recalled_at, last_recalled_at)
    SELECT s.conversation_id, s.user_key, 1, 1, now(), now()
    FROM {schema}.session_summaries AS s
    WHERE s.conversation_id = ANY (p_conversation_ids) AND s.user_key = p_user_key
    FOR KEY SHARE OF s  -- as record_recalls: a conversation erased meanwhile is skipped, not an error
    ON CONFLICT (conversation_id) DO UPDATE SET
        recall_count = r.recall_count + 1,
        recall_days = r.recall_days + (timezone('UTC', r.last_recalled_at)::date < timezone('UTC', now())::date)::int,
        last_recalled_at = now();
    IF cardinality(p_fact_ids) > 0 THEN
        PERFORM {schema}.record_recalls(p_user_key, p_fact_ids);
    END IF;
END
$$;

-- The k searchable conversations of a user best ranked by full-text search of their summary (inlined by the
-- planner): the query is parsed in each configuration the user's summaries use, as for facts (any word, with
-- search_words' topic words). Served by session_summaries_user_idx: only this user's rows are read.
CREATE OR REPLACE FUNCTION {schema}.conversation_text_candidates(
    p_user_key text, p_query text, p_k integer, p_as_of timestamptz DEFAULT now()
) RETURNS TABLE (conversation_id text, conversation_date date, summary text, rank real)
LANGUAGE sql STABLE AS $$
    SELECT s.conversation_id, s.partition_date, s.summary, ts_rank(s.fts, q.query)
    FROM (SELECT c.config, {schema}.any_word_query(c.config, {schema}.search_words(p_query)) AS query
          FROM (SELECT DISTINCT coalesce(u.fts_config, 'simple'::regconfig) AS config
                FROM {schema}.session_summaries AS u
                WHERE u.user_key = p_user_key AND u.summary IS NOT NULL AND u.withheld_at IS NULL) AS c
          OFFSET 0) AS q  -- a fence: each query is parsed once, not once per summary
    JOIN {schema}.session_summaries AS s ON coalesce(s.fts_config, 'simple'::regconfig) = q.config
    JOIN {schema}.conversations AS v ON v.conversation_id = s.conversation_id
    WHERE s.user_key = p_user_key AND s.summary IS NOT NULL AND s.withheld_at IS NULL AND s.fts @@ q.query
      AND (v.facts_extracted_at IS NULL
           OR v.facts_extracted_at > p_as_of - make_interval(days => {text_retention_days}))
    ORDER BY 4 DESC, s.partition_date DESC, s.conversation_id
    LIMIT p_k
$$;

-- The k searchable conversations of a user nearest to a query embedding by cosine distance of their summary's
-- embedding (inlined by the planner; the caller sets hnsw.iterative_scan, as for facts).
CREATE OR REPLACE FUNCTION {schema}.conversation_vector_candidates(
    p_user_key text, p_query vector, p_k integer, p_as_of timestamptz DEFAULT now()
) RETURNS TABLE (conversation_id text, conversation_date date, summary text, distance double precision)
LANGUAGE sql STABLE AS $$
    SELECT s.conversation_id, s.partition_date, s.summary, s.embedding <=> p_query
    FROM {schema}.session_summaries AS s
    JOIN {schema}.conversations AS v ON v.conversation_id = s.conversation_id
    WHERE s.user_key = p_user_key AND s.summary IS NOT NULL AND s.withheld_at IS NULL AND s.embedding IS NOT NULL
      AND (v.facts_extracted_at IS NULL
           OR v.facts_extracted_at > p_as_of - make_interval(days => {text_retention_days}))
    ORDER BY s.embedding <=> p_query
    LIMIT p_k
$$;

-- (d) "Search my conversations" by full text, best first: conversation_id, conversation_date (the local day of
--     its last message), summary, facts (conversation_facts' list), rank. A blank query gives no rows; a query
--     longer than 1,000 characters is cut there (a question is far shorter; the cut bounds the parse).
--     n8n: SELECT * FROM {schema}.search_conversations_text($1, $2, 3);  ($2 = the query text)
CREATE OR REPLACE FUNCTION {schema}.search_conversations_text(
    p_user_key text, p_query text, p_k integer DEFAULT 3, p_record boolean DEFAULT true,
    p_as_of timestamptz DEFAULT now()
) RETURNS TABLE (conversation_id text, conversation_date date, summary text, facts jsonb, rank real)
LANGUAGE plpgsql VOLATILE
SECURITY DEFINER SET search_path = pg_catalog, {vector_schema}, pg_temp
AS $$
DECLARE
    hit record;
    k integer := {schema}.conversation_search_k(p_k);
    q text := left(btrim(p_query), 1000);
    picked text[] := '{{}}';
    recalled bigint[] := '{{}}';
BEGIN
    IF q IS NULL OR q = '' THEN
        RETURN;
    END IF;
    FOR hit IN
        SELECT c.conversation_id, c.conversation_date, c.summary, f.fact_ids, f.facts, c.rank
        FROM {schema}.conversation_text_candidates(p_user_key, q, k, p_as_of) AS c
        CROSS JOIN LATERAL {schema}.conversation_facts(p_user_key, c.conversation_id, p_as_of) AS f
        ORDER BY c.rank DESC, c.conversation_date DESC, c.conversation_id
    LOOP
        conversation_id := hit.conversation_id; conversation_date := hit.conversation_date;
        summary := hit.summary; facts := hit.facts; rank := hit.rank;
        picked := picked || hit.conversation_id;
        recalled := recalled || hit.fact_ids;
        RETURN NEXT;
    END LOOP;
    IF p_record AND cardinality(picked) > 0 THEN
        PERFORM {schema}.record_conversation_recalls(p_user_key, picked, recalled);
    END IF;
END
$$;

-- (e) "Search my conversations" by vector: the same rows with the cosine distance of the summary's embedding
--     to a query embedding (same model and size as the facts'), nearest first. A NULL vector gives no rows.
--     n8n: SELECT * FROM {schema}.search_conversations_vector($1, $2::vector, 3);  ($2 = '[0.1, ...]')
CREATE OR REPLACE FUNCTION {schema}.search_conversations_vector(
    p_user_key text, p_query vector, p_k integer DEFAULT 3, p_record boolean DEFAULT true,
    p_as_of timestamptz DEFAULT now()
) RETURNS TABLE (conversation_id text, conversation_date date, summary text, facts jsonb,
                 distance double precision)
LANGUAGE plpgsql VOLATILE
SECURITY DEFINER SET search_path = pg_catalog, {vector_schema}, pg_temp
SET hnsw.iterative_scan = 'relaxed_order'
SET hnsw.ef_search = {ef_search}
AS $$
DECLARE
    hit record;
    k integer := {schema}.conversation_search_k(p_k);
    picked text[] := '{{}}';
    recalled bigint[] := '{{}}';
BEGIN
    IF p_query IS NULL THEN
        RETURN;
    END IF;
    FOR hit IN
        SELECT c.conversation_id, c.conversation_date, c.summary, f.fact_ids, f.facts, c.distance
        FROM {schema}.conversation_vector_candidates(p_user_key, p_query, k, p_as_of) AS c
        CROSS JOIN LATERAL {schema}.conversation_facts(p_user_key, c.conversation_id, p_as_of) AS f
        ORDER BY c.distance, c.conversation_id
    LOOP
        conversation_id := hit.conversation_id; conversation_date := hit.conversation_date;
        summary := hit.summary; facts := hit.facts; distance := hit.distance;
        picked := picked || hit.conversation_id;
        recalled := recalled || hit.fact_ids;
        RETURN NEXT;
    END LOOP;
    IF p_record AND cardinality(picked) > 0 THEN
        PERFORM {schema}.record_conversation_recalls(p_user_key, picked, recalled);
    END IF;
END
$$;

REVOKE ALL ON FUNCTION {schema}.recall_block(text, integer, boolean, timestamptz) FROM PUBLIC;
REVOKE ALL ON FUNCTION {schema}.search_memory_vector(text, vector, integer, boolean, timestamptz) FROM PUBLIC;
REVOKE ALL ON FUNCTION {schema}.search_memory_text(text, text, integer, boolean, timestamptz) FROM PUBLIC;
REVOKE ALL ON FUNCTION {schema}.search_conversations_text(text, text, integer, boolean, timestamptz) FROM PUBLIC;
REVOKE ALL ON FUNCTION {schema}.search_conversations_vector(text, vector, integer, boolean, timestamptz) FROM PUBLIC;
