"""What one organisation's graph holds, counted: elements per label and relationship type,
the kinds of source records present, and the activity structures as stored
(graph.cypher.organisations, graph.cypher.activity). ScopedGraph serves the port's counts
from here.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.domain.models import SourceRecordKind
from graph.cypher import activity_reads
from graph.cypher import organisations as organisations_cypher
from graph.executor import Run

# Kept by the writes of source records (graph.cypher.activity); not content.
SUMMARY_LABELS = frozenset({"Activity", "RecordDay", "Format", "TimeSlot"})
_RECORD_KINDS = frozenset(k.value for k in SourceRecordKind)


class Inventory:
    """Counts over the organisation's scope, read through `read` (bound to the scope)."""

    def __init__(self, read: Run) -> None:
        self._read = read

    async def activity_summary(self) -> tuple[dict[str, int], dict[tuple[str, int], int]]:
        """The activity structures as stored (diagnostics and tests): each subject's latest
        activity, and the records of each (kind, day) (days with none left out)."""
        latest = {str(k): int(t) for k, t in await self._read(activity_reads.ACTIVITY_LATEST)}
        counted = await self._read(activity_reads.ACTIVITY_DAYS)
        days = {(str(k), int(d)): int(n) for k, d, n in counted}
        return latest, {key: n for key, n in days.items() if n}

    async def record_kinds(self) -> frozenset[SourceRecordKind]:
        """Read from the per-kind day counts the writes keep (a few per day, not a record)."""
        found = await self._read(activity_reads.RECORD_KINDS)
        return frozenset(SourceRecordKind(k) for (k,) in found if k in _RECORD_KINDS)

    async def counts(self) -> Mapping[str, int]:
        out: dict[str, int] = {}
        for label, count in await self._read(organisations_cypher.COUNTS):
            if count and label not in SUMMARY_LABELS:  # one row per label, absent ones too
                out[str(label)] = int(count)
        for rel_type, count in await self._read(organisations_cypher.COUNT_RELATIONSHIPS):
            out[f"rel:{rel_type}"] = int(count)
        return out
