"""The LLM stages' fast paths give exactly what the reference paths give (property-based, hypothesis):
`turn_from_record` against building the ParsedRow field by field, and `locate_quote` / `validate_candidate`
with a conversation's `QuoteSources` (human turns normalised once, the cited message looked up by id) against
the search over every turn per quote that they replace."""

from dataclasses import MISSING, asdict, fields, replace
from datetime import date, datetime, timedelta, timezone

from hypothesis import given, settings, strategies as st

from memory_pipeline.domain.conversations import Conversation
from memory_pipeline.domain.facts import ExtractedFact, validate_candidate
from memory_pipeline.domain.quotes import QuoteSources, contains_words, is_substantial_quote, locate_quote, normalize_for_quote, quotable_text, why_not_found
from memory_pipeline.domain.messages import ParsedRow
from memory_pipeline.store import Store
from memory_pipeline.stages.records import conversation_from_record, turn_from_record


def reference_turn(t: dict) -> ParsedRow:
    """The field-by-field construction `conversation_from_record` used before `turn_from_record`."""
    return ParsedRow(
        message_id=t["message_id"],
        at=datetime.fromisoformat(t["at"]).astimezone(timezone.utc) if t.get("at") else None,
        status="turn", role=t["role"], text=t["text"], tool_evidence=t.get("tool_evidence"),
        sender=t.get("sender"), user_key=t.get("user_key"), machine_text=t.get("machine_text"),
        quotable_chars=t.get("quotable_chars"), truncated=t.get("quotable_chars") is not None)


def reference_locate_quote(quote, conversation, message_id=None):
    """`locate_quote` as it was before QuoteSources: every human turn normalised and searched per quote."""
    needle = normalize_for_quote(quote)
    if not needle:
        return "no_quote", None
    turns = conversation.turns
    found = [t for t in turns if t.role == "human" and contains_words(quotable_text(t), needle)]
    if found:
        if message_id is not None:
            found = [t for t in found if t.message_id == message_id]
            if not found:
                return "quote_not_in_cited_message", None
        substantial = [t for t in found if is_substantial_quote(quotable_text(t), needle, t)]
        return (None, substantial[0]) if substantial else ("quote_too_short", None)
    return why_not_found(needle, turns), None  # the same reasons once no human turn holds it


WORDS = ["I", "like", "chess", "Oslo.", "email", "only,", "not", "phone.", "Yes.", "my", "plan", "is", "gold",
         "\u201cquoted\u201d", "\u00e9t\u00e9", "e\u0301te\u0301", "\u200bzero", "東京", "に住んでいます。", "\n", "  ",
         "-", "vegan,", "chessboard", "(note)"]
texts = st.lists(st.sampled_from(WORDS), min_size=1, max_size=10).map(" ".join)
times = st.one_of(
    st.none(), st.just(""),
    st.datetimes(min_value=datetime(2000, 1, 1), max_value=datetime(2100, 1, 1),
                 timezones=st.sampled_from([timezone.utc, timezone(timedelta(hours=2)),
                                            timezone(timedelta(hours=-5, minutes=-30))])).map(datetime.isoformat),
)


@st.composite
def stored_turns(draw, message_id=None):
    """A turn as `Store._turn_record` writes it, with every optional key present or absent."""
    text = draw(texts)
    turn = {"message_id": message_id if message_id is not None else draw(st.integers(1, 10**12)),
            "role": draw(st.sampled_from(["human", "ai", "tool"])), "text": text, "at": draw(times),
            "tool_evidence": draw(st.one_of(st.none(), texts))}
    if draw(st.booleans()):
        turn.update(sender=draw(texts), user_key=draw(texts))
    if draw(st.booleans()):
        turn["machine_text"] = draw(texts)
    if draw(st.booleans()):
        turn["quotable_chars"] = draw(st.integers(0, len(text)))
    return turn


@settings(max_examples=400, deadline=None)
@given(stored_turns(), st.dictionaries(st.sampled_from(["truncated", "status", "reason", "extra"]),
                                       st.booleans(), max_size=2))
def test_turn_from_record_equals_the_field_by_field_construction(turn, unknown_keys):
    stored = dict(turn)
    rebuilt = turn_from_record(turn)
    reference = reference_turn(turn)
    assert turn == stored  # the stored dict is not changed
    assert rebuilt == reference
    # Every field reads the same (the ones the turn does not set from the class defaults), no attribute more.
    assert all(getattr(rebuilt, f.name) == getattr(reference, f.name) for f in fields(ParsedRow))
    assert vars(rebuilt).keys() <= {f.name for f in fields(ParsedRow)}
    assert asdict(rebuilt) == asdict(reference) and hash(rebuilt) == hash(reference)
    assert replace(rebuilt, text="x") == replace(reference, text="x")
    assert rebuilt.at is None or rebuilt.at.tzinfo is timezone.utc
    # Keys the reference never reads are ignored, whatever they hold.
    assert turn_from_record({**turn, **unknown_keys}) == reference_turn(turn)


def test_parsed_row_defaults_are_class_attributes():
    """`turn_from_record` leaves defaulted fields out of the row's field dict: they must read from the class."""
    defaulted = [f for f in fields(ParsedRow) if f.default is not MISSING]
    assert defaulted and all(getattr(ParsedRow, f.name) == f.default for f in defaulted)


@settings(max_examples=200, deadline=None)
@given(st.lists(stored_turns(), max_size=6))
def test_stored_transcript_round_trips_to_the_same_turns(turns):
    rows = tuple(reference_turn(t) for t in turns)
    stored = [Store._turn_record(r) for r in rows]
    record = {"conversation_id": "c", "session_key": "k", "user_key": "u", "partition_date": date(2026, 5, 3),
              "started_at": None, "ended_at": None, "is_legacy": False, "transcript": stored}
    assert conversation_from_record(record).rows == rows


@st.composite
def conversations_and_quotes(draw):
    ids = draw(st.lists(st.integers(1, 6), min_size=1, max_size=8))  # repeated ids: a message split in turns
    rows = tuple(reference_turn(draw(stored_turns(message_id=i))) for i in ids)
    conversation = Conversation("c", "k", "u", date(2026, 5, 3), None, None, rows, False)
    quotes = []
    for _ in range(draw(st.integers(1, 6))):
        source = draw(st.sampled_from(rows)) if rows else None
        pool = [source.text, source.machine_text or "", source.tool_evidence or ""] if source else [""]
        text = draw(st.sampled_from(pool))
        start = draw(st.integers(0, len(text)))
        end = draw(st.integers(start, len(text)))
        quote = draw(st.one_of(st.just(text[start:end]), texts, st.just(text)))
        cited = draw(st.one_of(st.none(), st.sampled_from(ids), st.integers(7, 8)))
        quotes.append((quote, cited))
    return conversation, quotes


@settings(max_examples=600, deadline=None)
@given(conversations_and_quotes())
def test_locate_quote_with_quote_sources_equals_the_search_over_every_turn(case):
    conversation, quotes = case
    sources = QuoteSources(conversation)
    for quote, cited in quotes:
        expected = reference_locate_quote(quote, conversation, cited)
        assert locate_quote(quote, conversation, cited, sources) == expected
        assert locate_quote(quote, conversation, cited) == expected
        fact = ExtractedFact(category="preference", fact="User said it.", quote=quote, quote_message_id=cited)
        assert validate_candidate(fact, conversation, 0, None, sources) == validate_candidate(fact, conversation, 0)
