"""Text folded for comparison: case folded, accents dropped ("Végétarienne" -> "vegetarienne").

One function, used wherever a value, a name or a chat is compared with another (quotes, grounding, calendar
names). The accents are the combining marks of the text's compatibility decomposition (NFKD).
"""

from __future__ import annotations

import unicodedata


# Letters that have no decomposition but that people type as a plain Latin letter on a keyboard without them
# ("aci" for Azerbaijani "acı", "memmedova" for "Məmmədova", Polish "zloty", Danish "Kobenhavn", Croatian "Dakovo",
# Maltese "hobza"): folded to it, as accents are dropped.
_PLAIN_LETTERS = str.maketrans({"ı": "i", "ə": "e", "ł": "l", "ø": "o", "đ": "d", "ħ": "h", "ŧ": "t", "ð": "d",
                                "þ": "th", "æ": "ae", "œ": "oe"})


def fold(text: str) -> str:
    """`text` case folded, its combining marks dropped (after NFKD), and the letters without a decomposition that
    are typed as a plain one (`_PLAIN_LETTERS`) made that one. ASCII text is only case folded: it has no
    decomposition, and testing each of its characters was most of the grounding check's time."""
    folded = text.casefold()
    if folded.isascii():
        return folded
    return "".join(c for c in unicodedata.normalize("NFKD", folded) if not unicodedata.combining(c)).translate(
        _PLAIN_LETTERS)
