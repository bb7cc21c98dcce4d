"""Chunking on message boundaries and token counting without network."""

import pytest

from memory_pipeline.domain.chunking import chunk_messages
from memory_pipeline.extractors.tokens import estimate_tokens, token_counter


def test_everything_fits_in_one_chunk():
    assert chunk_messages(["a", "b"], len, 10) == [["a", "b"]]
    assert chunk_messages([], len, 10) == [[]]


def test_chunks_respect_the_budget_overlap_by_one_and_end_with_the_last_message():
    messages = [f"m{i}" for i in range(10)]
    chunks = chunk_messages(messages, lambda m: 3, 9, overlap=1)
    assert all(sum(3 for _ in c) <= 9 for c in chunks)
    assert [c[0] for c in chunks[1:]] == [c[-1] for c in chunks[:-1]]  # one message of overlap
    assert chunks[-1][-1] == "m9" and {m for c in chunks for m in c} == set(messages)


def test_a_message_over_the_budget_is_a_chunk_of_its_own():
    assert chunk_messages([1, 20, 1, 1], lambda m: m, 5) == [[1], [20], [1, 1]]


def test_bad_budget_is_refused():
    with pytest.raises(ValueError):
        chunk_messages(["a"], len, 0)


def test_openai_models_are_counted_exactly_and_others_estimated_offline():
    text = "Hello world, I live in Paris."
    assert token_counter("gpt-4o-mini")(text) == 8  # o200k_base, shipped in the bpe-openai wheel
    assert token_counter("openai/gpt-4o")(text) == 8  # a gateway's provider prefix is ignored
    assert token_counter("gpt-5-nano")(text) == 8  # newer names by family prefix
    assert token_counter("llama3.2:3b")(text) == estimate_tokens(text) == 8  # 30 chars / 4, rounded up
