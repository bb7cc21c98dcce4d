"""Order independence, property-based (hypothesis): the facts do not depend on the order days are materialized.

Two levels: the domain fold (`reconcile_user`) with many generated candidate sets and every kind of input
order; the whole pipeline (stages on the real database, offline extractor) with a few generated histories of
several users over several days (repeats, contradictions, retractions, late rows with high ids, legacy rows
without time), materialized forward, reversed and in a random order.
"""

from datetime import date, datetime, timedelta, timezone

from hypothesis import HealthCheck, given, settings, strategies as st
from psycopg import sql

from memory_pipeline import sample
from memory_pipeline.db import get_pool
from memory_pipeline.domain.near_duplicates import NearDuplicateRule
from memory_pipeline.domain.reconcile import MULTI_VALUED_ATTRIBUTES, AcceptedFact, reconcile_user
from memory_pipeline.extractors.offline import OfflineExtractor
from memory_pipeline.settings import DEFAULT_TTL_DAYS
from memory_pipeline.store import Store
from memory_pipeline_tests.conftest import run_stages

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=timezone.utc)

# (category, attribute, value, fact): single-valued slots with several values, a multi-valued one, no attribute.
FACT_POOL = [
    ("preference", "contact_channel", "email", "User wants to be contacted by email."),
    ("preference", "contact_channel", "phone", "User wants to be contacted by phone."),
    ("preference", "contact_channel", "Email", "User is fine with being contacted by email."),
    ("client_info", "home_location", "Oslo", "User lives in Oslo."),
    ("client_info", "home_location", "Rome", "User lives in Rome."),
    ("preference", "opinion:jazz", "likes", "User likes jazz."),
    ("preference", "opinion:jazz", "hates", "User hates jazz."),
    ("preference", "hobby", "chess", "User plays chess."),
    ("preference", "hobby", "golf", "User plays golf."),
    ("preference", None, None, "User prefers invoices as PDF."),
    ("decision", None, None, "User decided to cancel the gym."),
    ("decision", None, None, "User decided to cancel their gym."),  # a near-duplicate of the one above
    ("preference", "favourite:colour", "blue", "User's favourite colour is blue."),  # three stances on blue
    ("preference", "opinion:blue", "likes", "User likes blue."),
    ("preference", None, "blue", "User prefers blue."),
    ("preference", "opinion:blue", "hates", "User hates blue."),
    ("client_info", "current_city", "Rome", "User now lives in Rome."),  # one slot under other names
    ("preference", "preferred_contact_method", "phone", "User prefers phone calls."),
    ("preference", "favourite:jazz", "loves", "User loves jazz."),  # a stance on jazz under another slot
    ("preference", "hobby", "jazz", "User plays jazz."),
    ("preference", "opinion:jazz", None, "User no longer likes jazz.", True),  # retractions
    ("client_info", "home_location", "Oslo", "User no longer lives in Oslo.", True),
    ("preference", "hobby", "chess", "User no longer plays chess.", True),
]
NEAR = NearDuplicateRule(0.9, MULTI_VALUED_ATTRIBUTES).same

accepted_facts = st.lists(
    st.tuples(st.sampled_from(FACT_POOL), st.integers(0, 5), st.integers(1, 4), st.integers(0, 2)),
    min_size=1, max_size=14,
).map(lambda items: [
    AcceptedFact(candidate_id=f"c{i}", user_key="u", category=pooled[0], attribute=pooled[1], value=pooled[2],
                 fact=pooled[3], quote=pooled[3], quote_message_id=msg, quote_speaker="human",
                 conversation_id=f"v{day}", said_at=T0 + timedelta(days=day), position=pos,
                 retraction=len(pooled) > 4)
    for i, (pooled, day, msg, pos) in enumerate(items)
])


@settings(max_examples=300, deadline=None, database=None)
@given(facts=accepted_facts, data=st.data())
def test_reconcile_user_is_a_function_of_the_set(facts, data):
    expected = reconcile_user(facts, DEFAULT_TTL_DAYS, NEAR)
    shuffled = data.draw(st.permutations(facts))
    assert reconcile_user(shuffled, DEFAULT_TTL_DAYS, NEAR) == expected
    assert reconcile_user(list(reversed(facts)), DEFAULT_TTL_DAYS, NEAR) == expected
    assert reconcile_user(shuffled, DEFAULT_TTL_DAYS) == reconcile_user(facts, DEFAULT_TTL_DAYS)
    active = [v for v in expected if v.is_active]
    assert len({(v.category, v.fact.casefold().rstrip(".")) for v in active}) == len(active)  # no duplicate
    owned = [owner for v in active for owner in v.owners]
    assert len(owned) == len(set(owned))  # no owner (a slot whatever its name, a stance's object) holds two


DAYS = [date(2026, 5, 1), date(2026, 5, 2), date(2026, 5, 3), date(2026, 5, 4)]  # the first is the backlog date
SENTENCES = ["Please contact me by email.", "Please contact me by phone.", "I live in Oslo.", "I live in Rome.",
             "I like jazz.", "I hate jazz.", "I work as a nurse.", "I work as a pilot.", "I play chess.",
             "My favourite colour is blue.", "I like blue.", "I prefer blue.",
             "I no longer like jazz.", "I do not live in Oslo anymore."]  # the last two are retractions

# One event: (user, day, minutes after 08:00, sentence, legacy row without time, late row inserted last).
events = st.lists(
    st.tuples(st.integers(0, 2), st.integers(0, 3), st.integers(0, 600), st.sampled_from(SENTENCES),
              st.sampled_from([False, False, False, True]), st.booleans()),
    min_size=3, max_size=12,
)


def history_rows(history) -> list[sample.SampleRow]:
    """n8n rows for the events, inserted in time order except late rows, which come last (higher ids)."""
    timed = []
    for user, day, minutes, sentence, legacy, late in history:
        said = datetime.combine(DAYS[day], datetime.min.time(), tzinfo=timezone.utc) + timedelta(hours=8, minutes=minutes)
        session = f"prop:u{user}"
        rows = [sample.SampleRow(session, {"type": "human", "content": sentence}, None if legacy else said),
                sample.SampleRow(session, {"type": "ai", "content": "Noted."},
                                 None if legacy else said + timedelta(seconds=30))]
        timed.append(((late, said), rows))
    timed.sort(key=lambda item: item[0])
    return [row for _, rows in timed for row in rows]


def final_facts(make_settings, rows, order) -> list[tuple]:
    settings_ = make_settings(backlog_date=DAYS[0].isoformat())
    store, extractor = Store(settings_), OfflineExtractor()
    pool = get_pool(settings_.database_url)
    with pool.connection() as conn:
        sample.create_n8n_table(conn, settings_)
        sample.insert_rows(conn, settings_, rows)
        for day in order:
            run_stages(store, conn, day, extractor)
        facts = conn.execute(sql.SQL("SELECT * FROM {}.agent_facts").format(
            sql.Identifier(settings_.schema_name))).fetchall()
        left = store.scalar(conn, "source_rows_of_sessions", {"keys": [f"prop:u{i}" for i in range(3)]})
    assert left == 0  # every day consolidated, whatever the order
    by_id = {f["id"]: f for f in facts}
    return sorted((
        (f["user_key"], f["category"], f["attribute"], f["value"], f["fact"], f["quote"], f["valid_from"],
         f["last_seen_at"], f["expires_at"], f["superseded_at"],
         (by_id[f["superseded_by"]]["fact"], by_id[f["superseded_by"]]["valid_from"]) if f["superseded_by"] else None)
        for f in facts
    ), key=repr)  # attribute and value may be None: compare the tuples' text


@settings(max_examples=4, deadline=None, database=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(history=events, order=st.permutations(DAYS))
def test_pipeline_facts_do_not_depend_on_the_order_days_run(make_settings, history, order):
    rows = history_rows(history)
    forward = final_facts(make_settings, rows, DAYS)
    assert final_facts(make_settings, rows, list(reversed(DAYS))) == forward
    assert final_facts(make_settings, rows, order) == forward
