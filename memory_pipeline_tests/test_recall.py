"""Recall on the embedded PostgreSQL: the prompt block, full-text and vector search, recall reinforcement, the
embeddings step (real openai SDK over real HTTP against the scripted server), and the HNSW plan."""

from datetime import datetime, timedelta, timezone

import openai
import pytest
from psycopg import sql

from memory_pipeline.db import get_pool
from memory_pipeline.domain.reconcile import FactVersion
from memory_pipeline.embeddings import (
    EmbeddingDimensionMismatch,
    OpenAIEmbedder,
    index_new_facts,
    vector_literal,
)
from memory_pipeline.recall import prompt_block, search_memory
from memory_pipeline.store import Store
from memory_pipeline_tests.openai_server import ScriptedOpenAIServer, hashed_embedding
from memory_pipeline.stages.active_facts import active_facts

NOW = datetime.now(timezone.utc)
DIMS = 16


class Facts:
    """An isolated pipeline schema with helpers to write facts directly and read recall state."""

    def __init__(self, settings):
        self.settings = settings
        self.store = Store(settings)
        self.pool = get_pool(settings.database_url)

    def add(self, user, fact, days_ago=1, category="preference", expires_in_days=30, superseded=False,
            embedding=None):
        with self.pool.connection() as conn:
            return conn.execute(sql.SQL(
                "INSERT INTO {}.agent_facts (user_key, category, fact, source_session, valid_from, superseded_at, "
                "quote, last_seen_at, expires_at, candidate_id, embedding) VALUES (%(u)s, %(c)s, %(f)s, 'conv', "
                "%(vf)s, %(sup)s, %(f)s, %(vf)s, %(exp)s, md5(%(f)s || %(u)s), %(e)s::vector) RETURNING id"
            ).format(sql.Identifier(self.settings.schema_name)), {
                "u": user, "c": category, "f": fact, "vf": NOW - timedelta(days=days_ago),
                "sup": NOW if superseded else None,
                "exp": None if expires_in_days is None else NOW + timedelta(days=expires_in_days),
                "e": vector_literal(embedding) if embedding is not None else None,
            }).fetchone()["id"]

    def rows(self, query, params=None):
        with self.pool.connection() as conn:
            return conn.execute(sql.SQL(query).format(schema=sql.Identifier(self.settings.schema_name)),
                                params).fetchall()

    def execute(self, query, params=None):
        with self.pool.connection() as conn:
            conn.execute(sql.SQL(query).format(schema=sql.Identifier(self.settings.schema_name)), params)

    def recalls(self, fact_id):
        rows = self.rows("SELECT * FROM {schema}.fact_recalls WHERE fact_id = %s", (fact_id,))
        return rows[0] if rows else None

    def index(self, embedder=None):
        with self.pool.connection() as conn:
            return index_new_facts(self.store, conn, embedder)


@pytest.fixture
def facts(make_settings):
    return Facts(make_settings(embedding_dimensions=DIMS, recall_extension_days=30, recall_max_extension_days=90))


@pytest.fixture
def embedding_server():
    with ScriptedOpenAIServer(embedding_dimensions=DIMS) as server:
        yield server


def embedder_for(server, dims=DIMS, **client_options):
    client = openai.OpenAI(base_url=server.base_url if server else "http://127.0.0.1:9/v1", api_key="test",
                           **client_options)
    return OpenAIEmbedder("test-embedding", dims, client)


# -- prompt block -------------------------------------------------------------------------------------------
def test_prompt_block_lists_the_n_most_recent_active_unexpired_facts_oldest_first(facts):
    facts.add("ana", "User lives in Lisbon.", days_ago=30)
    facts.add("ana", "User likes green tea.", days_ago=3)
    facts.add("ana", "User prefers email.", days_ago=2)
    facts.add("ana", "User works at\nAcme   Corp.", days_ago=1)
    facts.add("ana", "User prefers phone.", days_ago=5, superseded=True)
    facts.add("ana", "User wants a quote for solar panels.", days_ago=4, expires_in_days=-1)
    facts.add("bob", "User likes coffee.", days_ago=1)

    block = prompt_block(facts.settings.database_url, "ana", 3, settings=facts.settings)

    day = lambda n: (NOW - timedelta(days=n)).strftime("%Y-%m-%d")  # noqa: E731
    assert block.split("\n") == [f"- [{day(3)}] User likes green tea.", f"- [{day(2)}] User prefers email.",
                                 f"- [{day(1)}] User works at Acme Corp."]
    assert prompt_block(facts.settings.database_url, "nobody", settings=facts.settings) == ""


def test_prompt_block_is_one_text_value_for_n8ns_postgres_node(facts):
    facts.add("ana", "User likes green tea.")
    rows = facts.rows("SELECT {schema}.recall_block(%s) AS facts", ("ana",))
    assert len(rows) == 1 and rows[0]["facts"].endswith("] User likes green tea.")


# -- recall reinforcement -----------------------------------------------------------------------------------
def test_a_recall_is_recorded_and_counts_one_strength_per_day(facts):
    fact_id = facts.add("ana", "User likes green tea.")
    prompt_block(facts.settings.database_url, "ana", settings=facts.settings)
    prompt_block(facts.settings.database_url, "ana", settings=facts.settings)
    first = facts.recalls(fact_id)
    assert (first["recall_count"], first["recall_days"]) == (2, 1)
    assert first["recalled_until"] - first["last_recalled_at"] == timedelta(days=30)

    # The next day's recall adds one to the strength: alive 2 x 30 days after it.
    facts.execute("UPDATE {schema}.fact_recalls SET last_recalled_at = last_recalled_at - interval '1 day'")
    prompt_block(facts.settings.database_url, "ana", settings=facts.settings)
    second = facts.recalls(fact_id)
    assert (second["recall_count"], second["recall_days"]) == (3, 2)
    assert second["recalled_until"] - second["last_recalled_at"] == timedelta(days=60)

    # Capped at MEMORY_PIPELINE_RECALL_MAX_EXTENSION_DAYS (90) after the last recall.
    facts.execute("UPDATE {schema}.fact_recalls SET recall_days = 10, "
                  "last_recalled_at = last_recalled_at - interval '1 day'")
    prompt_block(facts.settings.database_url, "ana", settings=facts.settings)
    third = facts.recalls(fact_id)
    assert third["recalled_until"] - third["last_recalled_at"] == timedelta(days=90)


def test_record_false_records_nothing(facts):
    fact_id = facts.add("ana", "User likes green tea.")
    assert prompt_block(facts.settings.database_url, "ana", settings=facts.settings, record=False)
    assert search_memory(facts.settings.database_url, "ana", "tea", settings=facts.settings, record=False)
    assert facts.recalls(fact_id) is None


def test_a_recalled_fact_outlives_its_time_to_live_and_an_unrecalled_one_fades(facts):
    recalled = facts.add("ana", "User likes green tea.", expires_in_days=1)
    ignored = facts.add("ana", "User likes jazz.", expires_in_days=1)
    search_memory(facts.settings.database_url, "ana", "green tea", k=1, settings=facts.settings)
    assert facts.recalls(recalled) and facts.recalls(ignored) is None

    later = NOW + timedelta(days=10)  # both past their time-to-live; only the recalled one was extended
    block = prompt_block(facts.settings.database_url, "ana", settings=facts.settings, record=False, as_of=later)
    assert block.endswith("User likes green tea.") and "jazz" not in block
    much_later = NOW + timedelta(days=31)
    assert prompt_block(facts.settings.database_url, "ana", settings=facts.settings, record=False,
                        as_of=much_later) == ""


def test_nightly_reconciliation_does_not_undo_an_extension(facts):
    fact_id = facts.add("ana", "User likes green tea.", days_ago=400, expires_in_days=5)
    prompt_block(facts.settings.database_url, "ana", settings=facts.settings)
    row = facts.rows("SELECT * FROM {schema}.agent_facts WHERE id = %s", (fact_id,))[0]
    # The night rewrites expires_at from last_seen_at + time-to-live, here into the past.
    version = FactVersion(
        user_key="ana", category="preference", attribute=None, value=None, fact=row["fact"], quote=row["quote"],
        quote_message_id=None, quote_speaker=None, source_session="conv", candidate_id=row["candidate_id"],
        valid_from=row["valid_from"], last_seen_at=row["last_seen_at"], expires_at=NOW - timedelta(days=1))
    with facts.pool.connection() as conn, conn.transaction():
        counts = facts.store.apply_fact_versions(conn, "ana", [version])
        totals = facts.store.fact_totals(conn, ["ana"])
    assert counts["updated"] == 1 and counts["inserted"] == 0
    assert facts.rows("SELECT expires_at FROM {schema}.agent_facts WHERE id = %s", (fact_id,))[0]["expires_at"] < NOW
    assert prompt_block(facts.settings.database_url, "ana", settings=facts.settings).endswith("green tea.")
    assert totals["expired"] == 0  # kept alive by its recall, so not counted as expired


# -- full-text search ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("page", [2, 2000])  # facts labelled per page: several pages, or one
def test_full_text_search_ranks_matching_facts_in_their_own_language(facts, monkeypatch, page):
    from memory_pipeline import embeddings

    monkeypatch.setattr(embeddings, "LANGUAGE_PAGE", page)
    facts.add("ana", "User likes green tea.")
    facts.add("ana", "User lives in Lisbon.")
    facts.add("ana", "L'utilisateur préfère les appels téléphoniques.")
    facts.add("bob", "User likes green tea.")
    metadata = facts.index()  # no embedder: languages only
    assert metadata["facts_language_labelled"] == {"english": 3, "french": 1}
    assert metadata["embeddings"] == "none"

    hits = search_memory(facts.settings.database_url, "ana", "What teas do I like?", settings=facts.settings)
    assert [h.fact for h in hits][:1] == ["User likes green tea."] and all(h.method == "text" for h in hits)
    assert "User lives in Lisbon." not in [h.fact for h in hits]
    french = search_memory(facts.settings.database_url, "ana", "appel téléphonique", settings=facts.settings)
    assert [h.fact for h in french] == ["L'utilisateur préfère les appels téléphoniques."]  # stemmed in French
    assert search_memory(facts.settings.database_url, "ana", "the of and", settings=facts.settings) == []


# -- embeddings ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("page", [2, 2000])  # facts per page: two pages, or one
def test_new_facts_are_embedded_in_batches_through_the_cache(facts, embedding_server, monkeypatch, page):
    from memory_pipeline import embeddings

    monkeypatch.setattr(embeddings, "EMBEDDING_PAGE", page)
    settings = facts.settings.model_copy(update={"embedding_batch_size": 2})
    facts.store = Store(settings)
    for text in ["User likes green tea.", "User lives in Lisbon.", "User prefers email."]:
        facts.add("ana", text)
    facts.add("bob", "User likes green tea.")  # same text: one request, one cache row
    facts.add("ana", "User prefers phone.", superseded=True)  # superseded: never recalled, not embedded

    metadata = facts.index(embedder_for(embedding_server))
    assert metadata["facts_embedded"] == 4 and metadata["embeddings_failed"] == 0
    assert metadata["embedding_requests"] == 2  # 3 distinct texts in batches of 2
    inputs = [r["body"]["input"] for r in embedding_server.requests]
    assert sorted(t for batch in inputs for t in batch) == sorted(
        ["User likes green tea.", "User lives in Lisbon.", "User prefers email."])
    stored = facts.rows("SELECT fact, embedding::text AS e FROM {schema}.agent_facts WHERE embedding IS NOT NULL")
    assert len(stored) == 4
    assert facts.rows("SELECT count(*) AS n FROM {schema}.agent_facts WHERE embedding IS NULL")[0]["n"] == 1

    # A new version with a known text is embedded from the cache, without a request.
    facts.add("carl", "User lives in Lisbon.")
    again = facts.index(embedder_for(embedding_server))
    assert (again["facts_embedded"], again["embedding_cache_hits"], again["embedding_requests"]) == (1, 1, 0)


def test_vector_search_ranks_by_cosine_distance_and_stays_within_the_user(facts, embedding_server):
    for text in ["User likes green tea.", "User lives in Lisbon.", "User prefers email."]:
        facts.add("ana", text)
    facts.add("bob", "User likes green tea and black tea.")
    facts.index(embedder_for(embedding_server))

    hits = search_memory(facts.settings.database_url, "ana", "green tea", k=2, settings=facts.settings,
                         embedder=embedder_for(embedding_server))
    assert [h.method for h in hits] == ["vector", "vector"]
    assert hits[0].fact == "User likes green tea." and hits[0].score < hits[1].score
    expected = hashed_embedding("User likes green tea.", DIMS)
    query = hashed_embedding("green tea", DIMS)
    cosine = sum(a * b for a, b in zip(expected, query))
    assert hits[0].score == pytest.approx(1 - cosine, abs=1e-5)


def test_an_unreachable_endpoint_leaves_facts_unembedded_and_the_next_night_retries(facts, embedding_server):
    fact_id = facts.add("ana", "User likes green tea.")
    down = embedder_for(None, max_retries=0, timeout=2)
    with facts.pool.connection() as conn:
        result = active_facts(facts.store, conn, NOW.date(), down)
    assert result.metadata["embeddings_failed"] == 1
    assert result.metadata["embedding_failures"] == {"APIConnectionError": 1}
    assert facts.rows("SELECT embedding FROM {schema}.agent_facts WHERE id = %s", (fact_id,))[0]["embedding"] is None
    # Recall still works, through full-text search.
    assert [h.method for h in search_memory(facts.settings.database_url, "ana", "tea", settings=facts.settings)] \
        == ["text"]

    # A query that cannot be embedded falls back to full text too.
    assert [h.method for h in search_memory(facts.settings.database_url, "ana", "tea", settings=facts.settings,
                                            embedder=down)] == ["text"]

    next_night = facts.index(embedder_for(embedding_server))
    assert next_night["facts_embedded"] == 1 and next_night["embeddings_failed"] == 0


def test_an_endpoint_down_on_the_first_page_leaves_every_later_page_for_the_next_night(facts, monkeypatch):
    from memory_pipeline import embeddings

    monkeypatch.setattr(embeddings, "EMBEDDING_PAGE", 1)
    for text in ["User likes green tea.", "User lives in Lisbon.", "User prefers email."]:
        facts.add("ana", text)
    metadata = facts.index(embedder_for(None, max_retries=0, timeout=2))
    # One request failed; the two later pages were counted as failed without sending theirs.
    assert (metadata["embedding_requests"], metadata["embeddings_failed"]) == (1, 3)
    assert metadata["embedding_failures"] == {"APIConnectionError": 3}
    assert facts.rows("SELECT count(*) AS n FROM {schema}.agent_facts WHERE embedding IS NULL")[0]["n"] == 3


def test_a_size_mismatch_with_the_column_is_reported_not_fatal(facts, embedding_server):
    facts.add("ana", "User likes green tea.")
    wrong = facts.settings.model_copy(update={"embedding_dimensions": 8})
    facts.store = Store(wrong)
    metadata = facts.index(embedder_for(embedding_server, dims=8))
    assert metadata["embedding_failures"] == {"dimension_mismatch": 1} and embedding_server.requests == []
    with pytest.raises(EmbeddingDimensionMismatch, match=r"vector\(16\) but MEMORY_PIPELINE_EMBEDDING_DIMENSIONS=8"):
        search_memory(facts.settings.database_url, "ana", "tea", settings=wrong,
                      embedder=embedder_for(embedding_server, dims=8))


# -- the plan -----------------------------------------------------------------------------------------------
def test_vector_search_uses_the_hnsw_index_with_the_user_filter(facts):
    facts.execute("""
        INSERT INTO {schema}.agent_facts (user_key, category, fact, source_session, valid_from, quote,
                                          last_seen_at, expires_at, candidate_id, embedding)
        SELECT CASE WHEN g % 20 = 0 THEN 'small' ELSE 'big' END, 'preference', 'fact ' || g, 'conv', now(), 'q',
               now(), now() + interval '1 year', 'c' || g,
               ARRAY[sin(g), cos(g), sin(2 * g), cos(2 * g), sin(3 * g), cos(3 * g), sin(5 * g), cos(5 * g),
                     sin(7 * g), cos(7 * g), sin(11 * g), cos(11 * g), sin(13 * g), cos(13 * g), 1, g % 7]::vector
        FROM generate_series(1, 3000) AS g;
        ANALYZE {schema}.agent_facts""")
    query = vector_literal([0.5] * DIMS)

    def plan(user):
        with facts.pool.connection() as conn, conn.transaction():
            # The settings search_memory_vector applies through its SET clauses.
            conn.execute("SET LOCAL hnsw.iterative_scan = relaxed_order")
            conn.execute("SET LOCAL hnsw.ef_search = 100")
            rows = conn.execute(sql.SQL("EXPLAIN SELECT * FROM {}.vector_candidates(%s, %s::vector, 5)").format(
                sql.Identifier(facts.settings.schema_name)), (user, query)).fetchall()
        return "\n".join(r["QUERY PLAN"] for r in rows)

    big = plan("big")  # most facts belong to this user: the HNSW index, filtered by user while it scans
    assert "Index Scan using agent_facts_embedding_hnsw" in big and "user_key = 'big'" in big
    small = plan("small")  # 150 facts: the user index and an exact sort are cheaper
    assert "agent_facts_embedding_hnsw" not in small and "Index Cond: (user_key = 'small'::text)" in small

    # The function itself (its SET clauses on) returns k rows for both, nearest first.
    for user in ("big", "small"):
        rows = facts.rows("SELECT * FROM {schema}.search_memory_vector(%s, %s::vector, 5, false)", (user, query))
        assert len(rows) == 5 and [r["distance"] for r in rows] == sorted(r["distance"] for r in rows)


def test_the_nightly_job_embeds_new_facts_when_embeddings_are_configured(make_settings, embedding_server,
                                                                          monkeypatch):
    from memory_pipeline_tests.test_pipeline_end_to_end import MB_DAYS, Pipeline, metadata, mb_slice

    monkeypatch.setenv("OPENAI_BASE_URL", embedding_server.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "test")
    pipeline = Pipeline(make_settings(embeddings="openai", embedding_model="test-embedding",
                                      embedding_dimensions=DIMS))
    pipeline.load(mb_slice())
    results = [pipeline.run(day) for day in MB_DAYS]
    assert all(r.success for r in results)
    embedded = sum(metadata(r, "active_facts")["facts_embedded"] for r in results)
    active = pipeline.rows("SELECT count(*) AS n, count(embedding) AS e FROM {schema}.agent_facts "
                           "WHERE superseded_at IS NULL")[0]
    assert active["n"] > 0 and active["e"] == active["n"] and embedded >= active["n"]
    assert metadata(results[0], "active_facts")["embeddings"] == f"test-embedding/{DIMS}"
    # The conversations' summaries too, for the conversation search.
    summaries = pipeline.rows("SELECT count(*) AS n, count(embedding) AS e, count(fts_config) AS l "
                              "FROM {schema}.session_summaries WHERE summary IS NOT NULL")[0]
    assert summaries["n"] > 0 and summaries["e"] == summaries["l"] == summaries["n"]
    assert sum(metadata(r, "active_facts")["summaries_embedded"] for r in results) >= summaries["n"]
    assert {r["body"]["model"] for r in embedding_server.requests} == {"test-embedding"}

    # Erasing a user takes their embeddings (cache included) and recall bookkeeping with them; others keep theirs.
    from memory_pipeline import erasure
    from memory_pipeline.embeddings import text_sha256

    def cached(user):
        texts = [r["fact"] for r in pipeline.rows("SELECT fact FROM {schema}.agent_facts WHERE user_key = %s", (user,))]
        hashes = [text_sha256(t) for t in texts]
        return pipeline.rows("SELECT count(*) AS n FROM {schema}.embedding_cache WHERE text_sha256 = ANY(%s)",
                             (hashes,))[0]["n"]

    emily, lucy = "memorybank:emily", "memorybank:lucy"
    assert cached(emily) > 0 and cached(lucy) > 0
    emily_texts = [text_sha256(r["fact"]) for r in pipeline.rows(
        "SELECT fact FROM {schema}.agent_facts WHERE user_key = %s", (emily,))]
    with pipeline.pool.connection() as conn:
        conn.execute(sql.SQL("SELECT {}.record_recalls(%s, ARRAY(SELECT id FROM {}.agent_facts WHERE user_key = %s))")
                     .format(sql.Identifier(pipeline.settings.schema_name),
                             sql.Identifier(pipeline.settings.schema_name)), (emily, emily))
        report = erasure.erase_user(Store(pipeline.settings), conn, emily)
    assert report.counts["embedding_cache"] > 0 and report.counts["fact_recalls"] > 0
    assert pipeline.rows("SELECT count(*) AS n FROM {schema}.embedding_cache WHERE text_sha256 = ANY(%s)",
                         (emily_texts,))[0]["n"] == 0
    assert cached(lucy) > 0


def test_two_runs_embedding_at_once_pay_for_each_text_once(facts, embedding_server):
    from concurrent.futures import ThreadPoolExecutor

    for i in range(40):
        facts.add("ana", f"User likes tea number {i}.")
    settings = facts.settings.model_copy(update={"embedding_batch_size": 4})
    facts.store = Store(settings)
    with ThreadPoolExecutor(2) as pool:
        results = list(pool.map(lambda _: facts.index(embedder_for(embedding_server)), range(2)))
    assert sorted(r["facts_embedded"] for r in results) == [0, 40]
    texts = [t for r in embedding_server.requests for t in r["body"]["input"]]
    assert len(texts) == len(set(texts)) == 40


# -- search in the words people ask with -------------------------------------------------------------------
@pytest.mark.parametrize("query, found", [
    ("what do I drink?", "User prefers tea over coffee."),
    ("drinks", "User prefers tea over coffee."),
    ("where do I live?", "User moved to Hamburg."),
    ("where do I work", "User works at Acme."),
    ("what's my email", "User's email address is ana@example.com."),
    ("what do I eat", "User is vegan."),
])
def test_text_search_finds_a_fact_by_the_topic_asked_about(facts, query, found):
    for fact in ["User prefers tea over coffee.", "User moved to Hamburg.", "User works at Acme.",
                 "User's email address is ana@example.com.", "User is vegan."]:
        facts.add("ana", fact)
    facts.add("bob", "User drinks coffee every morning.")
    facts.add("bob", found)  # the same words, another user
    facts.index()  # languages only: no embeddings, the full-text path
    hits = search_memory(facts.settings.database_url, "ana", query, k=2, settings=facts.settings)
    assert hits and hits[0].fact == found
    assert all(h.method == "text" for h in hits)
    with facts.pool.connection() as conn:  # a user never sees another's facts, however broad the query
        bob = conn.execute(sql.SQL("SELECT id FROM {}.agent_facts WHERE user_key = 'bob'").format(
            sql.Identifier(facts.settings.schema_name))).fetchall()
        ana = conn.execute(sql.SQL("SELECT id FROM {}.search_memory_text('ana', %s, 50, false)").format(
            sql.Identifier(facts.settings.schema_name)), (query,)).fetchall()
    assert not {r["id"] for r in bob} & {r["id"] for r in ana}


def test_a_topic_word_does_not_pull_in_facts_of_other_topics(facts):
    facts.add("ana", "User prefers tea over coffee.")
    facts.add("ana", "User works at Acme.")
    facts.index()
    hits = search_memory(facts.settings.database_url, "ana", "what do I drink?", settings=facts.settings)
    assert [h.fact for h in hits] == ["User prefers tea over coffee."]
