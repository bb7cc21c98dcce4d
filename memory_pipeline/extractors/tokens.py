"""Token counting for the chunking budget, without network.

`tiktoken` downloads its BPE files on first use, which fails on a machine without internet. `bpe-openai` (PyPI,
MIT) ships the same encodings (cl100k_base, o200k_base, ...) inside the wheel behind a tiktoken-compatible API,
so OpenAI model names are counted exactly and offline. For any other model (llama, qwen, mistral behind
Ollama/vLLM/llama.cpp) the count is an estimate: one token per 4 characters, the rule of thumb OpenAI documents
for English text, rounded up. The budget only decides where a long transcript is cut, so an estimate is enough.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache

import bpe_openai

# Model families newer than the installed bpe-openai's table: their tokenizer by name prefix (OpenAI documents
# o200k_base for the gpt-4o, gpt-4.1, gpt-5 and o-series models, cl100k_base for gpt-4 and gpt-3.5).
_PREFIXES = (("gpt-4o", "o200k_base"), ("gpt-4.1", "o200k_base"), ("gpt-5", "o200k_base"), ("o1", "o200k_base"),
             ("o3", "o200k_base"), ("o4", "o200k_base"), ("gpt-4", "cl100k_base"), ("gpt-3.5", "cl100k_base"))


def estimate_tokens(text: str) -> int:
    """About one token per 4 characters (OpenAI's rule of thumb), at least 1 for non-empty text."""
    return math.ceil(len(text) / 4)


@lru_cache(maxsize=16)
def token_counter(model: str) -> Callable[[str], int]:
    """A function text -> token count for `model`: exact for OpenAI model names (a provider prefix such as
    `openai/` is ignored), `estimate_tokens` otherwise. Never touches the network."""
    name = model.rsplit("/", 1)[-1].strip().lower()
    try:
        encoding = bpe_openai.encoding_for_model(name)
    except bpe_openai.UnsupportedModelError:
        encoding_name = next((enc for prefix, enc in _PREFIXES if name.startswith(prefix)), None)
        if encoding_name is None:
            return estimate_tokens
        encoding = bpe_openai.get_encoding(encoding_name)
    return lambda text: len(encoding.encode(text, disallowed_special=()))
