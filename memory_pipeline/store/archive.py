"""Archive and retention: archive-then-purge of consolidated rows, retention of archive and text (sql/archive.sql)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from memory_pipeline.domain.conversations import UNATTRIBUTED_REASONS, Conversation
from memory_pipeline.store.base import StoreBase


# work_mem of the archive-and-purge transaction (`SET LOCAL`, that transaction only; PostgreSQL's default is 4 MB):
# the purge hashes the partition's source rows (id, session key, message) and at 4 MB that hash spilled to disk
# in 8 batches at 100k messages.
ARCHIVE_WORK_MEM = "64MB"


class ArchiveQueries(StoreBase):
    """The archive and purge of consolidated rows, archive retention and text retention."""

    def archive_and_purge_partition(self, conn, day: date) -> tuple[int, int]:
        """Copy the rows of the partition's consolidated conversations (facts extracted) to the archive and
        delete from the n8n table those whose identical copy is archived: two set-based statements, whatever the partition's size. Call
        inside a transaction. Returns (rows archived now, rows purged now).

        Raises the transaction's work_mem to ARCHIVE_WORK_MEM (until it ends) so the purge's hash stays in memory."""
        conn.execute(self.query(conn, "archive_work_mem"), {"work_mem": ARCHIVE_WORK_MEM})
        params = {"partition_date": day}
        archived = conn.execute(self.query(conn, "archive_partition_rows"), params).rowcount
        purged = conn.execute(self.query(conn, "purge_partition_archived_rows"), params).rowcount
        return archived, purged

    def archive_unattributed(self, conn, conversations: Sequence[Conversation]) -> int:
        """Copy the rows of unattributed conversations (`Conversation.is_unattributed`) into the archive, each by
        id and session key, in one statement; the night's `purge_unattributed_partition` then deletes them from
        n8n's table. Returns the rows copied now (0 for rows archived already)."""
        rows = [(row.message_id, conv.session_key, conv.conversation_id, conv.partition_date)
                for conv in conversations for row in conv.rows]
        if not rows:
            return 0
        ids, keys, conversation_ids, dates = (list(column) for column in zip(*rows))
        return conn.execute(self.query(conn, "archive_unattributed_rows"), {
            "ids": ids, "session_keys": keys, "conversation_ids": conversation_ids, "partition_dates": dates}).rowcount

    def purge_unattributed_partition(self, conn, day: date) -> int:
        """Delete from n8n's table the partition's unattributed rows whose identical copy is archived. Call inside
        the archive-and-purge transaction. Returns the rows deleted."""
        return conn.execute(self.query(conn, "purge_partition_unattributed_rows"),
                            {"partition_date": day, "reasons": list(UNATTRIBUTED_REASONS)}).rowcount

    def drop_expired_archive(self, conn) -> int:
        """Delete archive rows archived more than `archive_retention_days` ago; returns how many."""
        return conn.execute(self.query(conn, "drop_expired_archive_rows"),
                            {"retention_days": self.settings.archive_retention_days}).rowcount

    def prune_text(self, conn) -> dict[str, int]:
        """Drop conversation text past `effective_text_retention_days` and fact quotes past time-to-live plus
        `quote_grace_days` (set-based, queries `prune_*`). Call inside a transaction. Returns rows per step."""
        params = {"retention_days": self.settings.effective_text_retention_days,
                  "grace_days": self.settings.quote_grace_days}
        steps = ("conversation_text", "summary_embeddings", "summaries", "summary_cache", "extraction_cache", "rejected_candidates",
                 "repeat_quotes")
        counts = {step: conn.execute(self.query(conn, f"prune_{step}"), params).rowcount for step in steps}
        expired = conn.execute(self.query(conn, "prune_expired_fact_quotes"), params).fetchall()
        counts["expired_fact_quotes"] = len(expired)
        counts["expired_candidate_quotes"] = conn.execute(self.query(conn, "prune_expired_candidate_quotes"), {
            "candidate_ids": [r["candidate_id"] for r in expired]}).rowcount
        return counts
