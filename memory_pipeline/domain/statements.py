"""What two fact texts say, compared: polarity, the values they name, and whether one corrects the other.

Reconciliation (`domain.reconcile`, `domain.near_duplicates`) uses these on facts in any language the product
writes facts in (English, French, German, Spanish, Chinese), whatever backend wrote them:
- `differs_in_substance(a, b)`: the texts differ in polarity (one is negated), in a number, in a date word
  (month, weekday, ISO date) or in a named value (a capitalised word inside the sentence, a quoted string, or
  any content word put in place of another: "trip to ulanqab" / "trip to hohhot", `substituted_words`): they
  are never the same fact, however many characters they share;
- `frame(text)`: the text with negations dropped and values masked; two facts with one frame say the same thing
  of the same subject, up to polarity and values;
- `is_correction(quote)`: the user marks the sentence as replacing something said before ("Correction:",
  "actually", "change of plan", "instead of", "en fait", "eigentlich", "en realidad", "更正", "改成" ...);
- `negated_values(quote)`: the values the sentence explicitly rules out ("Ulanqab, not Hohhot" -> {"hohhot"},
  "instead of Paris", "pas Lyon", "nicht Berlin", "no Madrid", "不是北京").
The word lists are the common negators and correction markers of each language (as a grammar lists them); a
word outside them is read as said.
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher
from functools import lru_cache

# Negators, one alternative per language. French counts "ne"/"n'" only ("ne ... pas" is one negation).
_NEGATION = re.compile(
    r"(?<![\w'])(?:not|never|no longer|cannot|can't|won't|don't|doesn't|didn't|isn't|aren't|wasn't|weren't|"
    r"shouldn't|wouldn't|couldn't|haven't|hasn't|no|none|nothing|nobody|neither|nor)(?![\w'])|n't\b|"
    r"(?<![\w'])(?:ne|n')(?=\s|\w)|"
    r"(?<![\w])(?:nicht|kein|keine|keinen|keinem|keiner|nie|niemals|nunca|jamás|jamas|ningún|ninguna|tampoco)(?!\w)|"
    r"(?:不(?:太|怎么|再)?(?!错|过|仅|断|久|少|同|管|论)|没有|没|别|未|无)",
    re.IGNORECASE,
)
# The second half of a French negation ("ne ... pas"): not a negation alone, but no part of what is said.
_SECOND_NEGATOR = re.compile(r"(?<!\w)(?:pas|plus|jamais|point)(?!\w)", re.IGNORECASE)
_NUMBER = re.compile(r"\d+(?:[.,:]\d+)*")
_DATE_WORD = re.compile(
    r"(?<!\w)(?:january|february|march|april|may|june|july|august|september|october|november|december|"
    r"janvier|février|fevrier|mars|avril|mai|juin|juillet|août|aout|septembre|octobre|novembre|décembre|"
    r"januar|februar|märz|juni|juli|oktober|dezember|enero|febrero|marzo|abril|mayo|junio|julio|agosto|"
    r"septiembre|octubre|noviembre|diciembre|"
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|lundi|mardi|mercredi|jeudi|vendredi|samedi|"
    r"dimanche|montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag|lunes|martes|miércoles|jueves|"
    r"viernes|sábado|domingo)s?(?!\w)|(?:星期|周|礼拜)[一二三四五六日天]|\d+月|\d+日|\d+号",
    re.IGNORECASE,
)
# A capitalised word not at the start of the text nor after sentence punctuation, or a quoted string.
_NAMED = re.compile(r"(?<=[^\s.!?:;\"'])\s+(?P<w>[A-ZÀ-ÖØ-Þ][\w'-]*)|[\"“«](?P<q>[^\"”»]{1,60})[\"”»]")
# Words that start a fact in the product's own phrasing: not values ("User", "L'utilisateur", "Der Nutzer", ...).
_NOT_VALUES = frozenset("user users i utilisateur l'utilisateur nutzer benutzer usuario el der die das".split())
_CORRECTION = re.compile(
    r"(?<!\w)(?:correction|correcting|actually|i meant|i mean|change of plans?|plans? changed|scratch that|"
    r"instead|rather than|update|on second thought|to be precise|en fait|finalement|changement de plan|"
    r"au lieu de|plutôt que|rectification|correctif|korrektur|eigentlich|doch|planänderung|stattdessen|statt|"
    r"anstatt|berichtigung|corrección|correccion|en realidad|cambio de planes?|en vez de|en lugar de|mejor dicho|"
    r"más bien)(?!\w)|更正|纠正|其实|改成|改为|改去|而不是|计划有变|不是.+?而是|现在更",
    re.IGNORECASE,
)
# "X, not Y" / "not Y but X" / "instead of Y" / "pas Y" / "nicht Y" / "no Y" / "不是Y" / "而不是Y": the Y.
_RULED_OUT = re.compile(
    r"(?:,\s*|\s)(?:not|pas|nicht|no)\s+(?:to |in |at |à |nach |a |en )?(?P<a>[^\s,.;!?]+(?: [A-ZÀ-Þ][^\s,.;!?]*)*)|"
    r"(?:instead of|rather than|au lieu de|plutôt que|statt|anstatt|en vez de|en lugar de)\s+"
    r"(?:the |going to |le |la |l'|den |die |das |el |la )?(?P<b>[^\s,.;!?]+(?: [A-ZÀ-Þ][^\s,.;!?]*)*)|"
    r"(?:而)?不是(?:去|在)?(?P<c>[^，。！？,.!?而]{1,12})",
    re.IGNORECASE,
)
# Words that name no value: articles, pronouns, auxiliaries, prepositions, conjunctions, intensifiers and the
# product's own fact frame, in the five languages (a grammar's closed word classes). Every other word is content:
# a lower-case place or brand ("going to ulanqab", "uses notion") is a value as much as a capitalised one.
_FUNCTION = frozenset("""
user user's users the a an this that these those some any each every all both their theirs them they themselves
his her its it our my your is are was were be been being am has have had do does did will would shall should can
could may might must to of in on at by for from with without into onto over under about as than then so such
and or but nor also too very really quite just still even only especially now again more most much many lot lots
well already always often usually sometimes there here not no never yes
le la les l' un une des du de d' et ou à au aux en dans pour par sur avec sans que qui ce cette ces son sa ses
leur leurs est sont a ont été être très aussi plus utilisateur l'utilisateur utilisatrice l'utilisatrice
der die das den dem des ein eine einen einem einer und oder in im am an auf mit für von zu zum zur ist sind hat
haben sehr auch noch nutzer nutzerin benutzer
el la los las un una unos unas y o en con sin por para de del al es son está están muy también usuario usuaria
""".split())
_WORDS = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")
_CJK_WORD = re.compile(r"[\u3400-\u9fff]")
# Positive stances are one another's wordings ("loves jazz" / "likes jazz"); a stance's opposite is not.
_POSITIVE = frozenset("like likes love loves enjoy enjoys adore adores prefer prefers aime adore mag liebt "
                      "gusta encanta".split())
_SPACE = re.compile(r"\s+")
_TRAIL = re.compile(r"[\s.!?。！？]+$")


@lru_cache(maxsize=8192)
def is_negated(text: str) -> bool:
    """True when `text` holds an odd number of negations (two cancel out: "not unlike" is rare in facts)."""
    return len(_NEGATION.findall(text)) % 2 == 1


# The stance values the extraction prompt asks for (`opinion:<object>` = likes ...), as facts word them.
POSITIVE_STANCES = frozenset({"likes", "loves", "enjoys", "adores", "prefers"})
NEGATIVE_STANCES = frozenset({"hates", "dislikes", "cannot stand", "does not like"})


def polarity(value: str | None) -> bool | None:
    """True for a liking stance word ("likes", "loves"), False for a disliking one ("hates", "does not like"),
    None for a value that is no stance ("blue")."""
    if not value:
        return None
    stance_word = " ".join(value.casefold().split())
    if stance_word in POSITIVE_STANCES or stance_word + "s" in POSITIVE_STANCES:  # "loves", or "love"
        return True
    if stance_word in NEGATIVE_STANCES or stance_word + "s" in NEGATIVE_STANCES or is_negated(stance_word):
        return False
    return None


@lru_cache(maxsize=8192)
def values(text: str) -> frozenset[str]:
    """The values `text` names, case-folded: numbers, date words, capitalised words inside the sentence, quoted
    strings."""
    found = {m.group(0).casefold() for m in _NUMBER.finditer(text)}
    found |= {m.group(0).casefold().rstrip("s") for m in _DATE_WORD.finditer(text)}
    for m in _NAMED.finditer(text):
        word = (m.group("w") or m.group("q") or "").casefold()
        if word and word not in _NOT_VALUES:
            found.add(word)
    return frozenset(found)


def differs_in_substance(a: str, b: str) -> bool:
    """True when `a` and `b` differ in polarity or in a value (module docstring): never one fact."""
    return is_negated(a) != is_negated(b) or values(a) != values(b) or bool(substituted_words(a, b))


@lru_cache(maxsize=8192)
def content_words(text: str) -> tuple[str, ...]:
    """The words of `text` that may name a value, case-folded, in order: not a function word (`_FUNCTION`), not
    Chinese (Chinese text has no spaces to cut words at; its values are compared by `values`)."""
    return tuple(w for w in (m.group(0).casefold().replace("’", "'") for m in _WORDS.finditer(text))
                 if w not in _FUNCTION and not _CJK_WORD.search(w))


def substituted_words(a: str, b: str) -> list[tuple[str, str]]:
    """The content words one text has *in place of* the other's ("trip to hohhot" / "trip to ulanqab" ->
    [("hohhot", "ulanqab")]): a lower-case named value changed as much as a capitalised one. Words only added or
    dropped ("really", "a lot") are a rewording, not a substitution; so are another spelling or inflection of
    one word (similar letters, difflib ratio >= 0.8: "favourite"/"favorite", "invoice"/"invoices") and one
    positive stance for another ("likes"/"loves")."""
    wa, wb = content_words(a), content_words(b)
    found = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, wa, wb, autojunk=False).get_opcodes():
        if tag != "replace":
            continue
        x, y = " ".join(wa[i1:i2]), " ".join(wb[j1:j2])
        if SequenceMatcher(None, x, y).ratio() >= 0.8 or (x in _POSITIVE and y in _POSITIVE):
            continue
        found.append((x, y))
    return found


@lru_cache(maxsize=8192)
def frame(text: str) -> str:
    """`text` case-folded with negations and correction markers dropped and values masked by '#': two facts
    with one frame say one thing of one subject, up to polarity and values."""
    text = _CORRECTION.sub(" ", text)
    text = _NEGATION.sub(" ", text)
    text = _SECOND_NEGATOR.sub(" ", text)
    text = _DATE_WORD.sub(" # ", text)
    text = _NUMBER.sub(" # ", text)
    text = _NAMED.sub(lambda m: " #" if (m.group("w") or m.group("q") or "").casefold() not in _NOT_VALUES
                      else m.group(0), text)
    text = re.sub(r"(?:\s*#)+", " #", text)
    return _TRAIL.sub("", _SPACE.sub(" ", text).strip(" :;,.!?。，：；").casefold())


def is_correction(quote: str) -> bool:
    """True when the sentence marks itself as replacing what was said before (module docstring)."""
    return bool(_CORRECTION.search(quote)) or bool(negated_values(quote))


@lru_cache(maxsize=8192)
def negated_values(quote: str) -> frozenset[str]:
    """Values the sentence rules out, case-folded ("Ulanqab, not Hohhot." -> {"hohhot"}). Only named values (a
    capital, a digit, Chinese text, or a content word that ends its clause: "ulanqab, not hohhot.") count: "not
    allowed on Fridays" rules out no value."""
    found = set()
    for m in _RULED_OUT.finditer(quote):
        word = (m.group("a") or m.group("b") or m.group("c") or "").strip()
        if word and (word[0].isupper() or word[0].isdigit() or "\u3400" <= word[0] <= "\u9fff"
                     or _set_against(quote, m, word)):
            found.add(word.casefold())
    return frozenset(found)


def _set_against(quote: str, match: re.Match[str], word: str) -> bool:
    """True for a lower-case word set against another ("ulanqab, not hohhot.", "instead of ryanair."): one
    content word after ", not" or "instead of" that ends its clause. "deploys are not allowed" negates a verb."""
    against = match.group("b") is not None or match.group(0).startswith(",")
    ends = re.match(r"\s*(?:[.,;:!?。，！？]|$)", quote[match.end():]) is not None
    return against and ends and " " not in word and word.casefold() not in _FUNCTION


def names_value(text: str, value: str) -> bool:
    """True when `text` names `value` (case-folded, as a word; Chinese: as a substring)."""
    folded = text.casefold()
    if "\u3400" <= value[:1] <= "\u9fff":
        return value in folded
    return re.search(r"(?<!\w)" + re.escape(value) + r"(?!\w)", folded) is not None
