"""The scripted OpenAI-compatible server, re-exported: it lives in `memory_pipeline/testing/openai_server.py`
so that `memory-pipeline benchmark --llm` can start it from a plain install. The tests' imports and
`python -m memory_pipeline_tests.openai_server` keep working."""

from memory_pipeline.testing.openai_server import (
    LLAMA_CPP_JSON_SCHEMA_ERROR,
    Reply,
    ScriptedOpenAIServer,
    approx_tokens,
    hashed_embedding,
    main,
    transcript_responder,
)

__all__ = ["LLAMA_CPP_JSON_SCHEMA_ERROR", "Reply", "ScriptedOpenAIServer", "approx_tokens", "hashed_embedding",
           "main", "transcript_responder"]

if __name__ == "__main__":
    main()
