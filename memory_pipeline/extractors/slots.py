"""The reconciliation slots (`attribute`) the LLM is told about, and the category each slot fixes.

A slot names what a fact is about, so for most slots it also says the category: a `home_location` is
client_info whatever the model put in `category` (small models were seen answering `preference` for
`home_location` and `job`: issue 16). `category_of` gives that category, also for another name of a listed
slot (`occupation`, `current_city`: `domain.owners.slot_of`), or None for a slot that leaves it open (`other`, an
unknown slot): the model's own category then stands.
"""

from __future__ import annotations

import re

from memory_pipeline.domain.owners import slot_of
from memory_pipeline.domain.reconcile import MULTI_VALUED_ATTRIBUTES

# Slot -> the category it fixes. Single-valued unless in the reconciler's MULTI_VALUED_ATTRIBUTES. A name the user
# goes by is client info, as the name is ("everyone calls me Bobby", "You can call me Tom": every gold set's writer
# filed it so). The order is the prompt's (`prompt_list`).
FIXED = {
    "name": "client_info", "home_location": "client_info", "hometown": "client_info", "job": "client_info",
    "employer": "client_info", "email": "client_info", "phone_number": "client_info",
    "shipping_address": "client_info", "skill": "client_info", "spoken_language": "client_info",
    "purchase": "client_info",
    "preferred_name": "client_info", "contact_channel": "preference", "diet": "preference",
    "delivery_instruction": "preference", "hobby": "preference", "interest": "preference",
    "activity": "preference",
}
# Slots the prompt does not list whose value is how the user wants things done from now on, as a contact channel's
# is: a preference whatever the model wrote ("Please keep cash on delivery for me" filed as client info under
# `payment_method`, holdout set 11; `communication_language` = English). Read as rule 2 of domain.owners reads a
# name (`payment_method`, `preferred_payment` -> `payment`). Kept out of FIXED so the prompt is unchanged.
STANDING_CHOICES = {"payment": "preference", "preferred_language": "preference"}
# Slot families `<prefix>:<object>` -> the category they fix.
PREFIXED = {"favourite": "preference", "favorite": "preference", "opinion": "preference", "decision": "decision"}


# A standing instruction ("from now on", "always") is a preference (the design's extraction rules), whatever slot
# the model filed it under: a 1.5B model made "Please send invoices to billing@example.org from now on." a
# decision:invoices.
# Not when the quote opens by accepting an offer ("Yes please. And from now on ..."): that accepts a decision.
_STANDING = re.compile(r"\b(?:from now on|always|every time|going forward|désormais|à partir de maintenant|"
                       r"toujours)\b|以后|今后", re.IGNORECASE)
_ASSENT = re.compile(r"^\W*(?:yes|yeah|ok|okay|sure|oui|好)\b", re.IGNORECASE)


# A contact channel's value is a channel ("email", "WhatsApp"); an address or a number in its place is the user's
# email or phone number, client info (a 1.5B model filed "0532 418 77 20 ye gönderin" as `contact_channel:sms` =
# the number, holdout set 5): seven digits at least, as the shortest local numbers have.
_EMAIL_VALUE = re.compile(r"^\s*[^\s@]+@[^\s@]+\.\w+\s*$")
_PHONE_VALUE = re.compile(r"^\s*\+?[\d\s().\/-]+$")
_PHONE_DIGITS = 7
_HOURS = re.compile(r"\b\d{1,2}[.:]\d{2}\b")  # "09.00-17.30": opening hours, not a number to call


def contact_detail(attribute: str | None, value: str | None) -> str | None:
    """`email` or `phone_number` when `attribute` is a contact channel slot (`contact_channel`,
    `contact_channel:sms`, `preferred_contact_method`) and `value` is only an email address or a phone number;
    else None."""
    if not attribute or not value or slot_of(attribute.strip().casefold().partition(":")[0]) != "contact_channel":
        return None
    if _EMAIL_VALUE.match(value):
        return "email"
    if _PHONE_VALUE.match(value) and sum(c.isdigit() for c in value) >= _PHONE_DIGITS and not _HOURS.search(value):
        return "phone_number"
    return None


def category_of(attribute: str | None, quote: str = "") -> str | None:
    """The category `attribute` fixes (`decision:gym_membership` -> decision; `contact_channel:mobile` ->
    preference: a 1.5B model filed it client_info, so it never met the user's `contact_channel`), None when it
    fixes none. A
    `decision:` slot whose `quote` states a standing instruction (and does not open with an assent) is a
    preference."""
    if not attribute:
        return None
    if attribute.strip().casefold().startswith("decision:") and _STANDING.search(quote) and not _ASSENT.match(quote):
        return "preference"
    slot = attribute.strip().casefold()
    if slot in FIXED:
        return FIXED[slot]
    prefix, colon, _ = slot.partition(":")
    if colon:  # a listed slot with a kind of the model's own ("contact_channel:mobile") is still that slot
        return PREFIXED.get(prefix) or FIXED.get(prefix) or FIXED.get(slot_of(prefix))
    # another name of a listed slot (`occupation` is the job: domain.owners), or a standing choice
    return FIXED.get(slot_of(slot)) or STANDING_CHOICES.get(slot_of(slot))


def prompt_list() -> str:
    """The slots as the prompt lists them, grouped by the category they fix."""
    single = [s for s in FIXED if s not in MULTI_VALUED_ATTRIBUTES]
    multi = sorted(MULTI_VALUED_ATTRIBUTES)
    return (f"{', '.join(single)}, favourite:<thing>, opinion:<thing> (value: likes|loves|dislikes|hates), "
            f"decision:<thing> (a one-off choice; value: what was decided); several values allowed: "
            f"{', '.join(multi)}")
