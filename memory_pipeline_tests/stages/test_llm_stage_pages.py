"""The LLM stages and the quote check read a partition in pages and write per batch (real PostgreSQL): page
boundaries lose and repeat nothing, a failing call on one page sinks no other, an erasure between two page reads
is not brought back, and the statements a stage sends do not grow with its conversations."""

import json
from collections import Counter

import psycopg
import pytest
from psycopg.rows import dict_row

from memory_pipeline import erasure
from memory_pipeline.extractors.offline import OfflineExtractor
from memory_pipeline.extractors.openai_backend import OpenAIExtractor
from memory_pipeline.settings import Settings
from memory_pipeline.store import Store
from memory_pipeline_tests.openai_server import Reply, ScriptedOpenAIServer, transcript_responder
from memory_pipeline_tests.test_forget import DAY1, Install, chat, traces
from memory_pipeline.stages import llm_calls
from memory_pipeline.stages.checks import check_quotes_verbatim
from memory_pipeline.stages.closed_sessions import closed_sessions
from memory_pipeline.stages.extracted_facts import extracted_facts
from memory_pipeline.stages.llm_calls import call_each
from memory_pipeline.stages.session_summaries import session_summaries

LINES = ["I live in {city}.", "Please contact me by email.", "I prefer short answers."]
CITIES = ["Oslo", "Rome", "Lyon", "Riga", "Porto", "Graz", "Turin", "Bern", "Cork"]
CANDIDATE_COLUMNS = ("candidate_id", "conversation_id", "user_key", "position", "category", "attribute", "value",
                     "fact", "quote", "status", "reject_reason", "quote_message_id", "said_at", "retraction")


def install(make_settings, users: int) -> Install:
    """`users` users with one closed conversation each on DAY1 (different hours, so different transcripts)."""
    p = Install(make_settings())
    for i in range(users):
        p.load(chat(f"u:{i}", DAY1, *(line.format(city=CITIES[i % len(CITIES)]) for line in LINES), hour=1 + i))
    with p.pool.connection() as conn:
        closed_sessions(p.store, conn, DAY1)
    return p


def conversation_ids(p: Install) -> list[str]:
    """The day's conversation ids in the order the stages page through them."""
    return [r["conversation_id"] for r in p.rows(
        "SELECT conversation_id FROM {schema}.conversations ORDER BY conversation_id")]


def candidates(p: Install) -> list[tuple]:
    return [tuple(r[c] for c in CANDIDATE_COLUMNS) for r in p.rows(
        "SELECT * FROM {schema}.fact_candidates ORDER BY candidate_id")]


class Counting(OfflineExtractor):
    """Offline extractor that counts its calls per conversation id, with `max_in_flight` worker threads."""

    def __init__(self, max_in_flight: int):
        self.max_in_flight = max_in_flight
        self.summarized: Counter[str] = Counter()
        self.extracted: Counter[str] = Counter()

    def summarize(self, conversation):
        self.summarized[conversation.conversation_id] += 1
        return super().summarize(conversation)

    def extract(self, conversation, summary=""):
        self.extracted[conversation.conversation_id] += 1
        return super().extract(conversation, summary)


def llm_stages(p: Install, extractor) -> tuple[dict, dict]:
    with p.pool.connection() as conn:
        return (session_summaries(p.store, conn, DAY1, extractor).metadata,
                extracted_facts(p.store, conn, DAY1, extractor).metadata)


@pytest.mark.parametrize("max_in_flight", [1, 3])
def test_small_pages_and_batches_do_each_conversation_once_and_write_what_one_big_page_writes(
        make_settings, monkeypatch, max_in_flight):
    p = install(make_settings, users=9)
    ids = conversation_ids(p)
    assert len(ids) == 9
    big = Counting(max_in_flight)
    big_summaries, big_extracted = llm_stages(p, big)
    expected = candidates(p)
    assert any(c[CANDIDATE_COLUMNS.index("status")] == "accepted" for c in expected)
    with p.pool.connection() as conn:
        big_check = check_quotes_verbatim(p.store, conn, DAY1).metadata

    # The same day again from scratch, 2 conversations a page (5 pages, the last one short) and 4 answers a batch.
    for table in ("session_summaries", "summary_cache", "extraction_cache", "fact_candidates"):
        p.rows(f"DELETE FROM {{schema}}.{table} RETURNING 1")
    p.rows("UPDATE {schema}.conversations SET facts_extracted_at = NULL, extracted_with = NULL RETURNING 1")
    monkeypatch.setattr(llm_calls, "PAGE_SIZE", 2)
    monkeypatch.setattr(llm_calls, "WRITE_BATCH", 4)
    monkeypatch.setattr(llm_calls, "FREE_WRITE_BATCH", 4)
    small = Counting(max_in_flight)
    small_summaries, small_extracted = llm_stages(p, small)
    assert small.summarized == Counter(dict.fromkeys(ids, 1))
    assert small.extracted == Counter(dict.fromkeys(ids, 1))
    assert candidates(p) == expected
    assert p.rows("SELECT count(*) AS n FROM {schema}.session_summaries")[0]["n"] == 9
    assert p.rows("SELECT count(*) AS n FROM {schema}.conversations WHERE facts_extracted_at IS NOT NULL"
                  )[0]["n"] == 9
    assert small_summaries == big_summaries
    assert small_extracted == big_extracted
    with p.pool.connection() as conn:
        assert check_quotes_verbatim(p.store, conn, DAY1).metadata == big_check

    # A re-run reads every page and sends nothing: each conversation is a cache hit or already extracted.
    again = Counting(max_in_flight)
    summaries, extracted = llm_stages(p, again)
    assert not again.summarized and not again.extracted
    assert summaries["cache_hits"] == 9 and extracted["conversations_already_extracted"] == 9


def test_the_quote_check_finds_a_bad_quote_on_any_page(make_settings, monkeypatch):
    p = install(make_settings, users=7)
    llm_stages(p, OfflineExtractor())
    monkeypatch.setattr(llm_calls, "PAGE_SIZE", 2)
    accepted = p.rows("SELECT candidate_id, conversation_id FROM {schema}.fact_candidates "
                      "WHERE status = 'accepted' ORDER BY conversation_id, candidate_id")
    # One bad quote in the first conversation and one in the last: on the first page and on the last one.
    tampered = sorted({accepted[0]["candidate_id"], accepted[-1]["candidate_id"]})
    p.rows("UPDATE {schema}.fact_candidates SET quote = 'I never said this at all.' "
           "WHERE candidate_id = ANY(%s) RETURNING 1", (tampered,))
    with p.pool.connection() as conn:
        outcome = check_quotes_verbatim(p.store, conn, DAY1)
    assert not outcome.passed
    assert outcome.metadata["failing_candidate_ids"] == tampered
    assert outcome.metadata["accepted_checked"] == len(accepted)


def test_one_failing_call_sinks_neither_its_page_nor_later_pages(make_settings, monkeypatch):
    p = install(make_settings, users=7)
    ids = conversation_ids(p)
    failing = ids[2]  # the first conversation of the second page
    first_message = p.rows("SELECT message_ids[1] AS id FROM {schema}.conversations WHERE conversation_id = %s",
                           (failing,))[0]["id"]

    def responder(body):
        if f"[{first_message}|" in json.dumps(body["messages"]):
            return Reply(content='{"summary": ')  # truncated JSON, every time
        return transcript_responder(body)

    monkeypatch.setattr(llm_calls, "PAGE_SIZE", 3)
    monkeypatch.setattr(llm_calls, "WRITE_BATCH", 2)
    with ScriptedOpenAIServer(responder) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.delenv("OPENAI_API_KEY", raising=False)
        extractor = OpenAIExtractor(Settings(extractor="openai", llm_max_retries=0, llm_timeout_seconds=10,
                                             llm_max_in_flight=2))
        summaries, extracted = llm_stages(p, extractor)
    assert summaries["failed_by_reason"] == {"invalid_output": 1}
    assert summaries["summaries_computed"] == 6
    failures = p.rows("SELECT conversation_id, stage, reason FROM {schema}.extraction_failures")
    assert failures == [{"conversation_id": failing, "stage": "session_summaries", "reason": "invalid_output"}]
    summarised = {r["conversation_id"] for r in p.rows("SELECT conversation_id FROM {schema}.session_summaries")}
    assert summarised == set(ids) - {failing}  # the rest of its page and both later pages
    assert extracted["conversations_without_summary"] == 1
    extracted_ids = {r["conversation_id"] for r in p.rows(
        "SELECT conversation_id FROM {schema}.conversations WHERE facts_extracted_at IS NOT NULL")}
    assert extracted_ids == set(ids) - {failing}
    with_candidates = {r["conversation_id"] for r in p.rows(
        "SELECT DISTINCT conversation_id FROM {schema}.fact_candidates WHERE status = 'accepted'")}
    assert with_candidates == set(ids) - {failing}


@pytest.mark.parametrize("stage", ["session_summaries", "extracted_facts"])
def test_an_erasure_between_two_page_reads_is_not_brought_back(make_settings, monkeypatch, stage):
    p = install(make_settings, users=5)
    if stage == "extracted_facts":
        with p.pool.connection() as conn:
            session_summaries(p.store, conn, DAY1, OfflineExtractor())
    ids = conversation_ids(p)
    user_of = {r["conversation_id"]: r["user_key"] for r in p.rows(
        "SELECT conversation_id, user_key FROM {schema}.conversations")}
    read_first, not_read_yet = user_of[ids[0]], user_of[ids[2]]  # first page, second page
    monkeypatch.setattr(llm_calls, "PAGE_SIZE", 2)
    monkeypatch.setattr(llm_calls, "WRITE_BATCH", 100)  # the first page's answers are still unwritten at the erasure
    pages = Store.pages
    reports = []

    def erasing_between_pages(self, conn, name, params, page_size, key="conversation_id"):
        for n, page in enumerate(pages(self, conn, name, params, page_size, key)):
            yield page
            if n == 0:
                # Another session erases two users. Nothing of the stage may hold a lock it waits for: no
                # transaction is open between page reads (lock_timeout turns a wait into an error).
                with psycopg.connect(p.settings.database_url, autocommit=True, row_factory=dict_row) as other:
                    other.execute("SET lock_timeout = '5s'")
                    reports.extend(erasure.erase_user(p.store, other, u) for u in (read_first, not_read_yet))

    monkeypatch.setattr(Store, "pages", erasing_between_pages)
    with p.pool.connection() as conn:
        metadata = {"session_summaries": session_summaries, "extracted_facts": extracted_facts}[stage](p.store, conn, DAY1, OfflineExtractor()).metadata
    assert [r.counts["conversations"] for r in reports] == [1, 1]
    changed = "summary" if stage == "session_summaries" else "extraction"
    assert metadata[f"conversations_changed_during_{changed}"] == 1  # read before the erasure, not written
    for user in (read_first, not_read_yet):
        assert set(traces(p, user, [user]).values()) == {0}
    others = set(ids) - {ids[0], ids[2]}
    if stage == "session_summaries":
        done = {r["conversation_id"] for r in p.rows("SELECT conversation_id FROM {schema}.session_summaries")}
    else:
        done = {r["conversation_id"] for r in p.rows(
            "SELECT conversation_id FROM {schema}.conversations WHERE facts_extracted_at IS NOT NULL")}
    assert done == others


def test_statements_per_stage_do_not_grow_with_conversations(make_settings, monkeypatch):
    """Named statements sent (`Store.query` calls; an executemany is one, sent as one pipeline) by each LLM stage
    and the quote check, for 3 and for 9 conversations that fit one page and one write batch: the same number.
    Before batching, each conversation cost its own cache lookup, lock, writes and failure clearing."""
    monkeypatch.setattr(llm_calls, "PAGE_SIZE", 50)
    monkeypatch.setattr(llm_calls, "WRITE_BATCH", 50)
    query = Store.query
    counts: list[Counter[str]] = []

    def counting(self, conn, name, *args, **kwargs):
        counts[-1][name] += 1
        return query(self, conn, name, *args, **kwargs)

    sent = {}
    for users in (3, 9):
        p = install(make_settings, users=users)
        monkeypatch.setattr(Store, "query", counting)
        per_stage = []
        with p.pool.connection() as conn:
            for run in (lambda: session_summaries(p.store, conn, DAY1, OfflineExtractor()),
                        lambda: extracted_facts(p.store, conn, DAY1, OfflineExtractor()),
                        lambda: check_quotes_verbatim(p.store, conn, DAY1)):
                counts.append(Counter())
                run()
                per_stage.append(counts[-1])
        monkeypatch.setattr(Store, "query", query)
        assert p.rows("SELECT count(*) AS n FROM {schema}.conversations WHERE facts_extracted_at IS NOT NULL"
                      )[0]["n"] == users
        sent[users] = per_stage
    assert sent[3] == sent[9]
    summary_statements, extraction_statements, check_statements = (sum(c.values()) for c in sent[9])
    assert summary_statements <= 12 and extraction_statements <= 12 and check_statements == 1


class Paid(Counting):
    """The counting offline extractor, declared as a backend whose answers cost tokens."""

    free_answers = False


@pytest.mark.parametrize("extractor_class,per_stage", [(Paid, 5), (Counting, 1)])
def test_paid_answers_are_written_write_batch_at_a_time_and_free_ones_in_larger_batches(
        make_settings, monkeypatch, extractor_class, per_stage):
    """Write transactions (one `lock_conversations` each) per LLM stage for 9 conversations on one page: 5 for a
    paid backend with WRITE_BATCH 2 (a crash loses at most 2 paid answers), 1 for the offline rules (free answers,
    FREE_WRITE_BATCH 20); the same summaries and candidates either way."""
    p = install(make_settings, users=9)
    monkeypatch.setattr(llm_calls, "PAGE_SIZE", 50)
    monkeypatch.setattr(llm_calls, "WRITE_BATCH", 2)
    monkeypatch.setattr(llm_calls, "FREE_WRITE_BATCH", 20)
    query = Store.query
    locks: Counter[str] = Counter()
    current = []

    def counting(self, conn, name, *args, **kwargs):
        locks[current[-1]] += name == "lock_conversations"
        return query(self, conn, name, *args, **kwargs)

    monkeypatch.setattr(Store, "query", counting)
    extractor = extractor_class(1)
    with p.pool.connection() as conn:
        for stage in ("session_summaries", "extracted_facts"):
            current.append(stage)
            {"session_summaries": session_summaries, "extracted_facts": extracted_facts}[stage](p.store, conn, DAY1, extractor)
    assert locks == {"session_summaries": per_stage, "extracted_facts": per_stage}
    assert p.rows("SELECT count(*) AS n FROM {schema}.session_summaries")[0]["n"] == 9
    assert p.rows("SELECT count(*) AS n FROM {schema}.conversations WHERE facts_extracted_at IS NOT NULL"
                  )[0]["n"] == 9
    assert p.rows("SELECT count(*) AS n FROM {schema}.fact_candidates WHERE status = 'accepted'")[0]["n"] >= 9


def test_call_each_reads_items_lazily_a_bounded_window_ahead_and_keeps_their_order():
    read = []

    def conversations():
        for i in range(100):
            read.append(i)
            yield i

    results = call_each(lambda i: i * i, conversations(), max_in_flight=3)
    first = next(results)
    window = 3 * llm_calls.LOOKAHEAD_PER_REQUEST
    assert first == (0, 0) and len(read) <= window + 1  # not the whole partition: a window past the first
    assert list(results) == [(i, i * i) for i in range(1, 100)] and len(read) == 100


def test_pages_read_ahead_gives_the_pages_of_pages_and_closes_its_connection(make_settings, monkeypatch):
    """The read-ahead pages equal `pages` (same rows, same page boundaries), read on a second connection (not the
    caller's, which stays free for writes); that connection is closed when the iteration ends, when the caller
    abandons it after one page, and when reading a page fails (the error reaches the caller)."""
    p = install(make_settings, users=7)
    params = {"partition_date": DAY1, "prompt_version": "v", "model": "m"}
    opened = []
    connect = psycopg.connect

    def recording(*args, **kwargs):
        opened.append(connect(*args, **kwargs))
        return opened[-1]

    monkeypatch.setattr(psycopg, "connect", recording)
    with p.pool.connection() as conn:
        expected = list(p.store.pages(conn, "summary_page", params, 3))
        assert [len(page) for page in expected] == [3, 3, 1]
        assert list(p.store.pages_read_ahead(conn, "summary_page", params, 3)) == expected
        assert len(opened) == 1 and opened[0] is not conn and opened[0].closed
        abandoned = p.store.pages_read_ahead(conn, "summary_page", params, 3)
        assert next(abandoned) == expected[0]
        assert len(opened) == 2 and not opened[1].closed  # reading the next page meanwhile
        abandoned.close()
        assert opened[1].closed
        with pytest.raises(psycopg.errors.UndefinedFunction):
            list(p.store.pages_read_ahead(conn, "summary_page", {**params, "partition_date": 5}, 3))
        assert len(opened) == 3 and opened[2].closed
        assert not conn.closed
