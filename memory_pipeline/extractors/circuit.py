"""A circuit breaker for the LLM server: when it is down, stop sending requests for the rest of the step.

Without it a night against a server that never answers costs `timeout x (1 + retries)` per conversation, one
after the other per in-flight slot: with the defaults (60 s, 3 retries, 4 in flight) about an hour per hundred
conversations, for nothing. The breaker counts consecutive conversations whose call failed the way a server that
is down fails (OUTAGE_REASONS: no connection, a timeout, 5xx or an unreadable 200 after the SDK's retries, 429
after the SDK honoured Retry-After); `threshold` of them in a row open it, and every later call of the step fails
at once with reason `llm_unavailable`, recorded like any failure so the conversation is tried again by the next
run. A call that gets an answer (or fails for its own reason: invalid output, a refusal) closes the count. One
breaker per extractor, i.e. per Dagster step; it does not close again within the step (the next step or run
starts closed).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import TypeVar

from memory_pipeline.extractors.base import ExtractorError

log = logging.getLogger(__name__)

T = TypeVar("T")

# ExtractorError reasons (extractors.structured.failure_reason) that say the server, not the conversation, failed.
OUTAGE_REASONS = frozenset({"timeout", "connection_error", "server_error", "rate_limited"})
OPEN_REASON = "llm_unavailable"


class CircuitBreaker:
    """Thread-safe (shared by a step's worker threads). `threshold`: consecutive outage failures that open it
    (MEMORY_PIPELINE_LLM_BREAKER_FAILURES)."""

    def __init__(self, threshold: int):
        if threshold < 1:
            raise ValueError("threshold must be at least 1")
        self.threshold = threshold
        self._consecutive = 0
        self._open = False
        self._lock = threading.Lock()

    @property
    def is_open(self) -> bool:
        """True once `threshold` outage failures came in a row: calls fail without a request."""
        return self._open

    def call(self, fn: Callable[[], T]) -> T:
        """`fn()`, counted. Raises ExtractorError(reason=`llm_unavailable`) without calling `fn` when open;
        re-raises `fn`'s ExtractorError after counting it."""
        if self._open:
            raise ExtractorError("the LLM server is unavailable (circuit open)", reason=OPEN_REASON)
        try:
            result = fn()
        except ExtractorError as exc:
            self._record(exc.reason in OUTAGE_REASONS, exc.reason)
            raise
        self._record(False, None)
        return result

    def _record(self, outage: bool, reason: str | None) -> None:
        with self._lock:
            if not outage:
                self._consecutive = 0
                return
            self._consecutive += 1
            if self._consecutive >= self.threshold and not self._open:
                self._open = True
                log.warning("LLM server unavailable: %d calls in a row failed (last: %s); the step's remaining "
                            "conversations are recorded as failed (%s) and retried by the next run",
                            self._consecutive, reason, OPEN_REASON)
