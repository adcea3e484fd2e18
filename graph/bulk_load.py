"""`fabric ingest --bulk`: a load that writes nothing until the whole input is read, then
hands the graph it makes (graph.bulk) to the store's bulk mechanism in one go, into a new
epoch's graph (FalkorDB: graph.falkor_bulk).

The input is read as the projector reads it (its batches, digest, invalid lines and counts),
and the checkpoint it would leave is written last, once every node, relationship, vector and
index is in: a build without it was cut short, is never served (a flip checks the build's
checkpoints, graph.epochs) and is loaded again from its first line or discarded
(`fabric epochs discard`).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Awaitable, Callable
from typing import Any

from engine.ports import Checkpoint, OrgGraph, WriteBatch
from graph.bulk import BulkGraph
from graph.projection import IngestReport, Projector

Load = Callable[[BulkGraph, Checkpoint], Awaitable[None]]


class BulkProjector(Projector):
    """Reads the input into a BulkGraph, batch by batch, then hands it and the final
    checkpoint to `load` (the store's). Never resumes: a bulk load is whole or not at all."""

    def __init__(self, graph: OrgGraph, load: Load, org_id: str, **options: Any) -> None:
        options["resume"] = False
        super().__init__(graph, **options)
        self.model = BulkGraph(org_id)
        self._load = load
        self._checkpoint: Checkpoint | None = None
        self._began = time.monotonic()

    async def _prepare(self, *_: Any) -> None:
        return  # nothing is sent per batch

    async def _flush(
        self,
        batch: WriteBatch,
        cursor: int,
        digest: str,
        report: IngestReport,
        *,
        finished: bool = False,
    ) -> None:
        if batch.elements:
            self.model.add(batch)
            report.accepted += len(batch.elements)
            report.batches += 1
        if finished:
            self._checkpoint = Checkpoint(self.source, cursor, digest, report.run_id, True)
        if self.on_progress:
            self.on_progress(cursor, report.accepted)

    async def _finish(self, report: IngestReport) -> None:
        assert self._checkpoint is not None
        # A new graph holds nothing an earlier run wrote: a complete snapshot deletes nothing,
        # though one with invalid lines is still no proof of complete enumeration.
        report.complete_skipped = self.complete and bool(report.invalid_count)
        seconds = time.monotonic() - self._began
        line = f"fabric: bulk load: {report.accepted:,} records read ({seconds:.1f} s)"
        print(line, file=sys.stderr)
        await self._load(self.model, self._checkpoint)
