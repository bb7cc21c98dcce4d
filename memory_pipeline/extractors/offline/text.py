"""Sentences and clauses of a user's turn, and the guards that keep a sentence from yielding any fact.

Precision first: a sentence is skipped when it is a hypothetical, an instruction aimed at the assistant, sarcasm
("Oh great, I just love waiting in line"), someone else's words (reported speech, a first-person quotation), or
a statement the user takes back ("just kidding"); a value is refused when it hangs on a pronoun the extractor
cannot resolve ("it", "you", "this", "ça", "es", "eso", "它"). Word lists per language (English, French, German,
Spanish, Chinese); sources: issue 17's probes (reported publicly against other memory systems: QuixiAI/Hexis#65
for another person's words) and the common sarcasm frames of English ("Oh great", "just love" + an ordeal).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from memory_pipeline.domain.gates import KIDDING, REPORTED_SPEECH, SARCASM

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

_HYPOTHETICAL = re.compile(
    r"\b(?:if|maybe|perhaps|might|not sure|unsure|probably|possibly|considering|thinking about|wonder|"
    r"whether|someday|one day|hope|wish)\b|\b(?:peut-être|si|vielleicht|wenn|falls|quizás|quizá|tal vez|ojalá)\b|"
    r"也许|如果|可能|要是",
    re.IGNORECASE,
)
_INJECTION = re.compile(
    r"\b(?:ignore|disregard|forget)\b.{0,40}\b(?:instructions?|prompt|rules?)\b|\b(?:system prompt|you are now)\b",
    re.IGNORECASE,
)
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
    return bool(_HYPOTHETICAL.search(sentence) or _INJECTION.search(sentence) or SARCASM.search(sentence)
                or REPORTED_SPEECH.search(sentence))


def after_kidding(text: str) -> str:
    """What of a turn still stands: the text after the last "just kidding" (all of it when there is none)."""
    last = None
    for last in KIDDING.finditer(text):
        pass
    if last is None:
        return text
    rest = text[last.end():]
    return rest[re.match(r"[\s,.!;:，。！]*", rest).end():]
