"""Which PostgreSQL text search configuration suits a fact's language (for full-text recall).

A fact is written in the language of its conversation. Stemming in the right language lets "likes coffee"
match "I like coffee"; the wrong stemmer mangles words, so anything not recognised gets 'simple' (lower-cased
words, no stemming, no stop words), which is also right for scripts without spaces between words (Chinese,
Japanese), where a stemmer has nothing to do.

The rule is a heuristic: count the words of the text that are frequent function words (and the offline
extractor's fact verbs) of each language below; the language with most hits wins if it has at least one and
the text is mostly Latin script. The configuration names are those PostgreSQL ships (`\\dF` in psql).
"""

from __future__ import annotations

import re

_MARKERS: dict[str, frozenset[str]] = {
    "english": frozenset("""
        the a an and or of to in on at for with from by as is are was were be been has have had not no
        i my me you your he his she her they their it its this that who which user likes loves hates prefers
        lives works wants would will should does do did about like
    """.split()),
    "french": frozenset("""
        le la les un une des et ou de du au aux en est sont je mon ma mes il elle ils elles pour avec dans
        sur pas ne que qui utilisateur aime adore déteste préfère habite travaille veut son sa ses ce cette
    """.split()),
    "german": frozenset("""
        der die das und oder ist sind ich mein meine nicht mit ein eine zu von für auf im den dem des
        benutzer nutzer mag liebt wohnt arbeitet möchte sein seine ihr ihre er sie es
    """.split()),
    "spanish": frozenset("""
        el la los las y o es son de del en un una que mi mis con por para no usuario gusta vive trabaja
        quiere su sus este esta lo al
    """.split()),
}
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
