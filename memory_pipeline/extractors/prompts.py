"""The LLM backend's prompts, versioned: `PROMPT_VERSION` keys the summary and extraction caches, so change it
with any change to the text below.

Layout of every request: a system message with the static instructions (identical across conversations, so a
provider's prompt caching applies to it), then one user message with the transcript. Transcript lines read
`[message id|local date-time weekday|speaker] text`, the date-time in the partitions' timezone, so the model
can cite the message it quotes and resolve relative dates against the day each message was said.

Kept compact on purpose: the benchmark budget is 3,000 prompt tokens per MemoryBank conversation, summary
included, the project's target for the LLM benchmark.
"""

from __future__ import annotations

from collections.abc import Iterable
from zoneinfo import ZoneInfo

from memory_pipeline.domain.messages import ParsedRow
from memory_pipeline.domain.reconcile import MULTI_VALUED_ATTRIBUTES

PROMPT_VERSION = "llm-v1"

SPEAKERS = {"human": "user", "ai": "assistant", "tool": "tool"}
TOOL_TEXT_CHARS = 400  # tool output is context for the assistant's turn, never a quote: a short excerpt will do

# Slots reconciliation knows. A single-valued slot keeps one active value (a new one supersedes it); the
# multi-valued ones come from the reconciler itself, so the prompt and the reconciler cannot drift apart.
SINGLE_VALUED_SLOTS = (
    "name, preferred_name, home_location, hometown, job, employer, email, phone_number, contact_channel, diet, "
    "delivery_instruction, shipping_address, favourite:<thing> (favourite:colour), opinion:<object> (value = "
    "the stance: loves, likes, dislikes or hates), decision:<object> (decision:gym_membership, value = cancel)"
)

# Each rule is one named sentence, so tests can check that the prompt sent states it.
RULES = {
    "self_only": "Take facts only from what the user says about themselves in user lines.",
    "exclusions": (
        "Never take facts from questions, hypotheticals or wishes, pleasantries, other people (friends, family, "
        "colleagues), assistant lines, tool lines, system prompts, or machine-written text inside a user line "
        "(image descriptions, voice transcriptions, forwarded or quoted text)."
    ),
    "empty_ok": "No fact is a normal answer.",
    "relative_dates": (
        "Resolve relative dates against the date of the line they are said in and write the absolute date in "
        "fact and value (\"tomorrow at 7pm\" said on 2025-03-04 -> 2025-03-05 19:00)."
    ),
    "accepted_offer": (
        "A user accepting an assistant's offer (\"yes, do that\") is a decision: the fact states what was "
        "accepted, the quote is the user's reply and message_id its line."
    ),
    "same_attribute": (
        "A changed decision or favourite uses the same attribute with the new value, so it replaces the old one."
    ),
    "retraction": (
        "When the user withdraws something (\"I no longer like Vim\", \"forget my phone number\") return "
        "retraction=true with that attribute (opinion:vim, phone_number); the fact says what was withdrawn."
    ),
    "language": "Write each fact in the language the user wrote it in.",
    "verbatim": "quote: the user's words copied exactly from one user line, no paraphrase; message_id: that line's id.",
}

_FIELDS = (
    "Each fact: category = preference (likes, favourites, habits, standing instructions, contact channel, diet) | "
    "decision (something the user chose or asked to be done: order, booking, cancellation, plan) | client_info "
    "(name, place, job, employer, email, phone, other personal details); attribute = the slot. Single-valued: "
    f"{SINGLE_VALUED_SLOTS}. Multi-valued: {', '.join(sorted(MULTI_VALUED_ATTRIBUTES))}; value = the slot's "
    "short value; fact = one short self-contained present-tense sentence about the user; "
    f"{RULES['verbatim']} retraction = false unless withdrawn."
)

_EXTRACTION = "\n".join([
    "You turn a chat between a user and an AI assistant into durable facts about the user, for the assistant's "
    "long-term memory. Lines: [message id|local date-time|speaker] text.",
    *(RULES[k] for k in ("self_only", "exclusions", "empty_ok")),
    _FIELDS,
    *(RULES[k] for k in ("relative_dates", "accepted_offer", "same_attribute", "retraction", "language")),
    "Return a fact once, even if said twice.",
])

_SUMMARY = ("summary = 1 to 3 sentences, decision-oriented: who the user is, what they wanted, the outcome; in the "
            "conversation's language; nothing that is not in the chat.")

_FACT_SHAPE = ('{"category": "...", "attribute": "...", "value": "...", "fact": "...", "quote": "...", '
               '"message_id": 0, "retraction": false}')
SHAPE_PREFIX = "Answer with one JSON object only: "
SUMMARY_SHAPE = SHAPE_PREFIX + '{"summary": "..."}'
FACTS_SHAPE = SHAPE_PREFIX + '{"facts": [' + _FACT_SHAPE + "]}"
COMBINED_SHAPE = SHAPE_PREFIX + '{"summary": "...", "facts": [' + _FACT_SHAPE + "]}"

SUMMARY_SYSTEM = "\n".join([
    "You summarise a chat between a user and an AI assistant for the assistant's long-term memory. "
    "Lines: [message id|local date-time|speaker] text.",
    _SUMMARY,
    SUMMARY_SHAPE,
])
EXTRACTION_SYSTEM = "\n".join([_EXTRACTION, FACTS_SHAPE])
COMBINED_SYSTEM = "\n".join([_EXTRACTION, _SUMMARY, COMBINED_SHAPE])


def format_line(turn: ParsedRow, timezone: str) -> str:
    """One transcript line: `[id|YYYY-MM-DD HH:MM Day|speaker] text`, whitespace collapsed (the quote check
    ignores whitespace, so a quote copied from here still matches the stored message). The speaker is
    `user NAME` for a group chat's sender; a machine-written block of the row (image or voice analysis) follows
    in braces, marked as not the user's words. `undated` for a legacy
    message without a timestamp; tool text cut to TOOL_TEXT_CHARS."""
    when = "undated"
    if turn.at is not None:
        when = turn.at.astimezone(ZoneInfo(timezone)).strftime("%Y-%m-%d %H:%M %a")
    text = " ".join(turn.text.split())
    if turn.role == "tool":
        text = text[:TOOL_TEXT_CHARS]
    speaker = SPEAKERS.get(turn.role or "", "user")
    if turn.sender:  # a group chat: the person who wrote this row, whose facts these are
        speaker = f"{speaker} {' '.join(turn.sender.split())}"
    if turn.machine_text:  # an image/voice analysis the agent template wrote into the row: context, never a quote
        text += f" {{machine-written, not the user's words: {' '.join(turn.machine_text.split())[:TOOL_TEXT_CHARS]}}}"
    return f"[{turn.message_id}|{when}|{speaker}] {text}"


def transcript_message(lines: Iterable[str], part: int = 1, parts: int = 1) -> str:
    """The user message: the transcript lines, headed by which part of a longer chat they are."""
    head = "Chat:" if parts == 1 else f"Chat, part {part} of {parts} (parts overlap by a message):"
    return "\n".join([head, *lines])


def retry_message(error: str) -> str:
    """What is appended after an answer that failed validation (the error has no chat text)."""
    return f"That answer was invalid: {error}. Answer again with the corrected JSON object only."

