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

