"""The reconciliation slots (`attribute`) the LLM is told about, and the category each slot fixes.

A slot names what a fact is about, so for most slots it also says the category: a `home_location` is
client_info whatever the model put in `category` (small models were seen answering `preference` for
`home_location` and `job`: issue 16). `category_of` gives that category, or None for a slot that leaves it open
(`other`, an unknown slot): the model's own category then stands.
"""

from __future__ import annotations

from memory_pipeline.domain.reconcile import MULTI_VALUED_ATTRIBUTES

# Slot -> the category it fixes. Single-valued unless in the reconciler's MULTI_VALUED_ATTRIBUTES.
FIXED = {
    "name": "client_info", "home_location": "client_info", "hometown": "client_info", "job": "client_info",
    "employer": "client_info", "email": "client_info", "phone_number": "client_info",
    "shipping_address": "client_info", "skill": "client_info", "spoken_language": "client_info",
    "preferred_name": "preference", "contact_channel": "preference", "diet": "preference",
    "delivery_instruction": "preference", "hobby": "preference", "interest": "preference",
    "activity": "preference",
}
# Slot families `<prefix>:<object>` -> the category they fix.
PREFIXED = {"favourite": "preference", "favorite": "preference", "opinion": "preference", "decision": "decision"}


def category_of(attribute: str | None) -> str | None:
    """The category `attribute` fixes (`decision:gym_membership` -> decision), None when it fixes none."""
    if not attribute:
        return None
    slot = attribute.strip().casefold()
    if slot in FIXED:
        return FIXED[slot]
    prefix, colon, _ = slot.partition(":")
    return PREFIXED.get(prefix) if colon else None


def prompt_list() -> str:
    """The slots as the prompt lists them, grouped by the category they fix."""
    single = [s for s in FIXED if s not in MULTI_VALUED_ATTRIBUTES]
    multi = sorted(MULTI_VALUED_ATTRIBUTES)
    return (f"{', '.join(single)}, favourite:<thing>, opinion:<thing> (value: likes|loves|dislikes|hates), "
            f"decision:<thing> (a one-off choice; value: what was decided); several values allowed: "
            f"{', '.join(multi)}")
