"""Weekday and month names as a chat writes them, in every language `domain.language` identifies.

The names are Unicode CLDR's, read through Babel (the wide format and stand-alone names, and the abbreviated Chinese
ones of two characters: "周日"), so a summary's "Saturday" is held by a chat's
"w sobotę", "السبت" or "土曜日" and its "October" by "октября". Matching, on case-folded text without accents:
- a name in a script with spaces between words starts a word; a name of five letters or more may end
  differently (inflection: "sobota" -> "sobotę", "marzec" -> "marca" is CLDR's own genitive form); a name of three letters or
  fewer is not read ("may", "mai": words too);
- Thai and Hebrew weekdays are read with and without their leading "day" (วัน, יום);
- a name in another script (Chinese, Japanese, Thai, Arabic, Hebrew ...) is found anywhere, as those scripts
  join words or prefixes to it ("ביום ראשון", "وفي السبت").

`with_arabic_numerals` writes the Chinese numerals of a date ("九月七日", "十二月二十五号") in digits, so the date
rules read it as they read "9月7日".
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from babel import Locale, UnknownLocaleError

from memory_pipeline.domain.language import IDENTIFIABLE

_SPACED = re.compile(r"^[\u0000-\u052f\u1e00-\u1fff]+$")  # Latin, Greek, Cyrillic (and their accents)
_HAN = re.compile(r"^[\u3400-\u9fff]+$")
# A name this short in a spaced script is a common word too ("may", "mai", "mei"): not read.
_SHORTEST = 3
# CLDR's wide weekday names that open with the word "day", which a chat often leaves out ("เสาร์นี้", "בשבת").
_DAY_WORD = {"th": "วัน", "he": "יום "}
_STEM_FROM = 5  # letters from which a name's last letter may change (sobota/sobotę, niedziela/niedzielę)


def fold(text: str) -> str:
    """`text` case folded, accents dropped (the form the names are matched in)."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _pattern(names: set[str]) -> re.Pattern[str]:
    parts = []
    for name in sorted(names, key=len, reverse=True):
        if _SPACED.match(name.replace(" ", "")):
            stem = name[:-1] if len(name) >= _STEM_FROM and " " not in name else name
            parts.append(rf"(?<!\w){re.escape(stem)}" + (r"\w{0,3}" if stem != name else "") + r"(?!\w)")
        else:
            parts.append(re.escape(name))
    return re.compile("|".join(parts))


@cache
def _names() -> tuple[list[re.Pattern[str]], list[re.Pattern[str]]]:
    """One pattern per weekday (Monday first) and per month (January first), over all IDENTIFIABLE languages."""
    weekdays: list[set[str]] = [set() for _ in range(7)]
    months: list[set[str]] = [set() for _ in range(12)]
    for code in IDENTIFIABLE:
        try:
            locale = Locale.parse(code)
        except (UnknownLocaleError, ValueError):
            continue
        for context in ("format", "stand-alone"):
            for width in ("wide", "abbreviated"):
                for number, name in locale.days[context][width].items():
                    _add(weekdays[number], name, width)
                    if width == "wide" and name.startswith(_DAY_WORD.get(code, "\0")):
                        _add(weekdays[number], name.removeprefix(_DAY_WORD[code]), width)
                for number, name in locale.months[context][width].items():
                    _add(months[number - 1], name, width)
    return [_pattern(n) for n in weekdays], [_pattern(n) for n in months]


def _add(names: set[str], name: str, width: str) -> None:
    name = fold(name).rstrip(".")
    if any(c.isdigit() for c in name):
        return  # "3月", "3월": numeric months are read by the date rules
    if _SPACED.match(name.replace(" ", "")):
        if width == "wide" and len(name) > _SHORTEST:
            names.add(name)
    elif width == "wide" or (len(name) >= 2 and _HAN.match(name)):
        names.add(name)


def weekday_named(folded: str, weekday: int) -> bool:
    """True when the folded text `folded` names weekday `weekday` (Monday 0) in some language."""
    return _names()[0][weekday].search(folded) is not None


def months_named(folded: str) -> set[int]:
    """The months (1-12) the folded text `folded` names in some language."""
    return {number for number, pattern in enumerate(_names()[1], 1) if pattern.search(folded)}


_HAN_DIGITS = {c: i for i, c in enumerate("〇一二三四五六七八九")} | {"两": 2}
_HAN_DATE = re.compile(r"([〇一二三四五六七八九十两]{1,3})(?=\s*[月日号])")


def _han_number(numeral: str) -> str:
    if "十" not in numeral:
        return "".join(str(_HAN_DIGITS[c]) for c in numeral)
    tens, _, ones = numeral.partition("十")
    return str((_HAN_DIGITS.get(tens, 1) if tens else 1) * 10 + (_HAN_DIGITS.get(ones, 0) if ones else 0))


def with_arabic_numerals(text: str) -> str:
    """`text` with the Chinese numerals before 月, 日 or 号 written in digits ("九月七日" -> "9月7日")."""
    return _HAN_DATE.sub(lambda m: _han_number(m.group(1)), text)
