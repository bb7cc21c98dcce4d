"""One extraction rule (a first-person pattern and the fact it writes), and the checks a captured value must pass.

A single-valued slot's new value supersedes the old one, so a false positive ("We moved to a new CRM" as a home)
destroys a true fact. Each slot therefore checks that its value is the kind of thing the slot holds; a miss is
cheaper than a false fact. Without a gazetteer, "a place" and "an organisation" mean a proper name: it starts
with a capital (or a letter of a script without case, e.g. CJK), after an optional article, and does not start
with a determiner ("A new CRM" typed with a capital is still a thing).

Every fact is a sentence a person reads as right: third person ("User ...", "L'utilisateur ...", "Der Nutzer
...", "El usuario ...", "用户..."), balanced quotation marks, no aside cut off after a dash, no value that hangs
on an unresolved pronoun (`text.UNRESOLVED`) or that reads as violence ("likes shooting people": a photographer's
word taken literally; issue 17).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from memory_pipeline.extractors.offline.text import BREAKS, LEAD, UNRESOLVED

# Value ends at sentence punctuation, or before a comma/word that opens a new thought.
END = (
    r"(?=\s*(?:[.!?;。！？；](?![\w@])|[,，]\s*(?:it|it's|that|this|but|so|because|which|and I|though|too|I|we|my|as|"
    r"like|by the way|btw|thanks|please|not|could|can|would|do|does|what|how|any|just|et|mais|pas|und|aber|nicht|"
    r"y|pero|no|je|ich|yo|mi)\b|,\s*and (?:often|usually|always|sometimes|also|then|really|never)\b|，|"
    r"\s+(?:because|but|since|though|which|so that|so (?=(?:I|we)\b)|as well|parce que|car|weil|"
    r"porque)\b|\s+[-–—]\s|$))"
)
# Value characters: a period directly followed by a word character (an email, a decimal) stays inside.
VCHARS = r"(?:[^.!?;。！？；，" + BREAKS + r"]|[.](?=[\w@]))"
VALUE = r"(?P<v>" + VCHARS + r"{2,120}?)" + END


def value_before(words: str) -> str:
    """A value (up to 80 characters) that ends at `END` or before one of `words` (a regex alternation): the
    employer said before the job ("at Northwind as a platform engineer", "chez Airbus comme ingénieure")."""
    return r"(?P<v>" + VCHARS + r"{2,80}?)(?=\s+(?:" + words + r")\s|" + END[3:]
NAME = r"(?P<v>[A-ZÀ-ÖØ-Þ][\w'-]+(?: [A-ZÀ-ÖØ-Þ][\w'-]+)?)"
EMAIL = r"(?P<v>[^\s@]+@[^\s@]+?\.[^\s@]*?\w)(?=[,;!?.]?(?:\s|$))"

# A time said after the value ("moved to Lyon last month"): kept in the fact (domain.relative_time dates it),
# not in the slot's value.
_WHEN = re.compile(
    r"\s+(?P<when>(?:(?:on|in|at|for|by) )?(?:yesterday|today|tonight|tomorrow|this (?:morning|afternoon|evening|week|"
    r"month|year)|(?:last|next) (?:night|week|month|year|monday|tuesday|wednesday|thursday|friday|saturday|"
    r"sunday)|a (?:week|month|year|while) ago|\d+ (?:days|weeks|months|years) ago|hier|demain|aujourd'hui|"
    r"gestern|heute|morgen|ayer|hoy|mañana)(?: at \d{1,2}(?::\d{2})?\s*(?:am|pm)?)?)$",
    re.IGNORECASE,
)
_TRAILING = re.compile(
    r"\s+(?:now|these days|anymore|any more|lately|recently|too|as well|a lot|very much|so much|the most|"
    r"maintenant|aussi|beaucoup|jetzt|auch|sehr|gern|gerne|ahora|también|mucho)$",
    re.IGNORECASE,
)
# A value that only points back ("that feeling", "it") is not self-contained.
_VAGUE = re.compile(r"^(?:it|that|this|these|those|them|so|one)(?:\s+\w+)?$", re.IGNORECASE)
# Violence read literally: "shooting people" (photography), "killing it" (doing well).
_VIOLENT = re.compile(
    r"\b(?:shoot|shooting|kill|killing|hurt|hurting|stab|stabbing|hit|hitting|beat|beating|attack|attacking)\b"
    r".*\b(?:people|person|someone|strangers|kids|children|others|them|him|her|folks|it)\b",
    re.IGNORECASE,
)
_NOT_A_NAME_START = frozenset(
    "a an my our your his her their its this that these those some any no every each another "
    "un une mon ma mes ton ta notre ein eine mein meine dein unser una mi mis tu nuestro".split()
)
_ARTICLES = frozenset("the le la les l' der die das el los las".split())
# "I'm Ok", "call me Tomorrow", "I'm English": capitalised words that are not a person's name.
_NOT_A_PERSON = frozenset(
    "ok okay fine good great well back done here there sorry ready sure busy tired new home in out happy glad "
    "alright lost confused hungry excited curious not so very really just also still now later soon tomorrow "
    "today tonight anytime asap monday tuesday wednesday thursday friday saturday sunday maybe vegan vegetarian "
    "english french german spanish italian chinese japanese korean american british canadian australian indian "
    "russian polish dutch swedish irish scottish welsh brazilian mexican portuguese greek turkish arab jewish "
    "muslim catholic hindu buddhist single married divorced retired pregnant sick ill".split()
)
# Words that make a capitalised value a thing rather than a place ("the new CRM", "Google Cloud", "Version 2").
_NOT_A_PLACE_WORD = frozenset(
    "crm erp app apps platform software tool tools system systems stack server servers cloud version plan "
    "provider vendor database framework library website site api model release".split()
)
# Collective or manner words after "I work as a ...": "a team", "a volunteer group" are not a job.
_NOT_A_ROLE = frozenset("team group family unit pair whole collective".split())
_CJK = re.compile(r"[\u3400-\u9fff]")


def is_proper_name(value: str) -> bool:
    """True for a value that can be a place or organisation: "Berlin", "the Netherlands", "Acme Corp", "東京"."""
    words = value.split()
    if words and words[0].casefold() in _ARTICLES:
        words = words[1:]
    if not words or words[0].casefold().strip("'\"") in _NOT_A_NAME_START:
        return False
    first = words[0][0]
    return first.isalpha() and not first.islower()


def is_place(value: str) -> bool:
    """True for a value that can be a place: a proper name with no word that names a tool."""
    return is_proper_name(value) and not any(w.casefold().strip(".,") in _NOT_A_PLACE_WORD for w in value.split())


def is_person_name(value: str) -> bool:
    """True for a value that can be a person's name (not a state, time or nationality word)."""
    return not any(word.casefold() in _NOT_A_PERSON for word in value.split())


def is_role(value: str) -> bool:
    """True unless the job value is a collective or manner word ("a team")."""
    words = value.casefold().split()
    return bool(words) and words[-1] not in _NOT_A_ROLE and words[0] not in _NOT_A_ROLE


@dataclass(frozen=True)
class Rule:
    """One pattern, matched at a clause start. `template` formats the fact from the named groups (`v` the
    cleaned value; `verb` mapped through `verbs`); `attribute` is a slot name, None, or a callable of
    (match, cleaned value) -> slot; `value` likewise gives the slot's value (default: the cleaned value);
    `accepts` must hold for the cleaned value; `more`: the next rules may match the same clause too."""

    pattern: re.Pattern[str]
    category: str
    attribute: str | Callable[[re.Match[str], str], str | None] | None
    template: str
    accepts: Callable[[str], bool] | None = None
    value: Callable[[re.Match[str], str], str | None] | None = None
    verbs: dict[str, str] | Callable[[str, str], str] = field(default_factory=dict)  # or (verb, value) -> verb
    person: Callable[[str], str] | None = None  # first person -> third person for the value
    subject: Callable[[str], str] | None = None  # the sentence's subject, agreeing with the value's gender
    more: bool = False


def rule(regex: str, category: str, attribute, template: str, **options) -> Rule:
    """A `Rule` whose pattern is `regex` after optional opening filler words, case-insensitive."""
    return Rule(re.compile(LEAD + regex, re.IGNORECASE), category, attribute, template, **options)


def clean_value(value: str) -> tuple[str, str]:
    """(value, time said after it): trimmed, without trailing filler words ("now", "too"), a dangling aside
    after a dash or unbalanced quote marks; the time ("last month") is returned apart."""
    value = re.split(r"\s+[-–—]\s+", value.strip(), maxsplit=1)[0].strip()
    value = re.sub(r"^(?:also|too|even|still)\s+", "", value, flags=re.IGNORECASE)  # "I like also X": X
    head, _, tail = value.rpartition(", ")
    if head and UNRESOLVED.search(tail) and not UNRESOLVED.search(head):
        value = head  # a closing remark that points back ("..., a variety of them") is no part of the value
    when, previous = "", None
    while previous != value:
        previous, value = value, _TRAILING.sub("", value).strip().rstrip(",，")
        match = _WHEN.search(value)
        if match and not when:
            when, value = match.group("when"), value[:match.start()].strip()
    return balance_quotes(trim_unpaired_brackets(value)), when


# Bracket pairs a value may hold ("Acme (Berlin)"); one without its partner at the value's edge is punctuation of
# the sentence around it ("I live in Rome'); DROP TABLE ..." gave the value "Rome')").
_PARTNER = {"(": ")", "[": "]", "{": "}", ")": "(", "]": "[", "}": "{"}


def trim_unpaired_brackets(value: str) -> str:
    """`value` without single quotes or backticks at its edges and without a bracket at an edge that outnumbers
    its partner, repeated until nothing changes."""
    previous = None
    while previous != value:
        previous = value
        value = value.strip().strip("'`").strip()
        for edge in (value[-1:], value[:1]):
            if edge in _PARTNER and value.count(edge) > value.count(_PARTNER[edge]):
                value = value[:-1] if value.endswith(edge) and edge in ")]}" else value[1:]
                break
    return value


def balance_quotes(text: str) -> str:
    """`text` with an unpaired straight double quote closed (or, when it opens nothing, dropped), so that a fact
    never loses its closing quote ("The Kite Runner.)."""
    if text.count('"') % 2 == 1:
        opens = text.rfind('"') < len(text) - 1 and text.lstrip().startswith('"')
        text = text + '"' if opens else text.replace('"', "")
    for opening, closing in (("“", "”"), ("«", "»"), ("„", "“"), ("「", "」")):
        if text.count(opening) > text.count(closing):
            text += closing
    return text


# A definite noun that needs a possessor said elsewhere ("the plot", "the actors": of what?).
_RELATIONAL = re.compile(
    r"^the (?:plot|ending|end|beginning|actors?|cast|characters?|story|scenes?|part|idea|approach|price|design|"
    r"colou?r|taste|rest|last one|first one|new one|one|way it|sound|lyrics|author|director|thought)\b"
    r"(?!\s+of\b)",  # "the sound of rain" names whose sound
    re.IGNORECASE,
)
# A comparison whose other term was said elsewhere ("I like the new approach better"): not self-contained.
_COMPARED = re.compile(r"\s(?:better|more|less|instead)$", re.IGNORECASE)
# A definite thing of the conversation, named without what it belongs to ("the track", "the inspirational and
# profound literary style" of a book named in another clause): "of what?" has its answer elsewhere. "the art
# style of the Renaissance" names it. Source: the demo's MemoryBank facts (issue 17).
_ANAPHORIC = re.compile(
    r"\bthe (?:[\w-]+,? (?:and )?){0,4}?(?:track|book|novel|movie|film|show|series|game|match|song|album|place|"
    r"trip|event|course|class|lesson|style|feeling|atmosphere|mood|tone|vibe|experience|scenery|view|setting|"
    r"writing|language|character|message|theme|version|plot|one|thing|stuff|way)s?\b(?!\s+(?:of|in|at|from|"
    r"by|about|called|named)\b|\s+(?-i:[A-Z\"“]))|"
    # "escaping to that world", "create one of my own": a demonstrative or "one" whose thing was named before
    r"\b(?:to|in|into|with|from|at|on|about|for|of|like) that \w+|\bone of (?:their|my|our|his|her) own\b",
    re.IGNORECASE,
)
# "shooting" with no object but a place: photography or a firearm, the reader cannot tell ("likes shooting near
# beaches"; "shooting landscapes" names what is photographed).
_AMBIGUOUS = re.compile(r"\bshoot(?:s|ing)?\s+(?:near|at|in|on|around|by|outdoors|outside)\b", re.IGNORECASE)


def usable(value: str) -> bool:
    """False for a value that cannot make a fact: empty, too long, pointing back (a pronoun, a comparison
    without its other term, "the plot" or "the track" of something said before), reading as violence, or
    ambiguous between a hobby and a weapon ("shooting near beaches")."""
    return (bool(value) and len(value) <= 120 and not _VAGUE.match(value) and not UNRESOLVED.search(value)
            and not _COMPARED.search(value) and not _RELATIONAL.search(value) and not _ANAPHORIC.search(value)
            and not _VIOLENT.search(value) and not _AMBIGUOUS.search(value))


def build(r: Rule, match: re.Match[str]) -> tuple[str, str | None, str | None] | None:
    """(fact, attribute, value) of a rule's match, or None when the captured value is unusable."""
    raw = match.group("v")
    value, when = clean_value(raw)
    if not usable(value) or (r.accepts is not None and not r.accepts(value)):
        return None
    groups = {k: (v or "") for k, v in match.groupdict().items()}
    verb = groups.get("verb", "").casefold()
    said = match.group(0)
    work = re.search(r"work (at|for)\b", said, re.IGNORECASE)
    article = re.search(r"\b(an?) (?=" + re.escape(raw.strip()) + ")", said)
    person = r.person or (lambda text: text)
    fields = dict(groups, v=person(value), verb=r.verbs(verb, value) if callable(r.verbs) else r.verbs.get(verb, verb), rest=person(groups.get("rest", "")),
                  m=work.group(1).casefold() if work else "for",  # "works at" / "works for", as said
                  article=(article.group(1).casefold() + " ") if article else "",
                  subject=r.subject(value) if r.subject else "")
    fact = r.template.format(**fields)
    if when:  # the time goes back into the sentence, before its final period
        fact = fact[:-1] + " " + when + fact[-1:] if fact[-1:] in ".。" else fact + " " + when
    fact = re.sub(r"\s+([.。])$", r"\1", fact)
    attribute = r.attribute(match, value) if callable(r.attribute) else r.attribute
    slot_value = r.value(match, value) if r.value else value
    return fact[:1].upper() + fact[1:], attribute, slot_value


def is_cjk(text: str) -> bool:
    """True when `text` holds a CJK ideograph."""
    return bool(_CJK.search(text))
