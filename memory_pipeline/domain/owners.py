"""Which slot owns a fact's value, read from the attribute name as data: a value has one owner (issue 26).

Models name attributes freely, and each conversation is extracted alone: `job` one night, `occupation` the next.
Reconciliation (`domain.reconcile`) relates a new fact to the user's active facts by their owners, never by
equal names. `owners(category, attribute, value)` gives the owner keys of a fact; one user holds at most one
active fact per owner. The rules, in order:
1. A slot family (`SLOT_FAMILIES`, data: the names models were seen using for one slot) -> `slot:<first name>`:
   `occupation`, `profession`, `role` -> `slot:job`.
2. Any other plain name is read as words (split at `_`, `-`, spaces; case-folded; a plural `s` and the British
   `our` spelling dropped), less the generic words (`GENERIC_WORDS`: my, current, preferred, date, method, take,
   ...), then rule 1 is tried again (`current_job` -> `slot:job`), else the words are the owner (`slot:<words>`).
3. `<kind>:<object>` (or `<kind>_<object>` for a kind the prompt names: `favorite_color`) whose kind is a
   single-valued slot of rule 1 and whose object is its value is that slot (`contact_channel:mobile` = mobile ->
   `slot:contact_channel`: a 1.5B model named it so beside `contact_channel` = email, issue 26; not
   `email:work`, `job:previous`, `name:dog`); `preference:<slot name>` is that slot; any other: the object's words,
   as in 2, own it under its kind: `decision:beta_launch_date` and `decision:beta_launch` -> `decision:beta_launch`,
   `decision:take_train` and `decision:train` -> `decision:train`, `favourite:colour` and `favorite_color` ->
   `favourite:color`.
4. A stance is owned by its object (`stance:<object words>`): `opinion:<object>`; `favourite:<object>` whose
   value is a stance (likes, dislikes, ...); the value of a favourite (`favourite:colour` = blue also owns
   `stance:blue`), of a liking held with others (`hobby`, `interest`, `activity`) and of a preference without an
   attribute ("User prefers blue.").
5. Multi-valued attributes (`MULTI_VALUED_ATTRIBUTES`: hobby, skill, spoken_language, ...) own no slot; only
   their stance (4), if any. Different owners never supersede each other.
`same_value` and `polarity` say whether a new fact under an owner repeats or changes the one it holds.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from memory_pipeline.domain.facts import fact_key
from memory_pipeline.domain.statements import is_negated, polarity

# Attributes that legitimately hold several values at once; every other attribute is single-valued.
MULTI_VALUED_ATTRIBUTES = frozenset({"hobby", "interest", "activity", "skill", "spoken_language", "purchase", "other"})

# One slot's names, the first the slot's own (the extraction prompt's name where it has one), then the English
# names models were seen or are likely to use, and the slot's common name in French, German, Spanish and Chinese
# (a model may name the slot in the conversation's language). A name is compared as rule 2 reads it, so
# `preferred_contact_method`, `Contact method` and `contact-preference` are all here.
SLOT_FAMILIES = (
    ("job", "occupation", "profession", "role", "work_title", "job_title", "work", "career", "line_of_work",
     "métier", "emploi", "beruf", "tätigkeit", "profesión", "trabajo", "ocupación", "职业", "工作"),
    ("home_location", "current_city", "city", "residence", "location", "lives_in", "living_in", "home",
     "home_city", "place_of_residence", "city_of_residence", "current_location", "ville", "domicile",
     "lieu_de_résidence", "wohnort", "stadt", "ciudad", "residencia", "城市", "居住地"),
    ("hometown", "home_town", "birthplace", "place_of_birth", "grew_up_in", "origin", "heimatstadt", "家乡"),
    ("contact_channel", "preferred_contact_method", "contact_method", "contact_preference", "contact",
     "channel", "communication_channel", "communication_preference", "communication"),
    ("employer", "company", "workplace", "work_place", "organization", "organisation", "company_name",
     "employer_name", "entreprise", "employeur", "arbeitgeber", "firma", "empresa", "公司"),
    ("email", "email_address", "e_mail", "mail", "contact_email", "courriel", "correo", "邮箱"),
    ("phone_number", "phone", "telephone", "telephone_number", "mobile", "mobile_number", "cell_phone",
     "téléphone", "telefon", "telefonnummer", "teléfono", "电话"),
    ("name", "full_name", "user_name", "nom", "vorname", "nombre", "名字"),
    ("preferred_name", "nickname", "call_me"),
    ("diet", "dietary_preference", "dietary_restriction", "dietary", "diet_type", "eating_habit", "régime",
     "ernährung", "dieta"),
    ("shipping_address", "delivery_address", "postal_address", "mailing_address", "address", "adresse",
     "dirección", "地址"),
    # Not `delivery_preference`: read without its generic word it is `delivery`, which `delivery_time` is too, and
    # a time of delivery is no instruction ("no doorbell" superseded "mornings" in holdout set 9).
    ("delivery_instruction", "delivery_note", "delivery_instructions"),
    ("plan", "subscription_plan", "subscription", "pricing_plan", "service_plan", "billing_plan", "plan_tier",
     "tier", "package", "forfait", "abonnement", "tarif", "plan_de_suscripción", "套餐"),
    ("hobby", "hobbies", "pastime", "loisir", "pasatiempo", "爱好"),
    ("spoken_language", "language", "languages_spoken"),
    ("preferred_language", "language_preference", "communication_language"),  # one language to be answered in
)

# Words that say nothing of which slot a name means: possessives, time ("current", "new", "date"), the asking
# ("preferred", "method", "choice") and light verbs of a decision ("take the train" is the train decision).
GENERIC_WORDS = frozenset("""
my user users the a an of for to in on at with by about
current currently present now new latest preferred prefered preference main primary usual default
date time day method way mode type kind choice option info information detail value
take taking go going get getting have having do doing make making use using
""".split())

# Kinds of `<kind>:<object>` names, as spelt -> as owned (`favorite` is `favourite`; `opinion` is a stance).
KINDS = {"favourite": "favourite", "favorite": "favourite", "fav": "favourite", "opinion": "stance",
         "decision": "decision"}
# Likings held with others: their value is the object liked.
LIKINGS = frozenset({"hobby", "interest", "activity"})

_SPLIT = re.compile(r"[^\w]+|_")


def _word(word: str) -> str:
    """One word as names compare it: plural `s` and the British `our` dropped ("colours" -> "color")."""
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        word = word[:-1]
    if len(word) > 4 and word.endswith("our"):
        word = word[:-3] + "or"
    return word


@lru_cache(maxsize=8192)
def words(text: str, drop_generic: bool = True) -> tuple[str, ...]:
    """`text` (an attribute name or a value) as compared words, in order; generic words dropped unless none
    would be left."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    found = tuple(_word(w) for w in _SPLIT.split(folded) if w)
    if not drop_generic:
        return found
    kept = tuple(w for w in found if w not in GENERIC_WORDS)
    return kept or found


def _join(parts: tuple[str, ...]) -> str:
    return "_".join(parts)


_FAMILY = {_join(words(name, False)): family[0] for family in SLOT_FAMILIES for name in family}
_FAMILY.update({_join(words(name)): family[0] for family in SLOT_FAMILIES for name in family
                if _join(words(name)) not in _FAMILY})
_MULTI = frozenset(MULTI_VALUED_ATTRIBUTES)
# A single-valued slot's names as a `<kind>:` of the model's own (`contact_channel:mobile`, `job:teacher`).
_SINGLE_SLOTS = {name: slot for name, slot in _FAMILY.items() if slot not in _MULTI and name not in KINDS}


def known_slot(attribute: str | None) -> str | None:
    """The family (`SLOT_FAMILIES`' first name) of a plain attribute the owner rules know (`occupation` -> `job`),
    else None (a name of the model's own: `shipping_carrier`, `decision:trip`)."""
    if not attribute or ":" in attribute:
        return None
    return _FAMILY.get(_join(words(attribute, False))) or _FAMILY.get(_join(words(attribute)))


@lru_cache(maxsize=8192)
def slot_of(attribute: str) -> str:
    """The slot a plain attribute name means (rules 1 and 2): `Occupation` -> `job`, `current_job` -> `job`,
    `seat_preference` -> `seat`."""
    raw = _join(words(attribute, False))
    return _FAMILY.get(raw) or _FAMILY.get(_join(words(attribute))) or _join(words(attribute))


def is_multi_valued(attribute: str | None) -> bool:
    """True for an attribute that holds several values (`hobbies` too: its slot is `hobby`)."""
    return bool(attribute) and ":" not in attribute and slot_of(attribute) in _MULTI


# Kinds read only before a colon: `preference:blue` = likes is the favourite blue (a 1.5B model's name for it beside
# `favourite:colour` = blue), while `preferred_name` stays a slot.
COLON_KINDS = {"preference": "favourite"}


def _kind_and_object(attribute: str) -> tuple[str, str] | None:
    """(owned kind, object) of a `<kind>:<object>` or `<known kind>_<object>` name, else None."""
    kind, colon, rest = attribute.strip().partition(":")
    if colon and rest.strip():
        named = _join(words(kind, False))
        return KINDS.get(named) or COLON_KINDS.get(named) or named or kind, rest
    parts = words(attribute, False)
    if len(parts) > 1 and parts[0] in KINDS:
        return KINDS[parts[0]], " ".join(parts[1:])
    return None


@lru_cache(maxsize=8192)
def owners(category: str, attribute: str | None, value: str | None) -> tuple[str, ...]:
    """The owner keys of a fact (module docstring), in rule order; () for a fact that owns nothing (a
    multi-valued attribute other than a liking, or a fact with neither attribute nor value)."""
    found: list[str] = []
    if attribute and attribute.strip():
        pair = _kind_and_object(attribute)
        if pair is not None:
            kind, obj = pair
            if kind in _SINGLE_SLOTS and same_value(obj.replace("_", " "), value):
                found.append("slot:" + _SINGLE_SLOTS[kind])  # its value as its object: contact_channel:mobile
            elif kind == "favourite" and _join(words(obj, False)) in _SINGLE_SLOTS:
                found.append("slot:" + _SINGLE_SLOTS[_join(words(obj, False))])  # preference:contact_channel
            elif kind == "stance" or (kind == "favourite" and polarity(value) is not None):
                found.append("stance:" + _join(words(obj)))
            else:
                found.append(f"{kind}:{_join(words(obj))}")
                if kind == "favourite" and value:
                    found.append("stance:" + _join(words(value)))
        else:
            slot = slot_of(attribute)
            if slot not in _MULTI:
                found.append("slot:" + slot)
            elif slot in LIKINGS and value:
                found.append("stance:" + _join(words(value)))
    elif value and category == "preference":
        found.append("stance:" + _join(words(value)))
    return tuple(dict.fromkeys(o for o in found if not o.endswith(":")))


def stance_of(category: str, attribute: str | None, value: str | None, fact: str) -> bool | None:
    """Whether a fact that owns a stance (rule 4) likes (True) or dislikes (False) its object; None when it
    says neither. A favourite or a liking likes its value; a preference without an attribute likes it unless
    its text is negated."""
    pair = _kind_and_object(attribute) if attribute else None
    if pair is not None and (pair[0] == "stance" or polarity(value) is not None):
        return polarity(value)
    if attribute:
        return True
    return not is_negated(fact)


def same_value(a: str | None, b: str | None) -> bool:
    """True when two values of one owner are one value: the same `fact_key`, or the words of one among the
    other's ("software engineer" / "Engineer", "Lyon" / "Lyon, France") with the same polarity ("allowed" /
    "not allowed" differ) and the same numbers. A missing value is never the same."""
    if not a or not b:
        return False
    if fact_key(a) == fact_key(b):
        return True
    if is_negated(a) != is_negated(b):
        return False
    wa, wb = set(words(a, False)) - {"a", "an", "the"}, set(words(b, False)) - {"a", "an", "the"}
    if {w for w in wa if any(c.isdigit() for c in w)} != {w for w in wb if any(c.isdigit() for c in w)}:
        return False  # "19. června" is not "12. června 19:00": a date, time or number must be the same one
    return bool(wa and wb) and (wa <= wb or wb <= wa)
