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
import unicodedata
from collections.abc import Callable
from functools import cache

from memory_pipeline.domain import lexicon

Codes = lexicon.Codes  # the languages whose words apply (`lexicon.codes_for`); None: all of them
_p = lexicon.pattern
# Telling the assistant to drop its instructions or to write something into its memory (`instruction`): an
# injection, whatever else the message says, read in every language. "forget my phone number" is a retraction
# and "forget the rules of bridge" a remark.
INSTRUCTION = _p("instruction")
# What ends a sentence: Latin and CJK full stops, question and exclamation marks, and Arabic "؟", Urdu "۔",
# Devanagari "।", Armenian "։", Ethiopic "።" "፧", Khmer "។", Myanmar "။" (the gates read the same marks).
SENTENCE_ENDS = ".!?。！？\u061f\u06d4\u0964\u0589\u1362\u1367\u17d4\u104b"
# A full stop ends a sentence only before a space or the end: "£84.60", "1.39%", "jane.doe@mail.co.uk" and "z.B."
# stay whole, so a value holding one is found in its sentence.
_SENTENCE = re.compile(rf"(?:[^{SENTENCE_ENDS}]|\.(?=\S))+[{SENTENCE_ENDS}]*")
# A word: letters and digits with the marks written on them (Devanagari's and Thai's vowel signs), which Python's
# \w leaves out: "धन्यवाद" and "ขอบคุณ" are one word each, not three.
MARKS = "".join(chr(c) for c in range(0x0300, 0x20000) if unicodedata.category(chr(c)).startswith("M"))
WORD = re.compile(r"(?:[^\W_]|[" + re.escape(MARKS) + r"])+", re.UNICODE)


def _reported_speech(codes: Codes) -> re.Pattern[str]:
    """Someone else's words (`reported_speech`), or a quotation that speaks in the first person ('The guy kept
    saying "I live in Oslo."'; `quoted_first_person`)."""
    return _compiled(lexicon.alternation("reported_speech", codes) + r"|[\"“„«「]\s*(?:"
                     + lexicon.alternation("quoted_first_person", codes) + ")")


# Scripts written with an alphabet (an abugida) and without spaces between words: Thai, Lao, Myanmar, Khmer. A
# space between two runs of them parts phrases, as a comma does elsewhere ("ខ្ញុំរស់នៅភ្នំពេញ ផ្ញើមកផ្ទះ...បានទេ?":
# I live in Phnom Penh, can you deliver ...?).
ABUGIDA_CHARS = "\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff"


def _clause_break(codes: Codes, phrases: bool = True) -> re.Pattern[str]:
    """Where a clause ends: punctuation (Arabic and ideographic commas too), a sentence's end (a quote may hold two
    sentences: "Bydlím v Brně. Kde je dobrá kavárna?"), a space between two runs of a script written without
    spaces (`ABUGIDA_CHARS`), or a joining word (`clause_joiner`: "My sister lives in Rome and I live in Lyon")."""
    return _compiled(r"[,;:，；：\u060c\u061b、]\s*|(?<=[.!?])\s+|(?<=[。！？\u061f\u06d4\u0964])\s*|"
                     + (rf"(?<=[{ABUGIDA_CHARS}])\s+(?=[{ABUGIDA_CHARS}])|" if phrases else "")
                     + lexicon.alternation("clause_joiner", codes))


@cache
def _compiled(source: str) -> re.Pattern[str]:
    return re.compile(source, re.IGNORECASE)


def sentences(text: str) -> list[str]:
    """The sentences of `text` (to and with their end punctuation), trimmed, empty ones left out."""
    return [s for s in (m.group(0).strip() for m in _SENTENCE.finditer(text)) if s.strip(" .!?。！？")]


def clauses(sentence: str, codes: Codes = None, phrases: bool = True) -> list[str]:
    """The clauses of `sentence`, split at punctuation and joining words (`_clause_break`), and with `phrases` at
    the spaces of a script written without them."""
    return [c for c in (part.strip() for part in _clause_break(codes, phrases).split(sentence)) if c]


def is_instruction(message: str) -> bool:
    """True when `message` tells the assistant to ignore its instructions or what to record (`INSTRUCTION`)."""
    return INSTRUCTION.search(message) is not None


def reports_speech(sentence: str, codes: Codes = None) -> bool:
    """True when `sentence` gives someone else's words (`_reported_speech`), the user quoting themself aside
    (`self_report`: "As I said, I'm vegetarian")."""
    return _reported_speech(codes).search(_p("self_report", codes).sub(" ", sentence)) is not None


def is_about_other_person(clause: str, codes: Codes = None) -> bool:
    """True when `clause` names someone else as its subject (`other_person`: a relative, friend or colleague, or a
    third-person pronoun) not after a word of company (`companion`: "with my husband"), and has no first-person
    subject (`self`: "My wife and I love sushi" is the user's too)."""
    other = _p("other_person", codes)
    companion = _compiled(r"(?:" + lexicon.alternation("companion", codes) + r")\s*$")
    # "Moro em Curitiba com meu marido": a person the user is with is no subject, where the verb alone says "I".
    found = [m for m in other.finditer(clause) if not companion.search(clause[:m.start()])]
    return bool(found) and _p("self", codes).search(other.sub(" ", clause)) is None


def speaks_of_self(clause: str, codes: Codes = None) -> bool:
    """True when `clause` has a first-person word outside a possessive (`self`: I, me, we; je, moi; ich, wir; yo;
    我 not followed by 的)."""
    return _p("self", codes).search(clause) is not None


# An eye roll or an unamused face says a sentence means the opposite, in every language ("fantastisk, pakken er
# forsinket for tredje gang, akkurat det jeg drømte om 🙄": great, the parcel is late for the third time).
_EYE_ROLL = re.compile("[\U0001F644\U0001F612]")  # 🙄 😒
# An upside-down face is irony at a liking (`stance`) taken in the clause it ends ("love it when it logs me out
# every 5 min 🙃🙃", holdout set 10), and only there: "moving to Leeds next week 🙃" is a mood, not a denial.
_IRONIC = re.compile("\U0001F643")  # 🙃


_CLAUSE_MARKS = ",;，；、،"


def _rolled_at(text: str, roll: int) -> int:
    """Where the clause an eye roll at `roll` ends begins in `text`: after the last clause mark before the last
    words before it ("Love the new update, the app crashes, 🙄": "the app crashes"; a mark right before the eye
    roll ends no clause)."""
    said = text[:roll].rstrip(" " + _CLAUSE_MARKS)
    return max(said.rfind(mark) for mark in _CLAUSE_MARKS) + 1


def _ironic_at(text: str, face: int) -> int:
    """Where the clause an upside-down face at `face` ends begins: after a clause mark (`_rolled_at`) or the end of
    a sentence before it ("Love the new dark mode! Shame about the crashes 🙃": "Shame about the crashes")."""
    ends = [m.end() for m in re.finditer(r"[.!?。！？]+\s*", text[:face].rstrip())]
    return max([_rolled_at(text, face), *ends])


def is_sarcasm(text: str, codes: Codes = None, quoted: tuple[int, int] | None = None,
               stance: bool = True, holds: Callable[[str], bool] | None = None, liking: bool = False) -> bool:
    """True when a sentence of `text` is mock enthusiasm (`sarcasm`: "Oh great, ...", "Yeah right", loving an
    ordeal, "Awesome, another outage", "/s"; an opener alone is not: "Great, my email is ..."), or carries an eye
    roll (`_EYE_ROLL`), whatever its language; an upside-down face (`_IRONIC`) only for a fact that likes (`liking`:
    "I hate Mondays 🙃" is a dislike all the same). `quoted`: (start, end) of the quote in `text`, one sentence; an
    eye roll then counts for a fact that takes a stance (`stance`: a liking, an opinion; "Amo essa operadora, sem
    sinal há três dias, maravilha 🙄") or a quote that says a stance word, and for any other when the quote
    reaches the clause it ends (`_rolled_at`) and that clause holds the fact's value (`holds`, when given): not
    for a plain statement before it ("I'm a teacher, and no, teachers don't get summers off 🙄" keeps the job) ("j'habite à Namur, pas à Namêche comme c'est marqué sur votre courrier,
    faudrait corriger une fois 🙄" rolls its eyes at the letter, not at Namur: holdout set 9, quoted whole by the
    1.5B)."""
    sarcasm = _p("sarcasm", codes)
    if quoted is None:
        return any(sarcasm.search(s) or _EYE_ROLL.search(s) for s in sentences(text))
    start, end = quoted

    def rolled(roll: re.Match[str]) -> bool:
        at = _rolled_at(text, roll.start())
        if stance or _p("stance", codes).search(text[start:end]):
            return True
        return end > at and (holds is None or holds(text[at:roll.start()]))

    if liking and any(end > (at := _ironic_at(text, face.start())) and _p("stance", codes).search(
            text[at:face.start()]) for face in _IRONIC.finditer(text)):
        return True  # the clause it ends holds the quote and a stance: not "I love sushi, but work is insane 🙃"
    return sarcasm.search(text) is not None or any(rolled(roll) for roll in _EYE_ROLL.finditer(text))


def is_conditional(sentence: str, codes: Codes = None) -> bool:
    """True when `sentence` opens with a condition (`conditional`: "If I get the job, I'll move to Zurich"):
    nothing in it is stated as so. "if" later in a sentence is mostly politeness ("call me Jack if that's ok")."""
    return _p("conditional", codes).search(sentence) is not None


def is_need_condition(sentence: str, codes: Codes = None) -> bool:
    """True when `sentence` opens with a condition on a need of the one addressed (`need_condition`: "si vous devez
    me contacter", if you need to reach me; "αν χρειαστεί κάτι", if anything is needed; "if needed")."""
    return _p("need_condition", codes).search(sentence) is not None


def is_hedged(clause: str, codes: Codes = None) -> bool:
    """True when `clause` holds a hedge (`hedge`): maybe, not sure, probably, peut-être, vielleicht, 也许 ..."""
    return _p("hedge", codes).search(clause) is not None


def is_undecided(clause: str, codes: Codes = None) -> bool:
    """True when `clause` leaves a choice open or puts a question off (`undecided`: "I'll think about it", "I'm
    hesitating between ...", "I'll decide next week", "j'hésite", "ich überlege noch", "lo pensaré", "考虑一下"):
    no decision, no preference, whatever it names."""
    return _p("undecided", codes).search(clause) is not None


def _standing_request(text: str, codes: Codes) -> bool:
    """A request that sets how things go from now on is a standing instruction, not a question (`request` and
    `standing`: "Can you call me Jack from now on?", "Could you always reply in French?")."""
    return _p("request", codes).match(text) is not None and _p("standing", codes).search(text) is not None


# Question marks: Latin, full-width, Arabic.
QUESTION_MARKS = ("?", "\uff1f", "\u061f")


def _knows_questions(codes: Codes) -> bool:
    """True when the words of `codes` can tell a question (`interrogative` or `question_particle`); None (the
    language not told) reads every language's."""
    own = codes - {"en"} or codes if codes is not None else None  # English mixed in tells no Khmer question
    return own is None or bool(own & (lexicon.knowing("interrogative") | lexicon.knowing("question_particle")))


def _asks_alone(sentence: str, codes: Codes) -> bool:
    """True when `sentence` asks: it ends with a question mark and opens with an interrogative word or holds a
    question particle, in a language whose words can tell it (`_knows_questions`); in any other language, the
    question mark alone says it of a sentence of one clause (a Bengali, Swahili or Tamil question was read as a
    statement, issue 25; of a longer one, `asks` reads its last clause). Not the question mark alone where the
    words can tell: "I'm vegan so what can I cook tonight?" states a diet (a break-it review's finding); or it
    matches the language's question without a mark (`question_unmarked`: Thai ends a question with its question
    word and a polite particle, rarely with "?")."""
    if _p("question_unmarked", codes).search(sentence) is not None:
        return True
    if not sentence.endswith(QUESTION_MARKS):
        return False
    if not _knows_questions(codes):
        # "Ninaishi Mombasa, ... uko wapi?": its last clause asks. Phrases parted by a space in Lao or Khmer are
        # one clause here: "ຮ້ານອາຫານເຈ ຢູ່ວຽງຈັນ ມີບໍ່?" asks as a whole.
        return len(clauses(sentence, codes, phrases=False)) == 1
    return (_p("interrogative", codes).match(sentence) is not None
            or _p("question_particle", codes).search(sentence) is not None)


def is_question(quote: str, codes: Codes = None) -> bool:
    """True when every sentence of `quote` but greetings and thanks (`is_filler`) asks (`_asks_alone`) and is not
    a standing request (`_standing_request`)."""
    found = _said(quote, codes)  # "oi! dá pra baixar filme?" asks
    return bool(found) and all(_asks_alone(s, codes) and not _standing_request(s, codes) for s in found)


def _said(quote: str, codes: Codes) -> list[str]:
    """The sentences of `quote` but greetings and thanks (`is_filler`)."""
    return [s for s in sentences(quote) if not is_filler(s, codes)]


def is_request(quote: str, codes: Codes = None) -> bool:
    """True when every sentence of `quote` but greetings and thanks opens as a request to the one addressed
    (`request`: "Can you ...", "Could you ...", "¿Pueden ...?"): "Hey! Can you stop sending me SMS?" asks for
    something done, not to be told something."""
    found = _said(quote, codes)
    return bool(found) and all(_p("request", codes).match(s) is not None for s in found)


_END_MARK = re.compile(r"[.!?。！？\u061f\u06d4\u0964\uff1f]")


def asks(clause: str, sentence: str, codes: Codes = None) -> bool:
    """True when `clause`, part of `sentence` (one sentence or more), is a question clause: the sentence it is
    part of ends with a question mark and the clause opens with an interrogative word ("..., can we just write
    to /tmp instead?"), or ends that sentence holding a question word that may stand anywhere
    (`question_word_inside`: Vietnamese "quà tân gia nào hợp cho chị ấy?") or holding no word of the user (`self`)
    after a clause that does ("eu moro em BH, sabe se tem algum evento de kdrama por aqui?", holdout set 10; not
    "Tem alguma opção sem carne, porque sou vegetariana?", whose "I" is in its verb); in a language whose words
    cannot tell a question (`_knows_questions`), when it is the clause that ends that sentence."""
    at = sentence.find(clause)
    end = _END_MARK.search(sentence, max(at, 0))
    if end is None or end.group() not in QUESTION_MARKS or _standing_request(clause, codes):
        return False
    last = at >= 0 and end.start() < at + len(clause)  # its question mark is its own: the last clause
    if not _knows_questions(codes):
        return last
    return (_p("interrogative", codes).match(clause) is not None
            or (last and _p("question_word_inside", codes).search(clause) is not None)
            or (last and not speaks_of_self(clause, codes) and speaks_of_self(sentence[:max(at, 0)], codes)))


def is_pleasantry(quote: str, codes: Codes = None) -> bool:
    """True when `quote` is only thanks, greetings or acknowledgement words (`pleasantry_words`), or one run of
    them in a script without spaces (`pleasantry_whole`: 谢谢)."""
    words = WORD.findall(quote.casefold())
    if len(words) == 1 and _p("pleasantry_whole", codes).match(words[0]):
        return True
    pleasantries = lexicon.words("pleasantry_words", codes)
    return bool(words) and all(w in pleasantries for w in words)


def is_filler(clause: str, codes: Codes = None) -> bool:
    """True when `clause` is only pleasantry or filler words (`filler_words`: "Hmm", "Well", "Oh yes",
    "Thanks"): it states nothing, and backs nothing."""
    known = lexicon.words("pleasantry_words", codes) | lexicon.words("filler_words", codes)
    return all(w in known for w in WORD.findall(clause.casefold()))


def standing_part(message: str, start: int, end: int, codes: Codes = None) -> str:
    """What of the span [start, end) of `message` still stands: nothing when a marker that takes words back
    (`kidding`: "just kidding", "scratch that", "je plaisante", "开玩笑"; not "no kidding" or "JK Rowling")
    follows it, the part after the last marker inside it, all of it when no marker follows its start."""
    marker = None
    for found in _p("kidding", codes).finditer(message):
        if found.end() > start:
            marker = found
    if marker is None:
        return message[start:end]
    return message[marker.end():end] if marker.start() < end else ""
