"""Issue 6's inputs, each through the whole job on the embedded PostgreSQL (fixtures/fault_inputs.jsonl): each
fault's kind is tested, not only the one input."""

import json

import pytest
from psycopg import sql as psql
from psycopg.conninfo import make_conninfo

from memory_pipeline import sample
from memory_pipeline.db import ensure_schema, get_pool
from memory_pipeline.settings import Settings
from memory_pipeline_tests.conftest import FIXTURES
from memory_pipeline_tests.test_pipeline_end_to_end import Pipeline, metadata

DAY = "2026-05-03"


def fault_rows(*cases):
    """Rows of fault_inputs.jsonl for these cases; a content {"_repeat": text, "times": n} is text * n."""
    rows = []
    for line in (FIXTURES / "fault_inputs.jsonl").read_text().splitlines():
        record = json.loads(line)
        if record["_case"] not in cases:
            continue
        content = record["message"]["content"]
        if isinstance(content, dict) and "_repeat" in content:
            record["message"] = {**record["message"], "content": content["_repeat"] * content["times"]}
        rows.append(json.dumps(record))
    assert rows, f"no fixture rows for {cases}"
    return sample.fixture_rows(rows)


def facts(p, user=None, active=True):
    where = "superseded_at IS NULL" if active else "TRUE"
    rows = p.rows(f"SELECT * FROM {{schema}}.agent_facts WHERE {where} ORDER BY user_key, valid_from, id")
    return [r for r in rows if user is None or r["user_key"] == user]


def test_unicode_line_separator_splits_sentences(make_settings):
    p = Pipeline(make_settings())
    p.load(fault_rows("line_separator"))
    assert p.run(DAY).success
    assert sorted(f["fact"] for f in facts(p, "u:sep")) == ["User likes skiing.", "User lives in Oslo."]
    assert {f["quote"] for f in facts(p, "u:sep")} == {"I live in Oslo", "I like skiing"}


def test_blank_session_keys_are_rejected_with_a_reason_archived_and_purged(make_settings):
    p = Pipeline(make_settings())
    p.load(fault_rows("blank_session_keys"))
    ids = p.source_ids()
    result = p.run(DAY)
    assert result.success
    assert facts(p) == [] and p.rows("SELECT * FROM {schema}.fact_candidates") == []
    assert p.rows("SELECT * FROM {schema}.conversations") == []
    reasons = {r["message_id"]: r["reason"] for r in p.rows("SELECT * FROM {schema}.message_rejections")}
    assert reasons == {i: "blank_session_key" for i in ids}
    meta = metadata(result, "closed_sessions")
    assert meta["rows_rejected_by_reason"] == {"blank_session_key": 2} and meta["conversations_unattributed"] == 2
    assert meta["unattributed_rows_archived"] == 2 and metadata(result, "archived_sessions")["unattributed_rows_purged"] == 2
    # Archived with their reason like every other closed row, and gone from n8n's table on their night.
    assert p.source_ids() == set() and p.archive_ids() == ids
    again = p.run(DAY)  # a re-run reads them from the archive and changes nothing
    assert again.success and p.source_ids() == set() and p.archive_ids() == ids
    assert {r["message_id"]: r["reason"] for r in p.rows("SELECT * FROM {schema}.message_rejections")} == reasons


def test_a_user_key_regex_that_maps_to_blank_is_rejected_too(make_settings):
    p = Pipeline(make_settings(user_key_regex=r"^t:(?P<user>\s*)$"))
    p.load([sample.SampleRow("t: ", {"type": "human", "content": "I live in Oslo."}, fault_rows("line_separator")[0].created_at)])
    assert p.run(DAY).success
    assert facts(p) == []
    assert {r["reason"] for r in p.rows("SELECT * FROM {schema}.message_rejections")} == {"blank_user_key"}


# -- 1. instants in UTC whatever the server's TimeZone ------------------------------------------------------
ZONE_CASES = {
    "Europe/Berlin": ("tz_fall_back_correction", "tz_fall_back_idle_gap", "tz_spring_forward_idle_gap",
                      ("2025-10-26", "2025-03-30")),
    "Australia/Adelaide": ("tz_adelaide_fall_back_correction", "tz_adelaide_fall_back_idle_gap",
                           "tz_adelaide_spring_forward_idle_gap", ("2025-04-06", "2025-10-05")),
}


def zoned_settings(pg_url, tmp_path, zone, monkeypatch):
    """Settings on a database of its own whose default TimeZone is `zone` (ALTER DATABASE ... SET timezone), so
    the other tests' connections keep the server's UTC. Partitions are in the same zone, as an operator there
    would set them."""
    name = "tz_" + zone.split("/")[1].lower()
    admin = get_pool(pg_url)
    with admin.connection() as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            conn.execute(psql.SQL("CREATE DATABASE {}").format(psql.Identifier(name)))
            conn.execute(psql.SQL("ALTER DATABASE {} SET timezone TO {}").format(psql.Identifier(name), psql.Literal(zone)))
    url = make_conninfo(pg_url, dbname=name)
    monkeypatch.setenv("MEMORY_PIPELINE_DATABASE_URL", url)  # what the run's resource connects to
    settings = Settings(database_url=url, home=tmp_path / "home", schema_name="mp_zone", source_table="chat_zone",
                        timezone=zone, partitions_start="2023-01-01")
    with get_pool(url).connection() as conn:
        assert conn.execute("SHOW timezone").fetchone()["TimeZone"] == zone  # the server really is in that zone
        conn.execute("DROP SCHEMA IF EXISTS mp_zone CASCADE")
        conn.execute("DROP TABLE IF EXISTS public.chat_zone")
        ensure_schema(conn, settings)
    return settings


@pytest.mark.parametrize("zone", sorted(ZONE_CASES))
def test_instants_compare_in_utc_on_a_server_in_a_dst_zone(zone, pg_url, tmp_path, monkeypatch):
    correction, gap_fall, gap_spring, (fall_day, spring_day) = ZONE_CASES[zone]
    p = Pipeline(zoned_settings(pg_url, tmp_path, zone, monkeypatch))
    rows = fault_rows(correction, gap_fall, gap_spring)
    p.load(rows)
    assert p.run(fall_day).success and p.run(spring_day).success

    # The night clocks go back: "Sorry, I live in Bergen." 20 minutes after "I live in Oslo." wins.
    key = rows[0].session_id
    versions = {f["fact"]: f for f in facts(p, key, active=False)}
    assert [f["fact"] for f in facts(p, key)] == ["User lives in Bergen."]
    bergen, oslo = versions["User lives in Bergen."], versions["User lives in Oslo."]
    assert oslo["superseded_at"] == bergen["valid_from"] == rows[1].created_at
    assert oslo["superseded_by"] == bergen["id"]

    # Idle gaps are real elapsed time: 3 h 40 min across the fall-back splits, 2 h 30 min across spring-forward not.
    def conversations(session_key):
        return p.rows("SELECT started_at, ended_at FROM {schema}.conversations WHERE session_key = %s "
                      "ORDER BY started_at", (session_key,))
    fall = [r for r in rows if r.session_id == rows[2].session_id]
    spring = [r for r in rows if r.session_id == rows[4].session_id]
    assert [(c["started_at"], c["ended_at"]) for c in conversations(fall[0].session_id)] == \
        [(fall[0].created_at, fall[0].created_at), (fall[1].created_at, fall[1].created_at)]
    assert [(c["started_at"], c["ended_at"]) for c in conversations(spring[0].session_id)] == \
        [(spring[0].created_at, spring[1].created_at)]
    assert p.source_ids() == set()  # every conversation consolidated and archived


def test_a_30_minute_offset_zone_without_dst_keeps_said_order(pg_url, tmp_path, monkeypatch):
    p = Pipeline(zoned_settings(pg_url, tmp_path, "Asia/Kolkata", monkeypatch))
    rows = fault_rows("tz_fall_back_correction")
    p.load(rows)
    assert p.run("2025-10-26").success
    assert [f["fact"] for f in facts(p, rows[0].session_id)] == ["User lives in Bergen."]
    assert facts(p, rows[0].session_id)[0]["valid_from"].utcoffset().total_seconds() == 0


def test_split_rows_measures_gaps_in_real_time_whatever_the_rows_tzinfo():
    from datetime import timedelta
    from zoneinfo import ZoneInfo

    from memory_pipeline.domain.conversations import split_rows
    from memory_pipeline.domain.messages import SourceRow

    berlin = ZoneInfo("Europe/Berlin")
    rows = [SourceRow(r.id, r.session_id, r.message, r.created_at.astimezone(berlin))  # as a Berlin session reads them
            for r in fault_rows("tz_fall_back_idle_gap", "tz_spring_forward_idle_gap")]
    groups = split_rows(rows, timedelta(hours=3))
    assert [[r.id for r in g] for g in groups] == [[rows[0].id], [rows[1].id], [rows[2].id, rows[3].id]]
    assert all(r.created_at.utcoffset() == timedelta(0) for g in groups for r in g)


# -- 4. single-valued slots take only values of their kind ----------------------------------------------------
def offline_facts(text):
    return [(f.attribute, f.value) for f in offline_extracted(text)]


def offline_extracted(text):
    from datetime import date, datetime, timedelta, timezone

    from memory_pipeline.domain.conversations import build_conversations
    from memory_pipeline.domain.messages import SourceRow
    from memory_pipeline.extractors.offline import OfflineExtractor

    row = SourceRow(1, "u", {"type": "human", "content": text}, datetime(2026, 5, 3, 12, tzinfo=timezone.utc))
    conversation = build_conversations([row], idle_gap=timedelta(hours=3), timezone="UTC",
                                       backlog_date=date(2026, 1, 1), user_key=lambda k: k)[0]
    return OfflineExtractor().extract(conversation, "").facts


@pytest.mark.parametrize("text, slot", [
    ("We moved to a new CRM last year.", "home_location"),
    ("We moved to the new ERP system in March.", "home_location"),
    ("I moved to a bigger plan.", "home_location"),
    ("I live in fear of deadlines.", "home_location"),
    ("I live in a constant state of panic.", "home_location"),
    ("I'm based in the cloud team.", "home_location"),
    ("I grew up in a small town.", "hometown"),
    ("I work for a living.", "employer"),
    ("I work at home.", "employer"),
    ("I work at night.", "employer"),
    ("I work for myself.", "employer"),
    ("My company is growing fast.", "employer"),
    ("I work as hard as I can.", "job"),
    ("I work as a team with my sister.", "job"),
    ("I'm the best at chess.", "job"),
    ("I'm the one who called yesterday.", "job"),
    ("I'm Ok, thanks.", "name"),
    ("I'm English, by the way.", "name"),
    ("I'm Back!", "name"),
    ("Call me Tomorrow.", "preferred_name"),
])
def test_single_valued_patterns_refuse_values_of_another_kind(text, slot):
    assert slot not in {attribute for attribute, _ in offline_facts(text)}


@pytest.mark.parametrize("text, slot, value", [
    ("We moved to Lisbon last month.", "home_location", "Lisbon"),
    ("I live in the Netherlands.", "home_location", "the Netherlands"),
    ("I live in New York.", "home_location", "New York"),
    ("I grew up in Ohio, so the weather here is a nice change.", "hometown", "Ohio"),
    ("I work at Acme Corp.", "employer", "Acme Corp"),
    ("I work for the BBC.", "employer", "the BBC"),
    ("My company is Northwind.", "employer", "Northwind"),
    ("I work as a nurse.", "job", "nurse"),
    ("I work as CTO.", "job", "CTO"),
    ("I'm the head of marketing.", "job", "head of marketing"),
    ("I'm Jeremy, nice to meet you.", "name", "Jeremy"),
    ("Call me Jo.", "preferred_name", "Jo"),
])
def test_single_valued_patterns_still_take_their_own_kind(text, slot, value):
    assert (slot, value) in offline_facts(text)


def test_moving_to_a_new_crm_does_not_supersede_a_home(make_settings):
    p = Pipeline(make_settings())
    p.load(fault_rows("pattern_false_positive_crm"))
    assert p.run("2026-05-01").success and p.run(DAY).success
    assert [(f["attribute"], f["value"]) for f in facts(p, "u:crm", active=False)] == [("home_location", "Lisbon")]


# -- 5. negation and retraction ---------------------------------------------------------------------------
def test_retractions_end_their_slots_without_a_successor_in_any_backfill_order(make_settings):
    def run(order):
        p = Pipeline(make_settings())
        p.load(fault_rows("retraction_no_longer"))
        for day in order:
            assert p.run(day).success
        return p

    p = run(["2026-05-01", DAY])
    assert facts(p, "u:vim") == []  # like, diet and home all withdrawn, nothing new made up
    history = {f["fact"]: f for f in facts(p, "u:vim", active=False)}
    assert set(history) == {"User likes Vim.", "User is vegetarian.", "User lives in Paris."}
    said = {r.message["content"]: r.created_at for r in fault_rows("retraction_no_longer")}
    assert history["User likes Vim."]["superseded_at"] == said["I no longer like Vim."]
    assert history["User is vegetarian."]["superseded_at"] == said["I'm not vegetarian anymore"]
    assert history["User lives in Paris."]["superseded_at"] == said["I don't live in Paris anymore."]
    assert all(f["superseded_by"] is None for f in history.values())
    retractions = p.rows("SELECT attribute FROM {schema}.fact_candidates WHERE retraction AND status = 'accepted'")
    assert sorted(r["attribute"] for r in retractions) == ["diet", "home_location", "opinion:vim"]

    before = p.snapshot()
    assert p.run(DAY).success and p.run("2026-05-01").success
    assert p.snapshot() == before  # a re-run changes nothing

    reverse = run([DAY, "2026-05-01"])  # the retractions' day first: the said order still decides
    comparable = lambda q: sorted((f["fact"], f["valid_from"], f["superseded_at"]) for f in facts(q, active=False))
    assert comparable(reverse) == comparable(p)


def test_retraction_of_an_empty_slot_or_another_value_does_nothing():
    from datetime import datetime, timedelta, timezone

    from memory_pipeline.domain.reconcile import AcceptedFact, reconcile_user

    t0 = datetime(2026, 5, 1, tzinfo=timezone.utc)

    def fact(n, attribute, value, text, retraction=False):
        return AcceptedFact(f"c{n}", "u", "client_info", attribute, value, text, "q", n, "human", "conv",
                            t0 + timedelta(days=n), retraction=retraction)

    lyon = fact(2, "home_location", "Lyon", "User lives in Lyon.")
    versions = reconcile_user([
        fact(0, "diet", "vegan", "User is no longer vegan.", retraction=True),        # nothing held yet
        fact(1, "home_location", "Paris", "User lives in Paris."),
        lyon,
        fact(3, "home_location", "Paris", "User no longer lives in Paris.", retraction=True),  # Paris is gone already
    ], {})
    assert [(v.fact, v.superseded_at) for v in versions] == [
        ("User lives in Paris.", lyon.said_at), ("User lives in Lyon.", None)]


@pytest.mark.parametrize("positive, retraction, slot", [
    ("I like Vim.", "I don't like Vim anymore", "opinion:vim"),
    ("I work at Acme.", "I don't work at Acme anymore.", "employer"),
    ("I'm a teacher.", "I'm no longer a teacher.", "job"),
    ("I live in Oslo.", "I no longer live in Oslo.", "home_location"),
    ("J'aime le chocolat.", "Je n'aime plus le chocolat.", "opinion:le chocolat"),
    ("J'habite à Paris.", "Je n'habite plus à Paris.", "home_location"),
    ("Je suis végétarienne.", "Je ne suis plus végétarienne.", "diet"),
    ("我喜欢猫。", "我不再喜欢猫。", "opinion:猫"),
    ("我住在北京。", "我已经不住在北京了。", "home_location"),
])
def test_offline_retractions_name_the_slot_the_positive_fact_used(positive, retraction, slot):
    from memory_pipeline.domain.reconcile import values_match

    (pos,) = offline_extracted(positive)
    (ret,) = offline_extracted(retraction)
    assert not pos.retraction and ret.retraction
    assert pos.attribute == ret.attribute == slot and values_match(ret.value, pos.value)
    assert ret.quote == retraction


# -- 2. group chats: facts belong to the sender -------------------------------------------------------------
GROUP_CHATS = r"tg:-\d+"  # Telegram's group chat ids are negative (MEMORY_PIPELINE_GROUP_CHAT_SESSION_KEYS)


def test_group_chat_senders_get_their_own_facts(make_settings):
    p = Pipeline(make_settings(group_chat_session_keys=GROUP_CHATS))
    p.load(fault_rows("group_chat_two_senders"))
    result = p.run(DAY)
    assert result.success
    active = {(f["user_key"], f["fact"], f["quote"]) for f in facts(p)}
    assert active == {("tg:-100777#Marta Silva", "User lives in Porto.", "Hi there, I live in Porto."),
                      ("tg:-100777#Tomasz Nowak", "User lives in Gdansk.", "Hello, I live in Gdansk.")}
    assert all(f["superseded_at"] is None for f in facts(p, active=False))  # nobody superseded anybody
    assert metadata(result, "active_facts")["users_reconciled"] == 3  # the session key and its two senders
    # The header is not part of what the sender said.
    transcript = p.rows("SELECT transcript FROM {schema}.conversations")[0]["transcript"]
    assert [t.get("sender") for t in transcript if t["role"] == "human"] == ["Marta Silva", "Tomasz Nowak"]
    assert not any("Message from" in t["text"] for t in transcript)
    assert p.run(DAY).success and {(f["user_key"], f["fact"], f["quote"]) for f in facts(p)} == active


def test_merging_senders_into_the_session_key_is_the_operators_choice(make_settings):
    # The operator asks for one user per session key.
    p = Pipeline(make_settings(sender_user_key="{user_key}", group_chat_session_keys=GROUP_CHATS))
    p.load(fault_rows("group_chat_two_senders"))
    assert p.run(DAY).success
    assert [f["fact"] for f in facts(p, "tg:-100777")] == ["User lives in Gdansk."]  # the choice is the operator's


def test_sender_template_can_key_a_sender_across_groups(make_settings):
    p = Pipeline(make_settings(sender_user_key="person:{sender}", group_chat_session_keys=GROUP_CHATS))
    p.load(fault_rows("group_chat_two_senders"))
    assert p.run(DAY).success
    assert {f["user_key"] for f in facts(p)} == {"person:Marta Silva", "person:Tomasz Nowak"}


# -- 3. machine-written text in the human row ---------------------------------------------------------------
def test_machine_text_in_human_rows_is_never_the_users_words(make_settings, monkeypatch):
    from memory_pipeline.domain.facts import ExtractedFact
    from memory_pipeline.extractors.base import ExtractionResult
    from memory_pipeline.extractors.offline import OfflineExtractor

    original = OfflineExtractor.extract

    def also_quotes_the_machine_text(self, conversation, summary):
        # Any backend (an LLM shown the whole row) may propose facts from the analysis: the check must refuse them.
        result = original(self, conversation, summary)
        extra = [ExtractedFact(category="preference", fact="User loves Berlin.", quote="I love Berlin."),
                 ExtractedFact(category="client_info", fact="User lives in Paris.", quote="I live in Paris",
                               attribute="home_location", value="Paris")]
        return ExtractionResult(facts=result.facts + extra)

    monkeypatch.setattr(OfflineExtractor, "extract", also_quotes_the_machine_text)
    p = Pipeline(make_settings())
    p.load(fault_rows("machine_text_image_analysis", "machine_text_with_own_words"))
    result = p.run(DAY)
    assert result.success
    assert [(f["user_key"], f["fact"]) for f in facts(p)] == [("wa:4915100002", "User lives in Lisbon.")]
    rejected = p.rows("SELECT user_key, fact, reject_reason FROM {schema}.fact_candidates WHERE status = 'rejected'")
    # The image-analysis-only row is skipped (no turn): nothing of it can be quoted at all.
    assert sorted((r["user_key"], r["fact"], r["reject_reason"]) for r in rejected) == [
        ("wa:4915100001", "User lives in Paris.", "quote_not_found"),
        ("wa:4915100001", "User loves Berlin.", "quote_not_found"),
        ("wa:4915100002", "User lives in Paris.", "quote_from_machine_text"),
        ("wa:4915100002", "User loves Berlin.", "quote_not_found"),
    ]
    skipped = {r["reason"] for r in p.rows("SELECT reason FROM {schema}.message_rejections")}
    assert skipped == {"machine_text_only"}
    assert metadata(result, "closed_sessions")["rows_skipped_by_reason"] == {"machine_text_only": 2}


@pytest.mark.parametrize("text, own", [
    ("[Image analysis] The photo shows a T-shirt printed with the words: I love Berlin.", ""),
    ("[Voice transcription]: I like jazz.", ""),
    ("[Audio transcript] I live in Rome.", ""),
    ("Image description: a sign saying \"I live in Oslo\"", ""),
    ("The user sent a voice message. Transcript: I work at Acme.", ""),
    ("User sent an image of a mug reading 'I love tea'.", ""),
    ("Look at this! [Photo] A cat on a sofa.\n\nI love cats.", "Look at this! \n\nI love cats."),
    ("I live in Lisbon.\n\n[Image analysis] A map of Porto.", "I live in Lisbon.\n\n"),
])
def test_machine_blocks_are_split_from_the_users_own_text(text, own):
    from memory_pipeline.domain.messages import split_machine_text

    kept, machine = split_machine_text(text)
    assert kept == own and machine


@pytest.mark.parametrize("text", ["I sent an image to my boss.", "I love [brackets].", "The user manual is long."])
def test_the_users_own_mentions_of_media_stay_their_words(text):
    from memory_pipeline.domain.messages import split_machine_text

    assert split_machine_text(text) == (text, None)


# -- 9. truncation never invents a quote --------------------------------------------------------------------
def test_a_huge_message_is_cut_at_a_sentence_and_no_partial_word_is_quoted(make_settings, monkeypatch):
    from memory_pipeline.domain.facts import ExtractedFact
    from memory_pipeline.extractors.base import ExtractionResult
    from memory_pipeline.extractors.offline import OfflineExtractor

    original = OfflineExtractor.extract

    def also_quotes_the_cut(self, conversation, summary):
        result = original(self, conversation, summary)
        # What a backend reading a cut transcript could propose: the words around the old mid-word cut.
        extra = [ExtractedFact(category="preference", fact="User likes chess ZQXMARK.", quote="I like chess ZQXMARK")]
        return ExtractionResult(facts=result.facts + extra)

    monkeypatch.setattr(OfflineExtractor, "extract", also_quotes_the_cut)
    p = Pipeline(make_settings())
    rows = fault_rows("truncation_60000_repetitions")
    assert len(rows[0].message["content"]) == 60000 * len("I like chess ZQXMARKERBIG. ")
    p.load(rows)
    result = p.run(DAY)
    assert result.success
    assert metadata(result, "closed_sessions")["rows_truncated"] == 1
    (turn,) = p.rows("SELECT transcript FROM {schema}.conversations")[0]["transcript"]
    assert len(turn["text"]) <= p.settings.max_message_chars
    assert turn["text"].endswith("ZQXMARKERBIG. [...]")  # whole sentences, then the mark of the cut
    assert [(f["fact"], f["quote"]) for f in facts(p)] == [("User likes chess ZQXMARKERBIG.", "I like chess ZQXMARKERBIG.")]
    rejected = p.rows("SELECT fact, reject_reason FROM {schema}.fact_candidates WHERE status = 'rejected'")
    assert [(r["fact"], r["reject_reason"]) for r in rejected] == [("User likes chess ZQXMARK.", "quote_not_found")]


def test_a_cut_inside_one_long_sentence_leaves_nothing_quotable():
    from datetime import date, datetime, timedelta, timezone

    from memory_pipeline.domain.conversations import build_conversations
    from memory_pipeline.domain.quotes import locate_quote
    from memory_pipeline.domain.messages import SourceRow

    text = "I like chess and " + "very " * 50 + "long games but never blitz."
    row = SourceRow(1, "u", {"type": "human", "content": text}, datetime(2026, 5, 3, tzinfo=timezone.utc))
    (conversation,) = build_conversations([row], idle_gap=timedelta(hours=3), timezone="UTC",
                                          backlog_date=date(2026, 1, 1), user_key=lambda k: k, max_chars=100)
    (turn,) = conversation.turns
    assert turn.truncated and turn.quotable_chars == 0 and turn.text.endswith(" [...]")
    assert text.startswith(turn.text[: -len(" [...]")])  # cut between words
    assert locate_quote("I like chess", conversation) == ("quote_cut_by_truncation", None)


@pytest.mark.parametrize("quote, found", [
    ("I like chess ZQXMARKERBIG.", True), ("I like chess ZQXMARK", False), ("like chess", True),
    ("ike chess", False), ("我喜欢", True),
])
def test_a_quote_is_found_only_as_whole_words(quote, found):
    from memory_pipeline.domain.quotes import contains_words

    assert contains_words("I like chess ZQXMARKERBIG. 我喜欢猫。", quote) is found
