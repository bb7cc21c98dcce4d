"""The user's words correct the slot a model filed a fact under, before the gates judge it (issue 26): what was
said decides, not the name the model chose.

- `ended_liking`: a dislike whose quote says the liking ended ("I no longer like Vim.", "je n'aime plus le café",
  "ya no me gusta", "больше не люблю") withdraws the liking: a retraction of the slot, not a new dislike the user
  never stated. A 1.5B model answered `opinion:vim` = dislikes for "I no longer like Vim." (cases set,
  `retraction-no-longer-likes`), which left a dislike active where the user only stopped liking.
- `origin_slot`: a home slot (`home_location` ...) whose quote says where the user grew up or was born and nothing
  of living there ("I grew up in Ohio, so the weather here is a nice change.") is the user's hometown: filed as
  home it superseded the city the user lives in now (a 1.5B model's answer, `long-multi-topic-session`).
- `trip_slot`: a home slot whose fact's own text says the user plans it ("The user plans a road trip to Hohhot.")
  and whose quote names a trip and nothing of living there ("We're planning a road trip to Hohhot in August.") is
  a decision about a trip: filed as a home it was rejected (`home_not_stated`), and with it the change of
  destination it is superseded by (a 1.5B model's answer in two cases of the cases set).

They read the language data of domain/languages/ (`cessation`, `origin`, `travel`, `living`, `fact_plan`); in a
language without that data the fact is judged as the model filed it.
"""

from __future__ import annotations

from memory_pipeline.domain import language, lexicon, speech
from memory_pipeline.domain.homes import is_home_slot
from memory_pipeline.domain.statements import polarity
from memory_pipeline.domain.value_support import supported

HOMETOWN_SLOT = "hometown"  # the slot family of where the user comes from (domain/owners.py)
TRIP_SLOT = ("decision", "decision:trip")  # (category, attribute) of a trip the user plans


def _clauses_naming(thing: str, quote: str, codes: lexicon.Codes) -> list[str]:
    """The clauses of `quote` (`speech.clauses`) that hold `thing` (`supported`); all of them when none does (a
    thing named in another language) or `thing` is empty."""
    clauses = speech.clauses(quote, codes) or [quote]
    return [c for c in clauses if thing and supported(thing, c)] or clauses


def ended_liking(value: str | None, quote: str, attribute: str | None = None) -> bool:
    """True when `value` is a negative stance and the clause of `quote` naming the slot's object (`attribute`'s
    part after ":") says, in its language's words, that a liking ended (`cessation`: "no longer like", "n'aime
    plus"; not "can't stand it any more", a dislike said now, nor "I no longer like Vim, and I really dislike
    Emacs" for Emacs); False in a language without that data."""
    if polarity(value) is not False:  # not a dislike ("dislikes", "hate", "doesn't like" ...)
        return False
    codes = lexicon.codes_for(language.identify(quote))
    thing = (attribute or "").partition(":")[2].replace("_", " ").strip()
    cessation = lexicon.pattern("cessation", codes)
    return all(cessation.search(c) for c in _clauses_naming(thing, quote, codes))


def origin_slot(attribute: str | None, quote: str, value: str | None = None) -> str | None:
    """`HOMETOWN_SLOT` when `attribute` is a home slot and every clause of `quote` holding `value` says where the
    user grew up or was born, with no word of living there outside those words, in a language whose data has
    both; else None (the slot stands as filed: "I was born in Ohio but I've been in Chicago for ten years" keeps
    Chicago a home)."""
    told = language.identify(quote)
    if not is_home_slot(attribute) or told is not None and told not in lexicon.knowing("living"):
        return None  # without living words "nato a Roma ma vivo a Milano" cannot be told from "nato a Roma"
    codes = lexicon.codes_for(told)
    origin, living = lexicon.pattern("origin", codes), lexicon.pattern("living", codes)
    said = _clauses_naming(value or "", quote, codes)
    if all(origin.search(c) and not living.search(origin.sub(" ", c)) for c in said):
        return HOMETOWN_SLOT
    return None


def trip_slot(attribute: str | None, quote: str, value: str | None, fact: str) -> tuple[str, str] | None:
    """`TRIP_SLOT` when `attribute` is a home slot, `fact` says the user plans it (`fact_plan`, in the fact's
    language: not a wish, a question or a request) and names no living there, and every clause of `quote` holding
    `value` names a trip (`travel`) and nothing of living there (`living`), in a language whose data has both;
    else None ("The user plans to move to Bristol." after "we're visiting flats in Bristol" stays a home and meets
    the gates; "The user wants a refund for their trip to Bali." is no plan; "I visited Paris" neither)."""
    told = language.identify(quote)
    if not is_home_slot(attribute) or told is not None and told not in (
            lexicon.knowing("living") & lexicon.knowing("travel")):
        return None
    fact_codes = lexicon.codes_for(language.identify(fact))
    if not lexicon.pattern("fact_plan", fact_codes).search(fact) or lexicon.pattern("living", fact_codes).search(fact):
        return None
    codes = lexicon.codes_for(told)
    travel, living = lexicon.pattern("travel", codes), lexicon.pattern("living", codes)
    said = _clauses_naming(value or "", quote, codes)
    if all(travel.search(c) and not living.search(c) for c in said):
        return TRIP_SLOT
    return None
