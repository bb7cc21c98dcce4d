"""Whether a text holds a value, in every script: the words of a fact's value (or its slot's object) found in its
quote, starting alike, in Latin letters against another script transliterated, by characters in a script written
without spaces. Read by the gates (domain/gates.py), the quote check (domain/quotes.py), summary grounding
(domain/grounding.py) and the LLM output's slot checks; it knows no speech act.
"""

from __future__ import annotations

import re
from functools import lru_cache

from anyascii import anyascii

from memory_pipeline.domain import language, lexicon, speech
from memory_pipeline.domain.folding import fold

# A word: letters and digits with the marks written on them (Devanagari's vowel signs, Thai's, Arabic's harakat
# left by `fold`), so "राहुल" is one word, not three (speech.WORD).
_WORD = speech.WORD
# Scripts written without spaces between words: those written with an alphabet (an abugida: Thai, Lao, Myanmar,
# Khmer), then kana and Han. SPACELESS_CHARS is the one list of them, read by the quote check (domain.quotes) and
# the gold sets' keywords (evaluation.gold) too.
_ABUGIDA_CHARS = speech.ABUGIDA_CHARS
SPACELESS_CHARS = _ABUGIDA_CHARS + "\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff"
_HANGUL_CHARS = "\uac00-\ud7af"  # syllables; `fold` may leave them as jamo (\u1100-\u11ff)
# Scripts that join a preposition or article to the next word (Hebrew, Arabic: "בחיפה" is "in Haifa").
JOINING_CHARS = "\u0590-\u05ff\u0600-\u06ff"
# A value in a spaceless script, or in Hangul (syllables joined to their particles), is not found by words.
_UNSPACED = re.compile(f"[{SPACELESS_CHARS}{_HANGUL_CHARS}]")
_SPACELESS = re.compile(f"[{SPACELESS_CHARS}]")
# Hangul folded (NFKD) is conjoining jamo: a word of it is found as a run of jamo, not letter by letter (the
# letters of "대전", Daejeon, are in any Korean sentence: "그대로 유지되나요?" held them).
_JAMO = re.compile("[\u1100-\u11ff]")
# ... of which those written with an alphabet (an abugida): Thai, Lao, Myanmar, Khmer. Han and kana characters
# are syllables and words: a value's characters found apart ("冰美式" in "一杯冰的美式") still name it.
_ALPHABETIC_UNSPACED = re.compile(f"[{_ABUGIDA_CHARS}]")


def _letters(text: str) -> str:
    """`text` folded with only its letters, digits and marks kept (spaces, punctuation and signs dropped)."""
    return "".join(_WORD.findall(fold(text)))


# Value parts that need no support: resolved dates and times (the prompt asks for "tomorrow" made absolute), and
# words too common to prove anything.
_MONTH = (r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*")
_DATE_OR_TIME = re.compile(
    rf"\b\d{{4}}-\d{{2}}-\d{{2}}\b|\b\d{{1,2}}:\d{{2}}\b|\b\d{{1,2}}\s*(?:am|pm|h)\b|\b\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTH}\b"
    rf"|\b{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?\b|\b(?:19|20)\d{{2}}\b", re.IGNORECASE)
STOPWORDS = lexicon.words("stopwords")
_DATE_WORDS = lexicon.words("date_words")

# Where a script written without spaces (or Hangul, which joins particles) meets another one inside a run of
# letters: "用LINE通知我" holds the word "line", "LINE으로" too (a name or brand in Latin letters within the text).
_JOINED = SPACELESS_CHARS + _HANGUL_CHARS + "\u1100-\u11ff"  # and Hangul, as syllables or (folded) as jamo
_SCRIPT_SEAM = re.compile(rf"(?<=[{_JOINED}])(?=[^\W{_JOINED}])|(?<=[^\W{_JOINED}])(?=[{_JOINED}])")


@lru_cache(maxsize=4096)  # the gates ask of the same quote and message several times per fact
def words(text: str) -> tuple[str, ...]:
    """The words of `text`, folded (`fold`), split where a script without spaces meets another (`_SCRIPT_SEAM`)."""
    return tuple(_WORD.findall(_SCRIPT_SEAM.sub(" ", fold(text))))


def content_words(value: str) -> list[str]:
    """The words of `value` that say something: no date or time, no stop word, at least two letters."""
    return [w for w in words(_DATE_OR_TIME.sub(" ", value)) if w not in STOPWORDS and len(w) >= 2]


# A value that is one word in capitals is an acronym, never a stop word: "IT" is no "it" (a 1.5B model's job "IT"
# of a chat that names no IT, holdout set 9); in a longer value it may be one ("Portland, OR").
_ACRONYM = re.compile(r"\s*([A-Z]{2,})\s*")


def _acronym_said(value: str, text: str) -> bool | None:
    """For a value that is an acronym alone: whether `text` says it, with or without dots ("IT", "I.T."); None for
    any other value. Not said so, it may still be found as a word ("SMS" in "SMSkou", a Czech SMS)."""
    found = _ACRONYM.fullmatch(value)
    if not found:
        return None
    letters = r"\.?".join(found.group(1))
    # bounded by Latin letters and digits only: "用LINE通知我" says LINE
    return re.search(rf"(?<![A-Za-z0-9.]){letters}\.?(?![A-Za-z0-9])", text, re.IGNORECASE) is not None


# Lower-case letters of the alphabets whose stems change a vowel as they inflect (Cyrillic, Greek, Armenian).
_INFLECTED_ALPHABET = re.compile("^[\u0370-\u03ff\u0400-\u04ff\u0561-\u0587]+$")


def _similar(a: str, b: str) -> bool:
    if a == b:
        return True
    shorter = min(len(a), len(b))
    if shorter < 3:
        return False
    common = 0
    for x, y in zip(a, b):
        if x != y:
            break
        common += 1
    if common >= max(3, -(-3 * shorter // 4)):
        return True
    # A stem whose vowel changes as it inflects (Ukrainian "Львів" -> "у Львові", "Харків" -> "у Харкові": one
    # vowel changed, an ending added; `_vowel_changed`), in Cyrillic, Greek or Armenian. Not in Latin letters,
    # where it would make places of others ("Slovenia" ~ "Slovakia", "Toronto" ~ "Torino", "Austria" ~
    # "Australia": a review's probes), nor in a script of vowel signs, where a shared first syllable is most of a
    # short word (Telugu "అమ్మకి", to mother, is not "అమ్మగారికి", to the lady: a 1.5B model's value).
    return (common >= 3 and shorter >= 5 and _INFLECTED_ALPHABET.match(a) is not None
            and _INFLECTED_ALPHABET.match(b) is not None and _vowel_changed(a, b))


# Languages that inflect a word by the letters after its stem, the stem's own last letters included (Finnish
# "graafinen suunnittelu" is said "teen graafista suunnittelua"; Estonian, Hungarian, the Turkic languages): there a
# long word (`_LONG_WORD` letters or more) may differ in its last `_ENDING_LETTERS` from the same word inflected.
SUFFIXING_LANGUAGES = frozenset({"fi", "et", "hu", "tr", "az", "uz", "kk", "ky", "tk"})
_LONG_WORD = 7
_ENDING_LETTERS = 3


def _same_stem(a: str, b: str) -> bool:
    """True when `a` and `b` are both long (`_LONG_WORD`) and share all but the last `_ENDING_LETTERS` letters of
    the shorter ("graafinen" ~ "graafista"; "Turku" and "turvallinen" are too short to say)."""
    shorter = min(len(a), len(b))
    return shorter >= _LONG_WORD and a[:shorter - _ENDING_LETTERS] == b[:shorter - _ENDING_LETTERS]


# The vowels of those alphabets (Cyrillic, Greek, Armenian), which a stem changes as it inflects.
_STEM_VOWELS = frozenset("аеёиоуыэюяіїєαεηιουωաեէըիոօւ")
_ENDING = 2  # letters of an ending the longer form may add


def _vowel_changed(a: str, b: str) -> bool:
    """True when the longer of `a`, `b`, less an ending of up to `_ENDING` letters, is the shorter with one vowel
    changed ("львові" -> "львов" ~ "львів"); not a letter inserted ("Мариана" is not "Марина", a break-it review)."""
    short, long_ = sorted((a, b), key=len)
    for cut in range(_ENDING + 1):
        stem = long_[:len(long_) - cut]
        if len(stem) == len(short):
            changed = [(x, y) for x, y in zip(stem, short) if x != y]
            if len(changed) == 1 and changed[0][0] in _STEM_VOWELS and changed[0][1] in _STEM_VOWELS:
                return True
    return False


# Hebrew and Arabic write a preposition or article joined to the word ("בחיפה" is "in Haifa", "بعمان" "in Amman").
_PREFIXED = re.compile(f"^[{JOINING_CHARS}]")


# The Arabic article, which a joined preposition absorbs ("الريال" the riyal, "للريال" to the riyal): the word
# without it is found after such a preposition only (`_PROCLITICS`), never bare ("مدينة", a city, is not
# "المدينة", Medina) nor after other letters ("ماعين"). Not Hebrew's "ה", which starts names too ("הרצליה").
_ARTICLE = re.compile("^ال(?=.{3})")
_PROCLITICS = re.compile("^[وف]?[بلك]ل?$")


def _ends_with(said: str, word: str) -> bool:
    """True when the said word is `word` after joined letters (`_PREFIXED`), or `word` without its Arabic article
    after a joined preposition (`_ARTICLE`, `_PROCLITICS`)."""
    if said.endswith(word):
        return True
    bare = _ARTICLE.sub("", word)
    return bare != word and said.endswith(bare) and _PROCLITICS.match(said[:len(said) - len(bare)]) is not None


# Consonants a transliterated word must keep to be matched by them alone: "Sharma" ~ "शर्मा" ("srm"); two ("mn") are
# in too many words.
MIN_CONSONANTS = 3


def skeleton(word: str) -> str:
    """`word` transliterated (anyascii), as its consonants: vowels and the letters scripts write for vowels (y, w,
    v, h, and the glottal marks) dropped, doubled letters once ("Kareem", "كريم" -> "krm"; "Sharma", "शर्मा" ->
    "srm")."""
    return re.sub(r"(.)\1+", r"\1", re.sub(r"[aeiouyjwvh'`\W]", "", fold(anyascii(word))))


def _said_as_skeletons(content: list[str], text: str) -> bool:
    """True when the words `content` (two or more, in Latin letters) are words of `text` in a row, as their
    consonants joined (`skeleton`), `MIN_CONSONANTS` + 1 or more: "Rahul Varma" for "मेरा नाम राहुल वर्मा है"
    ("rl" + "rm"; "Varma" alone is two consonants, too few to be matched by), "Tanbir Hossain" for "তানভীর হাসান"
    (holdout sets 9 and 10)."""
    if len(content) < 2:
        return False
    wanted = "".join(map(skeleton, content))
    spoken = [fold(anyascii(w)) for w in text.split()]
    said = [skeleton(w) for w in text.split()]
    return len(wanted) > MIN_CONSONANTS and any(
        "".join(said[i:i + len(content)]) == wanted and all(
            _starts_alike(word, spoken[i + k]) for k, word in enumerate(content))
        for i in range(len(said) - len(content) + 1))


def _starts_alike(word: str, spoken: str) -> bool:
    """True when `spoken` (a word transliterated) starts with the letter `word` does, or with no letter (Arabic's
    ayin, "`mr"): "Anil" is not "नील" ("nil"; a break-it review)."""
    first = spoken[:1]
    return not first.isalpha() or first == word[:1]


# A value in a script written without spaces is found in runs of at least this many letters (a word or two), close
# together (within `_RUN_SPREAD` times its length), all but a quarter of its letters ("และ", and, where the user
# said "กับ") and every digit among them: the same words in another order or joined otherwise.
_MIN_RUN = 3
_UNFOUND_SHARE = 0.25
_RUN_SPREAD = 2
_RUN_PHRASE = 10


def _runs_cover(value: str, text: str) -> bool:
    at, unfound = 0, 0
    while at < len(value):
        run = next((n for n in range(len(value) - at, _MIN_RUN - 1, -1) if value[at:at + n] in text), 0)
        if not run and value[at].isdigit():
            return False
        unfound += 0 if run else 1
        at += run or 1
    return unfound <= _UNFOUND_SHARE * len(value)


def _found_in_runs(value: str, text: str) -> bool:
    """True when `value` is in `text` as written, or as runs of `_MIN_RUN` letters or more (each the longest at
    its place in the value) within one stretch of `_RUN_SPREAD` times its length, leaving at most
    `_UNFOUND_SHARE` of its letters, and no digit, unfound ("เช้าวันเสาร์และวันอาทิตย์", Saturday and Sunday
    mornings, in "ว่างแค่วันเสาร์กับวันอาทิตย์ตอนเช้า"; not Chiang Mai in "เชียงราย ... ปีใหม่", far apart). Only a
    phrase (`_RUN_PHRASE` letters or more) is read so; a name or a place is found as written. The caller reads runs
    only where the text negates nothing (`negation`): "กินเผ็ดไม่ได้" (can't eat spicy) holds "กินเผ็ด" and "ได้"."""
    if value in text:
        return True
    if len(value) < _RUN_PHRASE:
        return False
    width = _RUN_SPREAD * len(value)
    starts = range(max(1, len(text) - width + 1))
    return any(_runs_cover(value, text[i:i + width]) for i in starts)


# Contact channels by their names in every language (`channel_names`; nouns, not "call me", which names the user):
# a model writes the channel in English ("email", "WeChat", "LINE") of a quote that names it in its own ("عبر البريد
# الإلكتروني", "以后都发微信吧", "แจ้งผ่านไลน์": the 1.5B model's answers on holdout set 7, rejected as values not in
# their quotes).
@lru_cache(maxsize=64)
def _channels(codes: lexicon.Codes) -> tuple[tuple[str, re.Pattern[str]], ...]:
    return tuple((key, re.compile(source, re.IGNORECASE)) for key, source in lexicon.table("channel_names", codes))


def names_a_channel(value: str) -> bool:
    """True when `value` is a contact channel: one of its names in any language, or its key ("e-mail", "WhatsApp",
    "SMS")."""
    said = " ".join(value.split())
    return any(key == said.casefold() or pattern.fullmatch(said) for key, pattern in _channels(None))


def channel_said(value: str, text: str) -> bool:
    """True when `value` is a contact channel (one of its names in any language, or its key: "e-mail", "WhatsApp")
    and a clause of `text` names that channel in its own language or English (`lexicon.codes_for`) without a word
    that negates it (`negation`)."""
    said = " ".join(value.split())
    keys = {key for key, pattern in _channels(None) if key == said.casefold() or pattern.fullmatch(said)}
    if not keys:
        return False
    told = language.identify(text)
    codes = lexicon.codes_for(told)
    negation = lexicon.pattern("negation", None if told is None else frozenset({told}))  # pt "no" is "in the"
    # Named in a clause that does not negate it: "我没有微信，请发邮件给我" (I have no WeChat, email me) chooses email.
    return any(key in keys and pattern.search(clause) and not negation.search(clause)
               for key, pattern in _channels(codes) for clause in speech.clauses(text, codes))


# An email address as people type it: "@" and "." also said ("anna dot nowak at gmail dot com", "[at]"), the
# address bounded by what no address holds ("anna.nowak@gmail.com" is not in "xanna.nowak@gmail.com.pl").
_SAID_AT = r"\s*(?:@|\[at\]|\(at\)|\s+at\s+)\s*"
_SAID_DOT = r"\s*(?:\.|\[dot\]|\(dot\)|\s+dot\s+)\s*"
_EMAIL = re.compile(r"[^\s@]+@[^\s@]+\w")
_PHONE = re.compile(r"\+?\d(?:[\s().-]?\d){6,}")  # seven digits or more, spaced as people write them


def gives_contact_detail(text: str) -> bool:
    """True when `text` holds an email address or a phone number (seven digits or more)."""
    return bool(_EMAIL.search(text) or _PHONE.search(text))




def _address(value: str) -> re.Pattern[str]:
    """The pattern of the email address `value` (folded) as typed or said (`_SAID_AT`, `_SAID_DOT`)."""
    local, _, domain = re.sub(r"\s", "", fold(value)).partition("@")
    said = _SAID_DOT.join(map(re.escape, local.split("."))) + _SAID_AT + _SAID_DOT.join(
        map(re.escape, domain.split(".")))
    # Bounded by the characters an address is made of, not by any letter: a script without spaces writes it
    # between its own words ("メールはmori.kenta@docomo.ne.jpで登録しています。", holdout set 12).
    return re.compile(rf"(?<![a-z0-9_.+%-]){said}(?![a-z0-9_-]|\.[a-z0-9])")


def _as_predicate(value: str) -> str:
    """An Arabic noun phrase as said in a sentence that predicates it: the article of each word after the first
    dropped ("التركيب المجاني", the free installation -> "التركيب مجاني", the installation is free), folded; "\0"
    (found in no text) when nothing is dropped. The words must be said together so: "القاهرة الجديدة" (New Cairo)
    is not "القاهرة في شقة جديدة", nor "التوصيل المجاني" "التوصيل مش مجاني" (not free). Never the first word:
    "المدينة" (Medina) is not "مدينة" (a city)."""
    first, *rest = fold(value).split() or [""]
    bare = [_ARTICLE.sub("", w) for w in rest]
    return " ".join([first, *bare]) if bare != rest else "\0"


def supported(value: str, text: str) -> bool:
    """True when each content word of `value` (not a date, time or stop word) is found in `text`, or in `text`
    transliterated when `value` is in Latin letters and `text` is not, as a word
    starting alike (`_similar`), or in Hebrew and Arabic ending one (`_PREFIXED`); in a script without spaces
    (`_SPACELESS`), when the value's characters are in `text`; a Korean word, when its syllables are in `text` in a
    row; a contact channel, when `text` names it in any language (`channel_said`); an email address in it, whole.
    A value with no content word is supported."""
    if channel_said(value, text):
        return True
    acronym = _acronym_said(value, text)
    if acronym or acronym is False and fold(value.strip()) in STOPWORDS:
        return bool(acronym)  # "IT" is not found as "it": the stop word would make it a value of no content
    folded = fold(text)
    addresses = _EMAIL.findall(value)  # found whole: "anna.nowak@" is not "anna.kowalska@" (a review)
    if addresses:
        if not all(_address(a).search(folded) for a in addresses):
            return False
        value = _EMAIL.sub(" ", value)  # the rest as words ("invoices to billing@example.org")
    if _ALPHABETIC_UNSPACED.search(value):
        # Letters, not words: Thai, Lao, Khmer or Myanmar letters are few, and a long message holds each letter of
        # any value somewhere ("မြန်မာ", Myanmar, "found" in a greeting); the value must be there in runs.
        found, said, negation = _letters(value), _letters(text), lexicon.pattern("negation")
        if negation.search(text) and not negation.search(value):
            return found in said
        return _found_in_runs(found, said)
    if _SPACELESS.search(value):
        return all(ch in folded for ch in fold(value) if not ch.isspace() and ch.isalnum())
    said = words(text)
    skeletons: set[str] = set()
    if value.isascii() and not text.isascii():
        # A model writes a name or place of another script in Latin letters ("Kazan" for "Казани", "Priya" for
        # "प्रिया"): the quote's words transliterated (anyascii, every script) are the same words, or the same
        # consonants ("Rohit Sharma" for "रोहित शर्मा", transliterated "rohit srma").
        said += words(anyascii(text))
        skeletons = {k for k in map(skeleton, text.split()) if len(k) >= MIN_CONSONANTS}
    digits = re.sub(r"\D", "", text)
    content = [w for w in content_words(value) if w not in _DATE_WORDS]
    if value.isascii() and not text.isascii() and _said_as_skeletons(content, text):
        return True
    suffixing = content and language.identify(text) in SUFFIXING_LANGUAGES
    said_as_predicate = _as_predicate(value) in folded
    missing = 0
    for index, word in enumerate(content):
        if _JAMO.search(word):  # a Korean word: its syllables in a row, particles after it allowed ("대전에")
            missing += word not in folded
            continue
        if word.isdigit():
            if word not in digits:
                return False
            continue
        if not any(_similar(word, w) for w in said) and not (
                _PREFIXED.match(word) and any(_ends_with(w, word) for w in said)
        ) and not (
                index and said_as_predicate and _ARTICLE.match(word)  # "التركيب مجاني" (`_as_predicate`)
        ) and skeleton(word) not in skeletons and not (
                suffixing and any(_same_stem(word, w) for w in said)):
            missing += 1
    # A value of three or more words is a phrase the model may inflect ("не ест мясо" for "Я не ем мясо"): one
    # word of it may differ. A shorter value is a name, a place, a thing: every word must be there.
    return missing == 0 or (missing == 1 and len(content) >= 3)


def names_a_thing(value: str) -> bool:
    """True when `value` has a content word (`content_words`: not a date, time or stop word) or a character of
    a script without spaces: something a sentence can be found to hold."""
    return bool(content_words(value) or _UNSPACED.search(value))


def backs_value(value: str | None, attribute: str | None, quote: str) -> bool:
    """True when `quote` holds the fact's value, or the object of a `<kind>:<object>` attribute ("favourite:pizza"
    for "Adoro pizza"), with some content (`supported`, a content word or a character of a script without
    spaces) and holds another word beside it: what the fact says, said with its verb. A two-word quote that
    does is a clause in a language that drops the subject or joins the verb ("Sou fisioterapeuta", "İzmir'e
    taşındım", "이름은 박서진이고"); `quotes.is_substantial_quote` accepts it (issue 25). So does a one-word quote
    that is the one-word value with a verb's ending of the language's data joined ("yazılımcıyım" for
    "yazılımcı")."""
    quote_words = words(quote)
    for said in (value, attribute.partition(":")[2].replace("_", " ") if attribute else None):
        if not said:
            continue
        content = content_words(said)
        if not (content or _UNSPACED.search(said)) or not supported(said, quote):
            continue
        said_words = words(said)
        if any(not any(_similar(s, w) for s in said_words) and not (content == [] and fold(said) in w)
               for w in quote_words):
            return True
        if len(quote_words) == 1 == len(said_words) and quote_words[0].startswith(fold(said)) and (
                _PREDICATE_SUFFIX.fullmatch(quote_words[0][len(fold(said)):])):
            return True  # the value with a verb's ending joined: "yazılımcıyım" (I am a software developer)
    return False


# The endings that make a word a statement of the user in an agglutinative language (`predicate_suffix` data:
# Turkish -(y)Im "I am", -DIr "is"); never any ending ("catalog", "meatless", "Katzenallergie").
_PREDICATE_SUFFIX = lexicon.pattern("predicate_suffix")


# The least a fact's text shares with its quote to name what the quote speaks of, in any language: two content
# words, or a run of this many characters of a script without spaces (a Thai word is 2-6 characters).
_NAMED_WORDS = 2
_NAMED_RUN = 6


def names_what_quote_says(fact: str, quote: str) -> bool:
    """True when `fact` repeats what `quote` speaks of (`_NAMED_WORDS` content words starting alike, or a run of
    `_NAMED_RUN` characters of a script without spaces): a stance slot named in English ("favourite:coffee")
    is then backed by a quote in Italian ("Adoro il caffè ristretto") through its fact ("L'utente adora il caffè
    ristretto."), whatever the language (issue 25)."""
    quote_words = words(quote)
    shared = sum(1 for w in set(words(fact)) if w not in STOPWORDS and len(w) >= 2
                 and any(_similar(w, q) for q in quote_words))
    if shared >= _NAMED_WORDS:
        return True
    if not _UNSPACED.search(fact):
        return False
    a, b = fold(fact), fold(quote)  # Hangul folded is jamo: a run of 6 is two syllables ("싫어" of 싫어한다/싫어해서)
    return any(a[i:i + _NAMED_RUN] in b for i in range(len(a) - _NAMED_RUN + 1)
               if _UNSPACED.match(a[i]) or _JAMO.match(a[i]))


# A decision's value that needs no word of the quote once its object is there: the choice as yes or no.
YES_NO = frozenset("yes no true false".split())  # a decision's value that says only whether
_STEM = 4  # letters: "anulować" for "Anuluj", "zrušit" for "Zrušte" (a model writes the infinitive)


def decides(value: str, backing: str) -> bool:
    """True when a decision's `value` is said in `backing` in some form: yes or no, or each content word
    starting with the same `_STEM` letters as a word of it ("anulować" ~ "Anuluj moje zamówienie")."""
    content = content_words(value)
    if fold(value.strip()) in YES_NO or not content:
        return True
    said = words(backing)
    return all(any(w[:_STEM] == q[:_STEM] for q in said) for w in content if len(w) >= _STEM)
