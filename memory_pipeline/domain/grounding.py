"""A summary names no person, organisation, place, number, amount or date that its conversation does not hold
(issue 27: the seed's summaries feed the agent's memory, where an invented date or name is a wrong memory).

What a conversation holds: the text of its turns (user, assistant and tool lines, a group chat's sender names,
machine-written image or voice analyses), the local dates and hours its messages were said on (the transcript
the model reads shows them), and the dates its relative expressions name ("tomorrow" said on 2026-03-04 holds
2026-03-05: `domain.relative_time.resolve`, against each message's local date).

The rules, each giving the rejection reason of `REASONS`:
- `summary_date_not_in_chat`: a date the summary writes (2026-03-05, 05/03/2026 read either way, "March 5",
  "5 mars 2026", "3月5日", a month with its year "February 2026", "2026年2月", a bare English month name or
  weekday) must be a held date, a day of a held week, or a held month; a date written in the chat is held too;
- `summary_number_not_in_chat`: a number written in digits (any script's digits, separators ignored: "1,500" =
  "1500" = "1 500"), or a time of day ("19:00", "7 pm": its hour), must be a number of the chat, a part of a held
  date, or a held hour; a count of at most 12 (SMALL_COUNT) is also held by its word in the chat ("three",
  "trois", "drei", "三" ...), and counts the summary writes as words are not checked at all (they are how a
  summary says "two questions");
- `summary_name_not_in_chat`: a capitalised word that is not the first word of its sentence (that one is
  capitalised anyway; a sentence opening with two capitalised words is checked, "Maria Lopez asked ...") must
  start like a word of the chat (`value_support.supported`: accents and case ignored, inflection allowed), or, in Latin
  letters, match a chat word in another script transliterated (anyascii, with x/ks, y/i/j, w/v, ph/f, kh/h
  spelled one way: "Alexey" is held by "Алексей"). Words of PLAIN_WORDS (the user, the assistant, "I", "OK")
  are exempt.
German capitalises every noun, so a German summary (`language.identify`) gets the number and date rules only;
in a script without case (Chinese, Japanese, Arabic, Hebrew, Hindi, Thai ...) no word is capitalised, so only
its numbers, dates and Latin-script words are checked. Word numbers above SMALL_COUNT, unusual date formats and
names written in lower case are not read: the rules catch what a model invents most (a name, a sum, a date),
not every claim.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import date, timedelta
from difflib import SequenceMatcher
from functools import cached_property
from zoneinfo import ZoneInfo

from anyascii import anyascii

from memory_pipeline.domain import calendar_names, language, lexicon
from memory_pipeline.domain.conversations import Conversation
from memory_pipeline.domain.folding import fold
from memory_pipeline.domain.value_support import MIN_CONSONANTS, skeleton, supported
from memory_pipeline.domain.relative_time import resolve
from memory_pipeline.domain.summaries import join_sentences, split_sentences

REASONS = ("summary_date_not_in_chat", "summary_number_not_in_chat", "summary_name_not_in_chat")
SMALL_COUNT = 12
_REASON = {"date": REASONS[0], "number": REASONS[1], "name": REASONS[2]}


# Counts 1..12 as words, per language (Unicode CLDR spell-out rules give the same words).
_COUNT_WORDS = {
    "en": "one two three four five six seven eight nine ten eleven twelve",
    "fr": "un deux trois quatre cinq six sept huit neuf dix onze douze",
    "de": "eins zwei drei vier fünf sechs sieben acht neun zehn elf zwölf",
    "es": "uno dos tres cuatro cinco seis siete ocho nueve diez once doce",
    "it": "uno due tre quattro cinque sei sette otto nove dieci undici dodici",
    "pt": "um dois três quatro cinco seis sete oito nove dez onze doze",
    "nl": "een twee drie vier vijf zes zeven acht negen tien elf twaalf",
    "ru": "один два три четыре пять шесть семь восемь девять десять одиннадцать двенадцать",
    "zh": "一 二 三 四 五 六 七 八 九 十 十一 十二",
}
_WORDS_OF_COUNT = {n: [words.split()[n - 1] for words in _COUNT_WORDS.values()] for n in range(1, SMALL_COUNT + 1)}
_WORDS_OF_COUNT[1] += ["a", "an", "une", "ein", "eine", "una", "uma"]
_WORDS_OF_COUNT[2] += ["两", "deux", "pair", "couple", "both"]

# Month names (English, French, Spanish, Italian, Portuguese, German, Dutch) -> month number; CLDR's wide names.
_MONTH_NAMES = [
    "january february march april may june july august september october november december",
    "janvier février mars avril mai juin juillet août septembre octobre novembre décembre",
    "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre",
    "gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre novembre dicembre",
    "janeiro fevereiro março abril maio junho julho agosto setembro outubro novembro dezembro",
    "januar februar märz april mai juni juli august september oktober november dezember",
    "januari februari maart april mei juni juli augustus september oktober november december",
]
_MONTHS = {fold(name): i for names in _MONTH_NAMES for i, name in enumerate(names.split(), 1)}
_MONTHS.update({name[:3]: i for name, i in list(_MONTHS.items()) if len(name) > 3 and name[:3] not in _MONTHS})
_MONTH_WORDS = sorted({*_MONTHS, *" ".join(_MONTH_NAMES).split()}, key=len, reverse=True)
_MONTH = "(?P<mon>" + "|".join(map(re.escape, _MONTH_WORDS)) + r")\.?"
_WEEKDAYS = {d: i for i, d in enumerate("monday tuesday wednesday thursday friday saturday sunday".split())}

_D = r"(?P<d>\d{1,2})(?:st|nd|rd|th|er|º|\.)?"
_Y = r"(?P<y>\d{4})"
# Each date form, longest first; a match's span is blanked so its digits are not read again as numbers.
_DATE_FORMS = [re.compile(p, re.IGNORECASE) for p in (
    rf"(?<!\d){_Y}[-/.](?P<m>\d{{1,2}})[-/.](?P<d>\d{{1,2}})(?!\d)",
    r"(?<!\d)(?P<a>\d{1,2})[./](?P<b>\d{1,2})[./](?P<y>\d{4}|\d{2})(?!\d)",
    r"(?:(?P<y>\d{4})\s*年\s*)?(?P<m>\d{1,2})\s*月\s*(?P<d>\d{1,2})\s*[日号]",
    r"(?P<y>\d{4})\s*年\s*(?P<m>\d{1,2})\s*月",
    rf"(?<![\w]){_D}\s+(?:of\s+|de\s+)?{_MONTH}(?:,?\s+(?:de\s+)?{_Y})?(?!\w)",
    rf"(?<![\w]){_MONTH}\s+{_D}(?:,?\s+{_Y})?(?!\w)",
    rf"(?<![\w]){_MONTH}\s+(?:de\s+)?{_Y}(?!\w)",
    rf"(?<![\w]){_Y}-(?P<m>\d{{2}})(?![\d-])",
)]
# A bare month name or weekday: read in the summary only in English, where both are capitalised (a lower-case
# "may" or "march" is a verb).
_BARE_MONTH = re.compile(r"(?<!\w)(?-i:January|February|March|April|June|July|August|September|October|November|"
                         r"December)(?!\w)")
_BARE_WEEKDAY = re.compile(r"(?<!\w)(?-i:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)s?(?!\w)")
_TIME = re.compile(r"(?<!\d)(?P<h>\d{1,2})(?::(?P<m>\d{2})|\s*(?P<ap>a\.?m\.?|p\.?m\.?|uhr|h)(?!\w)|点)",
                   re.IGNORECASE)
_NUMBER = re.compile(r"(?<![^\W\d_](?<![^\x00-\u2fff]))\d+(?:[.,\u00a0\u202f' ]\d{3})*(?:[.,]\d+)?")
# A number's decimal part ("1,500.00" -> "1,500"; never a thousands group: "1,600" stays whole).
_DECIMALS = re.compile(r"[.,](?:\d{1,2}|\d{4,})$")
# A summary's "1,500.00" says the chat's "$1,500"; its "1500.99" does not (it invents the cents).
_ZERO_DECIMALS = re.compile(r"[.,]0{1,2}$")
_WORDS = re.compile(r"[^\W\d_]+")
_CAPITALISED = re.compile(r"(?<![\w'’-])[^\W\d_][\w'’-]*")
_CASELESS = re.compile(r"[^\W\d_](?<=[^\x00-\u024f\u0370-\u052f])")  # a letter of a script without case
# An elided article or pronoun joined to the word ("L'utilisateur", "D'Artagnan" keeps its name part).
_ELIDED = re.compile(r"^(?:[LlDdJjMmNnSsTtCc]|[Qq]u)['’](?=\w)")
_STOPWORDS = lexicon.words("stopwords")
_SYLLABIC = re.compile(r"[\u3400-\u9fff\uac00-\ud7af]+")  # Han, Hangul: one syllable a character
_ABJAD = re.compile(r"[\u0590-\u05ff\u0600-\u06ff\u0750-\u077f]+")  # Hebrew, Arabic (Persian, Urdu)
_RUN = 4  # syllables of a name written in Han or Hangul, at most (a given and a family name)
# A single syllable or two consonants match too many words ("Zhang" in 两张 "two tickets", "Sara" in سعر "price"):
# a name is held by a run of two syllables or more, or by three consonants or more.
_MIN_SYLLABLES = 2
# Capitalised words a summary writes of the chat itself (the user, the assistant, in the languages with case);
# a word starting like one of them is one of them ("Пользователя").
PLAIN_WORDS = frozenset(
    "i ok okay ai user users assistant assistants bot chatbot agent utilisateur utilisatrice usuario usuaria "
    "utente usuario usuaria usuário nutzer nutzerin benutzer gebruiker uzytkownik kullanıcı kullanici "
    "asistente assistente assistent asystent пользовател ассистент користувач асистент".split())


@dataclass(frozen=True)
class Unheld:
    """Something the summary names that the conversation does not hold: `kind` date | number | name, `said` the
    summary's words for it (summary text: never log it, never store it)."""

    kind: str
    said: str

    @property
    def reason(self) -> str:
        """The rejection reason of this kind (`REASONS`)."""
        return _REASON[self.kind]


def _digits(text: str) -> str:
    """`text`'s digits in ASCII, any script's digits (Arabic-Indic, Devanagari ...), separators dropped."""
    return "".join(str(unicodedata.digit(c)) for c in text if c.isdigit()).lstrip("0") or "0"


Reading = tuple[int | None, int, int | None]  # (year or None, month, day or None)


def _dates_written(text: str) -> tuple[list[list[Reading]], str]:
    """The dates `text` writes, each as its readings (a numeric D/M/Y has two: the 5th of March, May the 3rd),
    and `text` with their spans blanked."""
    found: list[list[Reading]] = []

    def blank(match: re.Match[str]) -> str:
        g = {k: v for k, v in match.groupdict().items() if v}
        year = int(_digits(g["y"])) if "y" in g else None
        if year is not None and year < 100:
            year += 2000
        if "a" in g:
            a, b = int(_digits(g["a"])), int(_digits(g["b"]))
            found.append([(year, m, d) for m, d in ((b, a), (a, b)) if 1 <= m <= 12])
        else:
            month = _MONTHS[fold(g["mon"]).rstrip(".")] if "mon" in g else int(_digits(g["m"]))
            found.append([(year, month, int(_digits(g["d"])) if "d" in g else None)])
        return " " * len(match.group(0))

    for form in _DATE_FORMS:
        text = form.sub(blank, text)
    return found, text


class _Held:
    """What a conversation holds (module docstring), read once."""

    def __init__(self, conversation: Conversation, timezone: str):
        self._zone = ZoneInfo(timezone)
        self._turns = conversation.turns
        self.text = "\n".join(" ".join(t for t in (turn.sender, turn.text, turn.machine_text, turn.tool_evidence) if t)
                              for turn in self._turns)
        self.folded = fold(self.text)
        local = [turn.at.astimezone(self._zone) for turn in self._turns if turn.at is not None]
        self.days: set[date] = {conversation.partition_date} | {at.date() for at in local}
        self.hours: set[int] = {at.hour for at in local} | {self._hour(m) for m in _TIME.finditer(self.text)}
        self.months: set[tuple[int | None, int]] = set()
        self.written: list[Reading] = []
        self.numbers = {_digits(m.group(0)) for m in _NUMBER.finditer(self.text)}
        self.numbers |= {_digits(_DECIMALS.sub("", m.group(0))) for m in _NUMBER.finditer(self.text)}
        self._add_day_parts()
        self._extended = False
        self._index: dict[str, set[str]] | None = None
        self._syllables: set[str] | None = None  # runs of Chinese/Korean syllables transliterated ("lilei")
        self._skeletons: set[str] = set()  # Arabic/Hebrew/Persian words transliterated, as consonants ("krm")
        self._counts_spelled: dict[int, bool] = {}  # small count -> its word is in the chat (searched once)

    @cached_property
    def codes(self) -> set[str]:
        """The chat's language (`language.identify`), whose weekday and month names it is read for; empty when it
        cannot be told (then every language's are)."""
        return {code for code in (language.identify(self.text[:2000]),) if code}

    def _add_day_parts(self) -> None:
        self.months |= {(d.year, d.month) for d in self.days}
        self.numbers |= {str(v) for d in self.days for v in (d.year, d.month, d.day)}
        self.numbers |= {str(h) for h in self.hours} | {str(h % 12 or 12) for h in self.hours}

    def extend(self) -> bool:
        """Read the dates the chat writes and those its relative expressions name (`resolve`, per message), once,
        on the first date or number the messages' own days and the chat's numbers do not hold (resolving every
        message is the costly part). Returns False when already done (nothing more to hold)."""
        if self._extended:
            return False
        self._extended = True
        for turn in self._turns:
            if turn.at is None:
                continue
            for written in resolve(turn.text, turn.at.astimezone(self._zone).date())[1]:
                iso = re.findall(r"\d{4}-\d{2}(?:-\d{2})?", written)
                if "week" in written or "semaine" in written or "Woche" in written or "周" in written:
                    monday = date.fromisoformat(iso[0])
                    self.days.update(monday + timedelta(days=n) for n in range(7))
                elif iso and len(iso[0]) == 10:
                    self.days.add(date.fromisoformat(iso[0]))
                else:
                    self.months.update((y, m) for readings in _dates_written(written)[0] for y, m, _ in readings)
        self.written = [r for readings in _dates_written(calendar_names.with_arabic_numerals(self.text))[0]
                        for r in readings]
        self.months |= {(y, m) for y, m, _ in self.written}
        self.months |= {(None, month) for month in calendar_names.months_named(self.folded, self.codes)}
        self._add_day_parts()
        return True

    @staticmethod
    def _hour(match: re.Match[str]) -> int:
        hour = int(_digits(match.group("h")))
        suffix = (match.group("ap") or "").casefold().replace(".", "")
        return hour + 12 if suffix == "pm" and hour < 12 else hour

    def date(self, year: int | None, month: int, day: int | None) -> bool:
        return self._date(year, month, day) or (self.extend() and self._date(year, month, day))

    def _date(self, year: int | None, month: int, day: int | None) -> bool:
        if day is None:
            return (year, month) in self.months or (year is None and any(m == month for _, m in self.months)) or (
                (None, month) in self.months)
        if any(d.month == month and d.day == day and year in (None, d.year) for d in self.days):
            return True
        return any(m == month and d == day and (year is None or y in (None, year)) for y, m, d in self.written)

    def weekday(self, name: str) -> bool:
        return self._weekday(name) or (self.extend() and self._weekday(name))

    def _weekday(self, name: str) -> bool:
        weekday = _WEEKDAYS[name.casefold().rstrip("s")]
        return any(d.weekday() == weekday for d in self.days) or calendar_names.weekday_named(
            self.folded, weekday, self.codes)

    def number(self, said: str) -> bool:
        return self._number(said) or (self.extend() and self._number(said))

    def _number(self, said: str) -> bool:
        whole = _digits(said)
        if whole in self.numbers or _digits(_ZERO_DECIMALS.sub("", said)) in self.numbers:
            return True
        value = int(whole) if len(whole) < 4 else 0
        if not 1 <= value <= SMALL_COUNT:
            return False
        if value not in self._counts_spelled:  # a looping summary repeats "1, 2, 3": each chat search once
            self._counts_spelled[value] = any(
                re.search(("" if w[0] >= "\u3400" else r"(?<!\w)") + re.escape(fold(w)) + r"(?!\w)", self.folded)
                for w in _WORDS_OF_COUNT[value])
        return self._counts_spelled[value]

    def hour(self, match: re.Match[str]) -> bool:
        return self._hour_held(match) or (self.extend() and self._hour_held(match))

    def _hour_held(self, match: re.Match[str]) -> bool:
        hour = self._hour(match)
        return hour in self.hours or hour % 12 in {h % 12 for h in self.hours} or str(hour) in self.numbers

    def name(self, word: str) -> bool:
        word = re.sub(r"['’]s$", "", word)
        # A word of the chat starting so, a cased letter before it ending no word ("在Berlin": Han before it).
        if re.search(r"(?<![a-z0-9\u00c0-\u024f\u0370-\u052f])" + re.escape(fold(word)), self.folded):
            return True
        if self._index is None:  # the chat's distinct words by their first two letters, read once
            self._index = {}
            for w in set(_WORDS.findall(self.folded)):
                self._index.setdefault(w[:2], set()).add(w)
            # Words of other scripts transliterated, whole: split at spaces, not at the vowel signs of Devanagari.
            for token in {t for t in self.text.split() if not t.isascii()}:
                for part in re.findall(r"[a-z]+", fold(anyascii(token))):
                    key = _spelled(part)
                    self._index.setdefault("~" + key[:1], set()).add(key)
        # Inflected forms ("Казани" for "Казань"): value_support.supported over the words that could start alike.
        near = self._index.get(fold(word)[:2], set())
        if near and supported(word, " ".join(sorted(near))):
            return True
        if not word.isascii():
            return False
        if self._syllables is None:
            self._read_other_scripts()
        consonants = skeleton(word)
        if fold(word) in self._syllables or (len(consonants) >= MIN_CONSONANTS and consonants in self._skeletons):
            return True
        key = _spelled(word)
        if supported(key, " ".join(sorted(self._index.get("~" + key[:1], set())))):
            return True
        return any(abs(len(w) - len(key)) <= 3 and SequenceMatcher(None, key, w).ratio() >= 0.8
                   for w in self._index.get("~" + key[:1], ()))


    def paired_names(self, summary: str) -> set[str]:
        """The words of `summary`'s two-word Latin names ("Li Lei") that together are a run of the chat's Han or
        Hangul syllables (李雷): a one-syllable name alone is not held (`_MIN_SYLLABLES`), a given and family name
        together are."""
        if self._syllables is None:
            self._read_other_scripts()
        pairs = re.findall(r"(?<![\w-])([A-Z][a-z]+)[ -]([A-Z][a-z]+)(?![\w-])", summary)
        return {w for a, b in pairs if fold(a + b) in self._syllables for w in (a, b)}

    def _read_other_scripts(self) -> None:
        """Names as the chat writes them in Han or Hangul (one capitalised syllable a character in anyascii:
        上海 -> "ShangHai", so "Shanghai" is held: any run of _MIN_SYLLABLES to _RUN syllables) and in the abjads,
        which write few vowels (كريم -> "krym": "Kareem" is held by its consonants, `value_support.skeleton`, at least
        MIN_CONSONANTS of them)."""
        self._syllables = set()
        for token in _SYLLABIC.findall(self.text):
            syllables = [s.casefold() for s in re.findall(r"[A-Z][a-z]*", anyascii(token))]
            for start in range(len(syllables)):
                for end in range(start + _MIN_SYLLABLES, min(start + _RUN, len(syllables)) + 1):
                    self._syllables.add("".join(syllables[start:end]))
        self._skeletons = {k for k in map(skeleton, _ABJAD.findall(self.text)) if len(k) >= MIN_CONSONANTS}


def _spelled(word: str) -> str:
    """A Latin word spelled one way: what transliterations of one name differ in ("Alexey", "Aleksei")."""
    word = fold(anyascii(word))
    for a, b in (("x", "ks"), ("ph", "f"), ("kh", "h"), ("ck", "k"), ("w", "v"), ("y", "i"), ("j", "i"),
                 ("c", "k"), ("q", "k")):
        word = word.replace(a, b)
    return re.sub(r"(.)\1+", r"\1", word)


def _names(summary: str) -> list[str]:
    """The capitalised words of `summary` that may name someone or something (module docstring)."""
    names = []
    for sentence in split_sentences(summary):
        # Words of cased letters only: "Munich" in "李雷在Munich工作" is a word of its own, and not the first.
        words = []
        for match in _CAPITALISED.finditer(sentence):
            at = match.start()
            for part in _CASELESS.split(match.group(0)):
                if part and part[0].isalpha():
                    first = not any(c.isalpha() for c in sentence[:at])
                    words.append((_ELIDED.sub("", part), first))
                at += len(part) + 1
        for index, (word, first) in enumerate(words):
            if not word[0].isupper() or fold(word) in _STOPWORDS or any(
                    fold(word).startswith(p) if len(p) > 4 else fold(word) == p for p in PLAIN_WORDS):
                continue
            if first and not (len(words) > 1 and words[1][0][0].isupper()):
                continue  # the sentence's first word is capitalised anyway
            names.append(word)
    return names


def unheld(summary: str, conversation: Conversation, timezone: str = "UTC") -> list[Unheld]:
    """What `summary` names that `conversation` does not hold, in the order of the rules (dates, numbers,
    names), each once; empty when the summary is grounded. `timezone`: the partitions' IANA timezone, in which
    the messages' dates are read."""
    return _unheld(summary, _Held(conversation, timezone), language.identify(summary[:2000]) == "de")


def grounded(summary: str, conversation: Conversation, timezone: str = "UTC") -> tuple[str, int]:
    """`summary` without the sentences that name what `conversation` does not hold (`unheld`, read sentence by
    sentence, the summary's language read once), and how many sentences were dropped. A model's summary keeps
    what it got right: one invented weekday costs its sentence, not the whole summary."""
    held = _Held(conversation, timezone)
    german = language.identify(summary[:2000]) == "de"
    sentences = split_sentences(summary)
    kept = [s for s in sentences if not _unheld(s, held, german)]
    return (summary if len(kept) == len(sentences) else join_sentences(kept)), len(sentences) - len(kept)


def _unheld(summary: str, held: "_Held", german: bool) -> list[Unheld]:
    found: list[Unheld] = []
    dates, rest = _dates_written(summary)
    found += [Unheld("date", "{}-{}-{}".format(*readings[0])) for readings in dates
              if readings and not any(held.date(*r) for r in readings)]
    found += [Unheld("date", m.group(0)) for m in _BARE_MONTH.finditer(rest)
              if not held.date(None, _MONTHS[m.group(0).casefold()], None)]
    found += [Unheld("date", m.group(0)) for m in _BARE_WEEKDAY.finditer(rest) if not held.weekday(m.group(0))]
    for match in _TIME.finditer(rest):
        if not held.hour(match):
            found.append(Unheld("number", match.group(0)))
    rest = _TIME.sub(lambda m: " " * len(m.group(0)), rest)
    found += [Unheld("number", m.group(0)) for m in _NUMBER.finditer(rest) if not held.number(m.group(0))]
    if not german:
        paired = held.paired_names(rest)
        found += [Unheld("name", w) for w in _names(_BARE_WEEKDAY.sub(" ", _BARE_MONTH.sub(" ", rest)))
                  if w not in paired and not held.name(w)]
    return list(dict.fromkeys(found))


def rejection(summary: str, conversation: Conversation, timezone: str = "UTC") -> str | None:
    """The rejection reason of `summary` (`REASONS`: its first unheld item's), or None when it is grounded."""
    found = unheld(summary, conversation, timezone)
    return found[0].reason if found else None
