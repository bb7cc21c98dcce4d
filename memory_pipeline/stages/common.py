"""What every stage and check returns (metadata for Dagster: counts, ids and hashes only, never message or
fact text), the run's clock and the schedule's hour."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

SCHEDULE_HOUR = 3  # the nightly schedule's hour, in the partitions' timezone: after midnight plus the idle gap


@dataclass
class StageResult:
    """Outcome of a stage: `metadata` for Dagster (counts/ids/hashes only)."""

    metadata: dict[str, Any] = field(default_factory=dict)


@dataclass
class CheckOutcome:
    """Outcome of a check: `passed` and counts for Dagster metadata."""

    passed: bool
    metadata: dict[str, Any] = field(default_factory=dict)


def utc_now() -> datetime:
    """The run's clock, timezone-aware UTC."""
    return datetime.now(timezone.utc)
