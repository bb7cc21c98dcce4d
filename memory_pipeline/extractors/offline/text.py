"""Sentences and clauses of a user's turn, and the guards that keep a sentence from yielding any fact.

Precision first: a sentence is skipped when it is a hypothetical, an instruction aimed at the assistant, sarcasm
("Oh great, I just love waiting in line"), someone else's words (reported speech, a first-person quotation), or
a statement the user takes back ("just kidding"); a value is refused when it hangs on a pronoun the extractor
cannot resolve ("it", "you", "this", "ça", "es", "eso", "它"). The lists of what a sentence does (conditions,
hedges, instructions, sarcasm, reported speech, "just kidding") are domain.speech's, shared with the gates every
backend passes; the pronoun list is this extractor's own (issue 17's probes).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from memory_pipeline.domain import speech

# Line breaks: every line/paragraph boundary Unicode defines (the transcript already holds them as "\n"; this keeps
# text from elsewhere safe too).
BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
# A sentence: up to and including its end punctuation (Latin or CJK) and closing quote marks, or to a line break.
# A period followed directly by a word character stays inside (emails, decimals, URLs: "billing@example.org").
_SENTENCE = re.compile(r"(?:[^.!?。！？" + BREAKS + r"]|[.!?](?=[\w@/]))+(?:[.!?。！？]+[\"'”’»」)\]]*|(?=[" + BREAKS
                       + r"])|\Z)")
# Where a clause may start inside a sentence: after , ; : or a joining word before a first-person subject.
_CLAUSE_START = re.compile(r"(?:[,;:，；：]\s*|\s(?:and|but|so|also|et|mais|und|aber|y|pero)\s+"
                           r"(?=(?:I|I'm|my|we|je|j'|ich|mein|yo|mi|me)\b))", re.IGNORECASE)
# Words that open a clause without changing its meaning.
LEAD = (r"(?:(?:hi|hello|hey|well|honestly|actually|also|now|oh|yes|yeah|ok|okay|so|and|but|plus|haha|hmm|um|"
        r"by the way|btw|friend|there|from now on|correction|update|et|mais|aussi|alors|bon|donc|en fait|"
        r"bonjour|salut|hallo|also|übrigens|und|aber|hola|bueno|pues|y|pero)[,!:]?\s+)*")

# Pronouns the extractor cannot resolve: a value holding one hangs on something said elsewhere.
UNRESOLVED = re.compile(  # (not inside an address or a domain name: "ana@example.es")
    r"(?<![\w'.@/-])(?:it|it's|its|this|these|those|you|your|yours|he|him|his|she|her|hers|they|them|their|"
    r"ça|cela|ceci|il|elle|ils|elles|tu|vous|es|dies|dieses|er|ihn|ihm|dich|dir|euch|eso|esto|ello|"
    r"él|ella|tú|usted|ustedes)(?![\w'@/-])|[它这那你他她]",
    re.IGNORECASE,
)
# A question: the sentence ends with a question mark; the clause carrying it asks, it does not tell.
QUESTION_END = ("?", "？")


def sentences(text: str) -> Iterator[tuple[int, str]]:
    """(offset, sentence) pairs of `text`; each sentence is an exact slice of it, trimmed."""
    for match in _SENTENCE.finditer(text):
        raw = match.group(0)
        stripped = raw.strip()
        if stripped:
            yield match.start() + raw.index(stripped), stripped


def clause_starts(sentence: str) -> list[int]:
    """Offsets where a clause may start in `sentence` (0 first)."""
    return [0] + [m.end() for m in _CLAUSE_START.finditer(sentence)]


def strip_lead(clause: str) -> str:
    """`clause` without its opening filler words ("Hi, well, ...")."""
    return re.sub(LEAD, "", clause.strip(), count=1, flags=re.IGNORECASE)


def skip_sentence(sentence: str) -> bool:
    """True when no fact may come from `sentence` (module docstring)."""
    return (speech.is_conditional(sentence) or speech.is_hedged(sentence) or speech.is_instruction(sentence)
            or speech.is_sarcasm(sentence) or speech.reports_speech(sentence))


def after_kidding(text: str) -> str:
    """What of a turn still stands: the text after the last "just kidding" (`speech.standing_part`), without the
    punctuation that opened it (all of the text when there is no marker)."""
    rest = speech.standing_part(text, 0, len(text))
    return rest[re.match(r"[\s,.!;:，。！]*", rest).end():]
