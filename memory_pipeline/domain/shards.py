"""Shards of one night: a day's partition split by user key into `count` parts, each its own run.

A user belongs to one shard, `shard_of(user_key, count)`: the first 32 bits of md5 of the key's UTF-8 bytes, as
an unsigned big-endian integer, modulo `count`. md5 is not used for security here, only because PostgreSQL has it
built in, so the store filters rows by the same rule (`sql/shards.sql`, `in_shard`):
`mod(('x' || left(md5(user_key), 8))::bit(32)::bigint, count) = index`. The hash spreads keys evenly whatever
they look like (phone numbers, sequential ids), and a user's shard depends only on the key and the count.

A run's shard is its tag `memory_pipeline/shard` = `INDEX/COUNT` (`Shard.parse`); `0/1` is the whole night."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

MAX_SHARDS = 64  # MEMORY_PIPELINE_SHARDS' bound: more runs per night than workers anyone runs for it
SHARD_TAG = "memory_pipeline/shard"
_SPEC = re.compile(r"(\d{1,3})/(\d{1,3})")


def shard_of(user_key: str, count: int) -> int:
    """The shard (0..count-1) owning `user_key`. Raises ValueError when `count` < 1."""
    if count < 1:
        raise ValueError(f"a night has at least one shard, not {count}")
    digest = hashlib.md5(user_key.encode("utf-8", "surrogatepass"), usedforsecurity=False).digest()
    return int.from_bytes(digest[:4], "big") % count


@dataclass(frozen=True)
class Shard:
    """Shard `index` of a night split in `count` (0 <= index < count <= MAX_SHARDS)."""

    index: int = 0
    count: int = 1

    def __post_init__(self):
        if not 1 <= self.count <= MAX_SHARDS or not 0 <= self.index < self.count:
            raise ValueError(f"shard {self.index}/{self.count}: need 0 <= INDEX < COUNT <= {MAX_SHARDS}")

    @classmethod
    def parse(cls, spec: str | None) -> "Shard":
        """`"INDEX/COUNT"` (a run's tag) -> Shard; None -> the whole night. Raises ValueError on anything else."""
        if spec is None:
            return cls()
        match = _SPEC.fullmatch(spec.strip())
        if not match:
            raise ValueError(f"{SHARD_TAG} must be INDEX/COUNT (e.g. 0/4), not {spec!r}")
        return cls(int(match.group(1)), int(match.group(2)))

    @property
    def whole_night(self) -> bool:
        """True when this is the only shard (count 1): nothing is filtered."""
        return self.count == 1

    def owns(self, user_key: str) -> bool:
        """True when `user_key` belongs to this shard."""
        return self.whole_night or shard_of(user_key, self.count) == self.index

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"


def shards_of_night(count: int) -> list[Shard]:
    """Every shard of a night split in `count`, in index order."""
    return [Shard(index, count) for index in range(count)]
