"""What a user's sentence does besides stating a fact about the user: asks, hedges, jokes, takes words back,
reports someone else, speaks of someone else, instructs the assistant, thanks.

Shared by the consistency gates (domain/gates.py, every backend) and the offline extractor. Word lists for
English, French, German, Spanish and Chinese, the languages the product extracts from. Sources: the gold sets'
traps; issue 17's probes, reported publicly against other memory systems (NousResearch/hermes-agent#22907 for
sarcasm and "just kidding", QuixiAI/Hexis#65 for another person's words); and a tester's table of sincere lines
the first lists rejected ("Perfect, I live in Lyon then.", "As I said, I'm vegetarian.", "I live in Oslo, no
kidding.", "Can you call me Jack from now on?").
"""

from __future__ import annotations

import re

# Telling the assistant to drop its instructions or to write something into its memory: an injection, whatever
# else the message says. "forget my phone number" is a retraction and "forget the rules of bridge" a remark.
INSTRUCTION = re.compile(
    r"\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+)?(?:(?:of\s+)?(?:your|the|my|previous|prior|above|"
    r"earlier|system|these|those)\s+)+(?:instructions?|prompts?|rules?|guidelines)\b(?!\s+of\b)"
    r"|\b(?:system prompt|developer message|new instructions)\b|\byou are now\b(?!\s+(?:my|our|the|a)\b)"
    r"|\b(?:record|store|save|write down|memori[sz]e)\s+(?:that|this)\b"
    r"|\b(?:add|write|save|store|put)\b.{0,30}\b(?:to|in|into)\s+(?:your|the)\s+(?:memory|database|records|profile)\b"
    r"|\bignore[sz]?\b.{0,30}\binstructions\b|\benregistre[sz]?\s+que\b"
    r"|忽略.{0,10}(?:指令|指示|提示)|记录(?:下)?我",
    re.IGNORECASE,
)
# Someone else's words: a reporting verb, or a quotation that speaks in the first person ('The guy kept saying
# "I live in Oslo."'). The user quoting themself ("As I said, I'm vegetarian") is not someone else.
_REPORTED_SPEECH = re.compile(
    r"\b(?:said|says|saying|kept saying|told me|tells me|telling me|claims that|claimed|mentioned|according to|"
    r"a dit|disait|dit que|m'a dit|hat gesagt|sagte|sagt|meinte|meint|dijo|decía|dice que|me dijo)\b|"
    r"[\"“„«「]\s*(?:I\b|I'm|my\b|we\b|je\b|j'|ich\b|yo\b|mi\b|me\b|我)|(?<![小我])说|告诉我",
    re.IGNORECASE,
)
_SELF_REPORT = re.compile(
    r"\b(?:(?:as|like)\s+)?I(?:'ve|\s+have)?\s+(?:already\s+|just\s+)?(?:said|mentioned|told you)\b"
    r"|\bcomme je (?:l'ai )?(?:dit|disais)\b|\bwie ich (?:schon )?(?:sagte|gesagt habe)\b|\bcomo (?:te )?dije\b"
    r"|我(?:已经)?说过",
    re.IGNORECASE,
)
# Someone other than the user as the subject: a relative, friend or colleague, or a third-person pronoun.
_OTHER_PERSON = re.compile(
    r"\b(?:my|our)\s+(?:\w+\s+)?(?:friends?|wife|husband|partner|mom|mum|mother|dad|father|brother|sister|sons?|"
    r"daughters?|boss|colleagues?|coworkers?|co-workers?|kids?|child|children|family|parents|neighbou?rs?|"
    r"girlfriend|boyfriend|cousins?|aunt|uncle|grand\w*|roommate|flatmate|manager|team)\b"
    r"(?!\s+(?:meeting|meetings|call|calls|dinner|lunch|trip|holiday|event|offsite|standup|stand-up|retro|"
    r"channel|chat|account|plan|budget|name|home|house)\b)"  # "our team meeting" is the user's own
    r"|^\W*(?:he|she|they|his|her)\b"
    r"|\b(?:mon|ma|mes|notre|nos)\s+(?:ami|amie|amis|femme|mari|fr[eè]re|s[oœ]ur|m[eè]re|p[eè]re|fils|fille|"
    r"coll[eè]gue|patron|cousin|cousine)\b"
    r"|\b(?:mein|meine|meinem|meinen|meiner|unser|unsere)\s+(?:freund|freundin|frau|mann|bruder|schwester|mutter|"
    r"vater|sohn|tochter|chef|chefin|kollege|kollegin|nachbar|nachbarin|eltern|kinder)\b"
    r"|\b(?:mi|mis|nuestr[oa]s?)\s+(?:amig[oa]s?|espos[oa]|marido|mujer|herman[oa]s?|madre|padre|mamá|papá|"
    r"hij[oa]s?|jef[ea]|novi[oa]|compañer[oa]s?|vecin[oa]s?|prim[oa]s?)\b"
    r"|^\W*(?:il|elle|ils|elles|er|él|ella|ellos|ellas)\b(?!\s+(?:fait|faut|pleut|y a|gibt|regnet)\b)"
    r"|我的(?:朋友|同事|家人|妈妈|爸爸|老板|妻子|丈夫|老婆|老公|哥哥|姐姐|弟弟|妹妹|儿子|女儿)|(?:他|她|他们)(?:不)?(?:喜欢|是|住)",
    re.IGNORECASE,
)
# The user as a subject: a first-person pronoun outside a possessive ("I", "me", "we"; je, moi; ich, wir; yo;
# 我 not followed by 的).
_SELF = re.compile(r"\b(?:I|I'm|I've|I'd|I'll|me|myself|we|je|j'|moi|nous|ich|mich|mir|wir|uns|yo|nosotr[oa]s)\b"
                   r"|我(?!的)", re.IGNORECASE)
# Mock enthusiasm: "Oh great, ...", "Yeah right", loving an ordeal ("I just love waiting in line", not "I don't
# like waiting"), "I just love how ...", "Awesome, another outage", or "/s". A sincere "Great, my email is ..."
# opens with the same word, so an opener alone is not sarcasm.
SARCASM = re.compile(
    r"^\W*oh,?\s+(?:great|joy|wonderful|perfect|lovely|good|sure|fantastic|brilliant)\b"
    r"|^\W*(?:yeah,? right|sure,? sure|just what I needed|na toll|na super|qué bien|真是太好了)\b|(?:^|\s)/s\b"
    r"|\byeah,? right\b|\bjust (?:love|adore) (?:how|it when|when)\b|\blove paying\b"
    r"|^\W*(?:wow|awesome|great|perfect|fantastic|wonderful),?\s+(?:another|more)\b"
    r"|(?<!n't )(?<!not )(?<!never )(?<!n't really )\b(?:love|loves|like|enjoy|adore)\s+(?:\w+\s+){0,2}"
    r"(?:waiting|queu\w*|standing in line|being stuck|stuck in|traffic|being ignored|being on hold|on hold|delays?|"
    r"delayed|cancell?ed|paperwork|taxes|spam|mondays)\b",
    re.IGNORECASE,
)
# Taking back what was just said: what comes before the marker no longer stands. "No kidding", "I'm not
# kidding", "are you kidding me?", "kidding around" and "JK Rowling" take nothing back.
KIDDING = re.compile(
    r"(?<!no )(?<!not )(?<!n't )\b(?:just kidding|only kidding|kidding|just joking|i'm joking|i was joking|"
    r"scratch that|strike that|je plaisante|c'est une blague|je rigole|nur spaß|nur ein scherz|war nur ein witz|"
    r"war ein scherz|es broma|era broma|bromeo|estoy bromeando)\b(?!\s+(?:me|around)\b)"
    r"|(?-i:\bjk\b|\bJK\b(?!\s+[A-Z]))|\bj/k\b|开玩笑|逗你的",
    re.IGNORECASE,
)
# A conditional sentence ("If I get the job, I'll move to Zurich"): the whole sentence is hypothetical. "if"
# later in a sentence is mostly politeness ("call me Jack if that's ok", "window seats if available").
_CONDITIONAL = re.compile(
    r"^\W*(?:(?:and|but|so|well|et|mais|und|aber|y|pero)\s+)?(?:if|what if|suppose|supposing|si|wenn|falls)\b(?!,)"
    r"|如果|要是|假如",
    re.IGNORECASE)
# Hedges: a clause holding one states nothing durable ("maybe we'll take it next quarter, not sure yet").
_HEDGE = re.compile(
    r"\b(?:maybe|perhaps|might|not sure|unsure|probably|possibly|considering|thinking about|wonder|whether|"
    r"someday|one day,? (?:I|we)|I hope to|hoping to|hopefully|I wish(?! to))\b"
    r"|\b(?:peut-être|vielleicht|quizás|quizá|tal vez|ojalá)\b|也许|可能",
    re.IGNORECASE)
_INTERROGATIVE = re.compile(
    r"^\W*(?:what|what's|where|where's|when|why|who|whom|whose|which|how|do|does|did|can|could|would|will|is|are|"
    r"was|were|should|shall|have|has|may|am|est-ce|où|quand|comment|pourquoi|quel|quelle|quels|quelles|combien|"
    r"wo|wann|warum|wieso|wie|wer|welche[rsmn]?|kann|kannst|können|ist|sind|hast|haben|"
    r"dónde|qué|cuándo|cómo|por qué|quién|cuál|puedes|puede)\b|^\W*¿",
    re.IGNORECASE)
_CJK_QUESTION = re.compile(r"(?:吗|呢|什么|怎么|哪|多少|几)[^。！]*[?？]\s*$")
# A request that sets how things go from now on is a standing instruction, not a question ("Can you call me
# Jack from now on?", "Could you always reply in French?").
_REQUEST = re.compile(r"^\W*(?:please\s+)?(?:can|could|would|will)\s+you\b|^\W*(?:pourriez|pouvez|peux)[- ]vous\b|"
                      r"^\W*(?:kannst|können|könnten)\s+(?:du|sie)\b|^\W*(?:puedes|podrías|podría)\b|^\W*请",
                      re.IGNORECASE)
_STANDING = re.compile(r"\b(?:from now on|going forward|in (?:the )?future|always|every time|call me|address me|"
                       r"à partir de maintenant|désormais|toujours|ab jetzt|künftig|immer|de ahora en adelante|"
                       r"siempre|llámame|llamarme)\b|以后|今后|一直", re.IGNORECASE)
_PLEASANTRY_WORDS = frozenset(
    "thanks thank you so very much a lot ok okay great cool nice hi hello hey bye goodbye cheers perfect awesome "
    "good morning evening night again have day wonderful appreciate it that s all thx ty merci beaucoup bonjour "
    "salut bonsoir au revoir danke vielen dank schön hallo tschüss gracias muchas hola adiós".split())
_FILLER_WORDS = frozenset("hmm hm um uh er well oh so yes yeah yep no nah lol haha wait actually btw anyway alright "
                          "right sure bon alors ben eh also naja gut bueno pues vale 嗯 哦 好吧".split())
_PLEASANTRY_CJK = re.compile(r"^(?:谢谢|多谢|你好|好的|再见|感谢)+(?:你|您)?$")
_SENTENCE = re.compile(r"[^.!?。！？]+[.!?。！？]*")
# Where a clause ends inside a sentence: punctuation, or a joining word ("My sister lives in Rome and I live in
# Lyon").
_CLAUSE_BREAK = re.compile(r"[,;:，；：]\s*|\s+(?:and|but|while|whereas|et|mais|und|aber|y|pero)\s+|而|但",
                           re.IGNORECASE)
_WORD = re.compile(r"[^\W_]+", re.UNICODE)


def sentences(text: str) -> list[str]:
    """The sentences of `text` (to and with their end punctuation), trimmed, empty ones left out."""
    return [s for s in (m.group(0).strip() for m in _SENTENCE.finditer(text)) if s.strip(" .!?。！？")]


def clauses(sentence: str) -> list[str]:
    """The clauses of `sentence`, split at punctuation and joining words (`_CLAUSE_BREAK`)."""
    return [c for c in (part.strip() for part in _CLAUSE_BREAK.split(sentence)) if c]


def is_instruction(message: str) -> bool:
    """True when `message` tells the assistant to ignore its instructions or what to record (`INSTRUCTION`)."""
    return INSTRUCTION.search(message) is not None


def reports_speech(sentence: str) -> bool:
    """True when `sentence` gives someone else's words (`_REPORTED_SPEECH`), the user quoting themself aside."""
    return _REPORTED_SPEECH.search(_SELF_REPORT.sub(" ", sentence)) is not None


def is_about_other_person(clause: str) -> bool:
    """True when `clause` names someone else as its subject (`_OTHER_PERSON`) and has no first-person subject
    ("My wife and I love sushi" is the user's too)."""
    return _OTHER_PERSON.search(clause) is not None and _SELF.search(_OTHER_PERSON.sub(" ", clause)) is None


def speaks_of_self(clause: str) -> bool:
    """True when `clause` has a first-person word (`_SELF`)."""
    return _SELF.search(clause) is not None


def is_sarcasm(text: str) -> bool:
    """True when a sentence of `text` is mock enthusiasm (`SARCASM`)."""
    return any(SARCASM.search(s) for s in sentences(text))


def is_conditional(sentence: str) -> bool:
    """True when `sentence` opens with a condition (`_CONDITIONAL`): nothing in it is stated as so."""
    return _CONDITIONAL.search(sentence) is not None


def is_hedged(clause: str) -> bool:
    """True when `clause` holds a hedge (`_HEDGE`): maybe, not sure, probably, peut-être, vielleicht, 也许 ..."""
    return _HEDGE.search(clause) is not None


def is_question(quote: str) -> bool:
    """True when every sentence of `quote` asks: it ends with a question mark and opens with an interrogative
    word (or, in Chinese, holds a question particle), and is not a standing request (`_REQUEST` + `_STANDING`)."""
    found = sentences(quote)
    return bool(found) and all(
        s.endswith(("?", "？")) and (_INTERROGATIVE.match(s) is not None or _CJK_QUESTION.search(s) is not None)
        and not (_REQUEST.match(s) and _STANDING.search(s)) for s in found)


def asks(clause: str, sentence: str) -> bool:
    """True when `clause`, part of `sentence`, is a question clause: the sentence ends with a question mark and
    the clause opens with an interrogative word ("..., can we just write to /tmp instead?")."""
    return (sentence.rstrip().endswith(("?", "？")) and _INTERROGATIVE.match(clause) is not None
            and not (_REQUEST.match(clause) and _STANDING.search(clause)))


def is_pleasantry(quote: str) -> bool:
    """True when `quote` is only thanks, greetings or acknowledgement words (`_PLEASANTRY_WORDS`)."""
    words = _WORD.findall(quote.casefold())
    if len(words) == 1 and _PLEASANTRY_CJK.match(words[0]):
        return True
    return bool(words) and all(w in _PLEASANTRY_WORDS for w in words)


def is_filler(clause: str) -> bool:
    """True when `clause` is only pleasantry or filler words ("Hmm", "Well", "Oh yes", "Thanks"): it states
    nothing, and backs nothing."""
    return all(w in _PLEASANTRY_WORDS or w in _FILLER_WORDS for w in _WORD.findall(clause.casefold()))


def standing_part(message: str, start: int, end: int) -> str:
    """What of the span [start, end) of `message` still stands: nothing when a marker that takes words back
    (`KIDDING`) follows it, the part after the last marker inside it, all of it when no marker follows its
    start."""
    marker = None
    for found in KIDDING.finditer(message):
        if found.end() > start:
            marker = found
    if marker is None:
        return message[start:end]
    return message[marker.end():end] if marker.start() < end else ""
