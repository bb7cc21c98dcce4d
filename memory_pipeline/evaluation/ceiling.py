"""The pipeline's own ceiling: the gold cases answered right by a scripted model, through the LLM backend.

The right answers are the gold `answer` fields (`gold.GoldAnswer`); `testing.right_answers` serves them from a
`ScriptedOpenAIServer` started in-process, and the cases run through the `openai` backend with the user's own
LLM settings (structured output, max tokens, chunking, verification pass), then the same validation, gates and
reconciliation as the backend's run. What is lost there is the pipeline's loss, not the model's. No key and no
network beyond 127.0.0.1 are needed.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import openai

from memory_pipeline.evaluation.gold import GoldCase, keywords_found
from memory_pipeline.extractors.openai_backend import LOCAL_SERVER_KEY, OpenAIExtractor
from memory_pipeline.settings import Settings
from memory_pipeline.testing.openai_server import ScriptedOpenAIServer
from memory_pipeline.testing.right_answers import RightAnswer, right_answer_responder

# A retraction's gold names no category: the slot of its answer fixes one (`slots.category_of`), else this.
RETRACTION_CATEGORY = "preference"


def answers_of(case: GoldCase) -> list[RightAnswer]:
    """The right answers of `case`: one per gold fact and retraction with an `answer` (category: the gold's first;
    quote: the answer's, else the gold's; the gold format requires one of them)."""
    answers = []
    for gold in case.expect.gold:
        if gold.answer:
            answers.append(RightAnswer(gold.categories[0], gold.answer.fact, gold.answer.quote or gold.quote or "",
                                       gold.answer.attribute, gold.answer.value))
    for retraction in case.expect.retractions:
        if retraction.answer:
            answers.append(RightAnswer(RETRACTION_CATEGORY, retraction.answer.fact, retraction.answer.quote or "",
                                       retraction.answer.attribute, retraction.answer.value, retraction=True))
    return answers


def in_ceiling(case: GoldCase) -> bool:
    """True when the ceiling can run `case`: it has a right answer, or it is a trap case with no gold fact (whose
    right answer is no fact)."""
    return bool(answers_of(case)) or bool(case.expect.trap and not case.expect.gold and not case.expect.retractions)


def right_relation(case: GoldCase, old: str, new: str) -> str:
    """The right verdict on a pair of `case`'s facts, read from its expected states: "same" when both are one fact
    the case expects active (`active_facts`); "update" when the older one is a fact the case expects superseded
    (`superseded_facts`) and the newer one is not that fact, or when the newer one is a fact the case expects
    active and the older one, about the same thing (that entry's first keyword), is not; else "different"."""
    for keywords in case.expect.active_facts:
        if keywords_found(keywords, old) and keywords_found(keywords, new):
            return "same"
    for keywords in case.expect.superseded_facts:
        if keywords_found(keywords, old) and not keywords_found(keywords, new):
            return "update"
    for keywords in case.expect.active_facts:
        if keywords_found(keywords, new) and keywords_found(keywords[:1], old) and not any(
                keywords_found(k, old) for k in case.expect.active_facts):
            return "update"
    return "different"


def serve_answers_of(server: ScriptedOpenAIServer, case: GoldCase) -> None:
    """Have `server` answer with `case`'s right answers, and its pairs with their right relations
    (`right_relation`), from now on (no request of another case in flight)."""
    server.responder = right_answer_responder(answers_of(case), lambda old, new: right_relation(case, old, new))


@contextmanager
def right_answer_backend(settings: Settings) -> Iterator[tuple[OpenAIExtractor, ScriptedOpenAIServer]]:
    """The `openai` backend with `settings`' LLM settings, in front of a scripted server started here (answering
    no fact until `serve_answers_of`); server and client are closed on the way out."""
    with ScriptedOpenAIServer(right_answer_responder([])) as server:
        client = openai.OpenAI(api_key=LOCAL_SERVER_KEY, base_url=server.base_url,
                               timeout=settings.llm_timeout_seconds, max_retries=settings.llm_max_retries)
        try:
            yield OpenAIExtractor(settings.model_copy(update={"extractor": "openai"}), client=client), server
        finally:
            client.close()
