"""The view memory_documents answers the exact statements n8n's Postgres PGVector Store node sends on a read."""

import json

import pytest
from psycopg import sql

from memory_pipeline.embeddings import index_new_facts
from memory_pipeline_tests import n8n_statements as node
from memory_pipeline_tests.openai_server import ScriptedOpenAIServer, hashed_embedding
from memory_pipeline_tests.test_recall import DIMS, Facts, embedder_for


@pytest.fixture
def memory(make_settings):
    facts = Facts(make_settings(embedding_dimensions=DIMS))
    with ScriptedOpenAIServer(embedding_dimensions=DIMS) as server:
        facts.ids = {
            "tea": facts.add("ana", "User likes green tea."),
            "lisbon": facts.add("ana", "User lives in Lisbon."),
            "old": facts.add("ana", "User prefers phone.", superseded=True),
            "expired": facts.add("ana", "User wants a quote for green tea.", expires_in_days=-1),
            "bob": facts.add("bob", "User likes green tea."),
        }
        with facts.pool.connection() as conn:
            index_new_facts(facts.store, conn, embedder_for(server))
    facts.table = f"{facts.settings.schema_name}.memory_documents"  # the node's Table Name, as typed
    return facts


@pytest.mark.parametrize("key_bound", [False, True], ids=["key-inline", "key-bound"])
def test_the_nodes_read_statements_run_against_the_view(memory, key_bound):
    query = hashed_embedding("green tea", DIMS)
    with memory.pool.connection() as conn:
        node.send(conn, node.CREATE_EXTENSION)
        node.send(conn, node.create_table(memory.table))  # a no-op: the name is taken by the view
        rows = node.send(conn, node.similarity_search(memory.table, key_bound),
                         node.search_params(query, 4, "ana", key_bound))
        kind = conn.execute("SELECT relkind FROM pg_class WHERE oid = %s::regclass", (memory.table,)).fetchone()
    assert kind["relkind"] == "v"
    # Only ana's active, unexpired facts, nearest first, with the columns the node maps to a Document.
    assert [r["text"] for r in rows] == ["User likes green tea.", "User lives in Lisbon."]
    distances = [float(r["_distance"]) for r in rows]
    assert distances == sorted(distances)
    metadata = json.loads(rows[0]["metadata"])
    assert metadata["user_key"] == "ana" and metadata["category"] == "preference"
    assert metadata["fact_id"] == memory.ids["tea"] and metadata["valid_from"].endswith("Z")
    assert {"id", "text", "metadata", "embedding", "_distance"} <= set(rows[0])


def test_the_nodes_user_filter_is_served_by_an_index(memory):
    with memory.pool.connection() as conn:
        conn.execute(sql.SQL("ANALYZE {}.agent_facts").format(sql.Identifier(memory.settings.schema_name)))
        for key_bound in (False, True):
            plan = node.send(conn, "EXPLAIN " + node.similarity_search(memory.table, key_bound),
                             node.search_params([0.1] * DIMS, 4, "ana", key_bound))
            text = "\n".join(r["QUERY PLAN"] for r in plan)
            assert "agent_facts_metadata_user_idx" in text, text


def test_facts_without_embedding_are_not_in_the_view(memory):
    memory.add("ana", "User likes jazz.")  # not embedded yet
    with memory.pool.connection() as conn:
        rows = node.send(conn, node.similarity_search(memory.table), node.search_params([0.1] * DIMS, 10, "ana"))
    assert "User likes jazz." not in [r["text"] for r in rows] and len(rows) == 2


def test_n8ns_role_needs_only_the_documented_grants(memory):
    """docs/n8n.md, "Rights for n8n's role": EXECUTE on the three functions, SELECT on the view, USAGE and CREATE on
    the schema (CREATE only because PostgreSQL checks it before CREATE TABLE IF NOT EXISTS finds the view)."""
    schema = memory.settings.schema_name
    role = f"{schema}_n8n"
    statements = {
        "block": (f"SELECT {schema}.recall_block($1) AS facts;", ["ana"]),
        "text": (f"SELECT * FROM {schema}.search_memory_text($1, $2, 5);", ["ana", "tea"]),
        "vector": (f"SELECT * FROM {schema}.search_memory_vector($1, $2::vector, 5);",
                   ["ana", node.search_params([0.1] * DIMS, 5, "ana")[0]]),
        "extension": (node.CREATE_EXTENSION, []),
        "table": (node.create_table(memory.table), []),
        "select": (node.similarity_search(memory.table), node.search_params([0.1] * DIMS, 5, "ana")),
    }

    def outcomes():
        results = {}
        with memory.pool.connection() as conn:
            for name, (statement, params) in statements.items():
                conn.execute(sql.SQL("SET ROLE {}").format(sql.Identifier(role)))
                try:
                    results[name] = len(node.send(conn, statement, params))
                except Exception as exc:  # noqa: BLE001 - the message is what is compared
                    results[name] = str(exc).split("\n")[0]
                finally:
                    conn.execute("RESET ROLE")
        return results

    memory.execute(sql.SQL("CREATE ROLE {}").format(sql.Identifier(role)).as_string(None))
    try:
        memory.execute(sql.SQL("GRANT USAGE ON SCHEMA {s} TO {r}").format(
            s=sql.Identifier(schema), r=sql.Identifier(role)).as_string(None))
        denied = outcomes()
        assert "permission denied for function recall_block" in denied["block"]
        assert "permission denied for schema" in denied["table"]
        assert "permission denied for view memory_documents" in denied["select"]
        memory.execute(sql.SQL(
            "GRANT EXECUTE ON FUNCTION {s}.recall_block(text, integer, boolean, timestamptz), "
            "{s}.search_memory_text(text, text, integer, boolean, timestamptz), "
            "{s}.search_memory_vector(text, vector, integer, boolean, timestamptz) TO {r}; "
            "GRANT SELECT ON {s}.memory_documents TO {r}; GRANT CREATE ON SCHEMA {s} TO {r}").format(
            s=sql.Identifier(schema), r=sql.Identifier(role)).as_string(None))
        granted = outcomes()
        assert granted == {"block": 1, "text": 1, "vector": 2, "extension": 0, "table": 0, "select": 2}
        assert memory.rows("SELECT count(*) AS n FROM {schema}.fact_recalls")[0]["n"] == 2  # recorded as owner
    finally:
        memory.execute(sql.SQL("DROP OWNED BY {r}; DROP ROLE {r}").format(r=sql.Identifier(role)).as_string(None))
