"""Test doubles shipped with the package, so commands such as `memory-pipeline benchmark --llm` can start them
from a plain install: a scripted OpenAI-compatible server (`openai_server`)."""
