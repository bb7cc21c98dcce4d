"""What a user's sentence does besides stating a fact about the user: asks, hedges, jokes, takes words back,
reports someone else, speaks of someone else, instructs the assistant, thanks.

Shared by the consistency gates (domain/gates.py, every backend) and the offline extractor. The words of each
language are data, one module per language in domain/languages/, joined by domain/lexicon.py; a sentence in a
language with no entry of a kind is never found doing that (nothing is rejected for a missing word). Sources: the
gold sets' traps; issue 17's probes, reported publicly against other memory systems (NousResearch/hermes-agent#22907
for sarcasm and "just kidding", QuixiAI/Hexis#65 for another person's words); and a tester's table of sincere lines
the first lists rejected ("Perfect, I live in Lyon then.", "As I said, I'm vegetarian.", "I live in Oslo, no
kidding.", "Can you call me Jack from now on?").
"""

from __future__ import annotations

import re

from memory_pipeline.domain import lexicon

_L = lexicon.pattern
# Telling the assistant to drop its instructions or to write something into its memory: an injection, whatever
# else the message says. "forget my phone number" is a retraction and "forget the rules of bridge" a remark.
INSTRUCTION = _L("instruction")
# Someone else's words: a reporting verb, or a quotation that speaks in the first person ('The guy kept saying
# "I live in Oslo."'). The user quoting themself ("As I said, I'm vegetarian") is not someone else.
_REPORTED_SPEECH = re.compile(
    lexicon.alternation("reported_speech") + r"|[\"“„«「]\s*(?:" + lexicon.alternation("quoted_first_person") + ")",
    re.IGNORECASE)
_SELF_REPORT = _L("self_report")
# Someone other than the user as the subject: a relative, friend or colleague, or a third-person pronoun.
_OTHER_PERSON = _L("other_person")
# The user as a subject: a first-person pronoun outside a possessive ("I", "me", "we"; je, moi; ich, wir; yo;
# 我 not followed by 的).
_SELF = _L("self")
# Mock enthusiasm: "Oh great, ...", "Yeah right", loving an ordeal ("I just love waiting in line", not "I don't
# like waiting"), "I just love how ...", "Awesome, another outage", or "/s". A sincere "Great, my email is ..."
# opens with the same word, so an opener alone is not sarcasm.
SARCASM = _L("sarcasm")
# Taking back what was just said: what comes before the marker no longer stands.
KIDDING = _L("kidding")
# A conditional sentence ("If I get the job, I'll move to Zurich"): the whole sentence is hypothetical. "if"
# later in a sentence is mostly politeness ("call me Jack if that's ok", "window seats if available").
_CONDITIONAL = _L("conditional")
# Hedges: a clause holding one states nothing durable ("maybe we'll take it next quarter, not sure yet").
_HEDGE = _L("hedge")
_INTERROGATIVE = _L("interrogative")
_CJK_QUESTION = _L("question_particle")
# A request that sets how things go from now on is a standing instruction, not a question ("Can you call me
# Jack from now on?", "Could you always reply in French?").
_REQUEST = _L("request")
_STANDING = _L("standing")
_PLEASANTRY_WORDS = lexicon.words("pleasantry_words")
_FILLER_WORDS = lexicon.words("filler_words")
_PLEASANTRY_CJK = _L("pleasantry_whole")
_SENTENCE = re.compile(r"[^.!?。！？]+[.!?。！？]*")
# Where a clause ends inside a sentence: punctuation, or a joining word ("My sister lives in Rome and I live in
# Lyon").
_CLAUSE_BREAK = re.compile(r"[,;:，；：]\s*|" + lexicon.alternation("clause_joiner"), re.IGNORECASE)
_WORD = re.compile(r"[^\W_]+", re.UNICODE)


def sentences(text: str) -> list[str]:
    """The sentences of `text` (to and with their end punctuation), trimmed, empty ones left out."""
    return [s for s in (m.group(0).strip() for m in _SENTENCE.finditer(text)) if s.strip(" .!?。！？")]


def clauses(sentence: str) -> list[str]:
    """The clauses of `sentence`, split at punctuation and joining words (`_CLAUSE_BREAK`)."""
    return [c for c in (part.strip() for part in _CLAUSE_BREAK.split(sentence)) if c]


def is_instruction(message: str) -> bool:
    """True when `message` tells the assistant to ignore its instructions or what to record (`INSTRUCTION`)."""
    return INSTRUCTION.search(message) is not None


def reports_speech(sentence: str) -> bool:
    """True when `sentence` gives someone else's words (`_REPORTED_SPEECH`), the user quoting themself aside."""
    return _REPORTED_SPEECH.search(_SELF_REPORT.sub(" ", sentence)) is not None


def is_about_other_person(clause: str) -> bool:
    """True when `clause` names someone else as its subject (`_OTHER_PERSON`) and has no first-person subject
    ("My wife and I love sushi" is the user's too)."""
    return _OTHER_PERSON.search(clause) is not None and _SELF.search(_OTHER_PERSON.sub(" ", clause)) is None


def speaks_of_self(clause: str) -> bool:
    """True when `clause` has a first-person word (`_SELF`)."""
    return _SELF.search(clause) is not None


def is_sarcasm(text: str) -> bool:
    """True when a sentence of `text` is mock enthusiasm (`SARCASM`)."""
    return any(SARCASM.search(s) for s in sentences(text))


def is_conditional(sentence: str) -> bool:
    """True when `sentence` opens with a condition (`_CONDITIONAL`): nothing in it is stated as so."""
    return _CONDITIONAL.search(sentence) is not None


def is_hedged(clause: str) -> bool:
    """True when `clause` holds a hedge (`_HEDGE`): maybe, not sure, probably, peut-être, vielleicht, 也许 ..."""
    return _HEDGE.search(clause) is not None


def is_question(quote: str) -> bool:
    """True when every sentence of `quote` asks: it ends with a question mark and opens with an interrogative
    word (or, in Chinese, holds a question particle), and is not a standing request (`_REQUEST` + `_STANDING`)."""
    found = sentences(quote)
    return bool(found) and all(
        s.endswith(("?", "？")) and (_INTERROGATIVE.match(s) is not None or _CJK_QUESTION.search(s) is not None)
        and not (_REQUEST.match(s) and _STANDING.search(s)) for s in found)


def asks(clause: str, sentence: str) -> bool:
    """True when `clause`, part of `sentence`, is a question clause: the sentence ends with a question mark and
    the clause opens with an interrogative word ("..., can we just write to /tmp instead?")."""
    return (sentence.rstrip().endswith(("?", "？")) and _INTERROGATIVE.match(clause) is not None
            and not (_REQUEST.match(clause) and _STANDING.search(clause)))


def is_pleasantry(quote: str) -> bool:
    """True when `quote` is only thanks, greetings or acknowledgement words (`_PLEASANTRY_WORDS`)."""
    words = _WORD.findall(quote.casefold())
    if len(words) == 1 and _PLEASANTRY_CJK.match(words[0]):
        return True
    return bool(words) and all(w in _PLEASANTRY_WORDS for w in words)


def is_filler(clause: str) -> bool:
    """True when `clause` is only pleasantry or filler words ("Hmm", "Well", "Oh yes", "Thanks"): it states
    nothing, and backs nothing."""
    return all(w in _PLEASANTRY_WORDS or w in _FILLER_WORDS for w in _WORD.findall(clause.casefold()))


def standing_part(message: str, start: int, end: int) -> str:
    """What of the span [start, end) of `message` still stands: nothing when a marker that takes words back
    (`KIDDING`) follows it, the part after the last marker inside it, all of it when no marker follows its
    start."""
    marker = None
    for found in KIDDING.finditer(message):
        if found.end() > start:
            marker = found
    if marker is None:
        return message[start:end]
    return message[marker.end():end] if marker.start() < end else ""
