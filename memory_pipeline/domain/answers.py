"""How a user's line stands to the assistant's question before it, and to a question of its own: an assent or a
refusal that answers an offer ("Yes, please add it.", "No thanks, I don't need the insurance."), said before a
question about something else ("Yes! Can I pay by card?"); a statement said before a question ("我住在上海，附近有
瑜伽课吗？": I live in Shanghai, any yoga classes nearby?). Read by the gates (domain/gates.py)."""

from __future__ import annotations

from collections.abc import Sequence

from memory_pipeline.domain import lexicon, speech
from memory_pipeline.domain.folding import fold
from memory_pipeline.domain.naming import QUESTIONS
from memory_pipeline.domain.value_support import YES_NO, names_a_thing, supported

_ASSENT = lexicon.pattern("assent")


def is_assent(quote: str) -> bool:
    """True when `quote` opens with an assent of any language (`assent`: "Yes", "Sí, claro", "Passt")."""
    return _ASSENT.match(quote) is not None


def answers_whether(quote: str, value: str | None) -> bool:
    """True when `value` says only whether (`YES_NO`) and `quote` opens with an assent or with that word itself
    ("No thanks, I don't need the insurance.", "No grazie, niente assicurazione.")."""
    said = fold((value or "").strip())
    return said in YES_NO and (is_assent(quote) or fold((speech.WORD.findall(quote) or [""])[0]) == said)


def offer_named(thing: str, answered: Sequence[str]) -> bool:
    """True when a question sentence of the assistant lines `answered` names `thing` ("Soll ich Ihnen den Tarif
    umstellen?" names the tariff): the offer an assent accepts."""
    return any(supported(thing, question) for line in answered for question in QUESTIONS.findall(line))


def answers_offer(quote: str, value: str | None, answered: Sequence[str]) -> str | None:
    """The first sentence of `quote` when it is an assent (`assent` words: "Yes!", "Sí, claro.") that asks nothing,
    every sentence after it asks (`speech.is_question`), `value` says only whether (`YES_NO`) and the assistant's
    line before it asks: "Yes! Can I pay by card?" accepts the offer, then asks something else (a break-it review's
    probes in five languages). None otherwise."""
    found = speech.sentences(quote)
    if (len(found) < 2 or fold((value or "").strip()) not in YES_NO or not is_assent(found[0])
            or found[0].rstrip().endswith(speech.QUESTION_MARKS)
            or not any(QUESTIONS.search(line) for line in answered)):
        return None
    return found[0] if speech.is_question(quote[quote.find(found[0]) + len(found[0]):]) else None


def stated_beside_question(quote: str, value: str | None, codes: lexicon.Codes) -> bool:
    """True when a clause of `quote` that is not the last of its sentence holds `value` and asks nothing (no
    interrogative word, no question particle: `speech.asks`, `question_particle`), and a later clause of that
    sentence asks: "我住在上海，附近有瑜伽课吗？" (I live in Shanghai, any yoga classes nearby?) and "東京に住んで
    いますが、近くにヨガ教室はありますか？" state a home before they ask, though a question particle makes the whole
    sentence a question (a break-it review). The clauses are judged one by one after (`_backing`)."""
    if not value or not names_a_thing(value):
        return False
    particle = lexicon.pattern("question_particle", codes)
    for sentence in speech.sentences(quote):
        parts = speech.clauses(sentence, codes, phrases=False)
        for at, part in enumerate(parts[:-1]):
            if (supported(value, part) and not particle.search(part) and not speech.asks(part, sentence, codes)
                    and any(speech.asks(later, sentence, codes) or particle.search(later)
                            for later in parts[at + 1:])):
                return True
    return False
