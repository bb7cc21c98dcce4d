"""Text folded for comparison: case folded, accents dropped ("Végétarienne" -> "vegetarienne").

One function, used wherever a value, a name or a chat is compared with another (quotes, grounding, calendar
names). The accents are the combining marks of the text's compatibility decomposition (NFKD).
"""

from __future__ import annotations

import unicodedata


class _Marks(dict):
    """A `str.translate` table: a combining mark's code point -> None (dropped), any other -> itself. Filled as
    characters are met, so each one's Unicode category is looked up once per process and every later lookup is
    the translate's own (C) dictionary read: 5-10x faster than testing `unicodedata.combining` per character of
    every chat."""

    def __missing__(self, code: int) -> int | None:
        kept = None if unicodedata.combining(chr(code)) else code
        self[code] = kept
        return kept


_MARKS = _Marks()


def fold(text: str) -> str:
    """`text` case folded, its combining marks dropped (after NFKD); ASCII text is only case folded (it has no
    decomposition)."""
    folded = text.casefold()
    if folded.isascii():
        return folded
    return unicodedata.normalize("NFKD", folded).translate(_MARKS)
