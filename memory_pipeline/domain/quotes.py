"""Where a fact's quote was said: text normalised as quotes are compared, the user's words found as whole words
(`contains_words`), a quote long enough to stand on its own (`is_substantial_quote`), and the message a quote is
located in (`locate_quote`), or why it is not the user's words (`why_not_found`). Read by domain/facts.py and by
the stages that check quotes again."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from functools import lru_cache

from memory_pipeline.domain.conversations import Conversation
from memory_pipeline.domain.speech import sentences
from memory_pipeline.domain.value_support import JOINING_CHARS, SPACELESS_CHARS, supported


def normalize_whitespace(text: str) -> str:
    """Collapse every run of whitespace to one space and trim (the quote check is whitespace-insensitive)."""
    return " ".join(text.split())


# Typographic quote marks a model (or a keyboard) may swap for straight ones: the quote check ignores the swap.
_QUOTE_MARKS = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'",
                              "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"', "\u2033": '"',
                              "\u00ab": '"', "\u00bb": '"'})


# Invisible format characters (zero-width space/joiners, word joiner, BOM, soft hyphen): a reader sees no
# difference with or without them, so a quote that drops or adds one is still the same words.
_INVISIBLE = dict.fromkeys([0x00AD, 0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF])


# Cached: `locate_quote`'s fallbacks (a quote not in a human turn's quotable text) normalise the same turns once
# per such candidate. 128 entries cover a conversation's turns (at most a few dozen) and bound the memory held.
@lru_cache(maxsize=128)
def normalize_for_quote(text: str, keep_lines: bool = False) -> str:
    """What the quote check compares: NFKC form (the form message text is stored in, `clean_text`, so a quote in
    decomposed or full-width form still matches), invisible format characters dropped, whitespace collapsed and
    typographic quote marks made straight. Case, words and other punctuation must match exactly.
    `keep_lines`: a run of whitespace holding a line break becomes one "\\n" instead of a space (same length, so
    offsets agree): the gates read a line break as the end of a sentence."""
    text = unicodedata.normalize("NFKC", text).translate(_INVISIBLE)
    if keep_lines:
        lines = (normalize_whitespace(line) for line in text.split("\n"))
        return "\n".join(line for line in lines if line).translate(_QUOTE_MARKS)
    return normalize_whitespace(text).translate(_QUOTE_MARKS)


# Scripts written without spaces between words (Thai, kana, CJK ideographs): a quote may start or end anywhere.
_SPACELESS = re.compile(f"[{SPACELESS_CHARS}]")


# Hangul letters standing alone (NFKC makes "ㅠㅠ", "ㅋㅋ" conjoining jamo): a crying or laughing face typed after
# a word ("빼주세요ㅠㅠ"), never the rest of it.
_LONE_JAMO = re.compile("[\u1100-\u11ff\u3130-\u318f]")


def _splits_a_word(inner: str, outer: str) -> bool:
    return inner.isalnum() and outer.isalnum() and not (
        _SPACELESS.match(inner) or _SPACELESS.match(outer) or _LONE_JAMO.match(outer))


# Hebrew and Arabic join "and", "the", "in", "to" to the next word ("ואני" is "and I", "والعمل" "and the work"): a
# quote may start after up to this many letters of such a prefix, as people copy the words they said.
_CLITIC = re.compile(f"(?<![{JOINING_CHARS}])[{JOINING_CHARS}]{{1,3}}$")


def _word_occurrences(haystack: str, needle: str):
    """(start, end) of each occurrence of `needle` in `haystack` that starts and ends at word boundaries (a
    Hebrew or Arabic prefix before it aside: `_CLITIC`)."""
    start = haystack.find(needle)
    while start != -1:
        end = start + len(needle)
        before = haystack[start - 1] if start else ""
        after = haystack[end] if end < len(haystack) else ""
        joined = before and _splits_a_word(needle[0], before) and not _CLITIC.search(haystack[max(0, start - 4):start])
        if not joined and not (after and _splits_a_word(needle[-1], after)):
            yield start, end
        start = haystack.find(needle, start + 1)


def contains_words(haystack: str, needle: str) -> bool:
    """True when `needle` occurs in `haystack` without starting or ending inside a word: a quote is words the
    user wrote, so "I like chess ZQXMARK" is not found in "I like chess ZQXMARKERBIG." (it is a substring, but
    of a longer word). Both are compared as given (normalise first). Scripts without spaces are exempt."""
    return next(_word_occurrences(haystack, needle), None) is not None


# A quote shorter than this many words must be a whole sentence or clause of its message: one word ("I",
# "my") is found in almost any message, so it would back any fact the model invents. A character of a script
# written without spaces counts as a word.
MIN_QUOTE_WORDS = 3
_QUOTE_WORD = re.compile(f"[{SPACELESS_CHARS}]|[^\\s{SPACELESS_CHARS}]+")
# What may stand next to a whole clause: clause or sentence punctuation, brackets and quote marks (normalised).
# A line break too: chat users end a sentence with Enter as often as with a full stop. Other scripts' own marks:
# Arabic comma, semicolon and question mark, Urdu full stop, Devanagari danda, Armenian and Ethiopic full stops.
_CLAUSE_EDGE = set(".,;:!?\u2026\u3002\uff01\uff1f\uff0c\uff1b\uff1a\u3001()[]{}\"'-\u2013\u2014\n"
                   "\u060c\u061b\u061f\u06d4\u0964\u0965\u0589\u1362")


def _is_clause(haystack: str, start: int, end: int) -> bool:
    before = haystack[:start].rstrip(" ")
    after = haystack[end:].lstrip(" ")
    return ((not before or before[-1] in _CLAUSE_EDGE or haystack[start] in _CLAUSE_EDGE)
            and (not after or after[0] in _CLAUSE_EDGE or haystack[end - 1] in _CLAUSE_EDGE
                 or _only_symbols_to_line_end(after) and len(_QUOTE_WORD.findall(haystack[start:end])) >= 2))


def _only_symbols_to_line_end(text: str) -> bool:
    """True when `text` holds only emoji and other symbols (Unicode category So, with their joiners and
    variation selectors) up to its first line break: chat ends a message with them where a full stop would be
    ("evet onaylıyorum 👍"). Not between words ("Basic 👎 Premium 👍"), and a quote of two words or more only
    (`_is_clause`): "Carne 🚫" is no one-word clause."""
    line = text.split("\n", 1)[0].strip()
    return bool(line) and all(unicodedata.category(c) == "So" or c in "\u200d\ufe0f " for c in line)


def is_substantial_quote(
    haystack: str, needle: str, turn=None, backs: Callable[[str], bool] | None = None,
) -> bool:
    """True when `needle` (found as words in `haystack`; both normalised) is long enough to back a fact: at
    least MIN_QUOTE_WORDS words, or a whole sentence, line or clause of the message ("Yes.", "I'm vegan," between
    punctuation, line breaks or the message's ends), or one word fewer when it holds the fact's value beside
    another word (`backs(needle)`: `value_support.backs_value`; a language that drops the subject states a fact in two
    words: "Sou fisioterapeuta"; an agglutinative one in one: "yazılımcıyım"). `turn`: the `ParsedRow` `haystack` is the quotable text of, read again with
    its line breaks."""
    count = len(_QUOTE_WORD.findall(needle))
    if count >= MIN_QUOTE_WORDS or (count >= 1 and backs is not None and backs(needle)):
        return True
    edges = quotable_text(turn, keep_lines=True) if turn is not None else haystack  # same length, same offsets
    return any(_is_clause(edges, start, end) for start, end in _word_occurrences(haystack, needle))


def quotable_text(turn, keep_lines: bool = False) -> str:
    """What a quote may come from in a turn (a `ParsedRow`): its text, less whatever a truncation left after the
    last whole sentence (`quotable_chars`), normalised for the quote check (`keep_lines`: as
    `normalize_for_quote`'s)."""
    text = turn.text if turn.quotable_chars is None else turn.text[: turn.quotable_chars]
    return normalize_for_quote(text, keep_lines)


class QuoteSources:
    """A conversation's turns prepared for `locate_quote`: each human turn's `quotable_text` computed at most once
    (when a quote is first looked for in it), and the human turns by message id, so validating a conversation's
    candidates (one per fact, often dozens) compares each quote with its cited message instead of normalising and
    searching every turn per candidate. Build one per conversation, after its turns are final."""

    __slots__ = ("turns", "_human", "_texts", "_by_message")

    def __init__(self, conversation: Conversation):
        self.turns = conversation.turns
        self._human = [turn for turn in self.turns if turn.role == "human"]
        self._texts: list[str | None] = [None] * len(self._human)
        self._by_message: dict[int, list[int]] = {}
        for index, turn in enumerate(self._human):
            self._by_message.setdefault(turn.message_id, []).append(index)

    def _text(self, index: int) -> str:
        text = self._texts[index]
        if text is None:
            text = self._texts[index] = quotable_text(self._human[index])
        return text

    def sentences_holding(self, value: str) -> list[tuple[object, str]]:
        """[(human turn, sentence)] of every sentence of the human turns' quotable text that holds `value`
        (`value_support.supported`), in turn order."""
        return [(self._human[i], said) for i in range(len(self._human))
                for said in sentences(self._text(i)) if supported(value, said)]

    def holding(self, needle: str, message_id: int | None = None) -> list[tuple[object, str]]:
        """[(human turn, its quotable text)] of the human turns (of message `message_id` only, when given) whose
        quotable text holds `needle` (normalised) as words, in turn order."""
        indexes = range(len(self._human)) if message_id is None else self._by_message.get(message_id, ())
        return [(self._human[i], self._text(i)) for i in indexes if contains_words(self._text(i), needle)]


def locate_quote(
    quote: str, conversation: Conversation, message_id: int | None = None, sources: QuoteSources | None = None,
    backs: Callable[[str], bool] | None = None,
) -> tuple[str | None, object | None]:
    """Find `quote` verbatim (up to whitespace and quote marks, see `normalize_for_quote`) in the conversation.

    With `message_id` (the message the backend says it quoted) the quote must be in that human turn.
    A quote is found only as whole words (`contains_words`) in the quotable part of a human turn
    (`quotable_text`): a truncated message never lends half a sentence or half a word. Since the cut falls at a
    sentence end, words found there are words of the user's original message.
    Returns (None, turn) when found in a human turn; otherwise (reason, None) with reason
    `quote_cut_by_truncation` (only in the incomplete part of a cut message),
    `no_quote`, `quote_not_in_cited_message` (the user said it, but in another message than the one cited),
    `quote_from_machine_text` (only in machine-written text of a human row: an image or voice analysis),
    `quote_from_tool_output` (only in tool rows or stripped tool evidence), `quote_not_from_user` (only in the
    assistant's turns), `quote_not_found`, or `quote_too_short` (found, but fewer than MIN_QUOTE_WORDS words
    and not a whole sentence or clause of that message: `is_substantial_quote`).
    `sources`: the conversation's `QuoteSources` when the caller validates several quotes of it (built here
    otherwise); the answer is the same either way. `backs(needle)`: whether the quote holds the fact's value
    (`is_substantial_quote`; None: the length rule alone).
    """
    needle = normalize_for_quote(quote)
    if not needle:
        return "no_quote", None
    if sources is None:
        sources = QuoteSources(conversation)
    # With a cited message, the answer only depends on its turns when one of them holds the quote.
    found = sources.holding(needle, message_id)
    if not found and message_id is not None and sources.holding(needle):
        return "quote_not_in_cited_message", None
    if found:
        substantial = [turn for turn, text in found if is_substantial_quote(text, needle, turn, backs)]
        return (None, substantial[0]) if substantial else ("quote_too_short", None)
    return why_not_found(needle, sources.turns), None


def why_not_found(needle: str, turns: Sequence) -> str:
    """The rejection reason of a quote (`needle`, normalised) that no human turn's quotable text holds: where it
    is instead, in this order of precedence, or `quote_not_found`."""
    for turn in turns:
        if (turn.role == "human" and turn.quotable_chars is not None
                and contains_words(normalize_for_quote(turn.text), needle)):
            return "quote_cut_by_truncation"  # only in the part a truncation left incomplete
    for turn in turns:
        if turn.machine_text and needle in normalize_for_quote(turn.machine_text):
            return "quote_from_machine_text"  # an image/voice analysis in the user's row, not their words
    for turn in turns:
        if turn.role == "tool" and needle in normalize_for_quote(turn.text):
            return "quote_from_tool_output"
        if turn.tool_evidence and needle in normalize_for_quote(turn.tool_evidence):
            return "quote_from_tool_output"
    for turn in turns:
        if turn.role == "ai" and needle in normalize_for_quote(turn.text):
            return "quote_not_from_user"
    return "quote_not_found"
