"""Conversation search on the embedded PostgreSQL: `search_conversations_text` and `_vector` return a user's
earlier conversations (date, summary, facts), never another user's, answer bad input with an empty answer or a
clear error, read only the user's rows, and record recalls."""

from datetime import datetime, timedelta, timezone

import psycopg
import pytest
from psycopg import sql

from memory_pipeline.embeddings import vector_literal
from memory_pipeline_tests.test_recall import DIMS, Facts

NOW = datetime.now(timezone.utc)


class Conversations(Facts):
    """Facts' helpers plus conversations with a summary, written directly."""

    def conversation(self, user, conversation_id, summary, days_ago=1, embedding=None, facts=(),
                     extracted_days_ago=None):
        at = NOW - timedelta(days=days_ago)
        extracted = at if extracted_days_ago is None else NOW - timedelta(days=extracted_days_ago)
        self.execute(
            "INSERT INTO {schema}.conversations (conversation_id, partition_date, session_key, user_key, started_at, "
            "ended_at, is_legacy, message_ids, turn_count, transcript, transcript_hash, closed_as_of, "
            "idle_gap_minutes, facts_extracted_at) VALUES (%(id)s, %(day)s, %(u)s, %(u)s, %(at)s, %(at)s, false, "
            "'{{}}', 2, '[]', md5(%(id)s), %(at)s, 30, %(ex)s)",
            {"id": conversation_id, "day": at.date(), "u": user, "at": at, "ex": extracted})
        self.execute(
            "INSERT INTO {schema}.session_summaries (conversation_id, partition_date, user_key, summary, "
            "transcript_hash, extractor, model, prompt_version, embedding) VALUES (%(id)s, %(day)s, %(u)s, %(s)s, "
            "md5(%(id)s), 'offline', 'offline', 'v', %(e)s::vector)",
            {"id": conversation_id, "day": at.date(), "u": user, "s": summary,
             "e": vector_literal(embedding) if embedding is not None else None})
        ids = [self.add(user, fact, days_ago=days_ago) for fact in facts]
        if ids:
            self.execute("UPDATE {schema}.agent_facts SET source_session = %s WHERE id = ANY(%s)",
                         (conversation_id, ids))
        return ids

    def text(self, user, query, k=3, record=True, as_of=None):
        return self.rows("SELECT * FROM {schema}.search_conversations_text(%s, %s, %s, %s, coalesce(%s, now()))",
                         (user, query, k, record, as_of))

    def vector(self, user, vector, k=3, record=True):
        return self.rows("SELECT * FROM {schema}.search_conversations_vector(%s, %s::vector, %s, %s)",
                         (user, None if vector is None else vector_literal(vector), k, record))


@pytest.fixture
def convs(make_settings):
    return Conversations(make_settings(embedding_dimensions=DIMS, text_retention_days=30))


def axis(i):
    return [1.0 if j == i else 0.0 for j in range(DIMS)]


def test_text_search_returns_the_conversation_of_the_topic_with_its_date_summary_and_facts(convs):
    fact_ids = convs.conversation("ana", "c1", "Ana reported that invoice 1042 was charged twice; a refund was "
                                  "agreed for Friday.", days_ago=3, facts=["User's invoice 1042 was charged twice."])
    convs.conversation("ana", "c2", "Ana asked for vegetarian recipes and picked a lentil curry.", days_ago=2)
    convs.conversation("ana", "c3", "Ana booked a trip to Porto in May.", days_ago=1)

    rows = convs.text("ana", "what did we agree about the invoice?")

    assert rows[0]["conversation_id"] == "c1" and len(rows) == 1  # nothing else mentions invoices
    assert rows[0]["conversation_date"] == (NOW - timedelta(days=3)).date()
    assert rows[0]["summary"].startswith("Ana reported that invoice 1042")
    assert [(f["id"], f["category"], f["fact"], f["quote"]) for f in rows[0]["facts"]] == [
        (fact_ids[0], "preference", "User's invoice 1042 was charged twice.", "User's invoice 1042 was charged twice.")]
    assert rows[0]["facts"][0]["date"] == (NOW - timedelta(days=3)).strftime("%Y-%m-%d")
    assert rows[0]["rank"] > 0


def test_a_user_never_sees_another_users_conversation_even_with_a_crafted_key(convs):
    convs.conversation("ana", "mine", "We talked about the green tea order.")
    convs.conversation("bob", "theirs", "We talked about the green tea order.", embedding=axis(0))
    convs.conversation("ana%", "pct", "We talked about the green tea order.")
    for key in ("ana", "' OR '1'='1", "%", "ana%'--", "ANA", "ana ", "*", "bob' OR user_key <> '"):
        found = {r["conversation_id"] for r in convs.text(key, "green tea order", k=50)}
        assert found <= ({"mine"} if key == "ana" else set()), key
        assert "theirs" not in {r["conversation_id"] for r in convs.vector(key, axis(0), k=50)}
    assert {r["user_key"] for r in convs.rows("SELECT user_key FROM {schema}.conversation_recalls")} == {"ana"}


def test_bad_input_gives_an_empty_answer_or_a_clear_error(convs):
    for i in range(60):
        convs.conversation("ana", f"c{i:02}", f"Ana asked about the parcel number {i}.")
    assert convs.text("ana", "") == [] and convs.text("ana", "   \n\t") == [] and convs.text("ana", None) == []
    assert convs.vector("ana", None) == []
    assert convs.text("nobody", "parcel") == []  # a key with no conversations
    assert len(convs.text("ana", "parcel " * 15_000)) == 3  # 105 kB: cut to its first 1,000 characters
    assert len(convs.text("ana", "parcel", k=10_000)) == 50  # capped
    for k in (0, -1, None):
        with pytest.raises(psycopg.errors.InvalidParameterValue, match=r"k must be at least 1 \(got "):
            convs.text("ana", "parcel", k=k)
        with pytest.raises(psycopg.errors.InvalidParameterValue, match="k must be at least 1"):
            convs.vector("ana", axis(0), k=k)
    convs.conversation("ana", "embedded", "Ana asked about the parcel.", embedding=axis(0))
    with pytest.raises(psycopg.errors.DataException, match="different vector dimensions"):
        convs.vector("ana", [1.0, 0.0])


def test_a_search_reads_only_the_users_rows_through_the_user_index(convs):
    convs.execute("""
        INSERT INTO {schema}.conversations (conversation_id, partition_date, session_key, user_key, is_legacy,
            message_ids, turn_count, transcript, transcript_hash, closed_as_of, idle_gap_minutes, facts_extracted_at)
        SELECT 'x' || g, current_date, 'u' || (g % 500), 'u' || (g % 500), false, '{{}}', 2, '[]', md5(g::text),
               now(), 30, now()
        FROM generate_series(1, 5000) AS g;
        INSERT INTO {schema}.session_summaries (conversation_id, partition_date, user_key, summary, transcript_hash,
            extractor, model, prompt_version)
        SELECT 'x' || g, current_date, 'u' || (g % 500), 'The user asked about order ' || g || ' and the invoice.',
               md5(g::text), 'offline', 'offline', 'v'
        FROM generate_series(1, 5000) AS g;
        ANALYZE {schema}.session_summaries; ANALYZE {schema}.conversations""")
    with convs.pool.connection() as conn:
        rows = conn.execute(sql.SQL("EXPLAIN SELECT * FROM {}.conversation_text_candidates(%s, %s, 3)").format(
            sql.Identifier(convs.settings.schema_name)), ("u7", "invoice")).fetchall()
    plan = "\n".join(r["QUERY PLAN"] for r in rows)
    assert "Seq Scan on session_summaries" not in plan and "session_summaries_user_idx" in plan, plan
    assert len(convs.text("u7", "invoice", k=50)) == 10


def test_a_recall_is_recorded_for_the_conversation_and_reinforces_its_facts(convs):
    (fact_id,) = convs.conversation("ana", "c1", "Ana cancelled the gym subscription.", facts=["User cancelled the gym."])
    assert convs.text("ana", "gym", record=False) and convs.recalls(fact_id) is None
    assert convs.rows("SELECT * FROM {schema}.conversation_recalls") == []

    convs.text("ana", "gym")
    convs.text("ana", "gym subscription")
    (recall,) = convs.rows("SELECT * FROM {schema}.conversation_recalls")
    assert (recall["conversation_id"], recall["user_key"], recall["recall_count"], recall["recall_days"]) == (
        "c1", "ana", 2, 1)
    assert convs.recalls(fact_id)["recall_count"] == 2
    convs.execute("UPDATE {schema}.conversation_recalls SET last_recalled_at = last_recalled_at - interval '1 day'")
    convs.text("ana", "gym")
    assert convs.rows("SELECT recall_days FROM {schema}.conversation_recalls")[0]["recall_days"] == 2


def test_a_withheld_summary_or_one_past_text_retention_is_not_found(convs):
    convs.conversation("ana", "old", "Ana asked about the boiler repair.", days_ago=40, extracted_days_ago=40)
    convs.conversation("ana", "kept", "Ana asked about the boiler warranty.", days_ago=3)
    convs.conversation("ana", "hidden", "Ana asked about the boiler price.", days_ago=2)
    convs.execute("UPDATE {schema}.session_summaries SET withheld_at = now() WHERE conversation_id = 'hidden'")
    assert [r["conversation_id"] for r in convs.text("ana", "boiler", k=10)] == ["kept"]
    # Judged at another time: 35 days ago the old one was still within its 30 days of text retention.
    assert {r["conversation_id"] for r in convs.text("ana", "boiler", k=10, as_of=NOW - timedelta(days=35))} == {
        "old", "kept"}
    # A withheld summary stays withheld and without text whatever a later run writes.
    convs.execute("UPDATE {schema}.session_summaries SET summary = 'Ana asked about the boiler price again.' "
                  "WHERE conversation_id = 'hidden'")
    (row,) = convs.rows("SELECT summary, withheld_at FROM {schema}.session_summaries WHERE conversation_id = 'hidden'")
    assert row["summary"] is None and row["withheld_at"] is not None


def test_vector_search_ranks_conversations_by_the_distance_of_their_summary(convs):
    convs.conversation("ana", "tea", "Ana ordered green tea.", embedding=axis(0))
    convs.conversation("ana", "bike", "Ana had her bike repaired.", embedding=axis(1))
    convs.conversation("ana", "none", "Ana said hello.")  # not embedded yet: not a vector hit
    rows = convs.vector("ana", [0.9, 0.1] + [0.0] * (DIMS - 2), k=5)
    assert [r["conversation_id"] for r in rows] == ["tea", "bike"]
    assert rows[0]["distance"] < rows[1]["distance"] and rows[0]["facts"] == []


def test_a_rewritten_summary_loses_its_language_label_and_embedding(convs):
    convs.conversation("ana", "c1", "Ana ordered green tea.", embedding=axis(0))
    convs.execute("UPDATE {schema}.session_summaries SET fts_config = 'english'")
    convs.execute("UPDATE {schema}.session_summaries SET summary = 'Ana ordered black tea.'")
    (row,) = convs.rows("SELECT fts_config, embedding FROM {schema}.session_summaries")
    assert row["fts_config"] is None and row["embedding"] is None
    assert convs.text("ana", "black")[0]["conversation_id"] == "c1"



# -- Python and the command line ----------------------------------------------------------------------------
def test_search_conversations_embeds_the_query_when_configured_and_falls_back_to_full_text(convs, embedding_server):
    from memory_pipeline.recall import search_conversations
    from memory_pipeline_tests.openai_server import hashed_embedding
    from memory_pipeline_tests.test_recall import embedder_for

    url = convs.settings.database_url
    convs.conversation("ana", "tea", "Ana ordered green tea.", embedding=hashed_embedding("green tea", DIMS),
                       facts=["User likes green tea."])
    convs.conversation("ana", "bike", "Ana had her bike repaired.")
    hits = search_conversations(url, "ana", "green tea", settings=convs.settings, embedder=embedder_for(embedding_server))
    assert [(h.conversation_id, h.method) for h in hits] == [("tea", "vector")]
    assert hits[0].facts[0]["fact"] == "User likes green tea." and hits[0].score == pytest.approx(0, abs=1e-6)
    # No embeddings configured: full text.
    hits = search_conversations(url, "ana", "bike", settings=convs.settings, record=False)
    assert [(h.conversation_id, h.method) for h in hits] == [("bike", "text")]
    # A NUL byte (PostgreSQL text holds none) is read as a space, not a driver error.
    hits = search_conversations(url, "ana", "my\x00bike", settings=convs.settings, record=False)
    assert [h.conversation_id for h in hits] == ["bike"]
    # The endpoint down: full text too (a warning is logged).
    hits = search_conversations(url, "ana", "bike", settings=convs.settings, embedder=embedder_for(None, max_retries=0))
    assert [(h.conversation_id, h.method) for h in hits] == [("bike", "text")]
    assert search_conversations(url, "ana", "  ", settings=convs.settings, embedder=embedder_for(embedding_server)) == []


def test_recall_conversations_prints_date_summary_and_facts(convs, monkeypatch, capsys, tmp_path):
    from memory_pipeline import cli

    convs.conversation("ana", "c1", "Ana reported the invoice charged twice; a refund was agreed.", days_ago=3,
                       facts=["User's invoice was charged twice."])
    monkeypatch.setenv("MEMORY_PIPELINE_DATABASE_URL", convs.settings.database_url)
    monkeypatch.setenv("MEMORY_PIPELINE_SCHEMA_NAME", convs.settings.schema_name)
    monkeypatch.setenv("MEMORY_PIPELINE_HOME", str(tmp_path))
    monkeypatch.setenv("MEMORY_PIPELINE_EMBEDDINGS", "none")
    assert cli.main(["recall", "--user", "ana", "--conversations", "what about the invoice?"]) == 0
    day = (NOW - timedelta(days=3)).strftime("%Y-%m-%d")
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"[{day}] Ana reported the invoice charged twice; a refund was agreed.  (text rank ")
    assert lines[1] == f"  - [{day}] User's invoice was charged twice.  (preference)"
    assert convs.rows("SELECT * FROM {schema}.conversation_recalls") == []  # looking records nothing
    assert cli.main(["recall", "--user", "ana", "--conversations", "holiday"]) == 0
    assert capsys.readouterr().out.strip() == "(no matching conversations)"


@pytest.fixture
def embedding_server():
    from memory_pipeline_tests.openai_server import ScriptedOpenAIServer

    with ScriptedOpenAIServer(embedding_dimensions=DIMS) as server:
        yield server


def test_summaries_are_labelled_and_embedded_with_the_facts(convs, embedding_server):
    from memory_pipeline_tests.test_recall import embedder_for

    convs.conversation("ana", "fr", "Ana a demandé le remboursement de la facture et nous avons convenu de vendredi.")
    convs.conversation("ana", "en", "Ana asked for a refund of the invoice and we agreed on Friday.")
    convs.conversation("ana", "gone", "Ana asked about the boiler.")
    convs.execute("UPDATE {schema}.session_summaries SET withheld_at = now() WHERE conversation_id = 'gone'")
    metadata = convs.index(embedder_for(embedding_server))
    assert metadata["summaries_language_labelled"] == {"english": 1, "french": 1}
    assert metadata["summaries_embedded"] == 2 and metadata["summary_embeddings_failed"] == 0
    rows = {r["conversation_id"]: r for r in convs.rows(
        "SELECT conversation_id, fts_config::text AS config, embedding IS NOT NULL AS embedded "
        "FROM {schema}.session_summaries")}
    assert (rows["fr"]["config"], rows["fr"]["embedded"], rows["gone"]["embedded"]) == ("french", True, False)
    # Stemmed in its language: "remboursements" finds "remboursement".
    assert convs.text("ana", "remboursements")[0]["conversation_id"] == "fr"
    assert convs.index(embedder_for(embedding_server))["summaries_embedded"] == 0  # nothing twice


# -- erasure, forget, text retention ------------------------------------------------------------------------
def _cached_embeddings(convs, texts):
    from memory_pipeline.embeddings import text_sha256

    return convs.rows("SELECT count(*) AS n FROM {schema}.embedding_cache WHERE text_sha256 = ANY(%s)",
                      ([text_sha256(t) for t in texts],))[0]["n"]


def test_erasing_a_user_removes_their_summaries_embeddings_and_conversation_recalls(convs, embedding_server):
    from memory_pipeline import erasure, sample
    from memory_pipeline_tests.test_recall import embedder_for

    mine, theirs = "Ana asked for a refund of the invoice.", "Bob asked for a refund of the invoice."
    convs.conversation("ana", "a1", mine, facts=["User asked for a refund."])
    convs.conversation("bob", "b1", theirs)
    convs.index(embedder_for(embedding_server))
    assert convs.text("ana", "refund") and convs.text("bob", "refund")  # recalls recorded for both
    assert _cached_embeddings(convs, [mine]) == 1
    with convs.pool.connection() as conn:
        sample.create_n8n_table(conn, convs.settings)
        report = erasure.erase_user(convs.store, conn, "ana")
    assert report.counts["session_summaries"] == 1 and report.counts["conversation_recalls"] == 1
    for table in ("session_summaries", "conversation_recalls", "conversations", "agent_facts"):
        assert convs.rows(f"SELECT count(*) AS n FROM {{schema}}.{table} WHERE user_key = 'ana'")[0]["n"] == 0
    assert _cached_embeddings(convs, [mine]) == 0 and _cached_embeddings(convs, [theirs]) == 1
    assert convs.text("ana", "refund") == [] and convs.text("bob", "refund")


def test_text_retention_drops_a_summary_its_embedding_and_cached_embedding(convs, embedding_server):
    from memory_pipeline_tests.test_recall import embedder_for

    old, new = "Ana asked about the boiler repair.", "Ana asked about the boiler warranty."
    convs.conversation("ana", "old", old, days_ago=40, extracted_days_ago=40)
    convs.conversation("ana", "new", new, days_ago=2)
    convs.index(embedder_for(embedding_server))
    with convs.pool.connection() as conn, conn.transaction():
        pruned = convs.store.prune_text(conn)
    assert pruned["summary_embeddings"] == 1 and pruned["summaries"] == 1
    rows = {r["conversation_id"]: r for r in convs.rows(
        "SELECT conversation_id, summary, embedding IS NOT NULL AS embedded FROM {schema}.session_summaries")}
    assert (rows["old"]["summary"], rows["old"]["embedded"]) == (None, False)
    assert (rows["new"]["summary"], rows["new"]["embedded"]) == (new, True)
    assert _cached_embeddings(convs, [old]) == 0 and _cached_embeddings(convs, [new]) == 1
    assert [r["conversation_id"] for r in convs.text("ana", "boiler", k=10)] == ["new"]
    assert [r["conversation_id"] for r in convs.vector("ana", axis(0), k=10)] == ["new"]
