"""Which PostgreSQL text search configuration suits a fact's language (for full-text recall).

A fact is written in the language of its conversation. Stemming in the right language lets "likes coffee"
match "I like coffee"; the wrong stemmer mangles words, so anything not recognised gets 'simple' (lower-cased
words, no stemming, no stop words), which is also right for scripts without spaces between words (Chinese,
Japanese), where a stemmer has nothing to do.

The rule is a heuristic: count the words of the text that are frequent function words (and the offline
extractor's fact verbs) of each language with a `marker_words` entry in domain/languages/; the language with most
hits wins if it has at least one and the text is mostly Latin script. The configuration names are those
PostgreSQL ships (`\\dF` in psql).
"""

from __future__ import annotations

import re
from functools import cache, lru_cache

from memory_pipeline.domain import lexicon

# PostgreSQL configuration name -> the frequent words of its language (domain/languages/: `marker_words`).
_MARKERS: dict[str, frozenset[str]] = {
    config: frozenset(str(lexicon.MODULES[code].LEXICON.get("marker_words", "")).split())
    for code, config in sorted(lexicon.text_search_configs().items(), key=lambda item: item[1])}  # a tie: first
_WORD = re.compile(r"[^\W\d_]+")
_LATIN = re.compile(r"[A-Za-z\u00C0-\u024F]")


def text_search_config(text: str) -> str:
    """Name of the PostgreSQL text search configuration for `text`: 'english', 'french', 'german', 'spanish',
    or 'simple' when no language is recognised or the text is mostly in a non-Latin script."""
    words = _WORD.findall(text.casefold())
    letters = sum(len(w) for w in words)
    if not words or sum(len(_LATIN.findall(w)) for w in words) * 2 < letters:
        return "simple"
    scores = {name: sum(w in markers for w in words) for name, markers in _MARKERS.items()}
    best = max(scores, key=lambda name: scores[name])
    return best if scores[best] > 0 else "simple"


# Language identification (py3langid: a naive Bayes model over byte n-grams, 4.5 MB, ~0.1-1 ms a call). Limited to
# the languages people write to a support desk in: left open, short English lines come out as Xhosa ("thanks"),
# Afrikaans ("ok") or Quechua ("Me llamo Ana").
IDENTIFIABLE = tuple(
    "en fr de es zh it pt nl ru uk ko ja tr sv da no nb fi pl cs sk hu ro bg el he ar fa ur hi bn ta te mr th vi "
    "id ms tl sw ca eu gl hr sr sl lt lv et is ga cy "
    # ... and of the Latin script, so that an Uzbek line is not read with every language's words (untold), an
    # Albanian or Bosnian one not as its neighbour by chance.
    "uz az tk sq bs mt jv so ha yo zu ku "
    # Languages of a script of their own, told so that another language's word lists never read them (Kazakh was
    # read as Russian, Nepali as Hindi: their question words, not Kazakh's or Nepali's, decided what asks).
    "kk ky mn mk be ka hy am ne si pa gu kn ml km lo ps my tg tt".split())
# The model's labels -> the codes of domain/languages/ (its "no" is Norwegian Bokmål: the nb module).
_ALIASES = {"no": "nb", "yue": "zh", "wuu": "zh"}
# Languages written in a script of their own: a mostly Latin-script text given one of them is a mixed line
# ("emoji and RTL: 🙂 مرحبا reversed" scores Arabic), not told. Not Serbian: written in Latin letters as often as
# in Cyrillic ("Sestra mi je doktorica" was untold, so French "je" read it as the user's).
_OWN_SCRIPT = frozenset("ru uk bg el he ar fa ur hi bn ta te mr th ko ja zh "
                        "kk ky mn mk be ka hy am ne si pa gu kn ml km lo ps my tg tt".split())
# Below this probability a Latin-script line is not identified: one or two words ("Updated.", "Nice!") score
# under 0.3 for whatever language comes first.
_LATIN_CONFIDENCE = 0.3
# A language without data is not told when one with data scores this much beside it (a short line between
# Spanish and Portuguese).
_RUNNER_UP = 0.1
# Hindi in Latin letters (Hinglish, Roman Urdu): the model has no such label, so a line holding this many of its
# words (`romanised_words` of domain/languages/hi.py) is Hindi.
_ROMANISED_HINDI = lexicon.words("romanised_words")
_ROMANISED_MIN = 3
_HANGUL = re.compile(r"[\uac00-\ud7af\u1100-\u11ff\u3130-\u318f]")
_KANA = re.compile(r"[\u3040-\u30ff]")
_HAN = re.compile(r"[\u3400-\u9fff]")


@cache
def _identifier():
    from py3langid.langid import MODEL_FILE, LanguageIdentifier  # 1-4 s to load: only when first asked

    identifier = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    identifier.set_languages([code for code in IDENTIFIABLE if code in identifier.labels])
    return identifier


@lru_cache(maxsize=4096)  # the gates ask once per fact, of the same message
def identify(text: str) -> str | None:
    """The ISO 639-1 code of the language `text` is written in, or None when it cannot be told: no letters, or a
    mostly Latin-script text that the model scores under `_LATIN_CONFIDENCE` or gives a language of another
    script; a language without data (domain/languages/) with one with data scoring `_RUNNER_UP` beside it is
    given as that one.
    A text mostly in Hangul is Korean, in Han with kana Japanese, in Han alone Chinese, in Latin letters with
    `_ROMANISED_MIN` words of romanised Hindi Hindi; any other is the model's first guess among `IDENTIFIABLE`."""
    letters = "".join(filter(str.isalpha, text))
    if not letters:
        return None
    share = lambda script: len(script.findall(letters)) / len(letters)  # noqa: E731
    if share(_HANGUL) >= 0.5:
        return "ko"
    if share(_HAN) + share(_KANA) >= 0.5:
        return "ja" if share(_KANA) > 0 else "zh"
    if share(_LATIN) >= 0.5 and len(set(_WORD.findall(text.casefold())) & _ROMANISED_HINDI) >= _ROMANISED_MIN:
        return "hi"
    ranked = _identifier().rank(text)
    code, probability = _ALIASES.get(ranked[0][0], ranked[0][0]), ranked[0][1]
    if share(_LATIN) >= 0.5 and (probability < _LATIN_CONFIDENCE or code in _OWN_SCRIPT):
        return None
    # Close to a language whose words are known (Bosnian beside Croatian, Malay beside Indonesian): read as
    # that one, whose speech acts it shares, rather than as every language at once.
    near = next((c for c, p in ((_ALIASES.get(c, c), p) for c, p in ranked[1:])
                 if c in lexicon.MODULES and p >= _RUNNER_UP), None)
    return near if code not in lexicon.MODULES and near else code


def could_be(text: str, code: str) -> bool:
    """Whether `text` may be written in language `code`: its language cannot be told, it is identified as `code`,
    or the model scores `code` at least `_RUNNER_UP` for it. A short line between two close languages is read as
    either by `identify` ("Дякую за допомогу!" in a Ukrainian chat, Russian beside it; Malay and Indonesian), so
    a line is only in another language than its chat's when the chat's language is not a fair reading of it."""
    found = identify(text)
    if found in (None, code):
        return True
    return any(_ALIASES.get(label, label) == code and probability >= _RUNNER_UP
               for label, probability in _identifier().rank(text))


# Letters under which a line's language is told from the user's lines of the chat together: a short line alone is
# told wrong as often as not ("Visc a Girona, al barri de Montilivi." scored Romanian, whose living words then found
# none of Catalan's; holdout set 11).
SHORT_LINE_LETTERS = 60


def told_in_chat(message: str, chat: str = "") -> str | None:
    """The language of `message` (`identify`); that of `chat` (the user's lines of its conversation,
    joined) when `message` has fewer than `SHORT_LINE_LETTERS` letters, the chat's language can be told (a
    Sinhala chat full of English words cannot: its short line "මම ඉන්නේ මහනුවර" is read as itself), has data (a
    Spanish line of a Galician chat keeps Spanish words) and the line may be in it (`could_be`: not an
    Italian line of a chat mostly in Russian)."""
    own = identify(message)
    if chat and sum(c.isalpha() for c in message) < SHORT_LINE_LETTERS:
        whole = identify(chat)
        if whole in lexicon.MODULES and could_be(message, whole):
            return whole
    return own
