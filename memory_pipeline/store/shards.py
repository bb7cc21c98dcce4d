"""The shards of a night that finished (sql/shards.sql, table night_shards): written at the end of a shard's run,
read by the check `every_shard_consolidated`."""

from __future__ import annotations

from datetime import date

from memory_pipeline.store.base import StoreBase


class ShardQueries(StoreBase):
    """Which shards of a day finished, under which shard count."""

    def record_shard_finished(self, conn, day: date, run_id: str) -> None:
        """Record that this store's shard of `day` ran its last asset (in run `run_id`); a re-run moves the time."""
        conn.execute(self.query(conn, "record_shard_finished"), {
            "partition_date": day, "shard_index": self.shard.index, "shard_count": self.shard.count,
            "run_id": run_id})

    def shards_finished(self, conn, day: date, count: int) -> dict[int, str]:
        """{shard index: id of the run that finished it last} of `day`'s shards under `count` shards."""
        rows = conn.execute(self.query(conn, "shards_finished"), {"partition_date": day, "shard_count": count})
        return {row["shard_index"]: row["run_id"] for row in rows}

    def complete_shard_counts(self, conn, day: date) -> list[int]:
        """The counts under which every shard of `day` finished (1: a run of the whole night), ascending."""
        rows = conn.execute(self.query(conn, "shard_counts_complete"), {"partition_date": day})
        return [row["shard_count"] for row in rows]
