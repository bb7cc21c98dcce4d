"""Weekday and month names as a chat writes them, read in the chat's own language and English.

The names are Unicode CLDR's, read through Babel for the language `domain.language` identifies (the wide format and
stand-alone names, and the abbreviated Chinese ones of two characters: "周日"), so a summary's "Saturday" is held
by a Polish chat's "w sobotę", an Arabic one's "السبت" or a Japanese one's "土曜日", and its "October" by
"октября". Only the chat's language is read (and English): another language's word for a day is a common word
elsewhere (Bulgarian "неделя", Sunday, is Russian for "week"). Matching, on case-folded text without accents:
- a name in a script with spaces between words starts a word; a name of five letters or more may end
  differently (inflection: "sobota" -> "sobotę", "marzec" -> "marca" is CLDR's own genitive form); a name of three
  letters or fewer is not read ("may", "mai": words too);
- Thai and Hebrew weekdays are read with and without their leading "day" (วัน, יום);
- a Hebrew or Arabic name is a word, with a joined prefix ("ביום ראשון", "وفي السبت"; not "שנייה", "a second",
  for "שני"); a name in another script (Chinese, Japanese, Thai ...) is found anywhere, as those scripts join
  words to it; a Chinese one not after 每 or a numeral, nor before 次 ("每周一次" is "once a week", "十一月" is
  November);
- English names are read whole or plural (no "Sundae" for Sunday, "Thursdays" for Thursday), others with their
  inflections as above.
Homographs within one language stay (Indonesian "minggu" is Sunday and week, Turkish "pazar" Sunday and market,
Vietnamese "thứ hai" Monday and second): such a chat holds that weekday.

`with_arabic_numerals` writes the Chinese numerals of a date ("九月七日", "十二月二十五号") in digits, so the date
rules read it as they read "9月7日".
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache

from babel import Locale, UnknownLocaleError

from memory_pipeline.domain.folding import fold


_SPACED = re.compile(r"^[\u0000-\u052f\u1e00-\u1fff]+$")  # Latin, Greek, Cyrillic (and their accents)
_HAN = re.compile(r"^[\u3400-\u9fff]+$")
_HAN_BEFORE = r"(?<![每〇一二三四五六七八九十两])"
_ABJAD = re.compile(r"^[\u0590-\u06ff ]+$")  # Hebrew, Arabic: a name read as a word, with a joined prefix
_UNINFLECTED = frozenset({"en"})  # languages whose names are read whole ("Sundae" is no Sunday)
# A name this short in a spaced script is a common word too ("may", "mai", "mei"): not read.
_SHORTEST = 3
# CLDR's wide weekday names that open with the word "day", which a chat often leaves out ("เสาร์นี้", "בשבת").
_DAY_WORD = {"th": "วัน", "he": "יום "}
_STEM_FROM = 5  # letters from which a name's last letter may change (sobota/sobotę, niedziela/niedzielę)


def _pattern(names: set[str], inflects: bool) -> re.Pattern[str]:
    parts = []
    for name in sorted(names, key=len, reverse=True):
        if _SPACED.match(name.replace(" ", "")):
            stem = name[:-1] if inflects and len(name) >= _STEM_FROM and " " not in name else name
            ending = r"\w{0,3}" if stem != name else "" if inflects else "s?"  # English plural: "on Thursdays"
            parts.append(rf"(?<!\w){re.escape(stem)}{ending}(?!\w)")
        elif _HAN.match(name):
            parts.append(_HAN_BEFORE + re.escape(name) + r"(?!次)")  # not "每周一次", "星期一次" (once a week),
            # not "十一月" for 一月
        elif _ABJAD.match(name):
            parts.append(r"(?<!\w)(?:[בהולמש]|ال|و|ب|ل|في)?" + re.escape(name) + r"(?!\w)")  # "ביום שני", not "שנייה"
        else:
            parts.append(re.escape(name))
    return re.compile("|".join(parts) or r"(?!)")


@cache
def _names(code: str) -> tuple[list[re.Pattern[str]], list[re.Pattern[str]]]:
    """One pattern per weekday (Monday first) and per month (January first) of language `code` (a Babel locale
    name); empty patterns for a code Babel does not know."""
    weekdays: list[set[str]] = [set() for _ in range(7)]
    months: list[set[str]] = [set() for _ in range(12)]
    try:
        locale = Locale.parse(code)
    except (UnknownLocaleError, ValueError):
        locale = None
    if locale is not None:
        for context in ("format", "stand-alone"):
            for width in ("wide", "abbreviated"):
                for number, name in locale.days[context][width].items():
                    _add(weekdays[number], name, width)
                    if width == "wide" and name.startswith(_DAY_WORD.get(code, "\0")):
                        _add(weekdays[number], name.removeprefix(_DAY_WORD[code]), width)
                for number, name in locale.months[context][width].items():
                    _add(months[number - 1], name, width)
    inflects = code not in _UNINFLECTED
    return [_pattern(n, inflects) for n in weekdays], [_pattern(n, inflects) for n in months]


def _add(names: set[str], name: str, width: str) -> None:
    name = fold(name).rstrip(".")
    if any(c.isdigit() for c in name):
        return  # "3月", "3월": numeric months are read by the date rules
    if _SPACED.match(name.replace(" ", "")):
        if width == "wide" and len(name) > _SHORTEST:
            names.add(name)
    elif width == "wide" or (len(name) >= 2 and _HAN.match(name)):
        names.add(name)


def _read(codes: Iterable[str] | None) -> list[str]:
    return sorted({*(codes or ()), "en"})


def weekday_named(folded: str, weekday: int, codes: Iterable[str] | None = None) -> bool:
    """True when the folded text `folded` names weekday `weekday` (Monday 0) in one of the languages `codes`
    (and English; English only when None: a chat whose language cannot be told). Read in the chat's own language: another language's
    word for a day is a common word elsewhere (Bulgarian "неделя" Sunday is Russian "week")."""
    return any(_names(code)[0][weekday].search(folded) for code in _read(codes))


# A name this long or longer starts a word that is that day or month, whatever ending follows ("heinäkuu" in
# "Heinäkuus"); a shorter one starts place names too ("mars" in "Marseille", "julio" is five: "Juliaca" is not
# "julio" whole).
_WHOLE_FROM = 5


@cache
def _wide_names(code: str) -> frozenset[str]:
    """The wide weekday and month names of language `code` (folded), of `_WHOLE_FROM` letters or more."""
    try:
        locale = Locale.parse(code)
    except (UnknownLocaleError, ValueError):
        return frozenset()
    names = [*locale.days["format"]["wide"].values(), *locale.days["stand-alone"]["wide"].values(),
             *locale.months["format"]["wide"].values(), *locale.months["stand-alone"]["wide"].values()]
    return frozenset(f for f in map(fold, names) if len(f) >= _WHOLE_FROM and " " not in f)


def starts_with_calendar_name(value: str, codes: Iterable[str] | None = None) -> bool:
    """True when the first word of `value` starts with a whole weekday or month name of `_WHOLE_FROM` letters or
    more in one of the languages `codes` (and English): the model's "Heinäkuus" for a Finnish chat's
    "heinäkuulle" (to July, holdout set 10) is no place; "Juliaca", "Sabadell" and "Junín" are."""
    words = fold(value).split()
    return bool(words) and any(
        words[0] in (name, name + "s") if code in _UNINFLECTED else words[0].startswith(name)
        for code in _read(codes) for name in _wide_names(code))  # English whole: "Aprilia" is no April


@cache
def _capitalised_names(code: str) -> frozenset[str]:
    """The wide month names (folded) that language `code` writes with a capital, as CLDR does (English "August",
    German "Juli"; not French "juillet"): a capital tells no place's name from them. Not weekdays: towns are
    named so ("Çarşamba", "Pazar" in Turkey; a break-it review)."""
    try:
        locale = Locale.parse(code)
    except (UnknownLocaleError, ValueError):
        return frozenset()
    return frozenset(fold(n) for n in locale.months["format"]["wide"].values()
                     if n[:1].isupper() and len(n) >= _SHORTEST)


def is_capitalised_name(value: str, codes: Iterable[str] | None = None) -> bool:
    """True when `value` is, whole, a month name that one of the languages `codes` (or English) always writes
    capitalised ("August", "Juli"): "I'm moving in August" names a month, though "August" is written as a place
    is (a break-it review). Whole only: "Augusta" and "Jülich" are places. A town named as a month ("March",
    Cambridgeshire) is lost to it."""
    said = fold(" ".join(value.split()))
    return any(said in _capitalised_names(code) for code in _read(codes))


def months_named(folded: str, codes: Iterable[str] | None = None) -> set[int]:
    """The months (1-12) the folded text `folded` names in one of the languages `codes` (as `weekday_named`)."""
    return {number for code in _read(codes) for number, pattern in enumerate(_names(code)[1], 1)
            if pattern.search(folded)}


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
