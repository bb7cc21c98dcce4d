"""Retractions the offline extractor reads: a statement that something no longer holds, and a forget request.

A statement ("I no longer like Vim.", "I'm not vegetarian anymore", "je n'habite plus à Paris", "ich wohne nicht
mehr in Berlin", "ya no vivo en Madrid", "我已经不住在北京了") is rewritten to the positive statement whose slot it
ends ("I like Vim", ...), which the ordinary rules then read, so a retraction names exactly the slot (and value)
the positive fact used. A forget request (domain.retractions: statement, request or question, in the five
languages) names its slot directly.
"""

from __future__ import annotations

import re

_ANYMORE = r"\s*\b(?:anymore|any more|any longer)\b"
_POSITIVE: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), replacement) for pattern, replacement in (
        (r"^(?:I'm|I am|Im) no longer (?P<rest>.+)$", "I'm {rest}"),
        (r"^I(?:'ve| have)? no longer (?P<rest>.+)$", "I {rest}"),
        (r"^I (?:don't|do not|dont) (?P<rest>.+?)" + _ANYMORE + r"(?P<tail>.*)$", "I {rest}{tail}"),
        (r"^(?:I'm|I am|Im) not (?P<rest>.+?)" + _ANYMORE + r"(?P<tail>.*)$", "I'm {rest}{tail}"),
        (r"^je n'(?P<verb>aime|adore|habite) plus (?P<rest>.+)$", "j'{verb} {rest}"),
        (r"^je ne (?P<verb>suis|préfère|prefere|m'appelle|vis|travaille) plus (?P<rest>.+)$", "je {verb} {rest}"),
        (r"^ich (?P<verb>wohne|lebe|arbeite|heiße|mag|liebe|bin) (?:nicht mehr|nicht länger) (?P<rest>.+)$",
         "ich {verb} {rest}"),
        (r"^ich (?P<verb>wohne|lebe|arbeite|mag|liebe|bin) (?P<rest>.+?) nicht mehr$", "ich {verb} {rest}"),
        (r"^ya no (?P<rest>(?:vivo|trabajo|soy|me gusta|me gustan|me encanta|me llamo) .+)$", "{rest}"),
        (r"^(?P<rest>(?:vivo|trabajo|soy) .+?) ya no$", "{rest}"),
        (r"^我(?:已经|现在)?不再(?P<rest>.+?)了?$", "我{rest}"),
        (r"^我(?:已经|现在)?不(?P<rest>(?:住在|喜欢|爱|叫|在).+?)了$", "我{rest}"),
    )
)

# The withdrawn fact as a sentence, per language of the positive fact's wording.
_WITHDRAWN = (
    (re.compile(r"^(User(?:'s [\w ]+?)?) (is|are) (.+)$"), r"\1 \2 no longer \3"),
    (re.compile(r"^User (.+)$"), r"User no longer \1"),
    (re.compile(r"^(L'utilisateur|L'adresse e-mail de l'utilisateur) ([aeiouyhéè]\S*) (.+)$"), r"\1 n'\2 plus \3"),
    (re.compile(r"^(L'utilisateur) (\S+) (.+)$"), r"\1 ne \2 plus \3"),
    (re.compile(r"^Der Nutzer (\w+) (.+)$"), r"Der Nutzer \1 nicht mehr \2"),
    (re.compile(r"^El usuario (.+)$"), r"El usuario ya no \1"),
    (re.compile(r"^Al usuario (.+)$"), r"Al usuario ya no \1"),
    (re.compile(r"^用户(.+)$"), r"用户不再\1"),
)
_FORGOTTEN = {
    "en": "User asked to forget their {slot}.", "fr": "L'utilisateur a demandé d'oublier : {slot}.",
    "de": "Der Nutzer hat gebeten, dies zu vergessen: {slot}.", "es": "El usuario pidió olvidar: {slot}.",
    "zh": "用户要求忘记：{slot}。",
}
SLOT_WORDS = {
    "en": {"phone_number": "phone number", "email": "email address", "home_location": "address", "name": "name",
           "job": "job", "employer": "employer"},
    "fr": {"phone_number": "numéro de téléphone", "email": "adresse e-mail", "home_location": "adresse",
           "name": "nom", "job": "métier", "employer": "employeur"},
    "de": {"phone_number": "Telefonnummer", "email": "E-Mail-Adresse", "home_location": "Adresse", "name": "Name",
           "job": "Beruf", "employer": "Arbeitgeber"},
    "es": {"phone_number": "número de teléfono", "email": "correo electrónico", "home_location": "dirección",
           "name": "nombre", "job": "trabajo", "employer": "empresa"},
    "zh": {"phone_number": "电话号码", "email": "邮箱", "home_location": "地址", "name": "名字", "job": "工作",
           "employer": "公司"},
}
_LANGUAGE_HINTS = (
    ("zh", re.compile(r"[\u3400-\u9fff]")),
    ("fr", re.compile(r"\b(?:oublie[rz]?|supprime[rz]?|efface[rz]?|mon|ma|mes)\b", re.IGNORECASE)),
    ("de", re.compile(r"\b(?:vergiss|vergessen|lösch\w*|mein\w*)\b", re.IGNORECASE)),
    ("es", re.compile(r"\b(?:olvida\w*|borra\w*|elimina\w*|mi|mis)\b", re.IGNORECASE)),
)


def positive_form(clause: str) -> str | None:
    """The positive statement a retraction clause withdraws, or None when the clause retracts nothing."""
    text = clause.strip().rstrip(".!。！,;，；").strip()
    for pattern, replacement in _POSITIVE:
        match = pattern.match(text)
        if match:
            return replacement.format(**{k: (v or "") for k, v in match.groupdict().items()}).strip()
    return None


def withdrawn(fact: str) -> str:
    """The sentence saying a fact no longer holds: "User likes Vim." -> "User no longer likes Vim."."""
    body, end = (fact[:-1], fact[-1]) if fact[-1:] in ".。" else (fact, ".")
    for pattern, replacement in _WITHDRAWN:
        if pattern.match(body):
            return pattern.sub(replacement, body, count=1) + end
    return fact


def forgotten(sentence: str, slot: str) -> str:
    """The fact a forget request of `slot` writes, in the request's language."""
    language = next((name for name, hint in _LANGUAGE_HINTS if hint.search(sentence)), "en")
    return _FORGOTTEN[language].format(slot=SLOT_WORDS[language][slot])
