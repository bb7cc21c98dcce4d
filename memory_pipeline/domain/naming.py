"""Whether a value is a person's name the user stated, in any language: a naming phrase of a language whose data
has one ("my name is", "je m'appelle", "我叫": `states_a_name`), a name's look in any script (`looks_like_name`:
letters, one to four words, a capital where the script has case), a request for the name in the assistant's line
(`asks_for_a_name`), the assistant calling the user by it right after (`addressed_by`), and an opening greeting or
interjection that is no name (`greets_with`, `opens_with`). Read by the gates (domain/gates.py).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from difflib import SequenceMatcher

from memory_pipeline.domain import language, lexicon, speech
from memory_pipeline.domain.folding import fold
from memory_pipeline.domain.value_support import supported

# The phrases by which people state a name (domain/languages/: `naming`): strong ones anywhere in the quote, weak
# ones only right next to the value.
_NAMING = lexicon.pattern("naming")
_WEAK_NAMING = "(?:" + lexicon.alternation("weak_naming") + ")"
_WEAK_NAMING_AFTER = "(?:" + lexicon.alternation("weak_naming_after") + ")"
# No word boundaries: "你叫什么名字？" joins the noun to its neighbours (a word holding "name", "username", still
# needs an answer that looks like a name).
_NAME_NOUN = re.compile(dict(lexicon.table("forget_nouns"))["name"], re.IGNORECASE)
# Words a lower-case name may follow to be read as one ("ben emre", "soy ana"): the self and weak naming words.
_SELF_BEFORE = re.compile(r"(?:" + lexicon.alternation("self") + "|" + lexicon.alternation("weak_naming")
                          + r")\s+$", re.IGNORECASE)


def states_a_name(quote: str, value: str | None) -> bool:
    """True when `quote` holds a phrase stating a name (`_NAMING`), or a weak one right next to a capitalised
    `value` ("I'm Jack", "Jack here")."""
    if _NAMING.search(quote):
        return True
    name = (value or "").strip()
    if not name or (name[0].isalpha() and name[0].isascii() and not name[0].isupper()):
        return False
    named = re.escape(name)
    return re.search(rf"{_WEAK_NAMING}\s+{named}(?!\w)|(?<!\w){named}\s+{_WEAK_NAMING_AFTER}\b", quote,
                     re.IGNORECASE) is not None


# A name in a language whose naming phrases are not known: letters (with their marks), spaces, hyphens,
# apostrophes and dots, at most four words, starting with a capital where the script has case.
_NAME_CHARS = re.compile(r"^(?:[^\W\d_]|[" + re.escape(speech.MARKS) + r"]|[ .'’-])+$")


# Letters with a capital in Unicode that their script's ordinary text never uses: Georgian Mkhedruli (its
# Mtavruli capitals, encoded since Unicode 11, are for all-caps titles), so "ნინო ბერიძე" is written as a name is.
_UNICAMERAL = re.compile("[\u10d0-\u10ff]")


def has_name_shape(value: str) -> bool:
    """True when `value` is made as a name is: letters (with their marks), spaces, hyphens, apostrophes and dots,
    one to four words (`_NAME_CHARS`): no digit, emoji, "@" or URL, in any language."""
    name = " ".join(value.split())
    return bool(name) and len(name.split()) <= 4 and _NAME_CHARS.match(name) is not None


# The word "name" in the scripts without case, where a name has no capital to be told by: Devanagari (Hindi,
# Marathi, Nepali), Bengali, Gurmukhi, Gujarati, Odia, Tamil, Telugu, Kannada, Malayalam, Sinhala, Arabic, Persian
# and Urdu, Hebrew, Thai, Lao, Khmer, Myanmar, Ethiopic, Georgian, Japanese, Chinese, Korean.
NAME_WORDS = ("नाम", "নাম", "ਨਾਮ", "ਨਾਂ", "નામ", "ନାମ", "பெயர்", "పేరు", "ಹೆಸರು", "പേര്", "නම", "اسم", "نام",
              "שם", "ชื่อ", "ຊື່", "ឈ្មោះ", "နာမည်", "ስም", "სახელ", "名前", "名字", "叫", "이름")


def _writes_capitals(text: str) -> bool:
    """True when `text` holds a word written capitalised: a capital, then a small letter. Not a code or an acronym
    in capitals ("#SN-20931", "ATM"), which a user who types in lower case still copies as written (holdout set 12:
    "#SN-20931. names jaylen btw")."""
    return any(w[0].isupper() and any(c.islower() for c in w[1:]) for w in speech.WORD.findall(text))


def looks_like_name(value: str, quote: str, message: str = "", fact: str = "", addressed: bool = False) -> bool:
    """True when `value` could be a person's name said in `quote`: in it (case and accents ignored), made of
    letters (`_NAME_CHARS`, no digit, emoji, "@" or URL), one to four words, the first letter a capital unless
    its script has no case (Arabic, Thai, Han ...; Georgian in use, `_UNICAMERAL`) or the user writes in lower case
    only (`message` holds no capital letter) and either the name follows a self or weak naming word ("selam ben
    emre izmirde yaşıyorum"; not "stanco morto") or the model's own `fact` writes it as a name, each word
    capitalised ("naitwa wanjiru kamau" -> "Mtumiaji anaitwa Wanjiru Kamau."; "em dic jordi puig": users type names
    in lower case in every language, and a model that read a name writes it so: on holdout6, 14 right names in
    lower case were lost to this gate; a fact in the chat's language, as the prompt asks, not an English one: the
    1.5B model wrote "The user is named Bonustarым." of "салем, бонустарым канша болды?", how many bonuses do I
    have) or the assistant called the user so right after (`addressed`)."""
    name = " ".join(value.split())
    if not has_name_shape(name):
        return False
    if fold(name) not in fold(quote):
        # A name of a script without case that the model wrote in Latin letters ("Rohit Sharma" for "मेरा नाम
        # रोहित शर्मा है", holdout set 5; "Harpreet" for "ਹਰਪ੍ਰੀਤ"): held by the quote's words transliterated, as
        # any value is (`supported`), in a clause that says "name" (no capital tells a name in that script, and
        # "Dhaka" transliterates "আমি ঢাকায় থাকি" as well).
        return name.isascii() and any(c.isalpha() and c.lower() == c.upper() for c in quote) and any(
            supported(name, clause) and any(word in clause for word in NAME_WORDS) for clause in speech.clauses(quote))
    # The capital as the user wrote it, not as the model did ("Бонустарым" of "салем, бонустарым канша болды?").
    written = re.search(re.escape(name), quote, re.IGNORECASE)
    first = next((c for c in (written.group() if written else name) if c.isalpha()), None)
    if first is None:  # a vowel sign alone ("ा"): no letter to be a name
        return False
    if first.isupper() or first.lower() == first.upper() or _UNICAMERAL.match(first):
        return True
    # Lower case only: a user who writes no capital letter, the name right after "I" or "I'm" in some language,
    # or capitalised in the model's fact.
    if _writes_capitals(message or quote):
        return False
    folded = fold(quote)  # folding may change lengths ("æ" -> "ae"): the words before are read folded too
    return (addressed or _SELF_BEFORE.search(folded[:folded.find(fold(name))]) is not None
            or (_capitalised_in(name, fact) and not language.could_be(fact, "en")))


# Words of a reply's first sentence that calls the user by name: a thanks or greeting, a title, the name, an
# honorific ("Təşəkkürlər, Leyla xanım!", "Grazie mille, signora Rossi!").
_VOCATIVE_WORDS = 5


def addressed_by(value: str, replied: Sequence[str]) -> bool:
    """True when an assistant line of `replied` opens by calling the user by a word of `value` (a first name or a
    surname): in a first sentence of at most `_VOCATIVE_WORDS` words, not as its first word (which may echo a
    greeting: "Labdien!"), written as a name (a capital where the script has case): "Aitäh, Kadri." after "kadri
    tamm, 5123 4567", "Grazie, signor Ferri." after "Marco Ferri", "Təşəkkürlər, Leyla xanım!" (any language).
    Not a name said further on ("Done! I've set Sarah Lee as the recipient.": someone the user named)."""
    names = {fold(w) for w in speech.WORD.findall(value) if len(w) >= 2}
    for text in replied:
        opening = speech.sentences(text)[:1]
        said = speech.WORD.findall(opening[0]) if opening else []
        if len(said) <= _VOCATIVE_WORDS and any(
                fold(word) in names and (word[0].isupper() or word[0].lower() == word[0].upper())
                for word in said[1:]):
            return True
    return False


def _capitalised_in(name: str, fact: str) -> bool:
    """True when `fact` holds the words of `name` in a row, each starting with a capital, spelt alike (hyphens part
    words: "ngu-Thandiwe"; a letter or two of the language the user typed without: "айгерим" for "Айгерім")."""
    said = [w.strip(".,;:!?\"'()«»“”") for w in re.split(r"[\s\-]+", fact)]
    wanted = fold(name)
    size = len(name.split())
    for start in range(len(said) - size + 1):
        run = said[start:start + size]
        if all(w[:1].isupper() for w in run) and SequenceMatcher(None, fold(" ".join(run)), wanted).ratio() >= 0.8:
            return True
    return False


# The questions of an assistant line: each run ending with "?", "？" or "؟".
QUESTIONS = re.compile(r"[^.!?。！？؟\n]*[?？؟]")


def asks_for_a_name(line: str) -> bool:
    """True when the assistant's `line` asks for the user's name: a question ("?", "？", "؟") or the line's last
    sentence (a request: "Palun öelge oma nimi ja telefoninumber.", "तपाईंको नाम र order नम्बर दिनुहोस्।") naming a
    name in a language whose data has the noun (`forget_nouns`: "Können Sie mir Ihren Namen nennen?")."""
    said = speech.sentences(line)
    return any(_NAME_NOUN.search(q) for q in (*QUESTIONS.findall(line), *said[-1:]))


def greets_with(value: str, message: str) -> bool:
    """True when `value` is the whole first sentence of `message`, ended by "!", and more follows: an opening
    greeting ("Bună! Prefer ...", "வணக்கம்! என் பெயர் ...", "سلام! من ..."), in any language, which a 1.5B model
    filed as the user's name (issue 25). Not a comma: "Jack, nice to meet you" answers a name question."""
    return _opening_is(value, message, "!！")


def opens_with(value: str, message: str) -> bool:
    """True when `value` is all `message` says before its first "!" or comma, and more follows: an opening
    greeting, interjection or address ("labdien, atkal es par plauktiem", "हुन्छ, शुभ दिन!", "Сәлем! ..."), which a
    1.5B model filed as an employer, a home and a name on unseen chats (session 17). Said unasked, no language has
    a fact there; an answer to the assistant's question ("Oslo, since May.") is read by the caller."""
    return _opening_is(value, message, "!！,，،")


def _opening_is(value: str, message: str, marks: str) -> bool:
    said = " ".join(value.split())
    opening = re.match(rf"\s*(.+?)\s*[{marks}]\s*\S", message, re.DOTALL)
    return bool(said) and opening is not None and fold(opening.group(1)) == fold(said)


def is_proper_noun_phrase(value: str) -> bool:
    """True when `value` is two to four words, each starting with a capital letter ("Kadri Tamm", "Buenos Aires"):
    a name, in any script with case, and no greeting ("Good morning", "labdien"). An answer to a request that asks
    without a question mark ("Palun öelge oma nimi ja isikukood." - please tell your name and ID code) opens with
    it, before a comma."""
    parts = value.split()
    return 2 <= len(parts) <= 4 and all(p[0].isupper() for p in parts)
