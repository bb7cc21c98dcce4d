"""Summary and fact-extraction backends behind one interface (`base.Extractor`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from memory_pipeline.extractors.base import Extractor
    from memory_pipeline.settings import Settings


def make_extractor(settings: "Settings") -> "Extractor":
    """The backend `settings.extractor` names (`offline` by default, `openai` for an OpenAI-compatible server
    reached through the SDK's OPENAI_API_KEY / OPENAI_BASE_URL). Raises ValueError for an unknown name
    (Settings already refuses one, so this only guards programmatic use)."""
    if settings.extractor == "offline":
        from memory_pipeline.extractors.offline import OfflineExtractor

        return OfflineExtractor()
    if settings.extractor == "openai":
        from memory_pipeline.extractors.openai_backend import OpenAIExtractor

        return OpenAIExtractor(settings)
    raise ValueError(f"unknown extractor {settings.extractor!r}")
