"""Forget requests: the user asks the assistant to forget or delete something they told it, as a statement,
a request or a question ("Forget my phone number.", "Please delete my email.", "Can you forget my phone
number?", "Peux-tu oublier mon numéro ?", "Vergiss meine Telefonnummer.", "¿Puedes olvidar mi correo?",
"能不能忘掉我的电话号码？").

`requested_slot(text)` names the slot such a request is about (the same slot names the extractors fill:
`phone_number`, `email`, `home_location`, `name`, `job`, `employer`) or None. A retraction whose quote is a forget
request erases the slot's facts and candidates like `forget --fact` (no trace of their text), where a plain
retraction ("I no longer live in Oslo") only ends the active fact and keeps its history. Source of the need:
unslothai/unsloth#7105 (a forget request phrased as a question was ignored), issue 17.
"""

from __future__ import annotations

import re

# What can be forgotten, by language: noun phrase -> slot, tried in this order (email before address, so
# "adresse e-mail" is an email).
_SLOTS: tuple[tuple[str, str], ...] = (
    (r"e-?mail(?: address)?|email address|adresse (?:e-?mail|mail|électronique)|e-?mail|courriel|"
     r"e-?mail-adresse|mailadresse|correo(?: electrónico)?|邮箱(?:地址)?|电子邮件|电子邮箱", "email"),
    (r"(?:phone|mobile|cell|telephone)(?: ?number)?|number|numéro(?: de (?:téléphone|portable))?|téléphone|"
     r"portable|telefonnummer|handynummer|nummer|(?:número(?: de)? )?(?:teléfono|móvil|celular)|número|"
     r"电话号码|手机号码?|电话|号码", "phone_number"),
    (r"(?:home )?address|adresse|domicile|wohnort|anschrift|dirección|domicilio|地址|住址", "home_location"),
    (r"(?:first |last )?name|nom|prénom|namen?|nombre|名字|姓名", "name"),
    (r"job|occupation|métier|travail|beruf|trabajo|profesión|工作|职业", "job"),
    (r"employer|company|employeur|entreprise|arbeitgeber|firma|empresa|公司", "employer"),
)
_POSSESSIVE = r"(?:my|mon|ma|mes|meinen|meine|mein|mis|mi|我的)\s*"
_VERB = (r"(?:forget|delete|erase|remove|drop|wipe|(?:stop|quit) (?:remembering|storing|keeping|saving)|"
         r"(?:don't|do not|never) (?:remember|store|keep|save)|oublie[rz]?|supprime[rz]?|efface[rz]?|"
         r"vergiss|vergessen|lösch(?:e|en)?|loesch(?:e|en)?|entfern(?:e|en)?|olvida(?:r)?|borra(?:r)?|"
         r"elimina(?:r)?|忘掉|忘记|忘了|删除|删掉|清除)")
# Verb first ("forget my X", "peux-tu oublier mon X", "olvida mi X", "忘掉我的X"), or the German order
# ("meine Telefonnummer vergessen/löschen"): the noun phrase is what follows the possessive.
_REQUEST = re.compile(
    r"(?<!don't )(?<!do not )(?<!never )(?<!n'oublie pas )(?<![^\W\u3400-\u9fff])" + _VERB
    + r"\s*(?:(?:what I (?:said|told you)|everything I said|everything)?\s*(?:about|regarding)\s+)?" + _POSSESSIVE + r"(?P<a>[^,.;!?，。！？]{1,40})|"
    + _POSSESSIVE + r"(?P<b>[\w-]{2,30})\s+(?:vergessen|löschen|loeschen|entfernen)(?!\w)",
    re.IGNORECASE,
)
_SLOT_PATTERNS = tuple((re.compile(r"(?:" + p + r")(?![\w-])", re.IGNORECASE), slot) for p, slot in _SLOTS)


def requested_slot(text: str) -> str | None:
    """The slot a forget request in `text` names, or None when `text` asks to forget nothing it can name."""
    for match in _REQUEST.finditer(text):
        noun = " ".join((match.group("a") or match.group("b") or "").split()).casefold()
        for pattern, slot in _SLOT_PATTERNS:
            if pattern.match(noun):  # the noun phrase starts with a slot's noun ("phone number from the form")
                return slot
    return None


def is_forget_request(text: str) -> bool:
    """True when `text` asks to forget or delete something the user said, in any form (module docstring)."""
    return requested_slot(text) is not None
