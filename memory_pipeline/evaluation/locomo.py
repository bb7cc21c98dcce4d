"""LoCoMo (snap-research/locomo, `locomo10.json`; CC BY-NC 4.0: the user downloads it, it is never shipped) as
a gold set.

Shape read: a JSON list of samples, each with `sample_id`, `conversation` (`speaker_a`, `speaker_b`,
`session_N` lists of turns `{"speaker", "dia_id", "text"}`, `session_N_date_time` like "1:56 pm on 8 May, 2023")
and `observation` (`session_N_observation`: speaker -> list of `[observation, evidence]`, evidence one dia_id
or several, e.g. "D1:3" or ["D1:3", "D1:5"]). speaker_a is treated as the user (human rows), speaker_b as the
assistant (ai rows); each session is one conversation. Scores: recall by quote (share of speaker_a's
observations with at least one evidence turn quoted by an accepted fact) and the share of proposed facts
grounded in the user's own turns (accepted by the quote check).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from memory_pipeline.domain.messages import SourceRow
from memory_pipeline.evaluation.gold import GoldSetError
from memory_pipeline.evaluation.runs import ExtractionRun, extract
from memory_pipeline.extractors.base import Extractor

_SESSION = re.compile(r"^session_(\d+)$")
_DIA_ID = re.compile(r"D\d+:\d+")
_DATE_FORMATS = ("%I:%M %p on %d %B, %Y", "%I:%M %p on %d %b, %Y", "%Y-%m-%d %H:%M:%S", "%Y-%m-%d")
TURN_SPACING = timedelta(seconds=30)  # turns carry no time; 30 s apart keeps each session one conversation


@dataclass(frozen=True)
class Observation:
    """A gold observation about the user: row ids of its evidence turns."""

    sample_id: str
    evidence_ids: frozenset[int]


@dataclass(frozen=True)
class LocomoScore:
    """`observations`: the user's observations with evidence found in the file; `recalled`: those whose
    evidence a fact quotes."""

    conversations: int
    observations: int
    recalled: int
    run: ExtractionRun


def _session_start(conversation: dict[str, Any], number: int, sample_id: str) -> datetime:
    raw = conversation.get(f"session_{number}_date_time")
    if not isinstance(raw, str):
        raise GoldSetError(f"LoCoMo sample {sample_id}: session_{number}_date_time missing")
    for fmt in _DATE_FORMATS:
        try:
            return datetime.strptime(raw.strip(), fmt).replace(tzinfo=timezone.utc)
        except ValueError:
            continue
    raise GoldSetError(f"LoCoMo sample {sample_id}: session_{number}_date_time {raw!r} is not like "
                       "'1:56 pm on 8 May, 2023'")


def parse_locomo(data: Any) -> tuple[list[SourceRow], list[Observation]]:
    """n8n rows (session key `locomo:<sample_id>`) and the user's observations of a parsed LoCoMo file.
    Raises GoldSetError when the file is not in the shape above."""
    if not isinstance(data, list):
        raise GoldSetError("LoCoMo file: expected a JSON list of samples")
    rows: list[SourceRow] = []
    observations: list[Observation] = []
    for index, item in enumerate(data):
        conversation = item.get("conversation") if isinstance(item, dict) else None
        if not isinstance(conversation, dict) or not conversation.get("speaker_a"):
            raise GoldSetError(f"LoCoMo sample #{index}: no conversation with speaker_a")
        sample_id = str(item.get("sample_id", index))
        user = conversation["speaker_a"]
        row_of_dia: dict[str, int] = {}
        numbers = sorted(int(m.group(1)) for key in conversation if (m := _SESSION.match(key)))
        for number in numbers:
            at = _session_start(conversation, number, sample_id)
            for turn in conversation[f"session_{number}"] or []:
                if not isinstance(turn, dict) or not isinstance(turn.get("text"), str):
                    continue
                row_id = len(rows) + 1
                role = "human" if turn.get("speaker") == user else "ai"
                rows.append(SourceRow(row_id, f"locomo:{sample_id}", {"type": role, "content": turn["text"]}, at))
                at += TURN_SPACING
                if turn.get("dia_id"):
                    row_of_dia[str(turn["dia_id"])] = row_id
        for session_observations in (item.get("observation") or {}).values():
            if not isinstance(session_observations, dict):
                continue
            for entry in session_observations.get(user) or []:
                if not isinstance(entry, list) or len(entry) < 2:
                    continue
                evidence = entry[1] if isinstance(entry[1], list) else [entry[1]]
                ids = {row_of_dia[d] for e in evidence for d in _DIA_ID.findall(str(e)) if d in row_of_dia}
                if ids:
                    observations.append(Observation(sample_id, frozenset(ids)))
    return rows, observations


def load_locomo(path: Path) -> tuple[list[SourceRow], list[Observation]]:
    """`parse_locomo` of the file at `path`. Raises FileNotFoundError or GoldSetError."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise GoldSetError(f"{path}: not JSON ({exc.msg} at line {exc.lineno})") from None
    return parse_locomo(data)


def evaluate_locomo(extractor: Extractor, path: Path) -> LocomoScore:
    """Run `extractor` over a LoCoMo file and score recall by quote."""
    rows, observations = load_locomo(path)
    run = extract(extractor, rows)
    quoted = {c.quote_message_id for c in run.accepted if c.quote_message_id is not None}
    recalled = sum(1 for o in observations if o.evidence_ids & quoted)
    return LocomoScore(len(run.conversations), len(observations), recalled, run)
