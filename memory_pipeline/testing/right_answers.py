"""A scripted model that answers right: `eval --ceiling`'s stand-in for a perfect model, and the tests'.

`right_answer_responder(answers)` is a `ScriptedOpenAIServer` responder. It reads the transcript lines of the
request (`[message id|local date-time weekday|speaker] text`, `prompts.format_line`) and returns every answer whose
quote is found in a user line's text (whitespace, quote marks and case ignored), citing that line's message id, in
the JSON shape the system prompt's shape line asks for: facts and summary (one request for both stages), facts
only, summary only, the verification pass's verdicts (all true: a right answer is confirmed), or the relation
request's verdicts (`relate(old, new)` per pair; "different" without it). With no answers (a trap case) it answers
no fact. What the pipeline then does with the answers (validation, gates,
reconciliation) is what `eval --ceiling` measures.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from memory_pipeline.domain.quotes import normalize_for_quote
from memory_pipeline.extractors.prompts import SHAPE_PREFIX
from memory_pipeline.testing.openai_server import TRANSCRIPT_LINE, Reply, relations_answer

_NUMBERED = re.compile(r"^\d+\. ", re.MULTILINE)  # a line of the verification request (`prompts.verify_message`)
_PAIR = re.compile(r"^\d+\. OLD: (.*) \| NEW: (.*)$", re.MULTILINE)  # a line of `prompts.relate_message`


@dataclass(frozen=True)
class RightAnswer:
    """One fact as a model answering right writes it: `quote` is the user's exact words."""

    category: str
    fact: str
    quote: str
    attribute: str | None = None
    value: str | None = None
    retraction: bool = False


def _messages(body: dict[str, Any]) -> tuple[str, str]:
    """(system prompt, first user message) of a chat request."""
    messages = body.get("messages") or []
    system = next((m.get("content") or "" for m in messages if m.get("role") == "system"), "")
    chat = next((m.get("content") or "" for m in messages if m.get("role") == "user"), "")
    return system, chat


def user_lines(chat: str) -> list[tuple[int, str]]:
    """(message id, text) of each user line of a transcript message (group-chat senders included; the
    machine-written block of a row left out, as it is not the user's words)."""
    lines = []
    for line in chat.splitlines():
        match = TRANSCRIPT_LINE.match(line)
        if match and match.group(2) == "user" and match.group(1) != "-":
            lines.append((int(match.group(1)), match.group(3)))
    return lines


def _folded(text: str) -> str:
    return normalize_for_quote(text).casefold()


def answered_facts(answers: Sequence[RightAnswer], chat: str) -> list[dict[str, Any]]:
    """The answers whose quote a user line of `chat` holds, as the model's JSON facts citing that line."""
    lines = [(message_id, _folded(text)) for message_id, text in user_lines(chat)]
    facts = []
    for answer in answers:
        needle = _folded(answer.quote)
        cited = next((message_id for message_id, text in lines if needle and needle in text), None)
        if cited is None:
            continue
        facts.append({"message_id": cited, "quote": answer.quote, "attribute": answer.attribute,
                      "value": answer.value, "category": answer.category, "fact": answer.fact,
                      "retraction": answer.retraction})
    return facts


def right_answer_responder(answers: Sequence[RightAnswer], relate: Callable[[str, str], str] | None = None
                           ) -> Callable[[dict[str, Any]], Reply]:
    """A responder answering each request with the `answers` its transcript holds, and each relation request
    with `relate(old, new)` per pair (module docstring)."""
    answers = tuple(answers)

    def respond(body: dict[str, Any]) -> Reply:
        system, chat = _messages(body)
        shape = next((line for line in system.splitlines() if line.startswith(SHAPE_PREFIX)), "")
        if '"relations"' in shape:
            pairs = _PAIR.findall(chat)
            return Reply(content=relations_answer([relate(old, new) if relate else "different"
                                                   for old, new in pairs]))
        if '"verdicts"' in shape:
            return Reply(content=json.dumps({"verdicts": [True] * len(_NUMBERED.findall(chat))}))
        answer: dict[str, Any] = {}
        if '"facts"' in shape:
            answer["facts"] = answered_facts(answers, chat)
        if '"summary"' in shape:
            answer["summary"] = "A chat."
        return Reply(content=json.dumps(answer, ensure_ascii=False))

    return respond
