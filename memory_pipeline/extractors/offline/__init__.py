"""Offline extractor: deterministic rules, no network, no model.

What it does: splits the user's turns into sentences (`text`), skips the sentences no fact may come from
(questions, hypotheticals, pleasantries, instructions aimed at the assistant, sarcasm, someone else's words,
what the user takes back with "just kidding") and statements about other people, and matches the rest against
first-person patterns: name, home, job, employer, email and likes/dislikes in English (`english`, with phone,
contact channel, standing instructions, diet, favourites, decisions, plans and past purchases too), French,
German, Spanish and Chinese (`languages`). Every fact quotes the whole sentence it came from, verbatim, and is
written in the third person of its language ("User prefers ...", "L'utilisateur habite à Lyon.", "用户喜欢小猫。").
Retractions (`retractions`): "I no longer ...", and forget requests in any form ("Can you forget my phone
number?") in the five languages.

What it cannot do (DOCS, "The offline extractor"): it misses anything phrased outside its patterns, does not
resolve "it"/"that" (a fact that would hang on one is not made), and does not understand a "yes" that accepts an
assistant's offer. Relative dates are resolved for every backend after extraction (domain.relative_time). The
LLM backend is the way past those limits.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from memory_pipeline.domain.conversations import Conversation
from memory_pipeline.domain.facts import ExtractedFact
from memory_pipeline.domain.retractions import requested_slot
from memory_pipeline.extractors.base import ExtractionResult, SummaryResult
from memory_pipeline.extractors.offline import english, languages
from memory_pipeline.extractors.offline.retractions import forgotten, positive_form, withdrawn
from memory_pipeline.extractors.offline.rules import build
from memory_pipeline.extractors.offline.summary import extractive_summary
from memory_pipeline.extractors.offline.text import (
    QUESTION_END, UNRESOLVED, after_kidding, clause_starts, sentences, skip_sentence, strip_lead)

__all__ = ["OfflineExtractor", "sentences"]

RULES = english.RULES + languages.RULES
_INTERROGATIVE = re.compile(
    r"^(?:what|what's|how|where|when|why|who|which|do|does|did|can|could|would|will|is|are|should|shall|have|"
    r"has|may|est-ce|qu'est-ce|pourquoi|comment|où|quand|quel|quelle|was|wie|wo|wann|warum|welche|welcher|"
    r"qué|cómo|dónde|cuándo|por qué|cuál|¿)(?!\w)|.*(?:吗|呢|什么|怎么|为什么|哪)[？?]?$",
    re.IGNORECASE,
)
_THIRD_PARTY = re.compile(
    r"^(?:my|our)\s+(?:friend|friends|wife|husband|partner|mom|mother|dad|father|brother|sister|son|daughter|"
    r"boss|colleague|colleagues|kid|kids|child|children|family|parents|neighbou?r|girlfriend|boyfriend)\b|"
    r"^(?:he|she|they|his|her|their|il|elle|ils|elles|er|sie|él|ella|ellos)\b|"
    r"^(?:mon|ma|mes|mein|meine|mi|mis)\s+(?:ami|amie|femme|mari|mère|père|frère|sœur|soeur|fils|fille|chef|"
    r"collègue|freund|freundin|frau|mann|mutter|vater|bruder|schwester|sohn|tochter|chef|kollege|kollegin|"
    r"amigo|amiga|esposa|esposo|marido|madre|padre|hermano|hermana|hijo|hija|jefe|jefa|colega)\b|"
    r"^(?:我的)?(?:朋友|同事|家人|妈妈|爸爸|老板|老婆|老公|妻子|丈夫|哥哥|姐姐|弟弟|妹妹|儿子|女儿)|^(?:他|她|他们|她们)",
    re.IGNORECASE,
)

# Someone named just before "and I" / "and we" shares the clause's subject ("Samantha and I", "my wife and I"):
# the fact would drop them ("User decided to move in together.").
_CO_SUBJECT = re.compile(r"^(?:(?:my|our|mon|ma|mein|meine|mi) \w+|(?-i:[A-ZÀ-Þ][\w'-]+)(?: (?-i:[A-ZÀ-Þ][\w'-]+))?)"
                         r"\s+(?:and|et|und|y)\s*$", re.IGNORECASE)

# A definite thing ("the track", "the rink"; not "the feeling of ..."): after a clause that points back ("Although
# it's just a hobby, ..."), it is the thing that clause points to, named elsewhere.
_THE_THING = re.compile(r"\bthe (?-i:[a-z])[\w-]*(?![\w-]| of\b)", re.IGNORECASE)
# A lead that points back (a pronoun) or sets the scene ('In "Dune", I love the world-building'): a definite thing
# after it is that scene's, and the fact would drop which.
_CONTEXT_LEAD = re.compile(UNRESOLVED.pattern + r"|^\W*(?:and |but |so )?(?:in|about|for|with|as for|of)\s+"
                           r"(?:[\"“«]|the\s|(?-i:[A-Z]))", re.IGNORECASE)


class OfflineExtractor:
    """Rule-based `Extractor`: deterministic, no network, zero tokens. See the module docstring for its limits."""

    name = "offline"
    model = "offline-rules"
    # v4: the extractive 3-5 sentence summary (issue 27); v5: lines the assistant echoes weigh, the last exchange
    # kept names something; v6: each further line chosen for what it names that the chosen ones do not. Cached
    # results are redone.
    prompt_version = "offline-v6"
    free_answers = True  # computed again in milliseconds: the stages write them in large batches

    def extract(self, conversation: Conversation, summary: str = "") -> ExtractionResult:
        """Facts from the user's own turns only; the summary is not used (it holds nothing new)."""
        facts: list[ExtractedFact] = []
        seen: set[tuple[str | None, str, str]] = set()
        for turn in conversation.turns:
            if turn.role != "human":
                continue
            for _, sentence in sentences(after_kidding(turn.text)):
                for fact in self._facts_in_sentence(sentence):
                    # Each speaker's facts are their own (group chats: `turn.sender`); the fact cites its message.
                    key = (turn.sender, fact.category, fact.fact.casefold())
                    if key not in seen:
                        seen.add(key)
                        facts.append(fact.model_copy(update={"quote_message_id": turn.message_id}))
        return ExtractionResult(facts=facts)

    def _facts_in_sentence(self, sentence: str) -> Iterator[ExtractedFact]:
        slot = requested_slot(sentence)
        if slot is not None:  # a forget request, as a statement, a request or a question
            yield ExtractedFact(category="client_info", fact=forgotten(sentence, slot), quote=sentence,
                                attribute=slot, retraction=True)
            return
        if skip_sentence(sentence):
            return
        is_question = sentence.rstrip().rstrip("\"'”’»」").endswith(QUESTION_END)
        starts = clause_starts(sentence)
        for index, start in enumerate(starts):
            clause_end = starts[index + 1] if index + 1 < len(starts) else len(sentence)
            clause = strip_lead(sentence[start:clause_end])
            if _THIRD_PARTY.match(clause) or _INTERROGATIVE.match(clause):
                continue
            if index and _CO_SUBJECT.match(strip_lead(sentence[starts[index - 1]:start])):
                continue  # "Samantha and I have decided to move in together": not the user's decision alone
            if is_question and clause_end == len(sentence):
                continue  # the clause that carries the question mark asks, it does not tell
            positive = positive_form(clause)
            if positive is not None:
                # A retraction never yields the positive fact it names; at most the retraction itself.
                retraction = self._retraction(positive, sentence)
                if retraction is not None:
                    yield retraction
                continue
            for rule in RULES:
                match = rule.pattern.match(sentence, start)
                if not match:
                    continue
                built = build(rule, match)
                if built is None:
                    continue
                fact, attribute, value = built
                if start and _CONTEXT_LEAD.search(sentence[:start]) and _THE_THING.search(fact):
                    continue  # "Although it's just a hobby, I enjoy ... on the track": the track of "it"
                yield ExtractedFact(category=rule.category, fact=fact, quote=sentence, attribute=attribute, value=value)
                if not rule.more:
                    break  # one fact per clause: the first, most specific rule wins

    @staticmethod
    def _retraction(positive: str, sentence: str) -> ExtractedFact | None:
        """The retraction of the slot `positive` fills (None when it fills no slot). Its value is the one
        withdrawn, except for an opinion, whose slot is the object: any stance on it is withdrawn."""
        for rule in RULES:
            match = rule.pattern.match(positive)
            if not match:
                continue
            built = build(rule, match)
            if built is None or not built[1]:
                return None
            fact, attribute, value = built
            if attribute.startswith("opinion:"):
                value = None
            return ExtractedFact(category=rule.category, fact=withdrawn(fact), quote=sentence, attribute=attribute,
                                 value=value, retraction=True)
        return None

    def summarize(self, conversation: Conversation) -> SummaryResult:
        """Extractive 3-5 sentence summary in the chat's language: its decisive lines, no greetings or thanks
        (`summary.extractive_summary`); every sentence was said."""
        return SummaryResult(text=extractive_summary(
            conversation, lambda sentence: any(True for _ in self._facts_in_sentence(sentence))), lines_said=True)
