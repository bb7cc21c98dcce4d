"""The asset checks, as plain functions: each returns a CheckOutcome (passed, counts for Dagster metadata)."""

from __future__ import annotations

import psycopg
from datetime import date, timedelta

from memory_pipeline.domain.conversations import partition_window

from memory_pipeline.domain.quotes import QuoteSources, locate_quote
from memory_pipeline.domain.reconcile import MULTI_VALUED_ATTRIBUTES
from memory_pipeline.stages import llm_calls
from memory_pipeline.stages.common import CheckOutcome
from memory_pipeline.stages.llm_calls import EXTRACTION_STAGE, SUMMARY_STAGE
from memory_pipeline.stages.records import conversation_from_record
from memory_pipeline.stages.relations import judged_active_pairs
from memory_pipeline.store import Store


def check_quotes_verbatim(store: Store, conn: psycopg.Connection, day: date) -> CheckOutcome:
    """Every accepted candidate of the day has its quote verbatim (whitespace-normalised) in a user turn.
    Candidates whose transcript or quote was pruned (text retention, time-to-live + grace) are counted apart.
    Reads PAGE_SIZE conversations with accepted candidates at a time (the next page while this one is checked:
    `Store.pages_read_ahead`), each transcript once."""
    bad = []
    checked = pruned = 0
    for page in store.pages_read_ahead(conn, "accepted_candidates_page", {"partition_date": day},
                                          llm_calls.PAGE_SIZE):
        for row in page:
            sources = None
            for candidate in row["candidates"]:
                if row["text_pruned_at"] or candidate["quote"] == "":
                    # Its transcript was dropped after text retention, or its quote after the fact's time-to-live
                    # plus grace (an accepted candidate never has an empty quote otherwise: validation rejects it,
                    # no_quote).
                    pruned += 1
                    continue
                checked += 1
                if sources is None:  # the transcript read back once per conversation, its turns normalised once
                    conversation = conversation_from_record({
                        "conversation_id": row["conversation_id"], "session_key": "", "user_key": "",
                        "partition_date": day, "started_at": None, "ended_at": None, "is_legacy": False,
                        "transcript": row["transcript"]})
                    sources = QuoteSources(conversation)
                reason, _ = locate_quote(candidate["quote"], conversation, candidate["quote_message_id"], sources)
                # A short quote is still verbatim: the length rule gates new candidates, and candidates accepted
                # before it existed must not fail this blocking check when their day is re-materialized.
                if reason and reason != "quote_too_short":
                    bad.append(candidate["candidate_id"])
    return CheckOutcome(not bad, {"accepted_checked": checked, "accepted_text_pruned": pruned,
                                  "quotes_not_found": len(bad),
                                  "failing_candidate_ids": sorted(bad)[:50]})


def check_no_duplicate_active_facts(store: Store, conn: psycopg.Connection) -> CheckOutcome:
    """No two active facts share (user_key, category, md5(fact)); no single-valued attribute holds two
    active values for one user (`contradicting_groups`); no owner (the slot or object a value belongs to,
    whatever the attribute was called: domain.owners) holds two active facts of one user (`related_active_pairs`,
    pairs of facts); no pair the model's stored verdict relates is active side by side (`judged_active_pairs`,
    `stages.relations`)."""
    duplicates = store.scalar(conn, "check_duplicate_active_facts")
    contradictions = store.scalar(conn, "check_contradicting_active_facts",
                                  {"multi_valued": sorted(MULTI_VALUED_ATTRIBUTES)})
    related = store.scalar(conn, "check_related_active_facts")
    judged = judged_active_pairs(store, conn)
    return CheckOutcome(duplicates == 0 and contradictions == 0 and related == 0 and judged == 0,
                        {"duplicate_groups": duplicates, "contradicting_groups": contradictions,
                         "related_active_pairs": related, "judged_active_pairs": judged})


def check_no_message_lost(store: Store, conn: psycopg.Connection, day: date) -> CheckOutcome:
    """Every message id of the day's conversations is in the n8n table or the archive (within retention), and
    no row of a consolidated conversation is left in the n8n table (it would never be archived)."""
    missing = store.scalar(conn, "check_missing_messages",
                           {"partition_date": day, "retention_days": store.settings.archive_retention_days})
    left = store.scalar(conn, "check_consolidated_rows_in_source", {"partition_date": day})
    return CheckOutcome(missing == 0 and left == 0,
                        {"missing_messages": missing, "consolidated_rows_left_in_source": left})


DAYS_NAMED = 31  # `days_to_rerun` lists at most this many days (the oldest first); the count covers them all


def check_no_row_left_behind(store: Store, conn: psycopg.Connection, day: date) -> CheckOutcome:
    """No row of n8n's table is left that no night will consolidate: a row dated before the day before `day`
    (the nightly run covers yesterday and, as a catch-up, the day before) minus the longest conversation
    (`max_conversation_hours`: no conversation of a later day can hold it), from the first partition on, that no
    stored conversation nor rejection holds. Such a row arrived after its day was consolidated (a late insert, a
    restored backup, n8n's clock behind); re-materializing its day consolidates and purges it. Metadata:
    `rows_left_behind`, `days_to_rerun` (the rows' local days; a row that joined a conversation running past
    midnight is consolidated by the day after) and `rows_left_behind_by_day`."""
    settings = store.settings
    catch_up_start, _ = partition_window(day - timedelta(days=1), settings.timezone)
    start, _ = partition_window(settings.partitions_start, settings.timezone)
    rows = conn.execute(store.query(conn, "check_rows_left_behind"), {
        "start": start, "before": catch_up_start - timedelta(hours=settings.max_conversation_hours),
        "timezone": settings.timezone}).fetchall()
    by_day = {r["day"].isoformat(): r["n"] for r in rows}
    return CheckOutcome(not by_day, {"rows_left_behind": sum(by_day.values()),
                                     "days_to_rerun": sorted(by_day)[:DAYS_NAMED],
                                     "rows_left_behind_by_day": dict(sorted(by_day.items())[:DAYS_NAMED])})


def check_no_open_conversation(store: Store, conn: psycopg.Connection, day: date) -> CheckOutcome:
    """No conversation of the day was stored while its last message was within the idle gap."""
    still_open = store.scalar(conn, "check_open_conversations", {"partition_date": day})
    return CheckOutcome(still_open == 0, {"open_conversations": still_open})


def check_every_conversation_summarised(store: Store, conn: psycopg.Connection, day: date) -> CheckOutcome:
    """Every closed conversation of the day has a summary. Fails for a conversation whose LLM call failed (its
    failure recorded in extraction_failures with the reason, tried again next run) and for one left without
    either (skipped silently: never extracted). Metadata: `conversations_without_summary` (neither),
    `summary_failures_recorded` and `summary_failures_by_reason`."""
    missing = store.scalar(conn, "check_conversations_without_summary", {"partition_date": day})
    failures = store.llm_failures_of_partition(conn, day, SUMMARY_STAGE)
    return CheckOutcome(missing == 0 and not failures, {
        "conversations_without_summary": missing, "summary_failures_recorded": sum(failures.values()),
        "summary_failures_by_reason": failures})


def check_summaries_grounded(store: Store, conn: psycopg.Connection, day: date) -> CheckOutcome:
    """No summary of the day was rejected by grounding (`domain.grounding`: it named a date, number or name its
    conversation does not hold). Metadata: `summaries_rejected`, `rejected_by_reason` ({reason: count}) and
    `rejected_conversation_ids` (up to 50 per reason): ids only, never the summary's text."""
    rows = conn.execute(store.query(conn, "rejected_summaries_of_partition"), {"partition_date": day}).fetchall()
    return CheckOutcome(not rows, {
        "summaries_rejected": sum(r["n"] for r in rows), "rejected_by_reason": {r["reason"]: r["n"] for r in rows},
        "rejected_conversation_ids": sorted(i for r in rows for i in r["conversation_ids"])[:50]})


def check_every_conversation_extracted(store: Store, conn: psycopg.Connection, day: date) -> CheckOutcome:
    """No extraction call of the day's conversations failed (extraction_failures of the stage, by reason)."""
    failures = store.llm_failures_of_partition(conn, day, EXTRACTION_STAGE)
    return CheckOutcome(not failures, {"extraction_failures_recorded": sum(failures.values()),
                                       "extraction_failures_by_reason": failures})


def check_every_conversation_consolidated(store: Store, conn: psycopg.Connection, day: date) -> CheckOutcome:
    """No closed conversation of the day is left unconsolidated by a failed LLM call: the night's verdict, on the
    last asset so the other conversations are consolidated first. Metadata: `conversations_failed` and
    `failed_by_reason` ({"stage: reason": conversations})."""
    rows = conn.execute(store.query(conn, "failed_conversations_of_partition"), {"partition_date": day}).fetchall()
    failed = rows[0]["conversations"] if rows else 0
    return CheckOutcome(failed == 0, {"conversations_failed": failed,
                                      "failed_by_reason": {f"{r['stage']}: {r['reason']}": r["n"] for r in rows}})


def check_every_shard_consolidated(store: Store, conn: psycopg.Connection, day: date) -> CheckOutcome:
    """Every shard of the day finished its last asset under the current shard count (MEMORY_PIPELINE_SHARDS), or
    under another count that covered every shard (a night run with 2 shards before the count became 3, or a run
    of the whole night: each is a complete pass over the day's users). Metadata: `shard_count`,
    `shards_finished` (of that count), `shards_missing` (their indexes), `complete_under_counts`, and
    `shard_runs` ({index: run id} of the complete set that covers the day, the current count's first; empty when
    none does), which the Dagster layer reads for the checks those runs failed."""
    count = store.settings.shards
    finished = store.shards_finished(conn, day, count)
    complete = store.complete_shard_counts(conn, day)
    missing = [index for index in range(count) if index not in finished]
    covering = count if not missing else max(complete, default=None)
    runs = finished if covering == count else store.shards_finished(conn, day, covering) if covering else {}
    return CheckOutcome(covering is not None, {
        "shard_count": count, "shards_finished": len(finished), "shards_missing": missing,
        "complete_under_counts": complete, "shard_runs": {str(i): run for i, run in sorted(runs.items())}})
