"""Fact candidates: the shape every extractor returns, and the checks that accept or reject each one.

Every candidate is kept with its status; a rejected one carries one reason from `REJECTION_REASONS`
(asset `extracted_facts`).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from functools import partial
from datetime import datetime

from pydantic import BaseModel, Field

from memory_pipeline.domain.conversations import Conversation
from memory_pipeline.domain.quotes import (
    QuoteSources, locate_quote, normalize_for_quote, normalize_whitespace, quotable_text)
from memory_pipeline.domain.evidence import narrowed, with_value
from memory_pipeline.domain.gates import GATE_REASONS, gate, reads
from memory_pipeline.domain.homes import is_home_slot
from memory_pipeline.domain.value_support import (
    backs_value, gives_contact_detail, names_a_channel, names_a_thing, supported)
from memory_pipeline.domain.relative_time import resolve_fact
from memory_pipeline.domain.retractions import requested_slot
from memory_pipeline.domain.slot_repair import ended_liking, origin_slot, trip_slot

CATEGORIES = ("preference", "decision", "client_info")

REJECTION_REASONS = (
    "empty_fact",
    "unknown_category",
    "no_quote",
    "quote_not_found",
    "quote_from_tool_output",
    "quote_not_from_user",
    "quote_not_in_cited_message",
    "quote_from_machine_text",
    "quote_cut_by_truncation",
    "quote_too_short",
    *GATE_REASONS,
)


class ExtractedFact(BaseModel):
    """One fact as an extractor proposes it (also the JSON shape asked of an LLM).

    `fact`: one short self-contained present-tense sentence in the conversation's language.
    `quote`: the exact sentence the user said that backs it. `attribute`: the slot reconciliation uses
    (`contact_channel`, `plan`, ...); None when the fact fills no single-valued slot.
    `quote_message_id`: the n8n row id the quote was said in, when the backend knows it (an LLM is given ids);
    the quote must then be found in that very message. `retraction`: the user withdrew what the slot held
    ("I no longer like Vim.", "Forget my phone number."): `attribute` names the slot, `fact` says what was
    withdrawn, and reconciliation ends the slot's active fact without a successor (history kept).
    `verified`: the optional LLM verification pass's verdict (None when it did not run); False rejects the fact.
    """

    category: str
    fact: str
    quote: str
    attribute: str | None = None
    value: str | None = Field(None, description="the slot's value, e.g. 'email' for contact_channel")
    quote_message_id: int | None = None
    retraction: bool = False
    verified: bool | None = None


@dataclass(frozen=True)
class Candidate:
    """An `ExtractedFact` after validation against its conversation.

    status is "accepted" or "rejected" (then `reason` is one of REJECTION_REASONS). For an accepted one,
    `quote_message_id`, `quote_speaker` and `said_at` point at the message the quote was found in
    (`said_at` None for a legacy message without a timestamp).
    """

    conversation_id: str
    user_key: str
    position: int
    category: str
    attribute: str | None
    value: str | None
    fact: str
    quote: str
    status: str
    reason: str | None
    quote_message_id: int | None
    quote_speaker: str | None
    said_at: datetime | None
    retraction: bool = False

    @property
    def candidate_id(self) -> str:
        """Deterministic id (sha1 of conversation, position and content, 24 hex chars): a re-run writes the
        same ids, so re-materializing changes nothing."""
        parts = [self.conversation_id, str(self.position), self.category, self.attribute or "", self.fact, self.quote]
        if self.retraction:
            parts.append("retraction")  # appended only when set, so ids of ordinary facts stay as they were
        return hashlib.sha1("\x1f".join(parts).encode()).hexdigest()[:24]


def fact_key(fact: str) -> str:
    """Dedup key of a fact text: whitespace-collapsed, case-folded, trailing punctuation dropped.

    Two facts of one user and category with the same key are the same fact (no second active version)."""
    return re.sub(r"[\s.!?。！？]+$", "", normalize_whitespace(fact).casefold())


def _gate(extracted: ExtractedFact, conversation: Conversation, turn) -> str | None:
    """`gates.gate` for a fact whose quote was found in `turn`: the assistant lines right before it are what a
    short assent ("yes, do that") answers; those right after it, how the assistant took it ("Aitäh, Kadri.")."""
    index = next(i for i, t in enumerate(conversation.turns) if t is turn)
    return gate(normalize_for_quote(extracted.quote), quotable_text(turn, keep_lines=True), extracted.attribute,
                extracted.value, extracted.retraction, extracted.verified,
                _assistant_lines(reversed(conversation.turns[:index])), fact=normalize_whitespace(extracted.fact),
                replied=_assistant_lines(conversation.turns[index + 1:]), chat=_user_lines(conversation))


# The user's words a chat's language is told from: as much as `domain.language` needs, no more (a long chat's
# first lines tell it).
_CHAT_SAMPLE = 2000


def _user_lines(conversation: Conversation) -> str:
    """The user's lines of `conversation`, joined, up to `_CHAT_SAMPLE` characters."""
    return " ".join(t.text for t in conversation.turns if t.role == "human")[:_CHAT_SAMPLE]


def _assistant_lines(turns) -> list[str]:
    """The texts of the assistant turns of `turns` up to the first user turn."""
    lines = []
    for turn in turns:
        if turn.role == "human":
            break
        if turn.role == "ai":
            lines.append(turn.text)
    return lines


# A preference slot for how to reach the user (`contact_channel`, `preferred_contact_method`, `channel` ...).
_CONTACT_SLOT = re.compile(r"contact|channel|communicat", re.IGNORECASE)


def _requoted(extracted: ExtractedFact, sources: QuoteSources, turn) -> tuple[ExtractedFact, object]:
    """(fact, turn) for a client_info fact whose quote does not hold its value: when exactly one user sentence
    of the conversation holds the value (`names_a_thing`: a word or a character of a script without spaces),
    the fact quoted from that sentence instead, which the gates then judge; else the fact as given. A 1.5B
    model cited a greeting for a home said two lines later ("こんにちは。..." for 大阪, issue 25): the value is
    the user's words, only the citation is wrong. `turn` None: the quote is no user's words (the assistant's
    question "بأي مدينة ساكنة؟" cited for the home said in the reply); (fact, None) when no one sentence holds the
    value. Client info, and a contact channel (holdout set 7's "Solo WhatsApp", cited as a line about a repair
    visit): a name, place, job, address or channel is a named thing; a liking or a decision read from another
    sentence would be a new fact, not a citation fixed. Not a
    home in a language without living words (`gates.reads`): a place visited would pass as one."""
    value = extracted.value or ""
    if not names_a_thing(value) or (turn is not None and supported(value, normalize_for_quote(extracted.quote))):
        return extracted, turn
    found = sources.sentences_holding(value)
    if len(found) != 1:
        return extracted, turn
    new_turn, said = found[0]
    if extracted.category == "preference" and gives_contact_detail(said):
        return extracted, turn  # "la mia email è giulia.rossi@posta.it" gives an address, not a channel chosen
    if is_home_slot(extracted.attribute) and not reads("living", said):
        return extracted, turn  # no living words to tell a home from a place visited ("Nilitembelea Paris")
    return extracted.model_copy(update={"quote": said, "quote_message_id": new_turn.message_id}), new_turn


def validate_candidate(
    extracted: ExtractedFact, conversation: Conversation, position: int, fallback_said_at: datetime | None = None,
    sources: QuoteSources | None = None, timezone: str = "UTC",
) -> Candidate:
    """Accept or reject one extracted fact against its conversation (never raises): the quote check
    (`locate_quote`), then the consistency gates between the fact and its quote (`gates.gate`). A fact whose
    quote asks to forget a slot (`retractions.requested_slot`) is a retraction of it, as the model flagged or not;
    a dislike said as a liking that ended is one too, a home the user grew up in a hometown, and a home the
    user plans a trip to a decision (domain/slot_repair).

    `fallback_said_at` dates a quote from a legacy message without a timestamp (the backlog date's start).
    `sources`: the conversation's `QuoteSources`, built once for all its candidates (`locate_quote`).
    `timezone`: the partitions' IANA zone; relative time in the fact is resolved against the local date of the
    quote's message (domain.relative_time), whatever backend proposed it."""
    slot = requested_slot(extracted.quote)
    if slot:  # "Can you forget my phone number?" withdraws the whole slot it names, whatever the model flagged or
        # named (a 1.5B model answered retraction=false, attribute "decision:phone_number", value "forget"; and
        # value "deleted" for "Could you please delete my email address?", which then matched no value).
        attribute = extracted.attribute if extracted.attribute and ":" not in extracted.attribute else slot
        extracted = extracted.model_copy(update={"retraction": True, "attribute": attribute, "value": None})
    elif not extracted.retraction and ended_liking(extracted.value, extracted.quote, extracted.attribute):
        extracted = extracted.model_copy(update={"retraction": True, "value": None})  # "I no longer like Vim."
    hometown = origin_slot(extracted.attribute, extracted.quote, extracted.value)
    if hometown:  # "I grew up in Ohio": where the user comes from, not where they live
        extracted = extracted.model_copy(update={"attribute": hometown})
    trip = trip_slot(extracted.attribute, extracted.quote, extracted.value, extracted.fact)
    if trip:  # "We're planning a road trip to Hohhot": a trip decided, not a home
        extracted = extracted.model_copy(update={"category": trip[0], "attribute": trip[1]})
    category = extracted.category.strip().lower()
    fact = normalize_whitespace(extracted.fact)
    reason: str | None = None
    turn = None
    if not fact:
        reason = "empty_fact"
    elif category not in CATEGORIES:
        reason = "unknown_category"
    else:
        reason, turn = locate_quote(extracted.quote, conversation, extracted.quote_message_id, sources,
                                    partial(backs_value, extracted.value, extracted.attribute))
    if (category == "client_info" or category == "preference" and _CONTACT_SLOT.search(extracted.attribute or "")
            and names_a_channel(extracted.value or "")) and (
            turn is not None or reason in ("quote_not_from_user", "quote_not_found")):
        # A value cited from the wrong line, from the assistant's line that asked for it, or from words no line
        # holds: quoted from the one user sentence holding it (`_requoted`).
        extracted, turn = _requoted(extracted, sources or QuoteSources(conversation), turn)
        reason = None if turn is not None else reason
    if turn is not None:
        reason = _gate(extracted, conversation, turn)
        turn = None if reason else turn
    quote = extracted.quote
    if turn is not None and not extracted.retraction:
        fact = with_value(fact, extracted.value)
        quote = narrowed(quote, extracted.value, extracted.attribute)  # the sentence said, not the whole message
    if turn is not None:  # a legacy row has no date of its own: its relative time stays as said
        fact = resolve_fact(fact, extracted.quote, turn.at, timezone)
    return Candidate(
        conversation_id=conversation.conversation_id,
        # Facts belong to the speaker: a group chat's sender has a user key of their own.
        user_key=(turn.user_key if turn is not None and turn.user_key else conversation.user_key),
        position=position,
        category=category,
        attribute=(extracted.attribute or None),
        value=(extracted.value or None),
        fact=fact,
        quote=quote,
        status="rejected" if reason else "accepted",
        reason=reason,
        quote_message_id=turn.message_id if turn else None,
        quote_speaker=turn.role if turn else None,
        said_at=(turn.at or fallback_said_at) if turn else None,
        retraction=extracted.retraction,
    )
