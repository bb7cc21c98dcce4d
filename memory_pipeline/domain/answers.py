"""How a user's line stands to the conversation around it: an assent that accepts the offer asked ("Yes, please add
it."), a statement said before a question ("我住在上海，附近有瑜伽课吗？": I live in Shanghai, any yoga classes
nearby?), the one it greets or thanks ("Chào shop, ...", "makasih min"), a request for this time only ("solo esta vez").
Read by the gates (domain/gates.py)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from memory_pipeline.domain import lexicon, speech
from memory_pipeline.domain.folding import fold
from memory_pipeline.domain.naming import QUESTIONS
from memory_pipeline.domain.value_support import SPACELESS_CHARS, names_a_thing, supported, words

_ASSENT = lexicon.pattern("assent")
_YES = frozenset({"yes", "true"})


def is_assent(quote: str) -> bool:
    """True when `quote` opens with an assent of any language (`assent`: "Yes", "Sí, claro", "Passt")."""
    return _ASSENT.match(quote) is not None


def accepts_offer(quote: str, value: str | None) -> bool:
    """True when `value` is a yes ("yes", "true") and `quote` opens with an assent ("Yes, please add it."). Not a
    no: a refusal said first is often taken back or put off after it ("No, wait, actually yes, add it.", "No, I
    need to ask my wife first": a break-it review), and refusals are said in words no list holds."""
    return fold((value or "").strip()) in _YES and is_assent(quote)


def offer_named(thing: str, answered: Sequence[str]) -> bool:
    """True when a question sentence of the assistant lines `answered` names `thing` ("Soll ich Ihnen den Tarif
    umstellen?" names the tariff): the offer an assent accepts."""
    return any(supported(thing, question) for line in answered for question in QUESTIONS.findall(line))


# A clause that asks something of its own: this many words, or letters in a script without spaces ("对吗？",
# "right?" only confirm what came before).
_OWN_QUESTION_WORDS = 3
_OWN_QUESTION_LETTERS = 4
_SPACELESS = re.compile(f"[{SPACELESS_CHARS}]")


def _asks_of_its_own(clause: str, sentence: str, codes: lexicon.Codes) -> bool:
    """True when `clause` of `sentence` asks (`speech.asks`, or a question particle ends it) something of its own:
    not the other half of an either/or nor a tag (`question_tail`), and long enough to ask."""
    if lexicon.pattern("question_tail", codes).match(clause):
        return False
    said = speech.WORD.findall(clause)
    if len(said) < _OWN_QUESTION_WORDS and not (
            _SPACELESS.search(clause) and sum(map(len, said)) >= _OWN_QUESTION_LETTERS):
        return False
    return speech.asks(clause, sentence, codes) or lexicon.pattern("question_particle", codes).search(clause) is not None


def stated_beside_question(quote: str, value: str | None, codes: lexicon.Codes) -> bool:
    """True when a clause of `quote` that is not the last of its sentence holds `value` and asks nothing (no
    interrogative word, no question particle, none ending it: `speech.asks`, `question_particle`,
    `question_clause_end`), and a later clause of that sentence asks something of its own (`_asks_of_its_own`):
    "我住在上海，附近有瑜伽课吗？" (I live in Shanghai, any yoga classes nearby?) and "東京に住んでいますが、近くにヨガ
    教室はありますか？" state a home before they ask, though a question particle makes the whole sentence a question;
    "我应该住在上海，还是北京呢？" (Shanghai or Beijing?) and "你住在上海，对吗？" (right?) ask it (a break-it
    review). The clauses are judged one by one after (`_backing`)."""
    if not value or not names_a_thing(value):
        return False
    particle = lexicon.pattern("question_particle", codes)
    ends_asking = lexicon.pattern("question_clause_end", codes)
    for sentence in speech.sentences(quote):
        parts = speech.clauses(sentence, codes, phrases=False)
        for at, part in enumerate(parts[:-1]):
            if (supported(value, part) and not particle.search(part) and not ends_asking.search(part)
                    and not speech.asks(part, sentence, codes)
                    and any(_asks_of_its_own(later, sentence, codes) for later in parts[at + 1:])):
                return True
    return False


def thanks_someone(quote: str, thing: str, codes: lexicon.Codes = None) -> bool:
    """True when `quote` is pleasantry words (`speech.is_pleasantry`) followed by `thing`, the slot's object or a
    name: who is thanked or greeted ("ok cảm ơn shop", "makasih min", "thanks bro", "grazie mille giulia"), not a
    thing liked nor the user's name."""
    said = speech.WORD.findall(quote.casefold())
    named = words(thing.replace("_", " "))
    return (0 < len(named) < len(said) and words(" ".join(said[-len(named):])) == named
            and speech.is_pleasantry(" ".join(said[:-len(named)]), codes))


def greeted(value: str, message: str, codes: lexicon.Codes) -> bool:
    """True when `message` opens, before its first comma or "!", by greeting or thanking `value`
    (`thanks_someone`), not with an assent: "Chào shop, gói cước 5G ... giá bao nhiêu vậy?" greets the seller
    (holdout set 12: the 1.5B's `job` = shop), "Hi Anna! ..." the assistant; "Ok SMS, thanks" answers."""
    opening = re.match(r"\s*([^,，،!！?？.。\n]+)[,，،!！]", message)
    return opening is not None and not is_assent(opening.group(1)) and thanks_someone(opening.group(1), value, codes)


# A clause that is the value and at most this many words more is said of the clause before it ("..., el kiosco de
# Corrientes 1340": an apposition).
_APPOSITION_WORDS = 2


def one_off(value: str, sentence: str, told: str | None, codes: lexicon.Codes) -> bool:
    """True when the clause of `sentence` that holds `value`, or the clause before it when that one is only the
    value said again (`_APPOSITION_WORDS`: "solo esta vez que la dejen en el local de enfrente, el kiosco de
    Corrientes 1340"), asks for this time only (`one_off`: "just this once", "solo esta vez", "今回だけ") and does
    not negate it ("not just this once" is always; the negation words of the language `told`). A one-off said of
    another clause leaves the fact standing ("Moro em Campinas, só hoje estou em São Paulo")."""
    once = lexicon.pattern("one_off", codes)
    negation = lexicon.pattern("negation", frozenset({told})) if told else None

    def asks_once(part: str) -> bool:  # not negated before it, or right after ("이번만 아니라")
        found = once.search(part)
        return found is not None and not (negation is not None and negation.search(
            part[:found.start()] + " " + part[found.end():][:6]))

    parts = speech.clauses(sentence, codes)
    for at, part in enumerate(parts):
        if not supported(value, part):
            continue
        rest = re.sub(re.escape(value.strip()), " ", part, flags=re.IGNORECASE)
        if asks_once(part) or at and len(speech.WORD.findall(rest)) <= _APPOSITION_WORDS and asks_once(parts[at - 1]):
            return True
    return False
