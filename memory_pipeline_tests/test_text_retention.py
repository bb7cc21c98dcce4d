"""Text kept no longer than needed: past the text retention a conversation keeps ids, hashes, times and counts
but loses its transcript, summary, cached summary and rejected candidates' text; agent_facts keeps its quote
until time-to-live + grace. A pruned day still passes its checks through Dagster."""

from memory_pipeline import sample
from memory_pipeline_tests.conftest import fixture_lines
from memory_pipeline_tests.test_pipeline_end_to_end import N8N_DAYS, Pipeline
from memory_pipeline.settings import DEFAULT_TTL_DAYS


def test_a_pruned_day_loses_its_text_and_passes_its_checks(make_settings, monkeypatch):
    p = Pipeline(make_settings(backlog_date="2026-05-01", text_retention_days=3, quote_grace_days=10))
    p.load(sample.fixture_rows(fixture_lines("message_shapes.jsonl")))
    for day in N8N_DAYS:
        assert p.run(day).success
    day = N8N_DAYS[1]
    convs = p.rows("SELECT * FROM {schema}.conversations WHERE partition_date = %s", (day,))
    ids = [c["conversation_id"] for c in convs]
    # A rejected candidate with text (the offline extractor's quotes are verbatim, so one is marked rejected).
    marked = p.rows("UPDATE {schema}.fact_candidates SET status = 'rejected', reject_reason = 'quote_not_found' "
                    "WHERE candidate_id = (SELECT min(candidate_id) FROM {schema}.fact_candidates "
                    "WHERE conversation_id = ANY(%s)) RETURNING candidate_id", (ids,))
    assert len(marked) == 1
    assert p.run(day).success  # reconciled without it
    facts_before = p.rows("SELECT id, fact, quote FROM {schema}.agent_facts ORDER BY id")
    # Four days later (the clock moved back on the day's consolidation time instead of waiting).
    p.rows("UPDATE {schema}.conversations SET facts_extracted_at = facts_extracted_at - interval '4 days' "
           "WHERE partition_date = %s RETURNING 1", (day,))
    p.rows("UPDATE {schema}.summary_cache SET created_at = created_at - interval '4 days' "
           "WHERE transcript_hash = ANY(%s) RETURNING 1", ([c["transcript_hash"] for c in convs],))

    assert p.run(N8N_DAYS[2]).success  # the next night prunes every conversation past retention
    result = p.run(day)  # re-materializing the pruned day
    assert result.success
    checks = {e.check_name: e for e in result.get_asset_check_evaluations()}
    # Every check of the pruned partition passes (freshness_check judges yesterday's partition, not this day).
    assert [name for name, e in checks.items() if not e.passed and name != "freshness_check"] == []
    assert {"quotes_found_verbatim", "no_message_lost", "every_conversation_summarised"} <= set(checks)
    quote_check = {k: v.value for k, v in checks["quotes_found_verbatim"].metadata.items()}
    assert quote_check["accepted_text_pruned"] > 0 and quote_check["accepted_checked"] == 0

    after = {c["conversation_id"]: c for c in p.rows("SELECT * FROM {schema}.conversations WHERE partition_date = %s",
                                                      (day,))}
    for c in convs:  # ids, hashes, times and counts stay; the text goes
        kept = after[c["conversation_id"]]
        assert kept["transcript"] == [] and kept["text_pruned_at"] is not None
        assert (kept["message_ids"], kept["transcript_hash"], kept["started_at"], kept["turn_count"]) == \
            (c["message_ids"], c["transcript_hash"], c["started_at"], c["turn_count"])
    assert p.rows("SELECT summary FROM {schema}.session_summaries WHERE conversation_id = ANY(%s)", (ids,)) == \
        [{"summary": None}] * len(ids)
    assert p.rows("SELECT 1 FROM {schema}.summary_cache WHERE transcript_hash = ANY(%s)",
                  ([c["transcript_hash"] for c in convs],)) == []
    rejected = p.rows("SELECT fact, quote, attribute, reject_reason FROM {schema}.fact_candidates "
                      "WHERE conversation_id = ANY(%s) AND status = 'rejected'", (ids,))
    assert rejected == [{"fact": "", "quote": "", "attribute": None, "reject_reason": "quote_not_found"}]
    repeats = p.rows("SELECT quote FROM {schema}.fact_candidates f WHERE conversation_id = ANY(%s) AND status = "
                     "'accepted' AND NOT EXISTS (SELECT 1 FROM {schema}.agent_facts a "
                     "WHERE a.candidate_id = f.candidate_id)", (ids,))
    assert all(r["quote"] == "" for r in repeats)
    assert p.rows("SELECT id, fact, quote FROM {schema}.agent_facts ORDER BY id") == facts_before  # quotes kept
    other_day = p.rows("SELECT count(*) AS n FROM {schema}.conversations WHERE text_pruned_at IS NOT NULL "
                       "AND partition_date <> %s", (day,))
    assert other_day == [{"n": 0}]

    # Re-running the pruned day changes nothing and still passes.
    before = p.snapshot()
    assert p.run(day).success
    assert p.snapshot() == before

    # Past its time-to-live plus the grace period a fact loses its quote too, and keeps it lost: client_info
    # facts live one day here, so those said in May 2026 are past it; preferences (730 days) are not. A quote is
    # also kept the grace period after the fact was recorded: the facts were recorded 11 days ago here.
    monkeypatch.setitem(DEFAULT_TTL_DAYS, "client_info", 1)
    p.rows("UPDATE {schema}.agent_facts SET recorded_at = recorded_at - interval '11 days' RETURNING 1")
    for d in N8N_DAYS:
        assert p.run(d).success
    facts = p.rows("SELECT category, quote FROM {schema}.agent_facts")
    assert {f["category"] for f in facts} >= {"client_info", "preference"}
    assert all((f["quote"] == "") == (f["category"] == "client_info") for f in facts)
    assert p.rows("SELECT count(*) AS n FROM {schema}.fact_candidates f JOIN {schema}.agent_facts a "
                  "USING (candidate_id) WHERE a.category = 'client_info' AND f.quote <> ''") == [{"n": 0}]
    for d in N8N_DAYS:
        assert p.run(d).success
    assert p.rows("SELECT category, quote FROM {schema}.agent_facts") == facts
