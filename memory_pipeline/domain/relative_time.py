"""Relative time in a fact ("yesterday", "next Friday", "tomorrow at 7pm") made absolute against the local date of
the message that says it, so a fact reads right on any later day.

`resolve(text, said_local)` rewrites each relative expression it knows into an ISO date ("on 2026-02-20",
"on 2026-03-05 at 19:00", "in the week of 2026-02-09") and returns the new text with the dates it named. The
expressions are a fixed table per language (English, French, German, Spanish, Chinese), listed below; anything
else is left as said. Rules (the usual reading of each expression, e.g. Unicode CLDR's relative-date fields):
- yesterday / today / tomorrow / the day after tomorrow / this morning / tonight: that local day;
- N days ago / in N days (il y a / dans N jours, vor / in N Tagen, hace / dentro de N días, N天前 / N天后): that
  day; N weeks ago / in N weeks: the week it falls in;
- last week / next week: the Monday of that ISO week ("in the week of YYYY-MM-DD"); last / next / this month:
  that calendar month, by its name ("in February 2026", "en février 2026", "im Februar 2026", "en febrero de
  2026", "2026年2月": "in 2026-02" read as a code);
- next <weekday>: the first such weekday after the current week's one, at least a day later; this <weekday>:
  the next such day from today (today excluded); last <weekday>: the latest such day before today. A bare or
  "on" weekday is left as said: "we close on Monday" is a habit, and a date would make it expire;
- a time of day after a resolved day ("at 7pm", "um 19 Uhr", "à 19h", "a las 7") is kept, written as HH:MM; an
  hour under 12 after an afternoon or evening word ("tomorrow evening at 8", "morgen Abend um 8") is after noon.

`resolve_fact(fact, quote, said_at, timezone)` applies it to an extracted fact: the dates come from the fact's
text, or, when the fact dropped the expression its one-clause quote holds ("I bought a suitcase yesterday." ->
"User bought a suitcase."), from the quote, appended to the fact ("User bought a suitcase on 2026-02-20.").

`validity(fact, quote, said_at, timezone)` gives the time a fact holds: a fact dated by its quote's relative time
in the past ("bought a suitcase yesterday") holds from that day (local midnight); one dated in the future ("book a
table for tomorrow at 7pm") holds until the end of that day, after which it expires (reconciliation). Pure: no
clock is read.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from memory_pipeline.domain import language

_WEEKDAYS = {
    # English, French, German, Spanish: weekday number (Monday 0).
    "monday": 0, "tuesday": 1, "wednesday": 2, "thursday": 3, "friday": 4, "saturday": 5, "sunday": 6,
    "lundi": 0, "mardi": 1, "mercredi": 2, "jeudi": 3, "vendredi": 4, "samedi": 5, "dimanche": 6,
    "montag": 0, "dienstag": 1, "mittwoch": 2, "donnerstag": 3, "freitag": 4, "samstag": 5, "sonntag": 6,
    "lunes": 0, "martes": 1, "miércoles": 2, "miercoles": 2, "jueves": 3, "viernes": 4, "sábado": 5,
    "sabado": 5, "domingo": 6,
}
_ZH_WEEKDAYS = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6}
_WEEKDAY = "|".join(sorted(_WEEKDAYS, key=len, reverse=True))

# A time of day after a day: "at 7pm", "at 19:30", "à 19h", "um 19 Uhr", "a las 7", "晚上7点".
_CLOCK = (r"(?:\s*,?\s*(?:at|à|um|a las|a la)\s+(?P<h>\d{1,2})(?:[:h.](?P<m>\d{2}))?\s*"
          r"(?P<ap>am|pm|a\.m\.|p\.m\.|h|uhr)?)"
          r"|(?:(?P<zp>上午|下午|晚上|早上)?(?P<zh>\d{1,2})点(?:(?P<zm>\d{1,2})分|半)?)")


@dataclass(frozen=True)
class _Expression:
    pattern: re.Pattern[str]
    day: Callable[[re.Match[str], date], date]
    week: bool = False  # names a week: written "in the week of" its Monday
    month: bool = False  # names a month: written "in YYYY-MM"
    lang: str = "en"  # the language the date is written in (`_WORDS`)
    not_in: frozenset[str] = frozenset()  # languages in which its words mean something else: not read there


def _days(n: int) -> Callable[[re.Match[str], date], date]:
    return lambda _m, today: today + timedelta(days=n)


def _monday(weeks: int) -> Callable[[re.Match[str], date], date]:
    return lambda _m, today: today - timedelta(days=today.weekday()) + timedelta(weeks=weeks)


def _weekday_of(match: re.Match[str]) -> int:
    word = match.group("wd")
    return _ZH_WEEKDAYS[word] if word in _ZH_WEEKDAYS else _WEEKDAYS[word.casefold()]


_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
            "eight": 8, "nine": 9, "ten": 10, "un": 1, "une": 1, "deux": 2, "trois": 3, "ein": 1, "einem": 1,
            "einer": 1, "zwei": 2, "drei": 3, "uno": 1, "una": 1, "dos": 2, "tres": 3, "一": 1, "两": 2, "二": 2,
            "三": 3}
_COUNT = r"(?P<n>\d{1,3}|an?|one|two|three|four|five|six|seven|eight|nine|ten|une?|deux|trois|ein(?:em|er)?|zwei|drei|" \
         r"una?|uno|dos|tres|[一两二三])"


def _count(match: re.Match[str]) -> int:
    word = match.group("n").casefold()
    return int(word) if word.isdigit() else _NUMBERS[word]


def _days_counted(sign: int) -> Callable[[re.Match[str], date], date]:
    return lambda m, today: today + timedelta(days=sign * _count(m))


def _weeks_counted(sign: int) -> Callable[[re.Match[str], date], date]:
    return lambda m, today: today - timedelta(days=today.weekday()) + timedelta(weeks=sign * _count(m))


def _next_weekday(match: re.Match[str], today: date) -> date:
    """"next Friday": Friday of next week (ISO weeks, Monday first)."""
    return today - timedelta(days=today.weekday()) + timedelta(weeks=1, days=_weekday_of(match))


def _coming_weekday(match: re.Match[str], today: date) -> date:
    """"on Friday" / "this Friday": the first Friday after today."""
    return today + timedelta(days=(_weekday_of(match) - today.weekday() - 1) % 7 + 1)


def _last_weekday(match: re.Match[str], today: date) -> date:
    """"last Friday": the latest Friday before today."""
    return today - timedelta(days=(today.weekday() - _weekday_of(match) - 1) % 7 + 1)


def _month(months: int) -> Callable[[re.Match[str], date], date]:
    def first_day(_m: re.Match[str], today: date) -> date:
        index = today.year * 12 + today.month - 1 + months
        return date(index // 12, index % 12 + 1, 1)
    return first_day


def _e(regex: str, day: Callable[[re.Match[str], date], date], week: bool = False, lang: str = "en",
       month: bool = False, not_in: str = "") -> _Expression:
    bounded = "(?:" + regex + ")" if lang == "zh" else r"(?<![\w-])(?:" + regex + r")(?![\w-])"
    pattern = re.compile(bounded + "(?:" + _CLOCK + ")?", re.IGNORECASE)
    return _Expression(pattern, day, week=week, month=month, lang=lang, not_in=frozenset(not_in.split()))


# (day, week, time of day) as each language writes them, the ISO date in place of {d} and HH:MM of {t}.
_WORDS = {
    "en": ("on {d}", "in the week of {d}", " at {t}", "in {m}"),
    "fr": ("le {d}", "la semaine du {d}", " à {t}", "en {m}"),
    "de": ("am {d}", "in der Woche vom {d}", " um {t}", "im {m}"),
    "es": ("el {d}", "la semana del {d}", " a las {t}", "en {m}"),
    "zh": ("{d}", "{d}那一周", " {t}", "{m}"),
}
# A month as each language writes it ({n} its name, {y} the year; Unicode CLDR's month names, format "MMMM y").
_MONTHS = {
    "en": ("{n} {y}", "January February March April May June July August September October November December"),
    "fr": ("{n} {y}", "janvier février mars avril mai juin juillet août septembre octobre novembre décembre"),
    "de": ("{n} {y}", "Januar Februar März April Mai Juni Juli August September Oktober November Dezember"),
    "es": ("{n} de {y}", "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre"),
    "zh": ("{y}年{m}月", ""),
}


def _month_name(day: date, lang: str) -> str:
    pattern, names = _MONTHS[lang]
    name = names.split()[day.month - 1] if names else ""
    return pattern.format(n=name, y=day.year, m=day.month)


# Longest first inside each language, so "the day after tomorrow" is not read as "tomorrow".
_EXPRESSIONS: tuple[_Expression, ...] = (
    # English
    _e(r"the day before yesterday", _days(-2)),
    _e(r"the day after tomorrow", _days(2)),
    _e(r"yesterday(?: (?:morning|afternoon|evening|night))?|last night", _days(-1)),
    _e(r"tomorrow(?: (?:morning|afternoon|evening|night))?", _days(1)),
    _e(r"(?:a|one) week from (?:today|now)", _days(7)),
    _e(r"today|this (?:morning|afternoon|evening)|tonight", _days(0)),
    _e(r"last week", _monday(-1), week=True),
    _e(r"next week", _monday(1), week=True),
    _e(r"this week", _monday(0), week=True),
    _e(_COUNT + r" days? ago", _days_counted(-1)),
    _e(r"in " + _COUNT + r" days?", _days_counted(1)),
    _e(_COUNT + r" weeks? ago", _weeks_counted(-1), week=True),
    _e(r"in " + _COUNT + r" weeks?", _weeks_counted(1), week=True),
    _e(r"last month", _month(-1), month=True),
    _e(r"next month", _month(1), month=True),
    _e(r"this month", _month(0), month=True),
    _e(r"next (?P<wd>" + _WEEKDAY + r")", _next_weekday),
    _e(r"last (?P<wd>" + _WEEKDAY + r")", _last_weekday),
    _e(r"this (?:coming )?(?P<wd>" + _WEEKDAY + r")", _coming_weekday),
    # French
    _e(r"avant-hier", _days(-2), lang="fr"),
    _e(r"il y a " + _COUNT + r" jours?", _days_counted(-1), lang="fr"),
    _e(r"dans " + _COUNT + r" jours?", _days_counted(1), lang="fr"),
    _e(r"après-demain|apres-demain", _days(2), lang="fr"),
    # "hier" is "here" in Dutch, German and Afrikaans ("woon hier op kot" is no yesterday)
    _e(r"hier(?: (?:matin|soir|après-midi))?", _days(-1), lang="fr", not_in="nl de af"),
    _e(r"demain(?: (?:matin|soir|après-midi))?", _days(1), lang="fr"),
    _e(r"aujourd'hui|ce matin|ce soir|cet après-midi", _days(0), lang="fr"),
    _e(r"la semaine (?:dernière|derniere|passée|passee)", _monday(-1), week=True, lang="fr"),
    _e(r"la semaine prochaine", _monday(1), week=True, lang="fr"),
    _e(r"(?P<wd>lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche) prochain", _next_weekday, lang="fr"),
    _e(r"(?P<wd>lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche) dernier", _last_weekday, lang="fr"),
    # German
    _e(r"vorgestern", _days(-2), lang="de"),
    _e(r"vor " + _COUNT + r" tagen", _days_counted(-1), lang="de"),
    _e(r"in " + _COUNT + r" tagen", _days_counted(1), lang="de"),
    _e(r"übermorgen|uebermorgen", _days(2), lang="de"),
    _e(r"gestern(?: (?:früh|morgen|abend|nachmittag))?", _days(-1), lang="de"),
    _e(r"heute(?: (?:morgen|früh|abend|nachmittag))?", _days(0), lang="de"),
    _e(r"(?-i:morgen)(?: (?:früh|abend|nachmittag))?", _days(1), lang="de"),  # "Morgen": the noun (morning)
    _e(r"letzte woche|vergangene woche", _monday(-1), week=True, lang="de"),
    _e(r"nächste woche|naechste woche", _monday(1), week=True, lang="de"),
    _e(r"nächsten (?P<wd>montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag)", _next_weekday, lang="de"),
    _e(r"letzten (?P<wd>montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag)", _last_weekday, lang="de"),
    # Spanish
    _e(r"anteayer|antes de ayer", _days(-2), lang="es"),
    _e(r"hace " + _COUNT + r" días?", _days_counted(-1), lang="es"),
    _e(r"dentro de " + _COUNT + r" días?", _days_counted(1), lang="es"),
    _e(r"pasado mañana", _days(2), lang="es"),
    _e(r"ayer(?: por la (?:mañana|tarde|noche))?|anoche", _days(-1), lang="es"),
    _e(r"hoy(?! en d[ií]a)|esta mañana|esta tarde|esta noche", _days(0), lang="es"),  # "hoy en día": nowadays
    # "por la mañana", "cada mañana": the morning, not tomorrow ("Trabajo por la mañana" is a habit).
    _e(r"(?<!\bla )(?<!\buna )(?<!\bcada )(?<!\besta )mañana(?: por la (?:mañana|tarde|noche))?", _days(1), lang="es"),
    _e(r"la semana pasada", _monday(-1), week=True, lang="es"),
    _e(r"la (?:semana )?próxima semana|la semana que viene", _monday(1), week=True, lang="es"),
    _e(r"el (?P<wd>lunes|martes|miércoles|miercoles|jueves|viernes|sábado|sabado|domingo) (?:que viene|próximo)",
       _next_weekday, lang="es"),
    _e(r"el (?P<wd>lunes|martes|miércoles|miercoles|jueves|viernes|sábado|sabado|domingo) pasado", _last_weekday,
       lang="es"),
    # Chinese
    _e(r"大前天", _days(-3), lang="zh"),
    _e(r"大后天", _days(3), lang="zh"),
    _e(r"前天", _days(-2), lang="zh"),
    _e(_COUNT + r"天前", _days_counted(-1), lang="zh"),
    _e(_COUNT + r"天后", _days_counted(1), lang="zh"),
    _e(r"后天", _days(2), lang="zh"),
    _e(r"昨天|昨晚", _days(-1), lang="zh"),
    _e(r"明天|明晚", _days(1), lang="zh"),
    _e(r"今天|今晚|今早|今天早上", _days(0), lang="zh"),
    _e(r"上(?:个)?(?:星期|周|礼拜)(?P<wd>[一二三四五六日天])", _last_weekday, lang="zh"),
    _e(r"下(?:个)?(?:星期|周|礼拜)(?P<wd>[一二三四五六日天])", _next_weekday, lang="zh"),
    _e(r"上(?:个)?(?:星期|周|礼拜)", _monday(-1), week=True, lang="zh"),
    _e(r"下(?:个)?(?:星期|周|礼拜)", _monday(1), week=True, lang="zh"),
)
# Words that open the written date in each script: Chinese text gets no spaces nor English words.
_CJK = re.compile(r"[\u3400-\u9fff]")
_ISO = re.compile(r"\d{4}-\d{2}-\d{2}")
_ISO_OR_MONTH = re.compile(r"\d{4}-\d{2}(?:-\d{2})?")


def _date_of(written: str) -> str:
    """The date part of a written expression ("on 2026-02-20 at 19:00" -> "2026-02-20", "in February 2026" ->
    "February 2026")."""
    iso = _ISO_OR_MONTH.search(written)
    return iso.group(0) if iso else re.sub(r"^(?:in|en|im)\s+", "", written)
# Clause boundaries in a quote: punctuation inside it, or a word joining two clauses.
_CLAUSES = re.compile(r"[,;:，；：、]|\s(?:and|but|so|because|et|mais|und|aber|y|pero)\s", re.IGNORECASE)


# Words of a day's afternoon or evening, after which an hour under 12 is after noon ("tomorrow evening at 8").
_AFTER_NOON = re.compile(r"afternoon|evening|night|soir|après-midi|apres-midi|abend|nachmittag|tarde|noche",
                         re.IGNORECASE)


def _clock(match: re.Match[str]) -> str | None:
    """HH:MM of the time of day a match carries, or None."""
    groups = match.groupdict()
    if groups.get("h"):
        hour, minute = int(groups["h"]), int(groups.get("m") or 0)
        suffix = (groups.get("ap") or "").casefold().replace(".", "")
        if (suffix == "pm" or suffix in ("", "h", "uhr") and _AFTER_NOON.search(match.group(0))) and hour < 12:
            hour += 12
        elif suffix == "am" and hour == 12:
            hour = 0
    elif groups.get("zh"):
        hour, minute = int(groups["zh"]), int(groups.get("zm") or (30 if match.group(0).endswith("半") else 0))
        if groups.get("zp") in ("下午", "晚上") and hour < 12:
            hour += 12
    else:
        return None
    return f"{hour:02d}:{minute:02d}" if hour < 24 and minute < 60 else None


def _written(expression: _Expression, day: date, clock: str | None) -> str:
    on_day, in_week, at_time, in_month = _WORDS[expression.lang]
    if expression.month:
        return in_month.format(m=_month_name(day, expression.lang))
    if expression.week:
        return in_week.format(d=day.isoformat())
    return on_day.format(d=day.isoformat()) + (at_time.format(t=clock) if clock else "")


def resolve(text: str, today: date) -> tuple[str, list[str]]:
    """(text with each relative expression replaced by its date, the written dates in the order replaced).
    `today`: the local date the text was said on. A preposition before the expression ("for tomorrow") keeps
    its place ("for 2026-03-05"). An expression that is another word in the text's language
    (`domain.language.identify`; `_Expression.not_in`) is not read there. Text without a known expression comes
    back unchanged."""
    days: list[str] = []
    told = language.identify(text)
    for expression in _EXPRESSIONS:
        if told in expression.not_in:
            continue
        def replace(match: re.Match[str], expression: _Expression = expression) -> str:
            written = _written(expression, expression.day(match, today), _clock(match))
            days.append(written)
            return written
        text = expression.pattern.sub(replace, text)
    # "for on 2026-03-05" / "on on": an English preposition already said before the date.
    text = re.sub(r"\b(for|by|until|from|since) on (\d{4}-\d{2}-\d{2})", r"\1 \2", text)
    text = re.sub(r"\bon on (\d{4})", r"on \1", text)
    return text, days


def local_date(said_at: datetime, timezone: str) -> date:
    """The date `said_at` (aware) falls on in `timezone` (an IANA name)."""
    return said_at.astimezone(ZoneInfo(timezone)).date()


def resolve_fact(fact: str, quote: str, said_at: datetime | None, timezone: str = "UTC") -> str:
    """`fact` with its relative time made absolute against the local date of `said_at` (module docstring).
    When the fact names no relative time but its quote does, the quote's dates are appended to the fact (a
    sentence-final period kept). Returns `fact` unchanged without `said_at` or without any expression."""
    if said_at is None:
        return fact
    today = local_date(said_at, timezone)
    resolved, days = resolve(fact, today)
    if days:
        return resolved
    cjk = bool(_CJK.search(fact))
    if cjk != bool(_CJK.search(quote)) or _CLAUSES.search(quote.strip().rstrip(".!?。！？")):
        return fact  # another language, or several clauses: the time may belong to another clause than the fact
    _, quoted = resolve(quote, today)
    if not quoted or any(_date_of(w) in fact for w in quoted):
        return fact
    stem, end = (fact[:-1], fact[-1]) if fact[-1:] in ".。!！" else (fact, "" if cjk else ".")
    if cjk:
        return f"{stem}（{'、'.join(quoted)}）{end}"
    return f"{stem} {' and '.join(quoted)}{end}"


def validity(fact: str, quote: str, said_at: datetime | None,
             timezone: str = "UTC") -> tuple[datetime | None, datetime | None]:
    """(valid from, valid until) of a fact whose text holds a date its quote's relative time names, else None for
    either (module docstring). Both are local midnights in `timezone`, timezone-aware."""
    if said_at is None or not quote:
        return None, None
    zone = ZoneInfo(timezone)
    today = said_at.astimezone(zone).date()
    _, written = resolve(quote, today)
    days = [date.fromisoformat(d) for w in written for d in _ISO.findall(w) if d in fact]
    past, future = [d for d in days if d < today], [d for d in days if d > today]
    start = datetime.combine(min(past), time(), zone) if past else None
    end = datetime.combine(max(future) + timedelta(days=1), time(), zone) if future else None
    return start, end
