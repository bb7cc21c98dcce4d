"""Isolation, as a property: whatever two user keys look like, no recall path returns the other user's fact."""

from hypothesis import HealthCheck, given, settings, strategies as st

from memory_pipeline.embeddings import vector_literal
from memory_pipeline.recall import prompt_block, search_memory
from memory_pipeline_tests import n8n_statements as node
from memory_pipeline_tests.test_recall import DIMS, Facts

HOSTILE = ["'", "''", '"', "\\", "%", "_", "*", "?", ";", "--", "/*", "$1", "%(user)s", "{}", "' OR '1'='1",
           "\u00e9", "\u4e2d", "\U0001F600", "\u202e", "\t", "\n", " "]
# Keys: hostile fragments and any text PostgreSQL can store (no NUL), sometimes very long.
user_keys = st.one_of(
    st.lists(st.sampled_from(HOSTILE) | st.text(st.characters(codec="utf-8", exclude_characters="\x00"), max_size=5),
             min_size=1, max_size=6).map("".join),
    st.text(st.characters(codec="utf-8", exclude_characters="\x00"), min_size=1, max_size=20),
    st.builds(lambda s, n: (s * n)[:5000], st.sampled_from(["%_'", "a", "\u4e2d"]), st.integers(500, 5000)),
)
VECTOR = [1.0] + [0.0] * (DIMS - 1)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(mine=user_keys, other=user_keys)
def test_no_recall_path_returns_another_users_fact(pg_url, make_settings, mine, other):
    if mine == other:
        return
    facts = _facts(pg_url, make_settings)
    facts.execute("TRUNCATE {schema}.agent_facts CASCADE")
    # Same text and the same vector for both: only the user key tells them apart.
    own = {facts.add(mine, "User likes green tea.", embedding=VECTOR)}
    theirs = facts.add(other, "User likes green tea.", embedding=VECTOR)
    url = facts.settings.database_url

    block = prompt_block(url, mine, settings=facts.settings)
    assert block.count("\n") == 0 and block.endswith("User likes green tea.")
    assert {h.id for h in search_memory(url, mine, "green tea", settings=facts.settings)} == own
    rows = facts.rows("SELECT id FROM {schema}.search_memory_vector(%s, %s::vector, 10)", (mine, vector_literal(VECTOR)))
    assert {r["id"] for r in rows} == own
    rows = facts.rows("SELECT id FROM {schema}.search_memory_text(%s, 'tea', 10)", (mine,))
    assert {r["id"] for r in rows} == own
    with facts.pool.connection() as conn:
        for key_bound in (False, True):
            rows = node.send(conn, node.similarity_search(facts.table, key_bound),
                             node.search_params(VECTOR, 10, mine, key_bound))
            assert {int(r["id"]) for r in rows} == own
    recalled = facts.rows("SELECT fact_id, user_key FROM {schema}.fact_recalls")
    assert theirs not in {r["fact_id"] for r in recalled} and {r["user_key"] for r in recalled} == {mine}


_cache: dict = {}


def _facts(pg_url, make_settings) -> Facts:
    # One schema for every example of the run (creating a schema per example would dominate the time).
    if _cache.get("url") != pg_url:
        facts = Facts(make_settings(embedding_dimensions=DIMS))
        facts.table = f"{facts.settings.schema_name}.memory_documents"
        _cache.update(facts=facts, url=pg_url)
    return _cache["facts"]
