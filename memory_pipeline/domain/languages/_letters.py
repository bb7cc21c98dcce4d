"""Letters with marks, read also without them: casual chat in the languages written with them drops them ("zivim"
for "živim", "traiesc" for "trăiesc", "dzivoju" for "dzīvoju", Greek "μενω" for "μένω"), and Romanian is typed with
a cedilla as often as with the comma below ("ş", "ţ"). Used by the language modules to write a word once, with its marks. Not a language
module (domain/lexicon.py skips a name starting with "_")."""

from __future__ import annotations

import unicodedata

# Each marked letter -> what it also reads as: itself and its bare letter (Romanian "ș"/"ț" also as the cedilla
# letters; Serbo-Croatian "đ" also as "dj").
_EITHER = {
    "ă": "[ăa]", "â": "[âa]", "î": "[îi]", "ș": "[șşs]", "ş": "[șşs]", "ț": "[țţt]", "ţ": "[țţt]",
    "č": "[čc]", "ć": "[ćc]", "š": "[šs]", "ž": "[žz]", "đ": "(?:đ|dj|d)",
    "ā": "[āa]", "ē": "[ēe]", "ģ": "[ģg]", "ī": "[īi]", "ķ": "[ķk]", "ļ": "[ļl]", "ņ": "[ņn]", "ū": "[ūu]",
    "ą": "[ąa]", "ę": "[ęe]", "ė": "[ėe]", "į": "[įi]", "ų": "[ųu]",
    # Greek typed without its accent (tonos) or diaeresis: "μενω" for "μένω".
    "ά": "[άα]", "έ": "[έε]", "ή": "[ήη]", "ί": "[ίϊΐι]", "ό": "[όο]", "ύ": "[ύϋΰυ]", "ώ": "[ώω]",
}
# ... and its bare letter alone, for word lists: the letter without its mark (Serbo-Croatian "đ" as "dj").
_BARE = {letter: "dj" if letter == "đ" else unicodedata.normalize("NFD", letter)[0] for letter in _EITHER}
_CEDILLA = {"ș": "ş", "ț": "ţ"}


def either(source: str) -> str:
    """A pattern source whose marked letters (lower case, outside character classes) also match their bare
    letters: "živ(?:im|imo)" -> "[žz]iv(?:im|imo)"."""
    return source.translate(str.maketrans(_EITHER))


def with_bare(words: str) -> str:
    """A space-separated word list with each word also written without its marks (and Romanian "ș"/"ț" with the
    cedilla): "mulțumesc" -> "mulțumesc multumesc mulţumesc"."""
    found = []
    for word in words.split():
        for form in (word, word.translate(str.maketrans(_BARE)), word.translate(str.maketrans(_CEDILLA))):
            if form not in found:
                found.append(form)
    return " ".join(found)


# Serbian Latin -> Cyrillic, one to one but for the digraphs.
_CYRILLIC = dict(zip("abvgdđežzijklmnoprstćufhcčš", "абвгдђежзијклмнопрстћуфхцчш"))
_DIGRAPHS = {"lj": "љ", "nj": "њ", "dž": "џ"}


def cyrillic(source: str) -> str:
    """A Serbian pattern source (or word list) written in Latin letters, in Cyrillic: "živ(?:im|imo)" ->
    "жив(?:им|имо)"; escapes ("\\b", "\\w") and group syntax are left as written."""
    out, index = [], 0
    while index < len(source):
        char = source[index]
        if char == "\\":
            out.append(source[index:index + 2])
            index += 2
            continue
        pair = source[index:index + 2]
        if pair in _DIGRAPHS:
            out.append(_DIGRAPHS[pair])
            index += 2
            continue
        out.append(_CYRILLIC.get(char, char))
        index += 1
    return "".join(out)
