"""The conversation search benchmark runs end to end: its gold set is what it says, both paths are measured, the
full-text figure meets the issue's target, and the scratch schema is dropped."""

from datetime import date

from memory_pipeline.benchmarks import conversation_search
from memory_pipeline_tests.benchmarks.test_recall_benchmark import schemas
from memory_pipeline_tests.openai_server import ScriptedOpenAIServer
from memory_pipeline_tests.test_recall import embedder_for


def test_the_gold_set_has_24_questions_of_8_users_in_at_least_3_languages():
    rows, questions = conversation_search.gold_rows(date(2026, 5, 10))
    assert len(questions) == 24 and len({q[0] for q in questions}) == 8 and len({q[1] for q in questions}) >= 3
    assert len({(q[0], q[3]) for q in questions}) == 24  # one conversation a day per user: the day names it
    assert {r.message["type"] for r in rows} == {"human", "ai"}


def test_the_benchmark_measures_full_text_and_vectors_and_drops_its_schema(pg_url, monkeypatch, capsys):
    monkeypatch.setenv("MEMORY_PIPELINE_EMBEDDING_DIMENSIONS", "16")
    with ScriptedOpenAIServer(embedding_dimensions=16) as server:
        figures = conversation_search.run(embedder_for(server, 16))
    out = capsys.readouterr().out
    assert set(figures) == {"text", "vector"} and figures["text"] >= conversation_search.TARGET
    assert "full text  top-1" in out and "vector     top-1" in out and "load average" in out
    assert schemas(pg_url, "mp_csearch") == []
