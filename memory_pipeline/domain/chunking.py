"""Cut a long transcript into chunks that fit a model's token budget, on message boundaries.

Rule (README, "The LLM backend"): a conversation longer than the budget is summarised and extracted chunk by
chunk, then merged. A chunk never splits a message (a quote must be found whole in its message); consecutive
chunks share `overlap` messages, so a statement that answers the message before it ("yes, do that") is seen
with its context. A single message longer than the budget forms a chunk of its own (messages are already cut
to MEMORY_PIPELINE_MAX_MESSAGE_CHARS when the transcript is built).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")


def chunk_messages(
    messages: Sequence[T], cost: Callable[[T], int], budget: int, overlap: int = 1
) -> list[list[T]]:
    """Split `messages` (in order) into consecutive chunks whose summed `cost` stays within `budget` tokens.

    Returns one chunk holding every message when they fit (or when there are none: `[[]]`). Each later chunk
    starts with the last `overlap` messages of the one before, unless that would leave no room for a new one.
    Every message is in at least one chunk, and the last message is in the last chunk.
    Raises ValueError when `budget` < 1 or `overlap` < 0.
    """
    if budget < 1 or overlap < 0:
        raise ValueError("budget must be >= 1 and overlap >= 0")
    costs = [cost(m) for m in messages]
    if sum(costs) <= budget:
        return [list(messages)]
    chunks: list[list[T]] = []
    start = 0
    while start < len(messages):
        end, used = start, 0
        while end < len(messages) and (end == start or used + costs[end] <= budget):
            used += costs[end]
            end += 1
        chunks.append(list(messages[start:end]))
        if end >= len(messages):
            break
        # Next chunk re-reads the last `overlap` messages, but always moves forward by at least one.
        start = max(end - overlap, start + 1)
        if sum(costs[start:end]) + costs[end] > budget:
            start = end  # the overlap alone would crowd out the next message: drop it
    return chunks
