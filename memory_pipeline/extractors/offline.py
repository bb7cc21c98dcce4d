"""Offline extractor: deterministic rules, no network, no model.

What it does: splits the user's turns into sentences, skips questions, hypotheticals, pleasantries,
instructions aimed at the assistant ("ignore previous instructions") and statements about other people, and
matches the rest against a small table of first-person patterns (name, location, job, likes and dislikes,
contact channel, standing instructions, decisions) in English, plus a few in French and Chinese. Every fact it
returns quotes the whole sentence it came from, verbatim; English facts are rewritten in the third person
("User prefers ..."), other languages keep the clause as said.

What it cannot do (README, "The offline extractor"): it misses anything phrased outside its patterns, does not
resolve "it"/"that" or relative dates, and does not understand a "yes" that accepts an assistant's offer. The
LLM backend is the way past those limits.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from memory_pipeline.domain.conversations import Conversation
from memory_pipeline.domain.facts import ExtractedFact
from memory_pipeline.extractors.base import ExtractionResult, SummaryResult

# Line breaks: every line/paragraph boundary Unicode defines (the transcript already holds them as "\n"; this keeps
# text from elsewhere safe too).
_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
# A sentence: up to and including its end punctuation (Latin or CJK), or to a line break.
# A period followed directly by a word character stays inside (emails, decimals, URLs: "billing@example.org").
_SENTENCE = re.compile(r"(?:[^.!?。！？" + _BREAKS + r"]|[.!?](?=[\w@/]))+(?:[.!?。！？]+[\"')\]]*|(?=[" + _BREAKS + r"])|\Z)")
# Where a clause may start inside a sentence: after , ; : or a joining word before a first-person subject.
_CLAUSE_START = re.compile(r"(?:[,;:，；]\s*|\s(?:and|but|so|also)\s+(?=(?:I|I'm|my|we)\b))")
# Words that open a clause without changing its meaning.
_LEAD = r"(?:(?:hi|hello|hey|well|honestly|actually|also|now|oh|yes|yeah|ok|okay|so|and|but|plus|haha|hmm|um|by the way|btw|friend|there|from now on|et|mais|aussi|alors|bon|donc)[,!]?\s+)*"

_HYPOTHETICAL = re.compile(
    r"\b(?:if|maybe|perhaps|might|not sure|unsure|probably|possibly|considering|thinking about|wonder|"
    r"whether|someday|one day|hope|wish)\b|\b(?:peut-être|si)\b|也许|如果|可能",
    re.IGNORECASE,
)
_INJECTION = re.compile(
    r"\b(?:ignore|disregard|forget)\b.{0,40}\b(?:instructions?|prompt|rules?)\b|\b(?:system prompt|you are now)\b",
    re.IGNORECASE,
)
_INTERROGATIVE = re.compile(
    r"^(?:what|what's|how|where|when|why|who|which|do|does|did|can|could|would|will|is|are|should|shall|have|"
    r"has|may)\b",
    re.IGNORECASE,
)
_THIRD_PARTY = re.compile(
    r"^(?:my|our)\s+(?:friend|friends|wife|husband|partner|mom|mother|dad|father|brother|sister|son|daughter|"
    r"boss|colleague|colleagues|kid|kids|child|children|family|parents|neighbou?r|girlfriend|boyfriend)\b|"
    r"^(?:he|she|they|his|her|their)\b|^我的(?:朋友|同事|家人|妈妈|爸爸|老板)",
    re.IGNORECASE,
)
# Value ends at sentence punctuation, or before a comma/word that opens a new thought.
_END = (
    r"(?=\s*(?:[.!?;。！？；](?![\w@])|,\s*(?:it|it's|that|this|but|so|because|which|and I|though|too|I|we|my|as|like|"
    r"by the way|btw|thanks|please|not|could|can|would|do|does|what|how|any)\b"
    r"|\s+(?:because|but|since|though|which|so that|as well)\b|$))"
)
# Value characters: a period directly followed by a word character (an email, a decimal) stays inside.
_VCHARS = r"(?:[^.!?;。！？；" + _BREAKS + r"]|[.](?=[\w@]))"
_VALUE = r"(?P<v>" + _VCHARS + r"{2,120}?)" + _END
_TRAILING_TIME = re.compile(
    r"\s+(?:now|these days|anymore|any more|lately|recently|today|too|as well|a lot|very much|so much|"
    r"last (?:week|month|year|night)|yesterday|a while ago|the most)$",
    re.IGNORECASE,
)
# A value that only points back ("that feeling", "it") is not self-contained.
_VAGUE = re.compile(r"^(?:it|that|this|these|those|them|so|one)(?:\s+\w+)?$", re.IGNORECASE)
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
_NAME = r"(?P<v>[A-Z][\w'-]+(?: [A-Z][\w'-]+)?)"
_CHANNELS = r"(?P<v>e-?mail|phone|sms|text(?: message)?s?|whatsapp|telegram|post|mail)"


# -- what a single-valued slot accepts -------------------------------------------------------------------
# A single-valued slot's new value supersedes the old one, so a false positive ("We moved to a new CRM" as a home)
# destroys a true fact. Each slot therefore checks that its value is the kind of thing the slot holds; a miss is
# cheaper than a false fact. Without a gazetteer, "a place" and "an organisation" mean a proper name: it starts
# with a capital (or a letter of a script without case, e.g. CJK), after an optional "the", and does not start
# with a determiner ("A new CRM" typed with a capital is still a thing).
_NOT_A_NAME_START = frozenset(
    "a an my our your his her their its this that these those some any no every each another".split()
)
# "I'm Ok", "call me Tomorrow", "I'm English": capitalised words that are not a person's name.
_NOT_A_PERSON = frozenset(
    "ok okay fine good great well back done here there sorry ready sure busy tired new home in out happy glad "
    "alright lost confused hungry excited curious not so very really just also still now later soon tomorrow "
    "today tonight anytime asap monday tuesday wednesday thursday friday saturday sunday maybe vegan vegetarian "
    "english french german spanish italian chinese japanese korean american british canadian australian indian "
    "russian polish dutch swedish irish scottish welsh brazilian mexican portuguese greek turkish arab jewish "
    "muslim catholic hindu buddhist single married divorced retired pregnant sick ill".split()
)
# Roles a job slot accepts after "I'm the ..." (a person's position, not "the best" or "the one who ...").
_ROLE_NOUNS = (
    r"engineer|developer|teacher|student|nurse|doctor|designer|manager|writer|lawyer|accountant|consultant|"
    r"artist|musician|chef|scientist|analyst|researcher|programmer|freelancer|photographer|retiree|owner|founder|"
    r"co-founder|cofounder|ceo|cto|cfo|coo|cmo|director|lead|president|chair|chairman|chairwoman|secretary|"
    r"treasurer|administrator|admin|editor|principal|coordinator|architect|officer|supervisor|head of [\w ]{2,40}"
)
# Collective or manner words after "I work as a ...": "a team", "a volunteer group" are not a job.
_NOT_A_ROLE = frozenset("team group family unit pair whole collective".split())


def _is_proper_name(value: str) -> bool:
    """True for a value that can be a place or organisation: "Berlin", "the Netherlands", "Acme Corp", "東京"."""
    words = value.split()
    if words and words[0].casefold() == "the":
        words = words[1:]
    if not words or words[0].casefold().strip("'\"") in _NOT_A_NAME_START:
        return False
    first = words[0][0]
    return first.isalpha() and not first.islower()


# Words that make a capitalised value a thing rather than a place ("the new CRM", "Google Cloud", "Version 2").
_NOT_A_PLACE_WORD = frozenset(
    "crm erp app apps platform software tool tools system systems stack server servers cloud version plan "
    "provider vendor database framework library website site api model release".split()
)


def _is_place(value: str) -> bool:
    """True for a value that can be a place: a proper name (`_is_proper_name`) with no word that names a tool."""
    return _is_proper_name(value) and not any(w.casefold().strip(".,") in _NOT_A_PLACE_WORD for w in value.split())


def _is_person_name(value: str) -> bool:
    """True for a value that can be a person's name (capitalised, not a state, time or nationality word)."""
    return not any(word.casefold() in _NOT_A_PERSON for word in value.split())


def _is_role(value: str) -> bool:
    """True unless the job value is a collective or manner word ("a team")."""
    words = value.casefold().split()
    return bool(words) and words[-1] not in _NOT_A_ROLE and words[0] not in _NOT_A_ROLE


@dataclass(frozen=True)
class _Rule:
    """One pattern: matched at a clause start; `template` formats the fact from the captured value `v`;
    `accepts` (when set) must hold for the cleaned value, else the clause gives nothing."""

    pattern: re.Pattern[str]
    category: str
    attribute: str | None
    template: str
    keep_clause: bool = False  # non-English: the fact is the clause as said
    accepts: Callable[[str], bool] | None = None


def _rule(regex: str, category: str, attribute: str | None, template: str, keep_clause: bool = False,
          accepts: Callable[[str], bool] | None = None) -> _Rule:
    return _Rule(re.compile(_LEAD + regex, re.IGNORECASE), category, attribute, template, keep_clause, accepts)


_RULES: tuple[_Rule, ...] = (
    # client_info
    _rule(r"my name is " + _NAME.replace("(?P<v>", "(?P<v>(?-i:") + ")", "client_info", "name", "User's name is {v}.",
          accepts=_is_person_name),
    _rule(r"(?:I'm|I am) (?-i:" + _NAME + r")(?=[,.!]|\s+(?:and|nice|here)\b)", "client_info", "name",
          "User's name is {v}.", accepts=_is_person_name),
    _rule(r"(?:you can )?call me (?-i:" + _NAME + r")", "client_info", "preferred_name", "User likes to be called {v}.",
          accepts=_is_person_name),
    _rule(r"(?:I'm|I am) (?:based|located) in " + _VALUE, "client_info", "home_location", "User is based in {v}.",
          accepts=_is_place),
    _rule(r"I (?:currently )?live in " + _VALUE, "client_info", "home_location", "User lives in {v}.",
          accepts=_is_place),
    # "moved to" also names tools ("We moved to a new CRM"): the value must be a place (`_is_place`).
    _rule(r"(?:I|we) (?:just |recently |also |finally )*(?:moved|relocated) (?:from [^,.;]+? )?to " + _VALUE,
          "client_info", "home_location", "User moved to {v}.", accepts=_is_place),
    _rule(r"I grew up in " + _VALUE, "client_info", "hometown", "User grew up in {v}.", accepts=_is_place),
    _rule(r"my company is " + _VALUE.replace(_END, r"(?=\s+and\b|" + _END[3:]), "client_info", "employer",
          "User's company is {v}.", accepts=_is_proper_name),
    _rule(r"I (?:just )?started a new job as (?:an? )?" + _VALUE, "client_info", "job", "User works as {v}.",
          accepts=_is_role),
    # "I work as a nurse" / "I work as CTO"; not "I work as hard as I can" (no article, lower case).
    _rule(r"I work as (?:an? (?=\w)|(?=(?-i:[A-Z])))" + _VALUE, "client_info", "job", "User works as {v}.",
          accepts=_is_role),
    _rule(r"I work (?:at|for) " + _VALUE, "client_info", "employer", "User works {m} {v}.", accepts=_is_proper_name),
    _rule(r"(?:I'm|I am) the (?P<v>(?:[\w-]+ ){0,3}(?:" + _ROLE_NOUNS + r"))(?:\b|$)", "client_info", "job",
          "User is the {v}."),
    _rule(r"(?:I'm|I am) (?:a|an) (?P<v>(?:[\w-]+ ){0,3}(?:engineer|developer|teacher|student|nurse|doctor|designer|manager|writer|lawyer|accountant|consultant|artist|musician|chef|scientist|analyst|researcher|programmer|freelancer|photographer|retiree))\b",
          "client_info", "job", "User is a {v}."),
    _rule(r"I (?:just )?joined " + _VALUE, "client_info", None, "User joined {v}."),
    _rule(r"my e-?mail(?: address)? is (?P<v>\S+?)(?=[,;!?]?(?:\s|$)|\.(?:\s|$))", "client_info", "email",
          "User's email address is {v}."),
    _rule(r"my (?:phone|mobile|cell)(?: number)? is (?P<v>\S+?)(?=[,;!?]?(?:\s|$)|\.(?:\s|$))", "client_info",
          "phone_number", "User's phone number is {v}."),
    # preference: contact channel and standing instructions
    _rule(r"(?:please )?(?:only )?(?:contact|reach|call|email|text) me (?:by|via|on|through|over) " + _CHANNELS + r"(?: only)?",
          "preference", "contact_channel", "User wants to be contacted by {v}{only}."),
    _rule(r"(?:the )?" + _CHANNELS + r" is (?:fine|ok|okay|better|best|preferred)", "preference", "contact_channel",
          "User is fine with being contacted by {v}."),
    _rule(r"(?:please )?(?:always )?(?P<verb>send|ship|deliver|mail) (?P<v>" + _VCHARS + r"{2,120}?) from now on(?P<rest>:[^.!?;]+)?",
          "preference", "@verb", "User asks to always {verb} {v}{rest}."),
    _rule(r"(?:please )?always (?P<verb>send|ship|deliver|mail) (?P<v>" + _VCHARS + r"{2,120}?)(?: from now on)?(?P<rest>:[^.!?;]+)?" + _END,
          "preference", "@verb", "User asks to always {verb} {v}{rest}."),
    _rule(r"(?:I'm|I am) (?:a )?(?P<v>vegetarian|vegan|pescatarian)", "preference", "diet", "User is {v}."),
    _rule(r"my (?:favou?rite) (?P<k>[\w ]{2,30}?) is " + _VALUE, "preference", "@favourite", "User's favourite {k} is {v}."),
    _rule(r"I (?:really |absolutely |also |just |quite |truly |still )*(?P<verb>love|like|enjoy|adore|prefer|hate|dislike|can't stand|don't like|do not like) " + _VALUE,
          "preference", "@opinion", "User {verb} {v}."),
    # decision
    _rule(r"(?:I|we)(?:'ve| have)? decided (?:to )?" + _VALUE, "decision", None, "User decided to {v}."),
    _rule(r"(?:I|we)(?:'d| would) like to (?P<verb>cancel|order|buy|book|upgrade|downgrade|switch to|subscribe to|sign up for|renew|return) " + _VALUE,
          "decision", "@decision", "User wants to {verb} {v}."),
    _rule(r"(?:I|we) want to (?P<verb>cancel|order|buy|book|upgrade|downgrade|switch to|subscribe to|sign up for|renew|return) " + _VALUE,
          "decision", "@decision", "User wants to {verb} {v}."),
    _rule(r"(?:I|we)(?:'ll| will) (?P<verb>take|go with|buy|order|cancel|book|switch to|sign up for) "
          r"(?!(?:a |an |some )?(?:look|walk|break|rest|nap|moment|minute|while|try|shot|care|it easy|note|seat|photos?|pictures?|(?:your |the )?advice)\b)" + _VALUE,
          "decision", "@decision", "User will {verb} {v}."),
    _rule(r"(?:I|we) (?:just )?(?P<verb>bought|ordered|booked|cancelled|canceled|subscribed to|signed up for|switched to) " + _VALUE,
          "decision", "@decision", "User {verb} {v}."),
    # French (fact = the clause as said)
    _rule(r"je (?:préfère|prefere) .{2,120}", "preference", None, "", keep_clause=True),
    _rule(r"je suis (?P<v>végétarien(?:ne)?|vegan|végane|végétalien(?:ne)?)", "preference", "diet", "", keep_clause=True),
    _rule(r"j'(?P<verb>adore|aime) (?P<v>[^,;.!?]{2,120}?)(?=\s*[,;.!?]|$)", "preference", "@opinion", "",
          keep_clause=True),
    _rule(r"je m'appelle (?P<v>\w+)", "client_info", "name", "", keep_clause=True),
    _rule(r"j'habite (?:à|a|en|au) (?P<v>[^,;.!?]{2,80}?)(?=\s*[,;.!?]|$)", "client_info", "home_location", "",
          keep_clause=True),
    # Chinese (fact = the clause as said)
    _rule(r"我(?:很|非常|特别|真的)?(?P<verb>喜欢|爱|讨厌|不喜欢)(?P<v>[^，。！？,.!?]{1,60})", "preference", "@opinion", "",
          keep_clause=True),
    _rule(r"我叫(?P<v>[^，。！？\s]{1,20})", "client_info", "name", "", keep_clause=True),
    _rule(r"我住在(?P<v>[^，。！？,.!?]{1,40})", "client_info", "home_location", "", keep_clause=True),
)

_VERB_FORMS = {
    "love": "loves", "like": "likes", "enjoy": "enjoys", "prefer": "prefers",
    "hate": "hates", "dislike": "dislikes", "can't stand": "cannot stand", "don't like": "does not like",
    "do not like": "does not like", "aime": "likes", "adore": "loves",  # "adore": English and French ("j'adore") "喜欢": "likes", "爱": "loves",
    "讨厌": "hates", "不喜欢": "does not like",
}
_ATTRIBUTE_BY_VERB = {"send": "delivery_instruction", "mail": "delivery_instruction", "ship": "shipping_address",
                      "deliver": "shipping_address"}


def sentences(text: str) -> Iterator[tuple[int, str]]:
    """(offset, sentence) pairs of `text`; each sentence is an exact slice of it, trimmed."""
    for match in _SENTENCE.finditer(text):
        raw = match.group(0)
        stripped = raw.strip()
        if stripped:
            yield match.start() + raw.index(stripped), stripped


def _third_person(value: str) -> str:
    for pattern, replacement in _PRONOUNS:
        value = pattern.sub(replacement, value)
    return value


# Bracket pairs a value may hold ("Acme (Berlin)"); one without its partner at the value's edge is punctuation of
# the sentence around it ("I live in Rome'); DROP TABLE ..." gave the value "Rome')").
_PARTNER = {"(": ")", "[": "]", "{": "}", ")": "(", "]": "[", "}": "{"}


def _clean_value(value: str) -> str:
    previous = None
    while previous != value:
        previous = value
        value = _TRAILING_TIME.sub("", value.strip().strip("\"'`")).strip()
        for edge in (value[-1:], value[:1]):  # a bracket at an edge that outnumbers its partner
            if edge in _PARTNER and value.count(edge) > value.count(_PARTNER[edge]):
                value = value[:-1] if value.endswith(edge) and edge in ")]}" else value[1:]
                break
    return value


def _clause_starts(sentence: str) -> list[int]:
    return [0] + [m.end() for m in _CLAUSE_START.finditer(sentence)]


def _attribute(rule: _Rule, match: re.Match[str], value: str) -> str | None:
    if rule.attribute == "@verb":
        return _ATTRIBUTE_BY_VERB.get(match.group("verb").lower())
    if rule.attribute == "@opinion":
        if match.group("verb").lower() == "prefer":
            return None
        return "opinion:" + value.casefold()
    if rule.attribute == "@favourite":
        return "favourite:" + match.group("k").strip().casefold()
    if rule.attribute == "@decision":
        return None
    return rule.attribute


def _fact_from(rule: _Rule, match: re.Match[str], clause: str) -> tuple[str, str | None, str | None] | None:
    """(fact, attribute, value) for a match, or None when the captured value is unusable."""
    if rule.keep_clause:
        text = re.sub(_LEAD, "", clause, count=1, flags=re.IGNORECASE).strip().rstrip(",;，；")
        text = text[:1].upper() + text[1:]
        value = match.groupdict().get("v")
        attribute = rule.attribute
        if attribute == "@opinion":  # slot: the object; value: the stance, as in English
            value = (value or "").strip()
            attribute = "opinion:" + value.casefold() if value else None
            value = _VERB_FORMS.get(match.group("verb").lower(), match.group("verb"))
        elif value:
            value = value.strip()
        return (text if text.endswith((".", "。", "!", "！")) else text + "."), attribute, value
    value = _clean_value(match.group("v"))
    if not value or len(value) > 120 or _HYPOTHETICAL.search(value) or _VAGUE.match(value):
        return None
    if rule.accepts is not None and not rule.accepts(value):
        return None
    groups = match.groupdict()
    fields = {
        "v": _third_person(value),
        "verb": _VERB_FORMS.get((groups.get("verb") or "").lower(), (groups.get("verb") or "").lower()),
        "rest": _third_person(groups.get("rest") or ""),
        "k": (groups.get("k") or "").strip(),
        "m": "as" if re.search(r"work as", match.group(0), re.IGNORECASE) else (
            "at" if re.search(r"work at", match.group(0), re.IGNORECASE) else "for"),
        "only": " only" if re.search(r"\bonly\b", match.group(0), re.IGNORECASE) else "",
    }
    fact = rule.template.format(**fields)
    attribute = _attribute(rule, match, value.casefold())
    if rule.attribute in ("contact_channel", "diet"):
        value = value.casefold().replace("e-mail", "email")
    elif rule.attribute == "@opinion" and attribute:
        value = fields["verb"]  # the slot is the object; its value is the stance: "loves", "hates", ...
    return fact, attribute, value


# -- retractions ---------------------------------------------------------------------------------------
# A clause that withdraws what a slot held, rewritten to the positive statement whose slot it ends:
# "I no longer like Vim." -> "I like Vim", "I'm not vegetarian anymore" -> "I'm vegetarian", "je n'habite plus à
# Paris" -> "j'habite à Paris", "我已经不住在北京了" -> "我住在北京". The positive form is matched by the same
# rules as any clause, so a retraction names exactly the slot (and value) the positive fact used.
_ANYMORE = r"\s*\b(?:anymore|any more|any longer)\b"
_RETRACTIONS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), replacement) for pattern, replacement in (
        (r"^(?:I'm|I am|Im) no longer (?P<rest>.+)$", "I'm {rest}"),
        (r"^I(?:'ve| have)? no longer (?P<rest>.+)$", "I {rest}"),
        (r"^I (?:don't|do not|dont) (?P<rest>.+?)" + _ANYMORE + r"(?P<tail>.*)$", "I {rest}{tail}"),
        (r"^(?:I'm|I am|Im) not (?P<rest>.+?)" + _ANYMORE + r"(?P<tail>.*)$", "I'm {rest}{tail}"),
        (r"^je n'(?P<verb>aime|adore|habite) plus (?P<rest>.+)$", "j'{verb} {rest}"),
        (r"^je ne (?P<verb>suis|préfère|prefere|m'appelle) plus (?P<rest>.+)$", "je {verb} {rest}"),
        (r"^我(?:已经|现在)?不再(?P<rest>.+?)了?$", "我{rest}"),
        (r"^我(?:已经|现在)?不(?P<rest>(?:住在|喜欢|爱|叫).+?)了$", "我{rest}"),
    )
)


def _positive_form(clause: str) -> str | None:
    """The positive statement a retraction clause withdraws, or None when the clause retracts nothing."""
    text = clause.strip().rstrip(".!。！,;，；").strip()
    for pattern, replacement in _RETRACTIONS:
        match = pattern.match(text)
        if match:
            return replacement.format(**{k: (v or "") for k, v in match.groupdict().items()}).strip()
    return None


def _withdrawn(fact: str) -> str:
    """The sentence saying a fact no longer holds: "User likes Vim." -> "User no longer likes Vim."."""
    match = re.match(r"^(User(?:'s [\w ]+?)?) (is|are) (.+)$", fact)
    if match:
        return f"{match.group(1)} {match.group(2)} no longer {match.group(3)}"
    return "User no longer " + fact[len("User "):] if fact.startswith("User ") else fact


def _skip_sentence(sentence: str) -> bool:
    return bool(_HYPOTHETICAL.search(sentence) or _INJECTION.search(sentence))


class OfflineExtractor:
    """Rule-based `Extractor`: deterministic, no network, zero tokens. See the module docstring for its limits."""

    name = "offline"
    model = "offline-rules"
    prompt_version = "offline-v1"
    free_answers = True  # computed again in milliseconds: the stages write them in large batches

    def extract(self, conversation: Conversation, summary: str = "") -> ExtractionResult:
        """Facts from the user's own turns only; the summary is not used (it holds nothing new)."""
        facts: list[ExtractedFact] = []
        seen: set[tuple[str | None, str, str]] = set()
        for turn in conversation.turns:
            if turn.role != "human":
                continue
            for _, sentence in sentences(turn.text):
                for fact in self._facts_in_sentence(sentence):
                    # Each speaker's facts are their own (group chats: `turn.sender`); the fact cites its message.
                    key = (turn.sender, fact.category, fact.fact.casefold())
                    if key not in seen:
                        seen.add(key)
                        facts.append(fact.model_copy(update={"quote_message_id": turn.message_id}))
        return ExtractionResult(facts=facts)

    def _facts_in_sentence(self, sentence: str) -> Iterator[ExtractedFact]:
        if _skip_sentence(sentence):
            return
        is_question = sentence.rstrip().endswith(("?", "？"))
        starts = _clause_starts(sentence)
        for index, start in enumerate(starts):
            clause_end = starts[index + 1] if index + 1 < len(starts) else len(sentence)
            clause = sentence[start:clause_end]
            lead_stripped = re.sub(_LEAD, "", clause, count=1, flags=re.IGNORECASE)
            if _THIRD_PARTY.match(lead_stripped) or _INTERROGATIVE.match(lead_stripped):
                continue
            if is_question and clause_end == len(sentence):
                continue  # the clause that carries the question mark asks, it does not tell
            positive = _positive_form(lead_stripped)
            if positive is not None:
                # A retraction never yields the positive fact it names; at most the retraction itself.
                retraction = self._retraction(positive, lead_stripped, sentence)
                if retraction is not None:
                    yield retraction
                continue
            for rule in _RULES:
                match = rule.pattern.match(sentence, start)
                if not match:
                    continue
                built = _fact_from(rule, match, clause if rule.keep_clause else match.group(0))
                if built is None:
                    continue
                fact, attribute, value = built
                yield ExtractedFact(category=rule.category, fact=fact, quote=sentence, attribute=attribute, value=value)
                break  # one fact per clause: the first, most specific rule wins

    @staticmethod
    def _retraction(positive: str, clause: str, sentence: str) -> ExtractedFact | None:
        """The retraction of the slot `positive` fills (None when it fills no slot). Its value is the one
        withdrawn, except for an opinion, whose slot is the object: any stance on it is withdrawn."""
        for rule in _RULES:
            match = rule.pattern.match(positive)
            if not match:
                continue
            built = _fact_from(rule, match, positive if rule.keep_clause else match.group(0))
            if built is None or not built[1]:
                return None
            fact, attribute, value = built
            if rule.keep_clause:
                fact = _fact_from(rule, match, clause)[0]  # in its language: the retraction as said
            else:
                fact = _withdrawn(fact)
            if attribute.startswith("opinion:"):
                value = None
            return ExtractedFact(category=rule.category, fact=fact, quote=sentence, attribute=attribute,
                                 value=value, retraction=True)
        return None

    def summarize(self, conversation: Conversation) -> SummaryResult:
        """Extractive summary: the user's first sentence, the sentences that carry facts, the assistant's last
        sentence; at most 600 characters, every part a sentence that was said."""
        human = [s for t in conversation.turns if t.role == "human" for _, s in sentences(t.text)]
        ai = [s for t in conversation.turns if t.role == "ai" for _, s in sentences(t.text)]
        parts: list[str] = []
        if human:
            parts.append("User: " + human[0][:200])
        for sentence in human[1:]:
            if len(parts) >= 4:
                break
            if any(True for _ in self._facts_in_sentence(sentence)):
                parts.append("User: " + sentence[:200])
        if ai:
            parts.append("Assistant: " + ai[-1][:200])
        return SummaryResult(text="\n".join(parts)[:600])
