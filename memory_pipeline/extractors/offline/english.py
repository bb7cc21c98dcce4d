"""English first-person patterns: name, home, job and employer, email and phone, contact channel, standing
instructions, diet, favourites, likes and dislikes, decisions, plans and past purchases. Facts are written in the
third person ("User prefers ..."); the rules are tried in order and the first that matches a clause wins."""

from __future__ import annotations

import re

from memory_pipeline.extractors.offline.rules import (
    EMAIL, END, NAME, VALUE, VCHARS, is_person_name, is_place, is_proper_name, is_role, rule,
    value_before)

_PRONOUNS = [
    (re.compile(r"\bI'm\b"), "they're"),
    (re.compile(r"\bI am\b"), "they are"),
    (re.compile(r"\bI\b"), "they"),
    (re.compile(r"\bmyself\b", re.IGNORECASE), "themselves"),
    (re.compile(r"\bmy\b", re.IGNORECASE), "their"),
    (re.compile(r"\bmine\b", re.IGNORECASE), "theirs"),
    (re.compile(r"\bme\b", re.IGNORECASE), "them"),
    (re.compile(r"\bour\b", re.IGNORECASE), "their"),
    (re.compile(r"\bus\b", re.IGNORECASE), "them"),
    (re.compile(r"\bwe\b", re.IGNORECASE), "they"),
]


def third_person(value: str) -> str:
    """First-person words of an English value in the third person ("my team" -> "their team")."""
    for pattern, replacement in _PRONOUNS:
        value = pattern.sub(replacement, value)
    return value


_CHANNELS = r"(?P<v>e-?mail|phone|sms|text(?: message)?s?|whatsapp|telegram|post|mail)"
_ROLE_NOUNS = (
    r"engineer|developer|teacher|student|nurse|doctor|designer|manager|writer|lawyer|accountant|consultant|"
    r"artist|musician|chef|scientist|analyst|researcher|programmer|freelancer|photographer|retiree|owner|founder|"
    r"co-founder|cofounder|ceo|cto|cfo|coo|cmo|director|lead|president|chair|chairman|chairwoman|secretary|"
    r"treasurer|administrator|admin|editor|principal|coordinator|architect|officer|supervisor|head of [\w ]{2,40}"
)
_VERBS = {
    "love": "loves", "like": "likes", "enjoy": "enjoys", "prefer": "prefers", "adore": "adores",
    "hate": "hates", "dislike": "dislikes", "can't stand": "cannot stand", "don't like": "does not like",
    "do not like": "does not like",
}
_PAST = {"bought": "bought", "ordered": "ordered", "booked": "booked", "purchased": "purchased"}


# "prefer X" with its other side ("tea to coffee", "invoices as PDF", "email over phone") is a preference; without
# one ("I prefer artistic works", an answer to a question) "User prefers artistic works." asks "over what?": the
# fact says what still holds without the question, that the user likes it.
_OTHER_SIDE = re.compile(r"\b(?:to|over|than|instead of|as|in|on|for|by|via|with|without)\b", re.IGNORECASE)


def _stance_verb(verb: str, value: str) -> str:
    if verb == "prefer" and not _OTHER_SIDE.search(value):
        return "likes"
    return _VERBS.get(verb, verb)


def _opinion(match: re.Match[str], value: str) -> str | None:
    return None if match.group("verb").casefold() == "prefer" else "opinion:" + value.casefold()


def _stance(match: re.Match[str], value: str) -> str:
    """The stance an opinion slot holds ("loves"); for "prefer" (no slot) the preferred thing itself."""
    verb = match.group("verb").casefold()
    return value if verb == "prefer" else _VERBS.get(verb, verb)


def _channel(_match: re.Match[str], value: str) -> str:
    return value.casefold().replace("e-mail", "email")


def _favourite(match: re.Match[str], value: str) -> str:
    return "favourite:" + match.group("k").strip().casefold()


def _instruction(match: re.Match[str], value: str) -> str:
    return {"send": "delivery_instruction", "mail": "delivery_instruction"}.get(match.group("verb").casefold(),
                                                                             "shipping_address")


def _only(match: re.Match[str]) -> str:
    return " only" if re.search(r"\bonly\b", match.group(0), re.IGNORECASE) else ""


_P = {"person": third_person}
_DATE_WORD = re.compile(r"\d|\b(?:today|tonight|tomorrow|next|this|monday|tuesday|wednesday|thursday|friday|saturday|"
                        r"sunday|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|noon|midnight|morning|afternoon|"
                        r"evening)", re.IGNORECASE)


def _names_a_date(value: str) -> bool:
    """True when `value` holds a date or time word (an appointment "is on March 20", not "is on my mind")."""
    return _DATE_WORD.search(value) is not None


def _appointment(match: re.Match[str], value: str) -> str:
    """The slot of an appointment: `appointment:<kind>` ("dentist appointment" -> appointment:dentist_appointment)."""
    return "appointment:" + "_".join((match.group("k") + match.group("n")).casefold().split())
# "going to <verb>" is a plan of doing, not a destination ("we're going to wait, not rush").
_NOT_A_DESTINATION = frozenset("be do get go have make take try wait stay see buy use keep start stop need the a an my "
                               "our your bed work school".split())
_NAME_ONLY = NAME.replace("(?P<v>", "(?P<v>(?-i:") + ")"
_WORK_AT = r"I (?:currently )?work (?:at|for) "

RULES = (
    # client_info
    rule(r"my name is " + _NAME_ONLY, "client_info", "name", "User's name is {v}.", accepts=is_person_name),
    rule(r"(?:I'm|I am) (?-i:" + NAME + r")(?=[,.!]|\s+(?:and|nice|here)\b)", "client_info", "name",
         "User's name is {v}.", accepts=is_person_name),
    rule(r"(?:you can )?call me (?-i:" + NAME + r")", "client_info", "preferred_name", "User likes to be called {v}.",
         accepts=is_person_name),
    rule(r"(?:I'm|I am) (?:based|located) in " + VALUE, "client_info", "home_location", "User is based in {v}.",
         accepts=is_place),
    rule(r"I (?:currently )?live in " + VALUE, "client_info", "home_location", "User lives in {v}.",
         accepts=is_place),
    # "moved to" also names tools ("We moved to a new CRM"): the value must be a place.
    rule(r"(?:I|we) (?:just |recently |also |finally )*(?:moved|relocated) (?:from [^,.;]+? )?to " + VALUE,
         "client_info", "home_location", "User moved to {v}.", accepts=is_place),
    rule(r"I grew up in " + VALUE, "client_info", "hometown", "User grew up in {v}.", accepts=is_place),
    rule(r"my company is " + VALUE.replace(END, r"(?=\s+and\b|" + END[3:]), "client_info", "employer",
         "User's company is {v}.", accepts=is_proper_name),
    rule(r"I (?:just )?started a new job as (?:an? )?" + VALUE, "client_info", "job", "User works as {article}{v}.",
         accepts=is_role, **_P),
    rule(r"I work as (?:an? (?=\w)|(?=(?-i:[A-Z])))" + VALUE, "client_info", "job", "User works as {article}{v}.",
         accepts=is_role, **_P),
    # "I work at Northwind as a platform engineer": the job, then the employer from the same clause.
    rule(_WORK_AT + r"[^,.;!?]+? as (?:an? )?" + VALUE, "client_info", "job", "User works as {article}{v}.",
         accepts=is_role, more=True, **_P),
    rule(_WORK_AT + value_before("as"), "client_info", "employer",
         "User works {m} {v}.", accepts=is_proper_name),
    rule(r"(?:I'm|I am) the (?P<v>(?:[\w-]+ ){0,3}(?:" + _ROLE_NOUNS + r"))(?:\b|$)", "client_info", "job",
         "User is the {v}."),
    rule(r"(?:I'm|I am) (?:a|an) (?P<v>(?:[\w-]+ ){0,3}(?:engineer|developer|teacher|student|nurse|doctor|designer|"
         r"manager|writer|lawyer|accountant|consultant|artist|musician|chef|scientist|analyst|researcher|programmer|"
         r"freelancer|photographer|retiree))\b", "client_info", "job", "User is {article}{v}."),
    rule(r"I (?:just )?joined " + VALUE, "client_info", None, "User joined {v}.", **_P),
    rule(r"my e-?mail(?: address)? is " + EMAIL, "client_info", "email", "User's email address is {v}."),
    rule(r"my (?:phone|mobile|cell)(?: number)? is (?P<v>\+?[\d][\d ()./-]{4,}\d)", "client_info", "phone_number",
         "User's phone number is {v}."),
    # preference: contact channel and standing instructions
    rule(r"(?:please )?(?:only )?(?:contact|reach|call|email|text) me (?:by|via|on|through|over) " + _CHANNELS
         + r"(?P<only> only)?", "preference", "contact_channel", "User wants to be contacted by {v}{only}.",
         value=_channel),
    rule(r"(?:the )?" + _CHANNELS + r" is (?:fine|ok|okay|better|best|preferred)", "preference", "contact_channel",
         "User is fine with being contacted by {v}.", value=_channel),
    rule(r"(?:please )?(?:always )?(?P<verb>send|ship|deliver|mail) (?P<v>" + VCHARS
         + r"{2,120}?) from now on(?P<rest>:[^.!?;]+)?", "preference", _instruction,
         "User asks to always {verb} {v}{rest}.", **_P),
    rule(r"(?:please )?always (?P<verb>send|ship|deliver|mail) (?P<v>" + VCHARS
         + r"{2,120}?)(?: from now on)?(?P<rest>:[^.!?;]+)?" + END, "preference", _instruction,
         "User asks to always {verb} {v}{rest}.", **_P),
    rule(r"(?:I'm|I am) (?:a )?(?P<v>vegetarian|vegan|pescatarian)", "preference", "diet", "User is {v}.",
         value=lambda m, v: v.casefold()),
    # not "my favorite one to jam to is ...": "one" stands for a thing named elsewhere
    rule(r"my (?:favou?rite) (?!(?:one|ones|thing|things|part)\b)(?P<k>[\w ]{2,30}?) is " + VALUE, "preference", _favourite,
         "User's favourite {k} is {v}.", **_P),
    rule(r"I (?:really |absolutely |also |just |quite |truly |still |now )*(?P<verb>love|like|enjoy|adore|prefer|"
         r"hate|dislike|can't stand|don't like|do not like) " + VALUE, "preference", _opinion, "User {verb} {v}.",
         value=_stance, verbs=_stance_verb, **_P),
    # decision
    rule(r"(?:I|we)(?:'ve| have)? decided (?P<neg>not )?to " + VALUE, "decision", None, "User decided {neg}to {v}.",
         **_P),
    rule(r"(?:I|we)(?:'ve| have)? decided that " + VALUE, "decision", None, "User decided that {v}.", **_P),
    rule(r"(?:I|we)(?:'ve| have)? decided on " + VALUE, "decision", None, "User decided on {v}.", **_P),
    rule(r"(?:I|we)(?:'d| would) like to (?P<verb>cancel|order|buy|book|upgrade|downgrade|switch to|subscribe to|"
         r"sign up for|renew|return) " + VALUE, "decision", None, "User wants to {verb} {v}.", **_P),
    rule(r"(?:I|we) want to (?P<verb>cancel|order|buy|book|upgrade|downgrade|switch to|subscribe to|sign up for|"
         r"renew|return) " + VALUE, "decision", None, "User wants to {verb} {v}.", **_P),
    rule(r"please (?P<verb>cancel|renew|upgrade|downgrade) (?P<v>my " + VCHARS + r"{2,100}?)" + END, "decision", None,
         "User asked to {verb} {v}.", **_P),
    rule(r"(?:I|we)(?:'ll| will) (?P<verb>take|go with|buy|order|cancel|book|switch to|sign up for) "
         r"(?!(?:a |an |some )?(?:look|walk|break|rest|nap|moment|minute|while|try|shot|care|it easy|note|seat|"
         r"photos?|pictures?|(?:your |the )?advice)\b)" + VALUE, "decision", None, "User will {verb} {v}.", **_P),
    # plans: a trip and where it goes (a change of plan names the new destination, and often the old one)
    rule(r"(?:I'm|I am|we're|we are) (?:planning|organi[sz]ing|taking|going on) (?P<v>(?:a|an|our|my) (?:[\w-]+ )?"
         r"(?:trip|holiday|vacation|journey|visit) to " + VCHARS + r"{2,80}?)" + END, "decision", None,
         "User is planning {v}.", **_P),
    # A destination set against another ("going to ulanqab, not hohhot"): a place even typed in lower case.
    rule(r"(?:I'm|I am|we're|we are) (?:now )?(?:going|heading|travell?ing|flying|driving) to (?P<v>[^\W\d_]+"
         r"(?: [^\W\d_]+)?)(?=,?\s+(?:not|instead of|rather than)\s)", "decision", None, "User is going to {v}.",
         accepts=lambda v: v.split()[0].casefold() not in _NOT_A_DESTINATION, **_P),
    rule(r"(?:I'm|I am|we're|we are) (?:now )?(?:going|heading|travell?ing|flying|driving) to " + VALUE, "decision",
         None, "User is going to {v}.", accepts=lambda v: is_place(v.split(" on ")[0]), **_P),
    rule(r"(?:I|we) (?:just )?(?P<verb>switched to|subscribed to|signed up for|cancelled|canceled) " + VALUE,
         "decision", None, "User {verb} {v}.", **_P),
    # appointments: one slot per kind ("dentist appointment"), so the date it moved to supersedes the old one
    rule(r"(?:my|our|the) (?P<k>(?:[\w'-]+ ){0,2})(?P<n>appointment|meeting|interview|check-?up|consultation|"
         r"reservation|flight|call) (?:is |was |has been |got |'s )?(?:now )?(?:(?:moved|rescheduled|changed|"
         r"pushed back|postponed|brought forward|set) )?(?P<verb>on|at|to|for) " + VALUE, "decision", _appointment,
         "User's {k}{n} is {verb} {v}.", accepts=_names_a_date, verbs={"to": "on", "for": "on"}, **_P),
    # past purchases: something the user did, not a decision still to carry out; an event, not a trait, so its
    # own slot (`purchase`, several values) with a time-to-live of weeks (settings.DEFAULT_TTL_DAYS)
    rule(r"(?:I|we) (?:just )?(?P<verb>bought|ordered|booked|purchased) " + VALUE, "client_info", "purchase",
         "User {verb} {v}.", **_P),
)

