"""Text folded for comparison: case folded, accents dropped ("Végétarienne" -> "vegetarienne").

One function, used wherever a value, a name or a chat is compared with another (quotes, grounding, calendar
names). The accents are the combining marks of the text's compatibility decomposition (NFKD).
"""

from __future__ import annotations

import unicodedata


def fold(text: str) -> str:
    """`text` case folded, its combining marks dropped (after NFKD). ASCII text is only case folded: it has no
    decomposition, and testing each of its characters was most of the grounding check's time."""
    folded = text.casefold()
    if folded.isascii():
        return folded
    return "".join(c for c in unicodedata.normalize("NFKD", folded) if not unicodedata.combining(c))
